"""A turn of tool calls as a trace carried them, for relations between traces."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

__all__ = ["Call", "Turn"]


class Call(NamedTuple):
    """A reassembled tool call, each field as the wire carried it (None where the wire had none)."""

    id: str | None
    name: str | None
    #: The arguments as JSON text, reassembled from their fragments.
    arguments: str | None


@dataclass(slots=True)
class Turn:
    """The calls of one assistant turn, and where the turn starts in its trace."""

    index: int | None
    line: int | None
    path: str
    calls: list[Call] = field(default_factory=list)
