"""A big event read for what its rules read: the same findings, one copy of the line in memory."""

from __future__ import annotations

import json
import re
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolwire
from toolwire.engines.checking import _check
from toolwire.models import _decoders, _frames, _jsonl, _lean, _sse, _wire
from toolwire.protocols import PROTOCOLS
from toolwire.protocols.openai_responses.stream import StreamMonitor

PROTOCOL = "openai-responses-stream"


def lean() -> Any:
    decode = _decoders.leaned(StreamMonitor.load_hot())
    assert decode is not None
    return decode


def completed(response: bytes, sequence: bytes = b"7", kind: bytes = b"response.completed") -> bytes:
    return b'{"type":"' + kind + b'","sequence_number":' + sequence + b',"response":' + response + b"}"


#: What orjson refuses but msgspec, walking past it, would not: each must send the line to orjson.
REFUSED: list[bytes] = [
    b'{"x":"\xff"}',  # not UTF-8
    b'{"\xc3":1}',  # a key cut inside a character
    b'{"x":"\xed\xa0\x80"}',  # a UTF-8-encoded surrogate
    b'{"x":1e999}',
    b'{"x":[1, -2.5E+400]}',
    b'{"x":1' + b"0" * 400 + b"}",
    b"[" * 1100 + b"]" * 1100,
    b"[" * 1024 + b"]" * 1024,
]


@pytest.mark.parametrize("response", REFUSED)
def test_what_orjson_refuses_is_not_read_lean(response: bytes) -> None:
    raw = completed(response)
    with pytest.raises(orjson.JSONDecodeError):
        orjson.loads(raw)
    with pytest.raises(_decoders._NOT_TYPED):
        lean()(raw)


@pytest.mark.parametrize("c_limit", [False, True], ids=["python-limit", "c-limit"])
@pytest.mark.parametrize("limit", [900, 5000])
def test_nesting_deeper_than_orjson_reads_is_not_read_lean_whatever_the_limit(
    monkeypatch: pytest.MonkeyPatch, limit: int, c_limit: bool
) -> None:
    # msgspec nests as deep as the recursion limit (3.11) or a C limit (3.12 on, as if here).
    monkeypatch.setattr(_lean, "_C_LIMIT", c_limit)
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        for depth in (1024, 1100):
            with pytest.raises(_decoders._NOT_TYPED):
                lean()(completed(b"[" * depth + b"]" * depth))
        # faithful() weighs nesting where msgspec may read deeper than orjson.
        assert _lean.faithful(completed(b"[" * 1024 + b"]" * 1024)) is not (c_limit or limit > 1024)
        # Brackets in strings are no nesting.
        assert _lean.faithful(completed(b"[" * 800 + b'"]]\\"[[["' + b"]" * 800))
        assert _lean.faithful(completed(b'["' + b"[" * 2000 + b'"]'))
    finally:
        sys.setrecursionlimit(before)


READ: list[bytes] = [
    # (a string that reads as a number past a double's range is weighed as one: read plain)
    b'{"output":[{"type":"function_call","arguments":"{\\"a\\": 1e99, \\"b\\": 2}"}]}',
    b'{"x":"caf\xc3\xa9 \\ud83d\\ude00","y":[1.5e300, -1e-400, 18446744073709551615, 0.'
    + b"0" * 400
    + b"1]}",
    b'{"x":"\\"]]]]\\\\"}',
    b"null",
]


@pytest.mark.parametrize("response", READ)
def test_what_orjson_reads_is_read_lean_with_the_same_fields(response: bytes) -> None:
    raw = completed(response)
    assert lean()(raw) == {"type": "response.completed", "sequence_number": 7}
    assert orjson.loads(raw)["sequence_number"] == 7


JSON_BITS = st.sampled_from(
    [b"{", b"}", b"[", b"]", b",", b":", b'"', b"\\", b"1", b"-", b".", b"e", b"E", b"+", b"0", b" ",
     b"\n", b"\xff", b"\xc3", b"\xa9", b"\xed", b"u", b"d800", b"true", b"null", b"NaN", b"1e309",
     b'"a"', b'"sequence_number"', b'"type"', b'"response.failed"', b"99999999999999999999"]
)  # fmt: skip
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**400), 10**400)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
    | st.sampled_from([1e300, 5e-324, -0.0])
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


