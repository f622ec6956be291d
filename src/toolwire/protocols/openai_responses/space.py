"""Explored OpenAI Responses traffic: streams (``response.created`` .. ``function_call`` items ..
``completed``), response bodies, and a request's ``input`` items."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolwire.machines import ChatConversation, FunctionCallItem, ResponseStream, compile_machine
from toolwire.properties._spaces._bodies import BodySpace
from toolwire.properties._spaces._conversations import ChatTurns, TurnCall
from toolwire.properties._spaces._lanes import Lanes, LaneSpace, Slot, taken
from toolwire.properties._spaces._space import Move, Wire
from toolwire.protocols.openai_responses.generate import BODY, call_id, envelope

__all__ = ["OpenResponsesSpace", "ResponsesInputSpace", "ResponsesResponseSpace", "ResponsesSpace"]


class ResponsesSpace(LaneSpace):
    """``response.created``, ``response.in_progress``, ``function_call`` items, ``response.completed``."""

    protocol = "openai-responses-stream"
    lanes = Lanes(
        lane=compile_machine(FunctionCallItem),
        events=("item_added", "delta", "arguments_complete", "item_done"),
        fragments=frozenset({"delta"}),
        minimum={"arguments_complete": 1},
        envelope=compile_machine(ResponseStream),
        opening=("response_created", "response_in_progress"),
        closing="completed",
        carrier="item",
    )

    def render(self, path: Sequence[Move]) -> Wire:
        calls = self.calls(path)
        seen: dict[int, int] = {}
        events: Wire = []
        for move in path:
            if move[0] == "env":
                kind = "response.created" if move[1] == "response_created" else "response.in_progress"
                events.append({"type": kind, "response": envelope("in_progress")})
            elif move[0] == "close":
                events.append({"type": "response.completed", "response": envelope("completed")})
            else:
                call = calls[move[1]]
                events.append(self._item_event(call, move[2], seen))
        for number, event in enumerate(events):
            event["sequence_number"] = number
        return events

    def _item_event(self, call: Slot, event: str, seen: dict[int, int]) -> dict[str, Any]:
        item_id = f"fc_{call.token * 2}"
        where = {"item_id": item_id, "output_index": call.position}
        item = {
            "id": item_id,
            "type": "function_call",
            "status": "in_progress",
            "arguments": "",
            "call_id": call_id(call),
            "name": call.name,
        }
        if event == "item_added":
            return {"type": "response.output_item.added", "output_index": call.position, "item": item}
        if event == "delta":
            return {
                "type": "response.function_call_arguments.delta",
                **where,
                "delta": call.pieces[taken(seen, call)],
            }
        if event == "arguments_complete":
            return {"type": "response.function_call_arguments.done", **where, "arguments": call.arguments}
        finished = item | {"status": "completed", "arguments": call.arguments}
        return {"type": "response.output_item.done", "output_index": call.position, "item": finished}


class OpenResponsesSpace(ResponsesSpace):
    """Open Responses: the same events as OpenAI's."""

    protocol = "open-responses-stream"


class ResponsesResponseSpace(BodySpace):
    """A ``openai-responses-response`` body: its calls whole, then its stop reason."""

    protocol = "openai-responses-response"
    quirks = frozenset()
    neutral = True
    generator = BODY


class ResponsesInputSpace(ChatTurns):
    """A request's ``input`` items: a ``function_call`` item a call, then a ``function_call_output``
    item each, in any order.

    Responses pairs by ``call_id`` alone (:class:`FunctionCallPairing`, a machine per id): the
    turns are Chat's (:class:`ChatConversation` steps them, one output an item as one tool message
    a result), the shape every client writes.
    """

    protocol = "openai-responses"
    table = compile_machine(ChatConversation)

    def user_message(self, text: str) -> dict[str, Any]:
        return {"role": "user", "content": text}

    def text_message(self, text: str) -> dict[str, Any]:
        return {"role": "assistant", "content": text}

    def call_messages(self, calls: list[TurnCall]) -> list[dict[str, Any]]:
        return [
            {"type": "function_call", "call_id": call_id(c), "name": c.name, "arguments": c.arguments}
            for c in calls
        ]

    def result_message(self, calls: list[TurnCall]) -> dict[str, Any]:
        (call,) = calls
        return {"type": "function_call_output", "call_id": call_id(call), "output": call.result}
