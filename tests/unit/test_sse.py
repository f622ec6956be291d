"""The SSE reader's fast path reads exactly what the WHATWG line-by-line reading reads."""

from __future__ import annotations

import io
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolwire.models import _frames, _sse
from toolwire.models._sse import _read_sse_lines, read_sse

LINES = st.sampled_from(
    [
        b"data: {}",
        b'data: {"type": "x", "n": 1}',
        b'data:{"a":[1,2]}',
        b"data: [DONE]",
        b"data: {oops",
        b"data: ",
        b"data",
        b"data: 1",
        b"data: 2",
        b"event: x",
        b"event:y",
        b"event: \xff",
        b"event",
        b": comment",
        b"id: 7",
        b"retry: 10",
        b"weird: field",
        b"",
        b"",
        b"",
        b'data: "\xe9"',
    ]
)
ENDS = st.sampled_from([b"\n", b"\n", b"\n", b"\r\n", b"\r"])


def read(reader: Any, raw: bytes, chunk: int) -> tuple[list[Any], list[tuple[int | None, str]]]:
    problems: list[tuple[int | None, str]] = []
    old = _sse._CHUNK
    # The event reader's reads, and the line reader's (which it hands the unusual to).
    _sse._CHUNK = _frames._CHUNK = chunk
    try:
        frames = [
            (line, repr(value), event) for line, value, event in reader(io.BytesIO(raw), problems.append)
        ]
    finally:
        _sse._CHUNK = _frames._CHUNK = old
    return frames, problems


@given(
    st.lists(st.lists(LINES, max_size=3), max_size=12),
    st.lists(ENDS, min_size=1, max_size=3),
    st.booleans(),
    st.booleans(),
    st.sampled_from([1, 2, 3, 7, 64, 1 << 20]),
)
def test_the_fast_reader_reads_what_the_line_reader_reads(
    events: list[list[bytes]], ends: list[bytes], bom: bool, truncated: bool, chunk: int
) -> None:
    # Events of up to three lines, each followed by a blank line; line ends drawn in turn.
    lines = [line for event in events for line in [*event, b""]]
    if truncated and lines:
        lines.pop()
    raw = (b"\xef\xbb\xbf" if bom else b"") + b"".join(
        line + ends[k % len(ends)] for k, line in enumerate(lines)
    )
    fast = read(lambda s, p: read_sse(s, lambda n, m: p((n, m))), raw, chunk)
    slow = read(lambda s, p: _read_sse_lines(s, lambda n, m: p((n, m))), raw, chunk)
    assert fast == slow


TRICKY = [
    b"event: x\nid: 7\n\n",
    b"event: x\ndata: {}\ndata: {}\n\n",
    b"event: x\n: note\n\n",
    b"data: {}\nevent: x\n\n",
    b"event:x\ndata: {}\n\n",
    b"event: x\ndata:{}\n\n",
    b"data: {}\n\n\ndata: {}\n\n",
    b"event: \xff\ndata: {}\n\n",
    b"event: x\ndata: [DONE]\n\n",
    b"data: {oops\n\n",
    b"event: x\ndata: \n\n",
    b"event: x\ndata: {}\n\n\n\n",
    b'event: x\ndata: {"a": 1}\nid: 1\n\n',
    b"event: x\ndata: {}\nevent: y\n\n",
    b"data: {}\n\ndata: {}\n\n",
    b"data: \n\n",
    # An odd event and then another before the next usual one: the piece cut at the usual
    # separator holds both.
    b'event: x\ndata: {"a": 1}\nid: 1\n\nevent: y\ndata: {}\n\n',
    b"event: x\ndata: {}\ndata: {}\n\ndata: {}\n\n",
    b"event: x\ndata: {}\n\n\nevent: y\ndata: 1\n\n",
    b"event: x\ndata: {} \n \n\nevent: x\ndata: 2\n\n",
    b"event: x\ndata: \n{}\n\ndata: {}\n\n",
    b"event: x\ndata: {oops\n\nevent: x\ndata: [DONE]\n\n",
]


@pytest.mark.parametrize("odd", TRICKY)
@pytest.mark.parametrize("chunk", [1, 5, 64, 1 << 20])
@pytest.mark.parametrize("usual", [b'event: x\ndata: {"a": 1}\n\n' * 3, b'data: {"a": 1}\n\n' * 3])
def test_an_odd_event_among_usual_ones_is_read_per_whatwg(odd: bytes, chunk: int, usual: bytes) -> None:
    # The fast reader cuts the text at the usual event; the odd one lies between two cuts.
    raw = usual + odd + usual
    fast = read(lambda s, p: read_sse(s, lambda n, m: p((n, m))), raw, chunk)
    slow = read(lambda s, p: _read_sse_lines(s, lambda n, m: p((n, m))), raw, chunk)
    assert fast == slow


@given(
    st.sampled_from([b"x", b"content_block_delta", b"response.output_text.delta", b"\xff", b""]),
    st.booleans(),
    st.data(),
)
def test_the_usual_separator_cuts_alike_from_either_end(
    name: bytes, named: bool, data: st.DataObject
) -> None:
    # read_sse cuts with rsplit, which equals split only where no two matches can overlap.
    block = (b"event: " + name + b"\n" if named else b"") + b"data: {}"
    usual = _sse._usual(block + b"\n\n", len(block), {})
    if usual is None:
        assert named and name == b"\xff"  # not UTF-8: such events are read block by block
        return
    separator = usual[0]
    half = len(separator) // 2
    # Separators, their halves, line ends and field names, in any order.
    parts = [separator, separator[:half], separator[half:], b"\n", b"\n\n", b"event: ", b"data: ", b"{}"]
    text = b"".join(data.draw(st.lists(st.sampled_from(parts), max_size=40)))
    assert text.rsplit(separator) == text.split(separator)


USUAL = st.sampled_from([b'event: x\ndata: {"a": 1}', b"event: x\ndata: 2", b'data: {"a": 1}', b"data: 2"])


@given(
    st.lists(st.one_of(USUAL, USUAL, USUAL, st.lists(LINES, max_size=3).map(b"\n".join)), max_size=30),
    st.sampled_from([b"\n", b"\r\n"]),
    st.sampled_from([1, 7, 64, 300, 1 << 20]),
)
def test_the_fast_reader_reads_mostly_usual_streams_as_the_line_reader(
    events: list[bytes], end: bytes, chunk: int
) -> None:
    # Mostly usual events, so the reader cuts at their separator and the odd ones (with
    # line ends of their own, blank lines, comments, other fields) land inside pieces.
    raw = b"".join(event.replace(b"\n", end) + end + end for event in events)
    fast = read(lambda s, p: read_sse(s, lambda n, m: p((n, m))), raw, chunk)
    slow = read(lambda s, p: _read_sse_lines(s, lambda n, m: p((n, m))), raw, chunk)
    assert fast == slow
