"""Typed and lean decoding of a monitor's hot event types, past the lines a check samples plain."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, Final, Union

from toolwire.models._frames import _CHUNK, Hot

__all__ = ["LEAN_BYTES", "TYPED_AFTER", "leaned", "plain", "typed"]


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
