"""The stream spaces: OpenAI Responses / Open Responses, Chat Completions, the AI SDK provider stream.

Each maps its machines' events to the wire events providers send; the
envelopes and chunk shapes are the strategies' own (``_strategies._streams``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolwire.machines import (
    ChatToolCallStream,
    FunctionCallItem,
    ResponseStream,
    StreamToolCall,
    compile_machine,
)
from toolwire.properties._spaces._lanes import Lanes, LaneSpace, Slot
from toolwire.properties._spaces._space import Move, Wire
from toolwire.properties._strategies._streams import _chunk, add_fragment, chat_fragment, chat_id

__all__ = ["AISDKSpace", "ChatStreamSpace", "OpenResponsesSpace", "ResponsesSpace"]

_RESPONSE = {
    "id": "resp_a4c123b1612dd272d1371c17149d439536b3216fdaeeb975",
    "object": "response",
    "created_at": 1764000000,
    "status": "in_progress",
    "model": "gpt-4.1-2025-04-14",
    "output": [],
}


def taken(seen: dict[int, int], call: Slot) -> int:
    """The number of ``call``'s next fragment, counted in ``seen``."""
    j = seen.get(call.number, 0)
    seen[call.number] = j + 1
    return j


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
    #: Open Responses drops ``name`` from ``function_call_arguments.done``.
    named_done = True

    def render(self, path: Sequence[Move]) -> Wire:
        calls = self.calls(path)
        seen: dict[int, int] = {}
        events: Wire = []
        for move in path:
            if move[0] == "env":
                kind = "response.created" if move[1] == "response_created" else "response.in_progress"
                events.append({"type": kind, "response": dict(_RESPONSE)})
            elif move[0] == "close":
                events.append({"type": "response.completed", "response": _RESPONSE | {"status": "completed"}})
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
            "call_id": chat_id(call),
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
            done = {"type": "response.function_call_arguments.done", **where, "arguments": call.arguments}
            return done | {"name": call.name} if self.named_done else done
        finished = item | {"status": "completed", "arguments": call.arguments}
        return {"type": "response.output_item.done", "output_index": call.position, "item": finished}


class OpenResponsesSpace(ResponsesSpace):
    """Open Responses: as OpenAI's, without ``name`` on ``function_call_arguments.done``."""

    protocol = "open-responses-stream"
    named_done = False


class ChatStreamSpace(LaneSpace):
    """Chat Completions chunks: a role chunk, tool-call fragments by ``index``, a ``finish_reason`` chunk.

    Quirks: ``two-per-chunk`` (a fragment of another call joins the chunk
    before it), ``repeated-ids`` / ``null-ids`` (continuations carry the id /
    the string ``"null"``), ``index-0`` (every call at ``index`` 0, one after
    the other).
    """

    protocol = "openai-chat-stream"
    lanes = Lanes(
        lane=compile_machine(ChatToolCallStream),
        events=("start", "more"),
        fragments=frozenset({"start", "more"}),
        broadcast="finish",
    )
    quirks = frozenset({"two-per-chunk", "repeated-ids", "null-ids", "index-0"})

    def default_interleave(self) -> bool:
        return "index-0" not in self.bounds.quirks

    def render(self, path: Sequence[Move]) -> Wire:
        calls = self.calls(path)
        quirks = self.bounds.quirks
        events: Wire = [_chunk({"role": "assistant", "content": None})]
        seen: dict[int, int] = {}
        merged: dict[str, Any] | None = None
        for move in path:
            if move[0] == "close":
                events.append(_chunk({}, "tool_calls" if calls else "stop"))
                continue
            call = calls[move[1]]
            j = taken(seen, call)
            index = 0 if "index-0" in quirks else call.position
            fragment = chat_fragment(call, call.name, call.pieces[j], j, index, quirks)
            merged = add_fragment(events, merged, fragment, quirks)
        return events


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
                events.append(
                    {"type": "finish", "finishReason": {"unified": reason, "raw": reason}, "usage": {}}
                )
                continue
            call = calls[move[1]]
            call_id = chat_id(call)
            event = move[2]
            if event == "input_start":
                events.append({"type": "tool-input-start", "id": call_id, "toolName": call.name})
            elif event == "input_delta":
                events.append(
                    {"type": "tool-input-delta", "id": call_id, "delta": call.pieces[taken(seen, call)]}
                )
            elif event == "input_end":
                events.append({"type": "tool-input-end", "id": call_id})
            else:
                events.append(
                    {
                        "type": "tool-call",
                        "toolCallId": call_id,
                        "toolName": call.name,
                        "input": call.arguments,
                    }
                )
        return events
