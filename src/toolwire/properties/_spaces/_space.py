"""Bounded state spaces of valid traffic: products of compiled tables, stepped one wire event at a time.

A :class:`Space` is what the explorer walks.  Its states are tuples of table
state numbers and counters; each move is one wire event and names the table
transitions it fires, so coverage is measured on the machines themselves.
Every path from :meth:`Space.start` to an accepting state renders (through
:meth:`Space.render`) to one valid trace of the protocol.

Symmetry over call ids: calls are numbered slots, and slot ``k`` always
carries id ``k``.  With ``symmetry`` on, a call may only open in the lowest
free slot, so ids appear in order of first use: of all the traces that differ
only by a renaming of ids, exactly that one is explored.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from toolwire.errors import UsageError
from toolwire.machines import Table

__all__ = ["Bounds", "Fired", "Move", "Space", "Step", "Wire"]

Wire = list[dict[str, Any]]
#: A table transition fired by a move: (table number in ``Space.tables``, source state, event).
Fired = tuple[int, int, str]
#: What a move is, for rendering: hashable, protocol-specific.
Move = tuple[Any, ...]
#: One move out of a state: the move, the state it leads to, the transitions it fires.
Step = tuple[Move, Hashable, tuple[Fired, ...]]

#: Tool names calls draw from when ``names`` > 1; the first is every call's name when it is 1.
NAMES: Final = ("get_weather", "search", "read_file")


@dataclass(frozen=True, slots=True)
class Bounds:
    """How far exploration goes.

    ``calls``: calls per stream, or per assistant turn of a conversation;
    ``deltas``: argument fragments per call (streams); ``turns``: user turns
    (conversations); ``names``: distinct tool names a call may have (every
    assignment is explored); ``interleave``: calls may be open at once
    (``None``: as the protocol's providers do); ``quirks``: a quirk profile,
    rendered on every trace; ``symmetry``: explore one trace per renaming of ids.
    """

    calls: int = 2
    deltas: int = 2
    turns: int = 1
    names: int = 1
    interleave: bool | None = None
    quirks: frozenset[str] = field(default_factory=frozenset)
    symmetry: bool = True

    def __post_init__(self) -> None:
        for name in ("calls", "deltas", "turns", "names"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < (0 if name == "calls" else 1):
                raise UsageError(
                    f"bound {name} must be an integer >= {0 if name == 'calls' else 1}, not {value}"
                )
        if self.names > len(NAMES):
            raise UsageError(
                f"bound names is at most {len(NAMES)} (toolwire's tool names: {', '.join(NAMES)})"
            )

    def describe(self, space: Space) -> dict[str, Any]:
        """The bounds that apply to ``space``, as the report states them."""
        shown: dict[str, Any] = {"calls": self.calls}
        if space.streamed:
            shown["deltas"] = self.deltas
            shown["interleave"] = space.interleave
        else:
            shown["turns"] = self.turns
        shown["names"] = self.names
        if self.quirks:
            shown["quirks"] = ",".join(sorted(self.quirks))
        shown["symmetry"] = self.symmetry
        return shown


class Space(ABC):
    """The valid traces of one protocol within :class:`Bounds`, as a graph of states."""

    protocol: str
    #: The compiled tables whose transitions moves fire, in a fixed order.
    tables: tuple[Table, ...]
    #: Streams count argument fragments; conversations count turns.
    streamed: bool = True
    #: The quirk profiles this space can render.
    quirks: frozenset[str] = frozenset()

    def __init__(self, bounds: Bounds) -> None:
        unknown = sorted(bounds.quirks - self.quirks)
        if unknown:
            choices = ", ".join(sorted(self.quirks)) or "none"
            raise UsageError(
                f"explore renders no quirk profile {', '.join(unknown)} for {self.protocol}; "
                f"it renders: {choices}"
            )
        self.bounds = bounds
        self.interleave = self.default_interleave() if bounds.interleave is None else bounds.interleave

    def default_interleave(self) -> bool:
        """Whether the protocol's providers interleave calls."""
        return False

    @abstractmethod
    def start(self) -> Hashable:
        """The state before the first event."""

    @abstractmethod
    def steps(self, state: Any) -> Iterable[Step]:
        """Every move out of ``state``, in a stable order."""

    @abstractmethod
    def accepting(self, state: Any) -> bool:
        """A trace may end in ``state``."""

    @abstractmethod
    def render(self, path: Sequence[Move]) -> Wire:
        """The wire events of a complete path."""
