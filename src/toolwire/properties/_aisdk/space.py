"""Explored AI SDK provider streams: ``tool-input-start``, ``-delta``, ``-end``, ``tool-call``, ``finish``."""

from __future__ import annotations

from collections.abc import Sequence

from toolwire.machines import StreamToolCall, compile_machine
from toolwire.properties._aisdk.generate import call_id, finish
from toolwire.properties._spaces._lanes import Lanes, LaneSpace, taken
from toolwire.properties._spaces._space import Move, Wire

__all__ = ["AISDKSpace"]


class AISDKSpace(LaneSpace):
    """AI SDK provider stream parts: ``tool-input-start``, ``-delta``, ``-end``, ``tool-call``, ``finish``.

    A call comes whole (``tool-call`` alone), announced (start, then
    ``tool-call``), or streamed in deltas, with or without ``tool-input-end``.
    Calls come one after the other unless ``interleave`` is on: the
    providers the SDK wraps stream calls in sequence, and interleaving makes
    the space huge (about 2 * 10^7 traces at 3 calls x 3 deltas, against 585).
    """

    protocol = "aisdk-stream"
    lanes = Lanes(
        lane=compile_machine(StreamToolCall),
        events=("input_start", "input_delta", "input_end", "call"),
        fragments=frozenset({"input_delta"}),
        minimum={"input_end": 1},
    )

    def render(self, path: Sequence[Move]) -> Wire:
        calls = self.calls(path)
        events: Wire = []
        seen: dict[int, int] = {}
        for move in path:
            if move[0] == "close":
                reason = "tool-calls" if calls else "stop"
                events.append(finish(reason))
                continue
            call = calls[move[1]]
            ident = call_id(call)
            event = move[2]
            if event == "input_start":
                events.append({"type": "tool-input-start", "id": ident, "toolName": call.name})
            elif event == "input_delta":
                events.append(
                    {"type": "tool-input-delta", "id": ident, "delta": call.pieces[taken(seen, call)]}
                )
            elif event == "input_end":
                events.append({"type": "tool-input-end", "id": ident})
            else:
                events.append(
                    {
                        "type": "tool-call",
                        "toolCallId": ident,
                        "toolName": call.name,
                        "input": call.arguments,
                    }
                )
        return events
