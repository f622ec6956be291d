"""Reading a big event for what its rules read, and nothing more.

A ``response.completed`` that carries every output item of a long response is one line of many
megabytes; read plain, it is a tree of some hundred thousand Python objects (six times its size)
beside the bytes it was read from, and built beside orjson's own document of it.  No rule of the
stream reads that copy: the items were judged as they streamed.  A monitor names such events as
*lean* types among its hot ones: ``msgspec.Struct`` classes with a tag that declare only the fields
its rules read and, unlike the hot types, let the rest be (``forbid_unknown_fields`` off), so that
msgspec walks past it without building it.

What msgspec accepts while walking past a value, orjson may refuse: bytes that are not UTF-8
inside a string, a number too big for a double, and (where msgspec's nesting limit is not
Python's recursion limit of at most 1024) nesting deeper than 1024 levels.  :func:`faithful`
rules them out, so a line read lean is one orjson reads too, with the same values in the declared
fields (the lean types type them as the hot ones do, see :mod:`._typed`); anything else is read
plain, as before.
"""

from __future__ import annotations

import codecs
import math
import re
import sys
from collections.abc import Callable
from typing import Any, Final, Union

__all__ = ["faithful", "is_lean", "lean_decoder"]

#: Each byte as its class for :func:`_overflows`: what a number value follows (``:``, ``,``, ``[``
#: and white space) as ``c``, what a number starts with (a digit or ``-``) as ``0``, the rest ``x``.
_CLASSES: Final = bytes(
    ord("c") if byte in b":,[ \t\r\n" else ord("0") if byte in b"-0123456789" else ord("x")
    for byte in range(256)
)
#: A JSON number.
_NUMBER: Final = re.compile(rb"-?[0-9]+(?:\.[0-9]+)?([eE][+-]?[0-9]+)?")
#: A JSON string (skipped whole), an opening bracket (group 1) or a closing one (group 2).
_TOKEN: Final = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|([\[{])|([\]}])')
#: The deepest nesting orjson reads.
_DEEPEST: Final = 1024
#: Whether msgspec's nesting limit is a C one (from 3.12: about 1500 levels), whatever Python's
#: recursion limit.
_C_LIMIT: Final = sys.version_info >= (3, 12)
#: Bytes weighed at a time (UTF-8, numbers): what is copied to weigh them is this, not the line.
_PIECE: Final = 1 << 16


def is_lean(kind: type) -> bool:
    """Whether the hot type ``kind`` is a lean one: it lets unknown fields be."""
    config = getattr(kind, "__struct_config__", None)
    return config is not None and not config.forbid_unknown_fields


def faithful(raw: bytes | bytearray) -> bool:
    """Whether orjson reads ``raw``, a JSON object msgspec has read, as well: all of it UTF-8,
    no number in it that may overflow a double, nested no deeper than orjson reads.

    >>> faithful(b'{"a": "\\xc3\\xa9", "b": [1, 2.5]}')
    True
    >>> faithful(b'{"a": "\\xff"}'), faithful(b'{"a": 1e999}')
    (False, False)
    """
    if not raw.isascii():
        decoder = codecs.getincrementaldecoder("utf-8")()
        view = memoryview(raw)
        try:
            for start in range(0, len(view), _PIECE):
                decoder.decode(view[start : start + _PIECE])
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            return False
    return not _overflows(raw) and _shallow(raw)


def _overflows(raw: bytes | bytearray) -> bool:
    """Whether a number in ``raw`` (JSON msgspec read) is infinity as a double, as orjson reads it.

    Every number value follows a ``:``, ``,`` or ``[`` and perhaps white space, so each is where
    a byte of the first kind precedes a digit or ``-`` (found a piece at a time, in the bytes
    mapped to their classes; text in a string found so too is weighed alike, which at worst
    sends the line to orjson).
    """
    view = memoryview(raw)
    for start in range(0, len(view), _PIECE):
        base = max(0, start - 1)  # one byte back: a pair that straddles two pieces
        classes = view[base : start + _PIECE].tobytes().translate(_CLASSES)
        at = classes.find(b"c0")
        while at >= 0:
            number = _NUMBER.match(raw, base + at + 1)
            if number is not None and _infinite(number):
                return True
            at = classes.find(b"c0", at + 1)
    return False


def _infinite(number: re.Match[bytes]) -> bool:
    """Whether the JSON ``number`` is infinity as a double (only one with an exponent or past 308
    digits may be)."""
    return bool(number[1] or number.end() - number.start() > 308) and math.isinf(float(number[0]))


def _shallow(raw: bytes | bytearray) -> bool:
    """Whether ``raw`` (JSON msgspec read) nests no deeper than :data:`_DEEPEST` levels."""
    if not (_C_LIMIT or sys.getrecursionlimit() > _DEEPEST):
        return True  # msgspec refused anything deeper already
    if raw.count(b"[") + raw.count(b"{") <= _DEEPEST:
        return True
    depth = 0
    for token in _TOKEN.finditer(raw):
        kind = token.lastindex
        if kind == 1:
            depth += 1
            if depth > _DEEPEST:
                return False
        elif kind == 2:
            depth -= 1
    return True


def lean_decoder(lean: tuple[type, ...]) -> Callable[[bytes | bytearray], dict[str, Any]]:
    """A decoder of the ``lean`` types that returns the plain dict of their declared fields (and
    the tag), and raises ``ValueError`` (``RecursionError`` for deep nesting) on a line that is none
    of them or that orjson would not read as :func:`faithful` says."""
    import msgspec

    kind: Any = lean[0] if len(lean) == 1 else Union[lean]  # noqa: UP007
    decode = msgspec.json.Decoder(kind).decode
    to_builtins = msgspec.to_builtins

    def lean_decode(raw: bytes | bytearray) -> dict[str, Any]:
        value = decode(raw)
        if not faithful(raw):
            raise msgspec.DecodeError("orjson may not read it as msgspec did")
        out: dict[str, Any] = to_builtins(value)
        return out

    return lean_decode
