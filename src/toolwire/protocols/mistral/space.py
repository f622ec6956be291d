"""Explored Mistral traffic: chat streams (the Chat Completions fragment lanes, written as Mistral
chunks), chat completion bodies (their calls whole, then the stop reason), and a request's messages."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from toolwire.machines import ChatToolCallStream, MistralConversation, compile_machine
from toolwire.properties._spaces._bodies import BodySpace
from toolwire.properties._spaces._conversations import ConversationSpace, TurnCall
from toolwire.properties._spaces._lanes import Lanes, LaneSpace, taken
from toolwire.properties._spaces._space import Move, Step, Wire
from toolwire.protocols.mistral.generate import RESPONSE, mistral_chunk, mistral_fragment

__all__ = ["MistralResponseSpace", "MistralSpace", "MistralStreamSpace"]


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


def _tool_call(call: TurnCall) -> dict[str, Any]:
    function = {"name": call.name, "arguments": call.arguments}
    return {"id": call.token[:9], "type": "function", "function": function}


class MistralSpace(ConversationSpace):
    """Mistral ``messages``: Chat Completions turns, tool messages in call order (MI-4), ids of
    nine letters and digits (MI-1)."""

    protocol = "mistral-chat"
    table = compile_machine(MistralConversation)
    user = "to_user"
    text = "assistant"
    call = "calls"

    def results(self, state: Any) -> Iterator[Step]:
        return self.each_result(state, "answer", "last", in_order=True)

    def user_message(self, text: str) -> dict[str, Any]:
        return {"role": "user", "content": text}

    def text_message(self, text: str) -> dict[str, Any]:
        return {"role": "assistant", "content": text}

    def call_message(self, calls: list[TurnCall]) -> dict[str, Any]:
        return {
            "role": "assistant",
            "content": "",
            "tool_calls": [_tool_call(c) for c in calls],
        }

    def result_message(self, calls: list[TurnCall]) -> dict[str, Any]:
        (call,) = calls
        return {"role": "tool", "tool_call_id": call.token[:9], "content": call.result}
