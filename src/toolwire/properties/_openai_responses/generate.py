"""Generated OpenAI Responses traffic: stream events (OpenAI's and Open Responses') and input items."""

from __future__ import annotations

from typing import Final

from hypothesis import strategies as st

from toolwire.properties._strategies._plan import Call, Plan, Tokened, Turn, timeline
from toolwire.properties._strategies._render import Generator, Renderer, Spelling, Wire, conversation

__all__ = ["INPUT", "OPEN_STREAM", "RESPONSE", "STREAM", "call_id"]

#: The ``response`` object of the envelope events, as it is while in progress.
RESPONSE: Final = {
    "id": "resp_a4c123b1612dd272d1371c17149d439536b3216fdaeeb975",
    "object": "response",
    "created_at": 1764000000,
    "status": "in_progress",
    "model": "gpt-4.1-2025-04-14",
    "output": [],
}


def call_id(call: Tokened) -> str:
    """``call_`` and 24 characters, as OpenAI's call ids look."""
    return f"call_{call.token}"


def _responses(open_responses: bool) -> Renderer:
    def render(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
        turn = plan.turns[0]
        response = dict(RESPONSE)
        events: Wire = [
            {"type": "response.created", "response": response},
            {"type": "response.in_progress", "response": response},
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
                done = {
                    "type": "response.function_call_arguments.done",
                    "item_id": item_id,
                    "output_index": position,
                    "arguments": call.arguments,
                }
                if not open_responses:
                    done["name"] = call.name
                events.append(done)
                item = item | {"status": "completed", "arguments": call.arguments}
                events.append({"type": "response.output_item.done", "output_index": position, "item": item})
                position += 1
        events.append({"type": "response.completed", "response": response | {"status": "completed"}})
        for number, event in enumerate(events):
            event["sequence_number"] = number
        return events

    return render


def _responses_message(position: int, text: str) -> Wire:
    item_id = "msg_34d6608697a8d41bed440e50454f31af3176813e02ea68ef"
    part = {"type": "output_text", "annotations": [], "text": text}
    where = {"item_id": item_id, "output_index": position, "content_index": 0}
    item = {"id": item_id, "type": "message", "role": "assistant", "status": "in_progress", "content": []}
    return [
        {"type": "response.output_item.added", "output_index": position, "item": item},
        {"type": "response.content_part.added", **where, "part": part | {"text": ""}},
        {"type": "response.output_text.delta", **where, "delta": text},
        {"type": "response.output_text.done", **where, "text": text},
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
STREAM: Final = Generator(_responses(open_responses=False))
#: Open Responses: as OpenAI's, without ``name`` on ``function_call_arguments.done``.
OPEN_STREAM: Final = Generator(_responses(open_responses=True))
#: A request's ``input`` items; outputs answer a turn's calls in any order.
INPUT: Final = Generator.conversation(conversation(_spelling, any_order=True))
