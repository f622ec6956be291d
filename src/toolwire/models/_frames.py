"""A frame of recorded traffic, and what every reader shares: one JSON value decoded (or why not),
the SSE terminator, and lines cut in bounded memory."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO, Final, Literal

import orjson

__all__ = [
    "DONE",
    "MAX_LINE_BYTES",
    "Frame",
    "Hot",
    "InputFormat",
    "ProblemSink",
    "decode_json",
]

Frame = tuple[int | None, Any, str | None]
#: The event types a monitor's hot path takes typed (``msgspec.Struct`` classes with a tag).
Hot = tuple[type, ...]
ProblemSink = Callable[[int | None, str], None]
InputFormat = Literal["sse", "jsonl", "json", "eventstream"]

#: Lines longer than this are skipped (and reported) so memory stays bounded.
MAX_LINE_BYTES: Final = 256 * 1024 * 1024
_CHUNK: Final = 1 << 20
#: The text :func:`read_sse` counts separators in to choose one (counting a whole chunk costs


class _Done:
    """The SSE terminator ``data: [DONE]``, passed on as its own frame value."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "[DONE]"


#: Frame value standing for the SSE terminator ``data: [DONE]``.
DONE: Final = _Done()


def decode_json(raw: bytes) -> tuple[Any, str | None]:
    """Decode one JSON text; on failure return ``(None, reason)`` naming what is wrong.

    >>> decode_json(b'{"a": 1}')
    ({'a': 1}, None)
    >>> decode_json(b'\\xff')[1]
    'not valid UTF-8 (byte 0xff at column 1)'
    """
    try:
        return orjson.loads(raw), None
    except orjson.JSONDecodeError as exc:
        return None, _explain(raw, exc)


def _explain(raw: bytes | bytearray, exc: orjson.JSONDecodeError) -> str:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as bad:
        return f"not valid UTF-8 (byte 0x{raw[bad.start]:02x} at column {bad.start + 1})"
    message = str(exc)
    if "recursion" in message.lower() or "depth limit" in message.lower():
        return "JSON nested deeper than 1024 levels; toolwire does not read it"
    if exc.pos >= len(raw.rstrip()):
        return f"JSON ends early ({message}); the line looks truncated"
    return f"malformed JSON: {message}"


_EOL: Final = re.compile(rb"\r\n|\r|\n")
_BOM: Final = b"\xef\xbb\xbf"
_LF: Final = ord("\n")
_CR: Final = ord("\r")


def _lines(
    stream: BinaryIO, problem: ProblemSink, number: int = 0, head: bytes | None = None
) -> Iterator[tuple[int, bytes]]:
    """Yield ``(line_number, line)`` without its end (LF, CRLF or CR), in bounded memory.

    A leading UTF-8 byte order mark is dropped.  A caller that read on already passes what it
    read as ``head`` (no mark is dropped then) and ``number``, the lines before it.
    """
    carry = b""
    skipping = False
    first = head is None
    chunks = iter(lambda: stream.read(_CHUNK), b"")
    for chunk in itertools.chain([head] if head else [], chunks):
        if first:
            chunk = chunk.removeprefix(_BOM)
            first = False
        text = carry + chunk
        if b"\r" in text:
            # A CR at the end may be the first half of a CRLF that the next read completes.
            held = text.endswith(b"\r")
            parts = _EOL.split(text[:-1] if held else text)
            carry = parts.pop() + (b"\r" if held else b"")
        else:
            parts = text.split(b"\n")
            carry = parts.pop()
        for part in parts:
            number += 1
            if skipping:
                skipping = False
                continue
            yield number, part
        if len(carry) > MAX_LINE_BYTES:
            if not skipping:
                problem(number + 1, f"line longer than {MAX_LINE_BYTES} bytes; skipped")
            skipping = True
            carry = b""
    carry = carry.removesuffix(b"\r")
    if carry and not skipping:
        yield number + 1, carry
