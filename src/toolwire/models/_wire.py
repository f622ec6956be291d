"""Reading recorded traffic: SSE captures, JSON Lines, or one JSON document.

Every reader yields *frames* ``(line, value, sse_event)``: the 1-based line the
value starts on (``None`` where a document gives no line), the decoded JSON
value, and the SSE ``event:`` field when there was one.  Anything that cannot
be read is reported through ``problem(line, message)`` and skipped, so one bad
line never hides the rest of the trace.

This module tells the formats apart and hands a trace to its reader: :mod:`._sse`,
:mod:`._jsonl`, a JSON document here, AWS event-stream in :mod:`._eventstream`.  What the readers
share is in :mod:`._frames`; typed and lean decoding in :mod:`._decoders`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import BinaryIO, Final

from toolwire.models._decoders import TYPED_AFTER, plain, typed
from toolwire.models._eventstream import is_eventstream, read_eventstream
from toolwire.models._frames import (
    _BOM,
    _EOL,
    DONE,
    MAX_LINE_BYTES,
    Frame,
    Hot,
    InputFormat,
    ProblemSink,
    decode_json,
)
from toolwire.models._jsonl import read_jsonl
from toolwire.models._sse import read_sse

__all__ = [
    "DONE",
    "MAX_LINE_BYTES",
    "TYPED_AFTER",
    "Frame",
    "Hot",
    "InputFormat",
    "ProblemSink",
    "decode_json",
    "detect_format",
    "not_a_trace",
    "plain",
    "read_frames",
    "read_jsonl",
    "read_sse",
    "sniff",
    "typed",
]

_SSE_FIELDS: Final = (b"data:", b"event:", b"id:", b"retry:", b":")
#: An SSE line of some field: a name without spaces or braces, then a colon.
_SSE_NAME: Final = re.compile(rb"^[A-Za-z_-][\w-]*:")


def detect_format(head: bytes) -> InputFormat:
    """Guess the format from the first bytes of a trace.

    >>> detect_format(b'event: response.created\\ndata: {}')
    'sse'
    >>> detect_format(b'{"type": "x"}\\n{"type": "y"}\\n')
    'jsonl'
    >>> detect_format(b'{\\n  "messages": []\\n}')
    'json'

    A first line that is cut short, or an array, followed by lines that are JSON values each, is
    JSON Lines (its first record is bad, not the whole file):

    >>> detect_format(b'{"model": "gpt-4o", "mess\\n{"a": 1}\\n{"a": 2}\\n')
    'jsonl'
    """
    if is_eventstream(head):
        return "eventstream"
    text = head.removeprefix(_BOM).lstrip(b" \t\r\n")
    if text.startswith(_SSE_FIELDS):
        return "sse"
    lines = _EOL.split(text, 1)
    if len(lines) == 1 and text.startswith(b"{"):
        # One line longer than the head: a JSON Lines event or a one-line document; read as
        # JSON Lines, both come out whole.
        return "jsonl"
    first = lines[0].strip()
    if text.startswith(b"["):
        # A whole array on the first line with more after it cannot be one document.
        more = len(lines) > 1 and lines[1].strip()
        return "jsonl" if more and decode_json(first)[1] is None else "json"
    if first and not first.startswith((b"{", b"[")) and _SSE_NAME.match(first):
        return "sse"
    if first:
        _, reason = decode_json(first)
        if reason is None:
            return "jsonl"
        # A first line that is valid JSON only together with what follows is a document, unless
        # the lines after it are JSON values each: then it is a record cut short.
        if reason.startswith("JSON ends early") and not _values_follow(lines):
            return "json"
    return "jsonl"


def _values_follow(lines: list[bytes]) -> bool:
    """Whether most of the lines after the first (of the first 8 that are not blank) are JSON
    objects each, as in JSON Lines; few of a pretty-printed object's lines are one whole value
    (``"key": value,`` is not one).  ``lines``: the head split once, at its first line end."""
    if len(lines) < 2:
        return False
    rest = _EOL.split(lines[1])
    if len(rest) > 1 and not rest[-1].rstrip().endswith(b"}"):
        rest.pop()  # the head's last line, cut short by the head
    sample = [line for line in (line.strip() for line in rest) if line][:8]
    values: int = sum(line.startswith(b"{") and decode_json(line)[1] is None for line in sample)
    return 2 * values > len(sample)


def read_frames(
    stream: BinaryIO, problem: ProblemSink, fmt: InputFormat | None = None, hot: Hot = ()
) -> Iterator[Frame]:
    """Read a trace in ``fmt`` (detected from its first bytes when ``None``); ``hot`` event types
    may come typed (see :func:`read_jsonl`)."""
    if fmt is None:
        head, stream = sniff(stream)
        fmt = detect_format(head)
    if fmt == "sse":
        return read_sse(stream, problem, hot)
    if fmt == "jsonl":
        return read_jsonl(stream, problem, hot)
    if fmt == "eventstream":
        return read_eventstream(stream, problem)
    return _read_document(stream, problem)


def _read_document(stream: BinaryIO, problem: ProblemSink) -> Iterator[Frame]:
    raw = stream.read().removeprefix(_BOM)
    value, reason = decode_json(raw)
    if reason is not None:
        problem(1, f"the JSON document cannot be read: {reason}")
        return
    # A document's values have no line of their own; findings give a path instead.  A JSON
    # array is a list of events or messages (``json.dump(events)``), each its own frame.
    if isinstance(value, list):
        for item in value:
            yield None, item, None
        return
    yield None, value, None


#: The most bytes read to decide the format: enough for any first line worth deciding on.
SNIFF_BYTES: Final = 1 << 20


class Prefixed:
    """A stream whose first bytes were read already (to sniff the format), then the rest."""

    def __init__(self, head: bytes, rest: BinaryIO) -> None:
        self._head = head
        self._rest = rest

    def read(self, size: int = -1) -> bytes:
        if self._head:
            if size < 0:
                data, self._head = self._head + self._rest.read(), b""
                return data
            data, self._head = self._head[:size], self._head[size:]
            return data
        return self._rest.read(size)


def sniff(stream: BinaryIO) -> tuple[bytes, BinaryIO]:
    """The first bytes of ``stream`` (through its first line end, or :data:`SNIFF_BYTES`), and a
    stream that still yields every byte.  A pipe's first read may be a partial line: read on."""
    if hasattr(stream, "peek"):
        head = stream.peek(SNIFF_BYTES)[:SNIFF_BYTES]
        if _EOL.search(head) or len(head) >= 65536:
            return head, stream
    read = getattr(stream, "read1", stream.read)
    head = b""
    while len(head) < SNIFF_BYTES:
        chunk = read(65536)
        if not chunk:
            break
        head += chunk
        if _EOL.search(head.lstrip(b" \t\r\n")):
            break
    return head, Prefixed(head, stream)  # type: ignore[return-value]


def not_a_trace(head: bytes) -> str | None:
    """Why bytes that start like ``head`` are no trace toolwire reads (gzip, UTF-16, binary), or None.

    >>> not_a_trace(b"\\x1f\\x8b\\x08\\x00")
    'the input is gzip-compressed: decompress it first (gunzip, or zcat FILE | toolwire check -)'
    """
    if is_eventstream(head):
        return None
    if head.startswith(b"\x1f\x8b"):
        return "the input is gzip-compressed: decompress it first (gunzip, or zcat FILE | toolwire check -)"
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or head[:64].count(b"\x00") > 8:
        return (
            "the input looks like UTF-16 (NUL bytes between characters): convert it to UTF-8 (iconv -t utf-8)"
        )
    sample = head[:4096]
    if b"\x00" in sample:
        return "the input is binary (NUL bytes), not a trace: give an SSE capture, JSON Lines or JSON"
    # A stray byte is a problem of its line; mostly undecodable bytes are no text at all.
    bad = sample.decode("utf-8", "replace").count("\ufffd")
    if bad > max(8, len(sample) // 50):
        return "the input is not UTF-8 text (random or binary bytes): give an SSE capture, JSON Lines or JSON"
    return None
