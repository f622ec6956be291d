"""Reading recorded traffic: SSE captures, JSON Lines, or one JSON document.

Every reader yields *frames* ``(line, value, sse_event)``: the 1-based line the
value starts on (``None`` where a document gives no line), the decoded JSON
value, and the SSE ``event:`` field when there was one.  Anything that cannot
be read is reported through ``problem(line, message)`` and skipped, so one bad
line never hides the rest of the trace.
"""

from __future__ import annotations

import io
import itertools
import re
import sys
from collections.abc import Callable, Generator, Iterator
from typing import Any, BinaryIO, Final, Literal, Union, cast

import orjson

from toolwire.models._eventstream import is_eventstream, read_eventstream

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

Frame = tuple[int | None, Any, str | None]
#: The event types a monitor's hot path takes typed (``msgspec.Struct`` classes with a tag).
Hot = tuple[type, ...]
ProblemSink = Callable[[int | None, str], None]
InputFormat = Literal["sse", "jsonl", "json", "eventstream"]

#: Lines longer than this are skipped (and reported) so memory stays bounded.
MAX_LINE_BYTES: Final = 256 * 1024 * 1024
_CHUNK: Final = 1 << 20
#: The text :func:`read_sse` counts separators in to choose one (counting a whole chunk costs
#: as much as a tenth of reading it).
_SAMPLE_BYTES: Final = 1 << 16
_SSE_FIELDS: Final = (b"data:", b"event:", b"id:", b"retry:", b":")
#: An SSE line of some field: a name without spaces or braces, then a colon.
_SSE_NAME: Final = re.compile(rb"^[A-Za-z_-][\w-]*:")


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


#: A line longer than this, of a lean type, is read for the fields its rules read only
#: (:mod:`._lean`).  At least a read (:data:`_CHUNK`): only a line that began in an earlier read
#: can be longer.
LEAN_BYTES: Final = _CHUNK


#: Lines read as plain values before typed decoding starts (those a check samples, and more).
TYPED_AFTER: Final = 256


#: What a typed decoder raises on a value it does not take: ``msgspec.DecodeError`` (a
#: ValueError), UnicodeDecodeError for invalid UTF-8 in a string it decodes, RecursionError for
#: deep nesting.
_NOT_TYPED: Final = (ValueError, RecursionError)


def typed(hot: Hot) -> Callable[[bytes | bytearray], Any]:
    """A decoder of the ``hot`` event types (its lean ones aside: see :func:`leaned`) that raises
    one of :data:`_NOT_TYPED` on anything else.

    Its structs forbid unknown fields and type every field, so what it accepts, orjson reads
    the same (invalid UTF-8, lone surrogates, numbers past 64 bits, deep nesting all fail it;
    see :data:`_NOT_TYPED` for how).
    """
    import msgspec

    from toolwire.models._lean import is_lean

    hot = tuple(t for t in hot if not is_lean(t))
    kind: Any = hot[0] if len(hot) == 1 else Union[hot]  # noqa: UP007
    decode = msgspec.json.Decoder(kind).decode
    if not any(getattr(t, "nests_freely", False) for t in hot):
        return decode

    limit = sys.getrecursionlimit

    def shallow(raw: bytes | bytearray) -> Any:
        # msgspec nests as deep as Python's recursion limit lets it (from 3.12, a C limit), not
        # orjson's 1024 levels.  A value too short for 1025 levels, or read under a limit of at
        # most 1024 on 3.11, or with at most 1024 opening brackets, cannot nest past orjson's.
        if (
            len(raw) > 2 * _DEEPEST
            and (_C_LIMIT or limit() > _DEEPEST)
            and raw.count(b"{") + raw.count(b"[") > _DEEPEST
        ):
            raise msgspec.DecodeError("may nest deeper than orjson reads")
        return decode(raw)

    return shallow


def leaned(hot: Hot) -> Callable[[bytes | bytearray], Any] | None:
    """The decoder of the lean types among ``hot`` (see :mod:`._lean`), or None when there are none."""
    from toolwire.models._lean import is_lean, lean_decoder

    lean = tuple(t for t in hot if is_lean(t))
    return lean_decoder(lean) if lean else None


#: The deepest nesting orjson reads.
_DEEPEST: Final = 1024
#: Whether msgspec's nesting limit is a C one, whatever Python's recursion limit.
_C_LIMIT: Final = sys.version_info >= (3, 12)


def plain(value: Any) -> Any:
    """A typed hot event as the plain dict it was read from (anything else as it is)."""
    msgspec = sys.modules.get("msgspec")  # none is typed before msgspec is imported
    if msgspec is not None and isinstance(value, msgspec.Struct):
        return msgspec.to_builtins(value)
    return value


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


_EMPTY_STREAM: Final = cast(BinaryIO, io.BytesIO())


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
