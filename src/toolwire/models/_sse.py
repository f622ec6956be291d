"""Reading an SSE capture: one frame per event, the usual shapes cut whole, the rest per the WHATWG rules."""

from __future__ import annotations

import io
from collections.abc import Callable, Generator, Iterator
from typing import Any, BinaryIO, Final, cast

import orjson

from toolwire.models._decoders import _NOT_TYPED, TYPED_AFTER, leaned, typed
from toolwire.models._frames import (
    _BOM,
    _CHUNK,
    _CR,
    _LF,
    DONE,
    MAX_LINE_BYTES,
    Frame,
    Hot,
    ProblemSink,
    _lines,
    decode_json,
)

__all__ = ["read_sse"]

#: The text :func:`read_sse` counts separators in to choose one (counting a whole chunk costs
#: as much as a tenth of reading it).
_SAMPLE_BYTES: Final = 1 << 16


_EMPTY_STREAM: Final = cast(BinaryIO, io.BytesIO())


def read_sse(stream: BinaryIO, problem: ProblemSink, hot: Hot = ()) -> Iterator[Frame]:
    """Yield one frame per SSE event; ``data: [DONE]`` becomes :data:`DONE`.

    A chunk at a time, the text up to its last blank line is cut at the usual event its last
    event is (``event: NAME`` then one ``data:`` line, or one ``data:`` line alone; see
    :func:`_usual`): each piece between two such separators with no line end in it is one
    such event's payload, read without a look at its lines.  Whatever else lies between goes
    block by block (see :func:`_blocks`), and anything unusual (a CR, comments, several
    ``data:`` lines, other fields, a line longer than :data:`MAX_LINE_BYTES`) line by line, per
    the WHATWG rules.  Past the first :data:`TYPED_AFTER` lines, the ``hot`` types come typed
    (see :func:`read_jsonl`).
    """
    number = 0  # lines consumed before ``carry``
    carry = b""
    first = True
    loads = orjson.loads
    decode: Callable[[bytes], Any] | None = None
    names: dict[bytes, str] = {}
    usual: tuple[bytes, bytes, str | None, int] | None = None
    # Typed decoding starts at a chunk past TYPED_AFTER lines: a small first read lets it start
    # some thousand events sooner.
    size = min(_CHUNK, _SAMPLE_BYTES)
    big: bytearray | None = None  # an event longer than a read, gathered in place
    while chunk := stream.read(size):
        if first:
            chunk = chunk.removeprefix(_BOM)
            first = False
            size = _CHUNK
        if _CR in chunk or len(carry if big is None else big) + len(chunk) > MAX_LINE_BYTES:
            yield from _read_sse_lines(stream, problem, number, bytes(carry if big is None else big) + chunk)
            return
        if big is None and carry and b"\n\n" not in chunk and not (carry[-1:] == b"\n" == chunk[:1]):
            # An event longer than a read: its reads are gathered in place (no new copy of it per
            # read), and it is read alone once it ends, lean when it is of a lean type (one copy
            # of it is held, as read_jsonl holds one of a long line).
            big, carry = bytearray(carry), b""
        if big is not None:
            straddles = big.endswith(b"\n") and chunk.startswith(b"\n")  # its blank line
            end = 0 if straddles else chunk.find(b"\n\n")
            if end < 0:
                big += chunk
                continue
            if straddles:
                del big[-1:]
                chunk = chunk[1:]
            else:
                big += memoryview(chunk)[:end]
                chunk = chunk[end + 2 :]
            if decode is None and hot and number > TYPED_AFTER:
                decode = typed(hot)
            block, big = big, None
            number = yield from _big_block(block, number, problem, names, hot if decode is not None else ())
            del block
            if not chunk:
                continue
        text = carry + chunk if carry else chunk
        cut = text.rfind(b"\n\n")
        if cut < 0:
            carry = text
            continue
        # Every "\n\n" ends a line and then a blank one: an event boundary.  The events end at
        # the last one, ``cut``; what follows is carried to the next chunk.
        last = _usual(text, cut, names)
        if usual is None or (
            last is not None
            and last[0] != usual[0]
            and _more(text, last[0], usual[0], max(0, cut - _SAMPLE_BYTES), cut)
        ):
            # The separator that cuts most: the stream's most frequent usual event, mostly.
            usual = last
        if usual is None:
            carry = text[cut + 2 :]
            number = yield from _blocks(text[:cut], number, problem, names)
            continue
        if decode is None and hot and number > TYPED_AFTER:
            decode = typed(hot)
        separator, _, event, step = usual
        # Split the whole text (no copy of the events' part): no separator straddles ``cut``
        # (its only blank line is its start), so the last piece holds ``cut`` unless the last
        # separator starts there.  From the right: two of its matches never overlap (its only
        # blank line is its start), so both directions cut at the same places, and CPython's
        # split sets its search up again per match (the two-way algorithm, for long texts)
        # where rsplit's plain backward search has next to nothing to set up: half the time.
        pieces = text.rsplit(separator)
        tail = pieces[-1]
        if len(pieces) > 1 and len(text) - len(tail) - len(separator) == cut:
            pieces.pop()
            carry = text[cut + 2 :]
        else:
            end = tail.rfind(b"\n\n")
            pieces[-1], carry = tail[:end], tail[end + 2 :]
        # What comes before the first separator is read block by block; after each, the event
        # it starts: its payload, unless more lines follow it before the next separator.
        number = yield from _blocks(pieces.pop(0), number, problem, names)
        line = number - 1  # the data line of the event before: its blank line is ``number``
        for payload in pieces:
            if _LF in payload:  # (an int: a plain byte search, several times faster than b"\n")
                line = yield from _unusual(payload, line, usual, decode, problem, names)
                continue
            line += step
            if decode is not None:
                try:
                    yield line, decode(payload), event
                    continue
                except _NOT_TYPED:
                    pass
            try:
                yield line, loads(payload), event
            except orjson.JSONDecodeError:
                yield from _dispatch(line, [payload], event, problem, complete=True)
        number = line + 1
    if big is not None or carry:
        yield from _read_sse_lines(stream, problem, number, bytes(big) if big is not None else carry)


