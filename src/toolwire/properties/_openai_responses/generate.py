"""Generated OpenAI Responses traffic: stream events (OpenAI's and Open Responses') and input items."""

from __future__ import annotations

import copy
from typing import Any, Final

from hypothesis import strategies as st

from toolwire.properties._strategies._plan import NAMES, Call, Plan, Tokened, Turn, timeline
from toolwire.properties._strategies._render import Generator, Spelling, Wire, conversation

__all__ = ["INPUT", "OPEN_STREAM", "RESPONSE", "STREAM", "call_id", "envelope"]

#: The ``response`` object of the envelope events, as it is while in progress; ``parallel_tool_calls``,
#: ``tool_choice`` and ``tools`` are required by openai 3.54.0 ``Response`` (and always sent).
RESPONSE: Final[dict[str, Any]] = {
    "id": "resp_a4c123b1612dd272d1371c17149d439536b3216fdaeeb975",
    "object": "response",
    "created_at": 1764000000,
    "status": "in_progress",
    "model": "gpt-4.1-2025-04-14",
    "output": [],
    "parallel_tool_calls": True,
    "tool_choice": "auto",
    "tools": [
        {
            "type": "function",
            "name": name,
            "parameters": {"type": "object", "properties": {}},
            "strict": False,
        }
        for name in NAMES
    ],
}


def envelope(status: str) -> dict[str, Any]:
    """A fresh copy of :data:`RESPONSE` with ``status``."""
    return copy.deepcopy(RESPONSE) | {"status": status}


def call_id(call: Tokened) -> str:
    """``call_`` and 24 characters, as OpenAI's call ids look."""
    return f"call_{call.token}"


def responses_stream(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """Responses events: an envelope, then each item added, its deltas, done, one after the other.

    ``function_call_arguments.done`` carries no ``name``: openai 3.54.0's
    ``ResponseFunctionCallArgumentsDoneEvent`` has none, and none of the
    recorded OpenAI streams sends one (shared/traffic), so the OpenAI and
    Open Responses streams render alike.
    """
    turn = plan.turns[0]
    events: Wire = [
        {"type": "response.created", "response": envelope("in_progress")},
        {"type": "response.in_progress", "response": envelope("in_progress")},
    ]
    position = 0
    if turn.text:
        events.extend(_responses_message(position, turn.text))
        position += 1
    for filler, k, j, last in timeline(turn):
        call = turn.calls[k]
        item_id = f"fc_{call.token * 2}"
        if filler and j == 0:
            events.extend(_responses_reasoning(position, call.token))
            position += 1
        item = {
            "id": item_id,
            "type": "function_call",
            "status": "in_progress",
            "arguments": "",
            "call_id": call_id(call),
            "name": call.name,
        }
        if j == 0:
            events.append({"type": "response.output_item.added", "output_index": position, "item": item})
        events.append(
            {
                "type": "response.function_call_arguments.delta",
                "item_id": item_id,
                "output_index": position,
                "delta": call.pieces[j],
            }
        )
        if last:
            events.append(
                {
                    "type": "response.function_call_arguments.done",
                    "item_id": item_id,
                    "output_index": position,
                    "arguments": call.arguments,
                }
            )
            item = item | {"status": "completed", "arguments": call.arguments}
            events.append({"type": "response.output_item.done", "output_index": position, "item": item})
            position += 1
    events.append({"type": "response.completed", "response": envelope("completed")})
    for number, event in enumerate(events):
        event["sequence_number"] = number
    return events


def _responses_message(position: int, text: str) -> Wire:
    item_id = "msg_34d6608697a8d41bed440e50454f31af3176813e02ea68ef"
    part = {"type": "output_text", "annotations": [], "text": text}
    where = {"item_id": item_id, "output_index": position, "content_index": 0}
    item = {"id": item_id, "type": "message", "role": "assistant", "status": "in_progress", "content": []}
    return [
        {"type": "response.output_item.added", "output_index": position, "item": item},
        {"type": "response.content_part.added", **where, "part": part | {"text": ""}},
        {"type": "response.output_text.delta", **where, "delta": text, "logprobs": []},
        {"type": "response.output_text.done", **where, "text": text, "logprobs": []},
        {"type": "response.content_part.done", **where, "part": part},
        {
            "type": "response.output_item.done",
            "output_index": position,
            "item": item | {"status": "completed", "content": [part]},
        },
    ]


def _responses_reasoning(position: int, token: str) -> Wire:
    item = {"id": f"rs_{token * 2}", "type": "reasoning", "summary": [], "status": "in_progress"}
    return [
        {"type": "response.output_item.added", "output_index": position, "item": item},
        {
            "type": "response.output_item.done",
            "output_index": position,
            "item": item | {"status": "completed"},
        },
    ]


def _spelling(quirks: frozenset[str]) -> Spelling:
    def assistant(turn: Turn) -> Wire:
        items: Wire = [{"role": "assistant", "content": turn.text}] if turn.text else []
        for call in turn.calls:
            items.append(
                {
                    "type": "function_call",
                    "id": f"fc_{call.token * 2}",
                    "call_id": call_id(call),
                    "name": call.name,
                    "arguments": call.arguments,
                }
            )
        return items

    def results(calls: list[Call], _: str) -> Wire:
        return [{"type": "function_call_output", "call_id": call_id(c), "output": c.result} for c in calls]

    return (
        lambda text: {"role": "user", "content": text},
        assistant,
        results,
        lambda text: {"role": "assistant", "content": text},
    )


#: OpenAI's stream: one item after the other.
STREAM: Final = Generator(responses_stream)
#: Open Responses: the same events as OpenAI's.
OPEN_STREAM: Final = Generator(responses_stream)
#: A request's ``input`` items; outputs answer a turn's calls in any order.
INPUT: Final = Generator.conversation(conversation(_spelling, any_order=True))