@st.composite
def responses(draw: st.DrawFn) -> bytes:
    """A JSON value as some encoder writes it, with perhaps a bit of JSON (or not) put in somewhere."""
    text = json.dumps(
        draw(VALUES),
        ensure_ascii=draw(st.booleans()),
        indent=draw(st.sampled_from([None, 1])),
        separators=draw(st.sampled_from([None, (",", ":")])),
    )
    raw = text.encode("utf-8", "surrogatepass")
    if draw(st.booleans()):
        at = draw(st.integers(0, len(raw)))
        raw = raw[:at] + draw(JSON_BITS) + raw[at:]
    return raw


@settings(max_examples=300, deadline=None)
@given(
    responses(),
    st.sampled_from([b"1", b"null", b"1.0", b"18446744073709551615", b"-9223372036854775809", b"1e400"]),
    st.sampled_from([b"", b'"sequence_number":3,', b'"type":"response.completed",', b'"type":"x",']),
)
def test_a_line_read_lean_reads_so_with_orjson(response: bytes, sequence: bytes, extra: bytes) -> None:
    raw = b'{"type":"response.completed",' + extra + b'"sequence_number":' + sequence
    raw += b',"response":' + response + b"}"
    try:
        value = lean()(raw)
    except _decoders._NOT_TYPED:
        return
    plain = orjson.loads(raw)
    assert value == {k: plain[k] for k in ("type", "sequence_number") if k in plain}


# --- read from a file -------------------------------------------------------------------------


def stream(items: int, last: dict[str, Any] | bytes | None = None) -> list[bytes]:
    """A Responses stream of ``items`` function calls whose ``response.completed`` carries them all."""
    events: list[dict[str, Any]] = [{"type": "response.created", "response": {"id": "resp_1", "output": []}}]
    done = []
    for k in range(items):
        item = {"type": "function_call", "id": f"fc_{k}", "call_id": f"call_{k}", "name": "f"}
        item["arguments"] = ""
        events.append({"type": "response.output_item.added", "output_index": k, "item": item})
        address = {"item_id": f"fc_{k}", "output_index": k}
        events.append({"type": "response.function_call_arguments.delta", **address, "delta": "{}"})
        events.append({"type": "response.function_call_arguments.done", **address, "arguments": "{}"})
        finished = dict(item, status="completed", arguments="{}")
        done.append(finished)
        events.append({"type": "response.output_item.done", "output_index": k, "item": finished})
    events.append({"type": "response.completed", "response": {"id": "resp_1", "output": done}})
    for number, event in enumerate(events):
        event["sequence_number"] = number
    lines = [json.dumps(e).encode() for e in events]
    if isinstance(last, bytes):
        lines[-1] = last
    elif last is not None:
        lines[-1] = json.dumps(events[-1] | last).encode()
    return lines


def report(path: Path, lean_too: bool, monkeypatch: pytest.MonkeyPatch) -> Any:
    with monkeypatch.context() as patch:
        patch.setattr(_check, "TYPED_BYTES", 0)
        if not lean_too:
            patch.setattr(type(PROTOCOLS[PROTOCOL].make()), "hot", None)
        return toolwire.check_file(path, PROTOCOL).to_json()


LAST: list[dict[str, Any] | bytes] = [
    {},
    {"sequence_number": 3},
    {"sequence_number": "3"},
    {"sequence_number": 2**64 - 1},
    {"type": "response.failed"},
    {"type": "response.incomplete", "extra": [1e300]},
    {"extra": "\ud800"},
]


def framed(lines: list[bytes], how: str, ending: bytes = b"\n") -> bytes:
    """``lines`` as JSON Lines, or as SSE (``data:`` alone, or each after its ``event:`` line)."""
    if how == "jsonl":
        return ending.join(lines) + ending
    named = how == "sse-event"
    blocks = [
        (b"event: " + (re.search(rb'"type": ?"([^"]+)"', line) or [b"", b"x"])[1] + ending if named else b"")
        + b"data: "
        + line
        + ending
        for line in lines
    ]
    return ending.join(blocks) + ending