def _big_block(
    block: bytearray, number: int, problem: ProblemSink, names: dict[bytes, str], hot: Hot
) -> Generator[Frame, None, int]:
    """The event of ``block``, one event's lines longer than a read (no blank line in it), from line
    ``number + 1`` on; returns the number of its blank line.  The usual shapes (``data:`` alone, or
    ``event: NAME`` then ``data:``) are read from ``block`` itself, its head cut off in place: one
    copy of the event is held, and its value read lean, typed or plain (see :func:`_one`)."""
    first = block.find(b"\n")
    event: str | None = None
    if first < 0 and block.startswith(b"data: "):
        lines, cut = 2, 6
    elif first > 0 and block.startswith(b"event: ") and block.find(b"\n", first + 1) < 0:
        event = names.get(bytes(block[:first])) or _name(bytes(block[:first]), names)
        lines, cut = 3, first + 7
        if event is None or not block.startswith(b"data: ", first + 1):
            lines = 0
    else:
        lines = 0
    if not lines:
        return (yield from _blocks(bytes(block), number, problem, names))
    del block[:cut]  # (in place: a bytearray drops its head without a copy)
    line = number + lines - 1
    decode, lean = (typed(hot), leaned(hot)) if hot else (None, None)
    for read in (lean, decode):
        if read is not None:
            try:
                yield line, read(block), event
                return number + lines
            except _NOT_TYPED:
                pass
    if block.strip() == b"[DONE]":
        yield line, DONE, event
        return number + lines
    try:
        yield line, orjson.loads(block), event
    except orjson.JSONDecodeError:
        yield from _dispatch(line, [bytes(block)], event, problem, complete=True)
    return number + lines


def _unusual(
    piece: bytes,
    line: int,
    usual: tuple[bytes, bytes, str | None, int],
    decode: Callable[[bytes], Any] | None,
    problem: ProblemSink,
    names: dict[bytes, str],
) -> Generator[Frame, None, int]:
    """The events of a piece with line ends in it that :func:`read_sse` cut at ``usual``'s
    separator, whose data line is ``line + step``: mostly that event's payload, a blank line and
    other events.  Returns the line before the piece's last blank one, as ``line`` counts."""
    _, prefix, event, step = usual
    payload, blank, rest = piece.partition(b"\n\n")
    if not blank or _LF in payload:
        return (yield from _blocks(prefix + piece, line + 1, problem, names)) - 1
    line += step
    if decode is not None:
        try:
            yield line, decode(payload), event
        except _NOT_TYPED:
            decode = None
    if decode is None:
        try:
            yield line, orjson.loads(payload), event
        except orjson.JSONDecodeError:
            yield from _dispatch(line, [payload], event, problem, complete=True)
    return (yield from _blocks(rest, line + 1, problem, names)) - 1


def _more(text: bytes, one: bytes, other: bytes, start: int, end: int) -> bool:
    """Whether ``one`` occurs more often than ``other`` in ``text[start:end]``."""
    return text.count(one, start, end) > text.count(other, start, end)


