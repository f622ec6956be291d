"""Short renderings of wire values for finding messages."""

from __future__ import annotations

__all__ = ["clip"]


def clip(value: object, limit: int = 60) -> str:
    """``repr`` of ``value``, cut at ``limit`` characters with the full length noted.

    >>> clip("x" * 70, 4)
    "'xxxx'... (70 chars)"
    >>> clip(False)
    'False'
    """
    if not isinstance(value, str):
        text = repr(value)
        return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"
    return repr(value) if len(value) <= limit else repr(value[:limit]) + f"... ({len(value)} chars)"
