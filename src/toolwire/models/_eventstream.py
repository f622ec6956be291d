"""AWS event-stream framing (``application/vnd.amazon.eventstream``), as Bedrock streams it.

A frame is a 12-byte prelude (total length, headers length, both big-endian
uint32, and the CRC32 of those 8 bytes), the headers, the payload and the
CRC32 of everything before it.  A header is a name (1-byte length, UTF-8), a
type byte and a value.  This module reads the framing itself instead of
importing botocore: it is small and documented, ``check`` stays lean, and a
bad frame is reported with its number while the frames after it are still read.
The tests hold it to ``botocore.eventstream.EventStreamBuffer`` byte for byte.

Src: AWS "Event stream encoding" (Amazon Transcribe / S3 Select developer guides);
``botocore`` 1.44.5 ``eventstream.py`` (``_PRELUDE_LENGTH``, ``_HEADER_TYPE_MAP``).

Each event becomes the decoded form botocore's parser yields for ConverseStream,
``{"<event-type>": payload}``; an InvokeModelWithResponseStream ``chunk``
becomes the JSON event its base64 ``bytes`` carry.
"""

from __future__ import annotations

import binascii
import struct
import zlib
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO, Final

import orjson

#: As ``_wire.Frame`` and ``_wire.ProblemSink`` (``_wire`` dispatches here, so this imports nothing of it).
Frame = tuple[int | None, Any, str | None]
ProblemSink = Callable[[int | None, str], None]

__all__ = ["CONTENT_TYPE", "encode_frame", "is_eventstream", "read_eventstream"]

#: The media type of an AWS event-stream response (the proxy recognises Bedrock streams by it).
CONTENT_TYPE: Final = "application/vnd.amazon.eventstream"
_PRELUDE: Final = 12
_CRC: Final = 4
#: Header value types: (struct format or None for length-prefixed, fixed size).
_FIXED: Final = {0: None, 1: None, 2: ("!b", 1), 3: ("!h", 2), 4: ("!i", 4), 5: ("!q", 8), 8: ("!q", 8)}
_BYTES_TYPES: Final = (6, 7)  # byte array, string: uint16 length, then the bytes
_UUID: Final = 9
#: botocore's limits (``_MAX_HEADERS_LENGTH``, ``_MAX_PAYLOAD_LENGTH``).
_MAX_HEADERS: Final = 128 * 1024
_MAX_PAYLOAD: Final = 24 * 1024 * 1024
#: Distinct header blocks remembered per stream.
_SEEN: Final = 256


def is_eventstream(head: bytes) -> bool:
    """``head`` starts with an event-stream prelude whose CRC32 checks out.

    >>> is_eventstream(encode_frame({":event-type": "messageStart"}, b"{}"))
    True
    >>> is_eventstream(b'data: {"a": 1}\\n\\n')
    False
    """
    if len(head) < _PRELUDE:
        return False
    total, headers = struct.unpack("!II", head[:8])
    return _bad_prelude(head[:_PRELUDE], total, headers) is None


def encode_frame(headers: dict[str, str], payload: bytes) -> bytes:
    """One frame with string headers and correct CRCs (for tests and fixtures).

    >>> len(encode_frame({}, b""))
    16
    """
    encoded = b""
    for name, value in headers.items():
        raw_name, raw_value = name.encode(), value.encode()
        encoded += struct.pack("!B", len(raw_name)) + raw_name + b"\x07" + struct.pack("!H", len(raw_value))
        encoded += raw_value
    total = _PRELUDE + len(encoded) + len(payload) + _CRC
    prelude = struct.pack("!II", total, len(encoded))
    prelude += struct.pack("!I", zlib.crc32(prelude))
    body = prelude + encoded + payload
    return body + struct.pack("!I", zlib.crc32(body))


def _headers(raw: bytes) -> dict[str, Any]:
    out: dict[str, Any] = {}
    at = 0
    while at < len(raw):
        size = raw[at]
        name = raw[at + 1 : at + 1 + size].decode("utf-8")
        at += 1 + size
        kind = raw[at]
        at += 1
        value: Any
        if kind in (0, 1):
            value = kind == 0
        elif kind in _BYTES_TYPES:
            (length,) = struct.unpack("!H", raw[at : at + 2])
            value = raw[at + 2 : at + 2 + length]
            value = value.decode("utf-8") if kind == 7 else value
            at += 2 + length
        elif kind == _UUID:
            value, at = raw[at : at + 16], at + 16
        elif kind in _FIXED and _FIXED[kind] is not None:
            fmt, size = _FIXED[kind]  # type: ignore[misc]
            (value,) = struct.unpack(fmt, raw[at : at + size])
            at += size
        else:
            raise ValueError(f"header {name!r} has unknown value type {kind}")
        out[name] = value
    return out


