"""Generated Anthropic Messages traffic: stream events and request messages."""

from __future__ import annotations

from typing import Any, Final

from hypothesis import strategies as st

from toolwire.properties._strategies._plan import Call, Plan, Turn, timeline
from toolwire.properties._strategies._render import Generator, Spelling, Wire, conversation

__all__ = ["MESSAGES", "STREAM"]


def anthropic_stream(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """Anthropic Messages events: one ``tool_use`` content block per call, blocks in order."""
    turn = plan.turns[0]
    message: dict[str, Any] = {
        "id": "msg_014p7gG3wDgGV9EUtLvnow3U",
        "type": "message",
        "role": "assistant",
        "content": [],
        "model": "claude-opus-4-6",
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 472, "output_tokens": 2},
    }
    events: Wire = [{"type": "message_start", "message": message}]
    block = 0
    if turn.text:
        events.extend(
            _anthropic_block(block, {"type": "text", "text": ""}, "text_delta", "text", [turn.text])
        )
        block += 1
    for filler, k, j, last in timeline(turn):
        call = turn.calls[k]
        if filler:
            events.append({"type": "ping"})
        if j == 0:
            start = {"type": "tool_use", "id": f"toolu_01{call.token[:22]}", "name": call.name, "input": {}}
            events.append({"type": "content_block_start", "index": block, "content_block": start})
        delta = {"type": "input_json_delta", "partial_json": call.pieces[j]}
        events.append({"type": "content_block_delta", "index": block, "delta": delta})
        if last:
            events.append({"type": "content_block_stop", "index": block})
            block += 1
    reason = "tool_use" if turn.calls else "end_turn"
    events.append(
        {
            "type": "message_delta",
            "delta": {"stop_reason": reason, "stop_sequence": None},
            "usage": {"output_tokens": 89},
        }
    )
    events.append({"type": "message_stop"})
    return events


def _anthropic_block(index: int, start: dict[str, Any], kind: str, field: str, pieces: list[str]) -> Wire:
    return [
        {"type": "content_block_start", "index": index, "content_block": start},
        *({"type": "content_block_delta", "index": index, "delta": {"type": kind, field: p}} for p in pieces),
        {"type": "content_block_stop", "index": index},
    ]


def _spelling(quirks: frozenset[str]) -> Spelling:
    def assistant(turn: Turn) -> Wire:
        blocks: Wire = [{"type": "text", "text": turn.text}] if turn.text else []
        for call in turn.calls:
            blocks.append(
                {
                    "type": "tool_use",
                    "id": f"toolu_01{call.token[:22]}",
                    "name": call.name,
                    "input": call.input,
                }
            )
        return [{"role": "assistant", "content": blocks}] if blocks else []

    def results(calls: list[Call], _: str) -> Wire:
        blocks = [
            {"type": "tool_result", "tool_use_id": f"toolu_01{c.token[:22]}", "content": c.result}
            for c in calls
        ]
        return [{"role": "user", "content": blocks}]

    return (
        lambda text: {"role": "user", "content": text},
        assistant,
        results,
        lambda text: {"role": "assistant", "content": [{"type": "text", "text": text}]},
    )


#: One ``tool_use`` content block per call, blocks in order.
STREAM: Final = Generator(anthropic_stream)
#: A request's ``messages``; one user message answers a turn's calls, in any order.
MESSAGES: Final = Generator.conversation(conversation(_spelling, any_order=True))
