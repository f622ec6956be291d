"""A turn of tool calls as a trace carried them, for relations between traces."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Call", "Turn"]

#: A reassembled tool call: ``(id, name, arguments)`` as the wire carried them.
Call = tuple[str | None, str | None, str | None]


@dataclass(slots=True)
class Turn:
    """The calls of one assistant turn, and where the turn starts in its trace."""

    index: int | None
    line: int | None
    path: str
    calls: list[Call] = field(default_factory=list)
