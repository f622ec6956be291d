"""Short renderings of wire values for finding messages."""

from __future__ import annotations

__all__ = ["clip"]


def clip(text: str, limit: int = 60) -> str:
    """``repr`` of ``text``, cut at ``limit`` characters with its full length noted.

    >>> clip("x" * 70, 4)
    "'xxxx'... (70 chars)"
    """
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} chars)"
