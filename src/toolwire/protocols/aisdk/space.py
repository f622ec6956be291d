"""Explored AI SDK traffic: provider streams, the full stream, and model-message conversations."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from toolwire.machines import ILLEGAL, FullStreamToolCall, ModelConversation, StreamToolCall, compile_machine
from toolwire.properties._spaces._conversations import ConversationSpace, TurnCall
from toolwire.properties._spaces._lanes import Lanes, LaneSpace, taken
from toolwire.properties._spaces._space import Move, Step, Wire
from toolwire.protocols.aisdk.generate import (
    FULL_USAGE,
    TIMEOUT,
    call_id,
    finish,
    finish_step,
    model_output,
    start_step,
)

__all__ = ["AISDKSpace", "FullStreamSpace", "ModelMessagesSpace", "UIMessagesSpace"]


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


class FullStreamSpace(LaneSpace):
    """``streamText``'s full stream, one step: calls streamed, announced or whole, then answered or not.

    The envelope (``start``, ``start-step`` .. ``finish-step``, ``finish``) is
    written around the lanes; a call's lane runs its input parts, its
    tool-call (with the parsed input) and, when the path says so, its
    tool-result or tool-error in the same step.
    """

    protocol = "aisdk-full-stream"
    lanes = Lanes(
        lane=compile_machine(FullStreamToolCall),
        events=("input_start", "input_delta", "input_end", "call", "result", "error"),
        fragments=frozenset({"input_delta"}),
    )

    def render(self, path: Sequence[Move]) -> Wire:
        calls = self.calls(path)
        events: Wire = [{"type": "start"}, start_step()]
        seen: dict[int, int] = {}
        for move in path:
            if move[0] == "close":
                reason = "tool-calls" if calls else "stop"
                events.append(finish_step(reason, 0))
                events.append(
                    {
                        "type": "finish",
                        "finishReason": reason,
                        "rawFinishReason": reason,
                        "totalUsage": dict(FULL_USAGE),
                    }
                )
                continue
            call = calls[move[1]]
            ident = call_id(call)
            event = move[2]
            if event == "input_start":
                events.append(
                    {"type": "tool-input-start", "id": ident, "toolName": call.name, "dynamic": False}
                )
            elif event == "input_delta":
                events.append(
                    {"type": "tool-input-delta", "id": ident, "delta": call.pieces[taken(seen, call)]}
                )
            elif event == "input_end":
                events.append({"type": "tool-input-end", "id": ident})
            else:
                kind = {"call": "tool-call", "result": "tool-result", "error": "tool-error"}[event]
                part: dict[str, Any] = {
                    "type": kind,
                    "toolCallId": ident,
                    "toolName": call.name,
                    "input": json.loads(call.arguments),
                }
                if event == "result":
                    part["output"] = f"{call.name} result {call.number}"
                elif event == "error":
                    part["error"] = TIMEOUT
                events.append(part)
        return events


class ModelMessagesSpace(ConversationSpace):
    """``ModelMessage[]``: tool messages answer pending calls, one each in any order, or all in one."""

    protocol = "aisdk-model-messages"
    table = compile_machine(ModelConversation)
    user = "user"
    text = "assistant"
    call = "calls"

    def results(self, state: Any) -> Iterator[Step]:
        table_state, turns, _, pending, used = state
        options = [(n,) for n in pending]
        if len(pending) > 1:
            options.append(tuple(pending))
        for moved in options:
            rest = tuple(p for p in pending if p not in moved)
            event = "partial" if rest else "results"
            target = self.table.rows[event][table_state]
            if target != ILLEGAL:
                yield ("result", *moved), (target, turns, "result", rest, used), ((0, table_state, event),)

    def user_message(self, text: str) -> dict[str, Any]:
        return {"role": "user", "content": text}

    def text_message(self, text: str) -> dict[str, Any]:
        return {"role": "assistant", "content": text}

    def call_message(self, calls: list[TurnCall]) -> dict[str, Any]:
        content = [
            {
                "type": "tool-call",
                "toolCallId": call_id(c),
                "toolName": c.name,
                "input": json.loads(c.arguments),
            }
            for c in calls
        ]
        return {"role": "assistant", "content": content}

    def result_message(self, calls: list[TurnCall]) -> dict[str, Any]:
        content = [
            {
                "type": "tool-result",
                "toolCallId": call_id(c),
                "toolName": c.name,
                "output": model_output(c.result, False),
            }
            for c in calls
        ]
        return {"role": "tool", "content": content}


class UIMessagesSpace(ModelMessagesSpace):
    """``UIMessage[]``: per turn a user message and an assistant message whose tool parts end answered.

    The conversation runs as :class:`ModelConversation` runs the model messages the list
    converts to: each call is answered (``result``: ``output-available``) or fails (``failed``:
    ``output-error``),
    one at a time, in any order; a step answering in text follows.  The outcome is written
    into the call's own tool part: a UI message holds a call and its outcome in one part.
    """

    protocol = "aisdk-ui-messages"

    def results(self, state: Any) -> Iterator[Step]:
        table_state, turns, _, pending, used = state
        # The order of the outcomes does not show in the messages: answer the first pending call.
        for n in pending[:1]:
            rest = tuple(p for p in pending if p != n)
            event = "partial" if rest else "results"
            target = self.table.rows[event][table_state]
            if target != ILLEGAL:
                for outcome in ("result", "failed"):
                    yield (outcome, n), (target, turns, "result", rest, used), ((0, table_state, event),)

    def render(self, path: Sequence[Move]) -> Wire:
        out = super().render(
            [move if move[0] in ("user", "text", "calls") else ("result", *move[1:]) for move in path]
        )
        messages: Wire = []
        parts: dict[str, dict[str, Any]] = {}
        for move, message in zip(path, out, strict=True):
            if move[0] in ("result", "failed"):
                part = parts[message["id"]]
                if move[0] == "result":
                    part.update(state="output-available", output=message["output"])
                else:
                    part.update(state="output-error", errorText=TIMEOUT)
                continue
            message["id"] = f"msg_{len(messages)}"
            messages.append(message)
            for part in message["parts"]:
                if "toolCallId" in part:
                    parts[part["toolCallId"]] = part
        return messages

    def user_message(self, text: str) -> dict[str, Any]:
        return {"role": "user", "parts": [{"type": "text", "text": text}]}

    def text_message(self, text: str) -> dict[str, Any]:
        return {
            "role": "assistant",
            "parts": [{"type": "step-start"}, {"type": "text", "text": text, "state": "done"}],
        }

    def call_message(self, calls: list[TurnCall]) -> dict[str, Any]:
        parts: Wire = [{"type": "step-start"}]
        for c in calls:
            parts.append(
                {
                    "type": f"tool-{c.name}",
                    "toolCallId": call_id(c),
                    "state": "input-available",
                    "input": json.loads(c.arguments),
                }
            )
        return {"role": "assistant", "parts": parts}

    def result_message(self, calls: list[TurnCall]) -> dict[str, Any]:
        # A placeholder the render folds into the call's tool part.
        return {"id": call_id(calls[0]), "output": calls[0].result}