@pytest.mark.parametrize("how", ["jsonl", "sse-data", "sse-event"])
@pytest.mark.parametrize("ending", [b"\n", b"", b"\r\n"], ids=["lf", "none", "crlf"])
@pytest.mark.parametrize("last", range(len(LAST) + len(REFUSED)))
def test_a_big_last_event_is_reported_as_plain_reading_reports_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, last: int, ending: bytes, how: str
) -> None:
    # Reads far smaller than the stream's last line, which is read lean where it can be.
    for reading in (_frames, _jsonl, _sse):
        monkeypatch.setattr(reading, "_CHUNK", 4096)
    monkeypatch.setattr(_jsonl, "LEAN_BYTES", 4096)
    if last < len(LAST):
        change: dict[str, Any] | bytes = LAST[last]
    else:
        padded = b'{"pad":"' + b"p" * 20_000 + b'","x":' + REFUSED[last - len(LAST)] + b"}"
        change = completed(padded, b"1201")
    lines = stream(300, change)
    if how != "jsonl" and not ending:
        ending = b"\n"  # (an SSE event ends at its blank line)
    path = tmp_path / ("t.jsonl" if how == "jsonl" else "t.sse")
    path.write_bytes(framed(lines, how, ending))
    assert len(lines[-1]) > 4096 * 3
    assert report(path, True, monkeypatch) == report(path, False, monkeypatch)


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.integers(0, 9000), min_size=1, max_size=40),
    st.sampled_from([100, 1000, 4096]),
    st.booleans(),
)
def test_lines_longer_than_a_read_are_numbered_and_read_as_short_ones(
    sizes: list[int], chunk: int, bom: bool
) -> None:
    import io

    lines = [json.dumps({"type": "x", "pad": "p" * size}).encode() if size % 7 else b"" for size in sizes]
    text = (b"\xef\xbb\xbf" if bom else b"") + b"\n".join(lines)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_jsonl, "_CHUNK", chunk)
        patch.setattr(_jsonl, "LEAN_BYTES", chunk)
        patch.setattr(_jsonl, "TYPED_AFTER", 0)
        read = list(_jsonl.read_jsonl(io.BytesIO(text), lambda *_: None, StreamMonitor.load_hot()))
    assert read == [(k + 1, orjson.loads(line), None) for k, line in enumerate(lines) if line]


@pytest.mark.parametrize("how", ["jsonl", "sse-data", "sse-event"])
def test_a_big_last_event_is_read_holding_one_copy_of_its_line(tmp_path: Path, how: str) -> None:
    path = tmp_path / "t.jsonl"
    item = b'{"type":"function_call","id":"fc_%d","call_id":"call_%d","name":"f","arguments":"{}"}'
    output = b",".join(item % (k, k) for k in range(60_000))
    big = completed(b'{"id":"resp_1","output":[' + output + b"]}", b"300")
    lines = [b'{"type":"response.in_progress","sequence_number":%d}' % k for k in range(300)]
    path.write_bytes(framed([*lines, big], how))
    assert len(big) > 4 * _jsonl._CHUNK
    reader = _wire.read_jsonl if how == "jsonl" else _wire.read_sse

    def peak(hot: Any) -> tuple[int, Any]:
        with path.open("rb") as raw:
            frames = reader(raw, lambda *_: None, hot)
            for _ in range(300):
                next(frames)
            tracemalloc.start()
            try:
                _, value, _ = next(frames)
                return tracemalloc.get_traced_memory()[1], value
            finally:
                tracemalloc.stop()

    (lean_peak, value), (plain_peak, _) = peak(StreamMonitor.load_hot()), peak(())
    assert value == {"type": "response.completed", "sequence_number": 300}
    assert lean_peak < 1.5 * len(big) < 3 * len(big) < plain_peak