def _usual(text: bytes, cut: int, names: dict[bytes, str]) -> tuple[bytes, bytes, str | None, int] | None:
    """The last event of ``text[:cut]`` when it has the usual shape (``event: NAME`` then one
    ``data:`` line, or one ``data:`` line alone): the separator that starts such an event after a
    blank line, its lines before the payload, its event name and the lines it takes.  None
    otherwise."""
    last = text.rfind(b"\n\n", 0, cut)
    block = text[last + 2 : cut] if last >= 0 else text[:cut]
    if block.startswith(b"data: "):
        return (b"\n\ndata: ", b"data: ", None, 2) if b"\n" not in block else None
    if not block.startswith(b"event: "):
        return None
    end = block.find(b"\n")
    if end < 0 or not block.startswith(b"data: ", end + 1) or block.find(b"\n", end + 1) >= 0:
        return None
    event = _name(block[:end], names)
    if event is None:
        return None
    prefix = block[: end + 7]
    return b"\n\n" + prefix, prefix, event, 3


def _name(line: bytes, names: dict[bytes, str]) -> str | None:
    """The name an ``event: NAME`` line gives (None when it is not UTF-8), decoded once per line."""
    event = names.get(line)
    if event is None:
        try:
            event = names[line] = line[7:].decode("utf-8")
        except UnicodeDecodeError:
            return None
    return event


def _blocks(
    region: bytes, number: int, problem: ProblemSink, names: dict[bytes, str]
) -> Generator[Frame, None, int]:
    """The events of ``region`` (text between two event boundaries, the second one not in it),
    from line ``number + 1`` on; returns the number of the last line read (the blank one ending
    ``region``).  The usual shapes are read whole, the rest line by line."""
    for block in region.split(b"\n\n"):
        if _LF in block:
            # ``event: NAME`` then one ``data:`` line: its first line end starts "\ndata: ", the
            # only line end there is.
            head, _, payload = block.partition(b"\ndata: ")
            if _LF not in head and _LF not in payload and head.startswith(b"event: "):
                event = names.get(head) or _name(head, names)
                if event is not None:
                    number += 3
                    try:
                        yield number - 1, orjson.loads(payload), event
                    except orjson.JSONDecodeError:
                        yield from _dispatch(number - 1, [payload], event, problem, complete=True)
                    continue
        elif block.startswith(b"data: "):
            number += 2
            payload = block[6:]
            try:
                yield number - 1, orjson.loads(payload), None
            except orjson.JSONDecodeError:
                yield from _dispatch(number - 1, [payload], None, problem, complete=True)
            continue
        yield from _sse_block(block, number + 1, problem)
        number += block.count(b"\n") + 2
    return number


def _sse_block(block: bytes, start: int, problem: ProblemSink) -> Iterator[Frame]:
    """One event's lines (no blank line among them but leading ones), read line by line."""
    yield from _read_sse_lines(_EMPTY_STREAM, problem, start - 1, block + b"\n\n")


def _read_sse_lines(
    stream: BinaryIO, problem: ProblemSink, before: int = 0, head: bytes | None = None
) -> Iterator[Frame]:
    """:func:`read_sse` line by line, from line ``before + 1`` on (``head`` first, see :func:`_lines`)."""
    data: list[bytes] = []
    event: str | None = None
    start = 0
    last = 0
    for number, raw in _lines(stream, problem, before, head):
        last = number
        line = raw
        if not line:
            if data:
                yield from _dispatch(start, data, event, problem, complete=True)
            data, event = [], None
            continue
        if line.startswith(b":"):
            continue
        name, _, value = line.partition(b":")
        if value.startswith(b" "):
            value = value[1:]
        if name == b"data":
            if not data:
                start = number
            data.append(value)
        elif name == b"event":
            try:
                event = value.decode("utf-8")
            except UnicodeDecodeError:
                problem(number, "SSE event name is not valid UTF-8")
        # Any other field (id, retry, or one the stream invented) is ignored, as the
        # WHATWG event-stream rules say.
    if data:
        yield from _dispatch(start, data, event, problem, complete=False, last=last)


def _dispatch(
    start: int,
    data: list[bytes],
    event: str | None,
    problem: ProblemSink,
    *,
    complete: bool,
    last: int = 0,
) -> Iterator[Frame]:
    payload = b"\n".join(data)
    if payload.strip() == b"[DONE]":
        yield start, DONE, event
        return
    value, reason = decode_json(payload)
    if reason is not None:
        if not complete:
            reason += f"; the capture ends at line {last} inside this event (truncated?)"
        problem(start, f"SSE data: {reason}")
        return
    yield start, value, event
