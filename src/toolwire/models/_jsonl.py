"""Reading a JSON Lines trace: one frame per non-blank line."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO, cast

import orjson

from toolwire.models._decoders import _NOT_TYPED, LEAN_BYTES, TYPED_AFTER, leaned, typed
from toolwire.models._frames import (
    _BOM,
    _CHUNK,
    _CR,
    _LF,
    MAX_LINE_BYTES,
    Frame,
    Hot,
    ProblemSink,
    _explain,
    _lines,
)

__all__ = ["read_jsonl"]


def read_jsonl(stream: BinaryIO, problem: ProblemSink, hot: Hot = ()) -> Iterator[Frame]:
    """Yield one frame per non-blank line of a JSON Lines trace.

    Past the first :data:`TYPED_AFTER` lines, events of the ``hot`` types come as those
    structs (see :func:`typed`), and a line longer than :data:`LEAN_BYTES` of one of its lean
    types as the plain dict of the fields its rules read (see :mod:`._lean`); everything else is
    a plain value.  Lines are cut a chunk at a time; a line longer than a chunk is gathered in
    place and read from there (no second copy of it); a chunk with a CR or a line longer than
    :data:`MAX_LINE_BYTES` hands the rest to :func:`_lines`.
    """
    number = 0  # lines before ``carry``
    carry: bytes | bytearray = b""
    first = True
    loads = orjson.loads
    decode: Callable[[bytes | bytearray], Any] | None = None
    lean: Callable[[bytes | bytearray], Any] | None = None
    while chunk := stream.read(_CHUNK):
        if first:
            chunk = chunk.removeprefix(_BOM)
            first = False
        if _CR in chunk or len(carry) + len(chunk) > MAX_LINE_BYTES:
            head = bytes(carry) + chunk
            carry = b""
            yield from _decode(_lines(stream, problem, number, head), problem, hot, decode)
            return
        if carry and _LF not in chunk:
            # A line longer than a read goes on: gathered in place, not copied anew per read.
            if type(carry) is bytes:
                carry = bytearray(carry)
            carry += chunk
            continue
        if type(carry) is bytearray:
            end = chunk.index(b"\n")
            carry += memoryview(chunk)[:end]
            number += 1
            if decode is None and hot and number > TYPED_AFTER:
                decode, lean = typed(hot), leaned(hot)
            big, carry = carry, b""
            frame = _one(number, big, problem, decode, lean)
            del big
            if frame is not None:
                yield frame
            text = chunk[end + 1 :]
        else:
            text = cast(bytes, carry) + chunk if carry else chunk
        lines = text.split(b"\n")
        carry = lines.pop()
        if decode is None and hot and number + len(lines) > TYPED_AFTER:
            # The lines up to TYPED_AFTER's next one are read plain, as _decode reads them.
            plain_ones = TYPED_AFTER + 1 - number
            yield from _decode(zip(itertools.count(number + 1), lines[:plain_ones]), problem, (), None)
            number += plain_ones
            del lines[:plain_ones]
            decode, lean = typed(hot), leaned(hot)
        elif lines and decode is not None and len(lines[0]) > LEAN_BYTES:
            # A line longer than a read that began in the last one (only the first can be).
            number += 1
            frame = _one(number, lines.pop(0), problem, decode, lean)
            if frame is not None:
                yield frame
        for raw in lines:
            number += 1
            if decode is not None:
                try:
                    yield number, decode(raw), None
                    continue
                except _NOT_TYPED:
                    pass
            try:
                yield number, loads(raw), None
            except orjson.JSONDecodeError as exc:
                if raw.strip():
                    problem(number, _explain(raw, exc))
    if carry:
        yield from _decode(iter([(number + 1, carry)]), problem, hot, decode)


def _decode(
    lines: Iterator[tuple[int, bytes | bytearray]],
    problem: ProblemSink,
    hot: Hot,
    decode: Callable[[bytes | bytearray], Any] | None,
) -> Iterator[Frame]:
    """:func:`read_jsonl`'s frames of numbered ``lines``, typed with ``decode`` (or ``hot`` past
    :data:`TYPED_AFTER`)."""
    loads = orjson.loads
    lean = leaned(hot) if decode is not None else None
    for number, raw in lines:
        if decode is not None:
            if len(raw) > LEAN_BYTES:
                frame = _one(number, raw, problem, decode, lean)
                if frame is not None:
                    yield frame
                continue
            try:
                yield number, decode(raw), None
                continue
            except _NOT_TYPED:
                pass
        elif hot and number > TYPED_AFTER:
            decode, lean = typed(hot), leaned(hot)
        try:
            yield number, loads(raw), None
        except orjson.JSONDecodeError as exc:
            if raw.strip():
                problem(number, _explain(raw, exc))


def _one(
    number: int,
    raw: bytes | bytearray,
    problem: ProblemSink,
    decode: Callable[[bytes | bytearray], Any] | None,
    lean: Callable[[bytes | bytearray], Any] | None,
) -> Frame | None:
    """The frame of one line (``None`` when it cannot be read: a problem says so): lean when it is
    of a lean type, else typed, else plain (so that only one copy of a big line is ever held)."""
    for read in (lean, decode):
        if read is not None:
            try:
                return number, read(raw), None
            except _NOT_TYPED:
                pass
    try:
        return number, orjson.loads(raw), None
    except orjson.JSONDecodeError as exc:
        if raw.strip():
            problem(number, _explain(raw, exc))
    return None
