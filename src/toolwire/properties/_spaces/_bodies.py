"""Body spaces: the calls of one response body, each whole, then the stop reason.

A body carries its calls complete, so each call is one move: a lane of the shared
:class:`ContentBlock` machine starts (the call appears whole) and the close stops
it; every call is also a ``call`` of the turn's :class:`ResponseBody`, which the
close ends with a ``stop``.  A path renders through the protocol's own body
generator, given the path's calls as a plan and the first shape of every choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, cast

from hypothesis import strategies as st

from toolwire.machines import ContentBlock, ResponseBody, compile_machine
from toolwire.properties._spaces._lanes import Lanes, LaneSpace
from toolwire.properties._spaces._space import Fired, Move, Wire
from toolwire.properties._strategies._plan import Plan, PlannedCall, PlannedTurn
from toolwire.properties._strategies._render import Generator

__all__ = ["BodySpace"]


def _first(strategy: Any) -> Any:
    """A draw that takes the first option of every :func:`pick` (the commonest real shape)."""
    return 0


class BodySpace(LaneSpace):
    """A response body's space; subclasses name the protocol and its body renderer."""

    lanes = Lanes(
        lane=compile_machine(ContentBlock),
        events=("start",),
        fragments=frozenset(),
        envelope=compile_machine(ResponseBody),
        carrier="call",
        broadcast="stop",
    )
    #: The stop reason says neither tool calls nor end of turn (Gemini's STOP, a Responses status).
    neutral: ClassVar[bool] = False
    #: The protocol's body generator (its ``generate`` module's), which writes a plan as a body.
    generator: ClassVar[Generator]

    def default_interleave(self) -> bool:
        return True

    def _close_event(self, opened: bool) -> str | None:
        """The stop reason the body carries: tools_stop after calls, end_stop without, or neutral."""
        return "stop" if self.neutral else "tools_stop" if opened else "end_stop"

    def _close_lane(self, state: int, opened: bool) -> tuple[int, Fired | None] | None:
        """Every call stops with the body."""
        if not opened:
            return state, None
        return self.lanes.lane.rows["stop"][state], (1, state, "stop")

    def render(self, path: Sequence[Move]) -> Wire:
        slots = self.calls(path).values()
        calls = tuple(PlannedCall(s.token, s.name, s.arguments, (s.arguments,), "") for s in slots)
        plan = Plan((PlannedTurn("", calls, tuple(range(len(calls))), (), "Hello"),))
        return self.generator.render(cast(st.DrawFn, _first), plan, self.bounds.quirks)
