"""Generated AWS Bedrock Converse traffic: ConverseStream events and request messages.

Where real traffic varies (tests/data/traffic), each trace draws its shape with
:func:`pick`, the commonest real shape first: ConverseStream's ``p`` padding,
Claude's empty first input delta, Nova's one text block per delta, UUID ids and
skipped block indexes (Nova through InvokeModelWithResponseStream, which also
sends its invocation metrics); in requests, how results are written.
"""

from __future__ import annotations

import string
import uuid
from collections.abc import Callable
from typing import Any, Final

from hypothesis import strategies as st

from toolwire.properties._strategies._plan import Plan, PlannedCall, PlannedTurn, Tokened, timeline
from toolwire.properties._strategies._render import Generator, Spelling, Wire, conversation, pick

__all__ = ["CONVERSE", "RESPONSE", "STREAM"]

#: ConverseStream pads each event with ``p``: the first letters and digits, to a varying length.
_PADDING: Final = string.ascii_letters + string.digits


def _tooluse(call: Tokened) -> str:
    return f"tooluse_{call.token[:22]}"


def _uuid(call: Tokened) -> str:
    """A bare UUID (Nova through InvokeModelWithResponseStream): distinct tokens, distinct ids."""
    return str(uuid.UUID(bytes=call.token[:16].encode()))


