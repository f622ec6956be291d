"""Generated AWS Bedrock Converse traffic: ConverseStream events and request messages."""

from __future__ import annotations

from typing import Final

from hypothesis import strategies as st

from toolwire.properties._strategies._plan import Call, Plan, Turn, timeline
from toolwire.properties._strategies._render import Generator, Spelling, Wire, conversation

__all__ = ["CONVERSE", "STREAM"]


def bedrock_stream(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """Bedrock ConverseStream events: a ``toolUse`` content block per call, blocks in order."""
    turn = plan.turns[0]
    events: Wire = [{"messageStart": {"role": "assistant"}}]
    block = 0
    if turn.text:
        events.append({"contentBlockDelta": {"delta": {"text": turn.text}, "contentBlockIndex": block}})
        events.append({"contentBlockStop": {"contentBlockIndex": block}})
        block += 1
    for _, k, j, last in timeline(turn):
        call = turn.calls[k]
        if j == 0:
            start = {"toolUse": {"toolUseId": f"tooluse_{call.token[:22]}", "name": call.name}}
            events.append({"contentBlockStart": {"start": start, "contentBlockIndex": block}})
        delta = {"toolUse": {"input": call.pieces[j]}}
        events.append({"contentBlockDelta": {"delta": delta, "contentBlockIndex": block}})
        if last:
            events.append({"contentBlockStop": {"contentBlockIndex": block}})
            block += 1
    events.append({"messageStop": {"stopReason": "tool_use" if turn.calls else "end_turn"}})
    # ConverseStreamMetadataEvent requires both usage and metrics (botocore bedrock-runtime).
    usage = {"inputTokens": 375, "outputTokens": 76, "totalTokens": 451}
    events.append({"metadata": {"usage": usage, "metrics": {"latencyMs": 1841}}})
    return events


def _spelling(quirks: frozenset[str]) -> Spelling:
    def assistant(turn: Turn) -> Wire:
        blocks: Wire = [{"text": turn.text}] if turn.text else []
        for c in turn.calls:
            blocks.append(
                {"toolUse": {"toolUseId": f"tooluse_{c.token[:22]}", "name": c.name, "input": c.input}}
            )
        return [{"role": "assistant", "content": blocks}] if blocks else []

    def results(calls: list[Call], _: str) -> Wire:
        blocks = [
            {
                "toolResult": {
                    "toolUseId": f"tooluse_{c.token[:22]}",
                    "content": [{"json": {"result": c.result}}],
                    "status": "success",
                }
            }
            for c in calls
        ]
        return [{"role": "user", "content": blocks}]

    return (
        lambda text: {"role": "user", "content": [{"text": text}]},
        assistant,
        results,
        lambda text: {"role": "assistant", "content": [{"text": text}]},
    )


#: A ``toolUse`` content block per call, blocks in order.
STREAM: Final = Generator(bedrock_stream)
#: A request's ``messages``; one user message answers a turn's calls, in any order.
CONVERSE: Final = Generator.conversation(conversation(_spelling, any_order=True))