def read_eventstream(stream: BinaryIO, problem: ProblemSink) -> Iterator[Frame]:
    """Yield one frame per event; the ``line`` of a frame is its 1-based frame number.

    Frames are read one at a time (memory stays bounded by the largest frame).
    A frame whose message CRC fails is reported and skipped (its length is
    still sound); a bad prelude or a cut frame ends the reading, reported.
    """
    at = 0
    number = 0
    seen: dict[bytes, dict[str, Any]] = {}
    while head := _read(stream, _PRELUDE):
        number += 1
        if len(head) < _PRELUDE:
            problem(number, f"event-stream frame {number} is cut short: {len(head)} bytes of its prelude")
            return
        total, size = struct.unpack("!II", head[:8])
        why = _bad_prelude(head, total, size)
        if why is not None:
            problem(
                number,
                f"event-stream frame {number} (byte {at}): {why}; the frames from here on cannot be "
                "delimited and are not read",
            )
            return
        frame = head + _read(stream, total - _PRELUDE)
        if len(frame) < total:
            problem(number, f"event-stream frame {number} is cut short: {len(frame)} of {total} bytes")
            return
        at += total
        if zlib.crc32(frame[:-_CRC]) != struct.unpack("!I", frame[-_CRC:])[0]:
            problem(number, f"event-stream frame {number}: message CRC32 mismatch; frame skipped")
            continue
        raw = frame[_PRELUDE : _PRELUDE + size]
        try:
            # A stream repeats a handful of header blocks (one per event type): parse each once.
            headers = seen.get(raw) or _headers(raw)
        except (ValueError, IndexError, struct.error, UnicodeDecodeError) as exc:
            problem(number, f"event-stream frame {number}: unreadable headers ({exc}); frame skipped")
            continue
        if len(seen) < _SEEN:
            seen[raw] = headers
        event = _event(headers, frame[_PRELUDE + size : -_CRC], number, problem)
        if event is not None:
            yield number, event, headers.get(":event-type")


def _read(stream: BinaryIO, size: int) -> bytes:
    """``size`` bytes, fewer only at the end of ``stream`` (a pipe returns short reads)."""
    data = stream.read(size)
    while data and len(data) < size:
        more = stream.read(size - len(data))
        if not more:
            break
        data += more
    return data


def _bad_prelude(head: bytes, total: int, size: int) -> str | None:
    if zlib.crc32(head[:8]) != struct.unpack("!I", head[8:_PRELUDE])[0]:
        return "prelude CRC32 mismatch"
    if _PRELUDE + size + _CRC > total or size > _MAX_HEADERS or total - size - _PRELUDE - _CRC > _MAX_PAYLOAD:
        return f"lengths out of bounds (frame {total} bytes, headers {size} bytes)"
    return None


def _event(headers: dict[str, Any], payload: bytes, number: int, problem: ProblemSink) -> Any:
    kind = headers.get(":message-type", "event")
    if kind != "event":
        name = headers.get(":exception-type") or headers.get(":error-code") or kind
        problem(number, f"event-stream frame {number} is an {kind} ({name}): {payload[:200]!r}")
        return None
    try:
        value = orjson.loads(payload or b"{}")
    except orjson.JSONDecodeError as exc:
        problem(number, f"event-stream frame {number}: the payload is not JSON ({exc})")
        return None
    event_type = headers.get(":event-type")
    if event_type == "chunk" and isinstance(value, dict) and isinstance(value.get("bytes"), str):
        try:
            return orjson.loads(binascii.a2b_base64(value["bytes"], strict_mode=True))
        except (ValueError, orjson.JSONDecodeError) as exc:
            problem(number, f"event-stream frame {number}: chunk bytes are not base64 JSON ({exc})")
            return None
    return {event_type: value} if isinstance(event_type, str) else value
