"""Explored Mistral traffic: chat streams (the Chat Completions fragment lanes, written as Mistral
chunks) and chat completion bodies (their calls whole, then the stop reason)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolwire.machines import ChatToolCallStream, compile_machine
from toolwire.properties._spaces._bodies import BodySpace
from toolwire.properties._spaces._lanes import Lanes, LaneSpace, taken
from toolwire.properties._spaces._space import Move, Wire
from toolwire.protocols.mistral.generate import RESPONSE, mistral_chunk, mistral_fragment

__all__ = ["MistralResponseSpace", "MistralStreamSpace"]


class MistralResponseSpace(BodySpace):
    """A ``mistral-chat-response`` body: its calls whole, then its stop reason."""

    protocol = "mistral-chat-response"
    generator = RESPONSE


class MistralStreamSpace(LaneSpace):
    """Mistral chunks: one :class:`ChatToolCallStream` lane per call at its own index, then ``finish_reason``.

    Every fragment names its function (``FunctionCall`` requires it); a
    continuation carries no id, or (``split-arguments``) the id "null";
    ``unindexed`` leaves ``index`` out, so calls must arrive one after the other.
    """

    protocol = "mistral-chat-stream"
    lanes = Lanes(
        lane=compile_machine(ChatToolCallStream),
        events=("start", "more"),
        fragments=frozenset({"start", "more"}),
        broadcast="finish",
    )
    quirks = frozenset({"unindexed", "split-arguments"})

    def default_interleave(self) -> bool:
        return "unindexed" not in self.bounds.quirks

    def render(self, path: Sequence[Move]) -> Wire:
        calls = self.calls(path)
        quirks = self.bounds.quirks
        events: Wire = [mistral_chunk({"role": "assistant", "content": ""})]
        seen: dict[int, int] = {}
        for move in path:
            if move[0] == "close":
                events.append(mistral_chunk({"content": ""}, "tool_calls" if calls else "stop"))
                continue
            call = calls[move[1]]
            j = taken(seen, call)
            fragment: dict[str, Any] = mistral_fragment(
                call, call.name, call.position, call.pieces[j], first=j == 0, quirks=quirks
            )
            if j and "split-arguments" not in quirks:
                del fragment["id"]
            events.append(mistral_chunk({"tool_calls": [fragment]}))
        return events