def bedrock_stream(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """Bedrock ConverseStream events: a ``toolUse`` content block per call, blocks in order.

    Text blocks have no ``contentBlockStart``.  Each trace draws the ``p``
    padding, an empty first input delta (Claude), one text block per text
    delta, UUID ids and skipped indexes (Nova's InvokeModel stream), and
    the invocation metrics beside the metadata.
    """
    turn = plan.turns[0]
    padded = pick(draw, {"padding-field": True, "no-padding-field": False}, quirks)
    empty_first = pick(draw, {"empty-input-delta": True, "no-empty-input-delta": False}, quirks)
    split_text = pick(draw, {"one-text-block": False, "several-text-blocks": True}, quirks)
    ident: Callable[[Tokened], str] = pick(
        draw, {"tooluse-tool-use-id": _tooluse, "uuid-tool-use-id": _uuid}, quirks
    )
    skips = pick(draw, {"contiguous-block-indexes": False, "block-index-skips": True}, quirks)
    invoked = pick(draw, {"no-invocation-metrics": False, "bedrock-invocation-metrics": True}, quirks)

    def event(kind: str, body: dict[str, Any]) -> dict[str, Any]:
        if padded:
            body["p"] = _PADDING[: 1 + (len(events) * 17) % len(_PADDING)]
        return {kind: body}

    events: Wire = []

    events.append(event("messageStart", {"role": "assistant"}))
    block = 0
    # A turn without calls answers in text.
    text = turn.text or ("" if turn.calls else "Hello")
    if text:
        words = text.split(" ")
        pieces = [w if not n else f" {w}" for n, w in enumerate(words)] if split_text else [text]
        for n, piece in enumerate(pieces):
            delta = {"delta": {"text": piece}, "contentBlockIndex": block}
            events.append(event("contentBlockDelta", delta))
            if split_text or n == len(pieces) - 1:
                events.append(event("contentBlockStop", {"contentBlockIndex": block}))
                block += 1
    for _, k, j, last in timeline(turn):
        call = turn.calls[k]
        if j == 0:
            if skips and k:
                block += 1
            start = {"toolUse": {"toolUseId": ident(call), "name": call.name}}
            events.append(event("contentBlockStart", {"start": start, "contentBlockIndex": block}))
            if empty_first:
                delta = {"delta": {"toolUse": {"input": ""}}, "contentBlockIndex": block}
                events.append(event("contentBlockDelta", delta))
        if not (empty_first and call.arguments == "{}"):
            delta = {"delta": {"toolUse": {"input": call.pieces[j]}}, "contentBlockIndex": block}
            events.append(event("contentBlockDelta", delta))
        if last:
            events.append(event("contentBlockStop", {"contentBlockIndex": block}))
            block += 1
    events.append(event("messageStop", {"stopReason": "tool_use" if turn.calls else "end_turn"}))
    # ConverseStreamMetadataEvent requires both usage and metrics (botocore bedrock-runtime).
    usage = {"inputTokens": 375, "outputTokens": 76, "totalTokens": 451}
    metadata = event("metadata", {"usage": usage, "metrics": {"latencyMs": 1841}})
    if invoked:
        # InvokeModelWithResponseStream sends the invocation's metrics beside the last event.
        metadata["amazon-bedrock-invocationMetrics"] = {
            "inputTokenCount": 375,
            "outputTokenCount": 76,
            "invocationLatency": 433,
            "firstByteLatency": 61,
        }
    events.append(metadata)
    return events


def bedrock_converse(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """A request's ``messages``: how results are written is drawn once per trace."""
    spelling = _spelling(draw, quirks)
    return conversation(lambda _: spelling, any_order=True)(draw, plan, quirks)


def _spelling(draw: st.DrawFn, quirks: frozenset[str]) -> Spelling:
    json_result = pick(draw, {"result-json-block": True, "result-text-block": False}, quirks)
    status = pick(draw, {"result-without-status": False, "result-status-success": True}, quirks)

    def assistant(turn: PlannedTurn) -> Wire:
        blocks: Wire = [{"text": turn.text}] if turn.text else []
        for c in turn.calls:
            blocks.append({"toolUse": {"toolUseId": _tooluse(c), "name": c.name, "input": c.input}})
        return [{"role": "assistant", "content": blocks}] if blocks else []

    def results(calls: list[PlannedCall], _: str) -> Wire:
        blocks: Wire = []
        for c in calls:
            result: dict[str, Any] = {"toolUseId": _tooluse(c), "content": _content(c.result, json_result)}
            if status:
                result["status"] = "success"
            blocks.append({"toolResult": result})
        return [{"role": "user", "content": blocks}]

    return (
        lambda text: {"role": "user", "content": [{"text": text}]},
        assistant,
        results,
        lambda text: {"role": "assistant", "content": [{"text": text}]},
    )


def _content(result: str, json_result: bool) -> Wire:
    """A result as a json block, or a text block (Converse rejects a blank text block: then none)."""
    if json_result:
        return [{"json": {"result": result}}]
    return [{"text": result}] if result else []


#: A ``toolUse`` content block per call, blocks in order.
def bedrock_response(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """A Converse response of the first turn: text, then whole toolUse blocks.

    toolUse blocks carry toolUseId, name and input, and ``type`` in newer responses; Nova through
    InvokeModel ids them with a bare UUID; ``metrics`` comes with latencyMs, or not at all.
    """
    turn = plan.turns[0]
    typed = pick(draw, {"no-tool-use-type": False, "tool-use-type-field": True}, quirks)
    uuid_ids = pick(draw, {"tooluse-id": False, "uuid-tool-use-id": True}, quirks)
    metrics = pick(draw, {"metrics-field": True, "no-metrics-field": False}, quirks)
    content: Wire = [{"text": turn.text or "Done."}] if turn.text or not turn.calls else []
    for call in turn.calls:
        use: dict[str, Any] = {"toolUseId": _uuid(call) if uuid_ids else _tooluse(call), "name": call.name}
        use["input"] = call.input
        if typed:
            use["type"] = "tool_use"
        content.append({"toolUse": use})
    body: dict[str, Any] = {"output": {"message": {"role": "assistant", "content": content}}}
    body["stopReason"] = "tool_use" if turn.calls else "end_turn"
    body["usage"] = {"inputTokens": 412, "outputTokens": 57, "totalTokens": 469}
    if metrics:
        body["metrics"] = {"latencyMs": 1436}
    return [body]


#: A Converse response body: whole toolUse blocks.
RESPONSE: Final = Generator(bedrock_response, fragments=False)
STREAM: Final = Generator(bedrock_stream)
#: A request's ``messages``; one user message answers a turn's calls, in any order.
CONVERSE: Final = Generator.conversation(bedrock_converse)
