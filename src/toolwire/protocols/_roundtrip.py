"""Round trip over the registry: a request must replay the calls of the stream it follows.

The rules and the comparison are the kit's (:mod:`toolwire.properties._roundtrip`); this finds the
replaying turn and looks the rules up in the registry.
"""

from __future__ import annotations

from toolwire.properties._monitor import Monitor
from toolwire.properties._roundtrip import compare_round_trip, keyed
from toolwire.properties._turn import Turn

__all__ = ["check_round_trip"]


def check_round_trip(stream: list[Turn], request: Monitor) -> None:
    """Report on ``request`` every way its replay of ``stream``'s calls differs.

    The replaying turn is the request turn sharing the most call ids with the
    stream; failing that, the last turn calling the same tool names in order.
    """
    from toolwire.protocols._registry import RULES  # loads every family: only when a round trip is checked

    streamed = [keyed(call) for turn in stream for call in turn.calls]
    if not streamed:
        return
    turns = [Turn(t.index, t.line, t.path, [keyed(c) for c in t.calls]) for t in request.calls()]
    ids = {call.id for call in streamed if call.id is not None}
    best = max(turns, key=lambda turn: sum(call.id in ids for call in turn.calls), default=None)
    if best is None or not any(call.id in ids for call in best.calls):
        names = [call.name for call in streamed]
        matches = [turn for turn in turns if [call.name for call in turn.calls] == names]
        best = matches[-1] if matches else None
    if best is None:
        request.record(
            RULES["RT-1"],
            f"no assistant turn of the request replays the {len(streamed)} streamed call(s) "
            + ", ".join(f"{call.id} ({call.name})" for call in streamed),
            index=None,
            line=None,
            ids=[call.id for call in streamed],
        )
        return
    compare_round_trip(streamed, best, request, RULES)
