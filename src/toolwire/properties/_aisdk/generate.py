"""Generated Vercel AI SDK traffic: provider stream parts and UI message stream chunks."""

from __future__ import annotations

import copy
from typing import Any, Final

from hypothesis import strategies as st

from toolwire.properties._strategies._plan import Plan, Tokened, timeline
from toolwire.properties._strategies._render import Generator, Wire

__all__ = ["STREAM", "UI_STREAM", "call_id", "finish"]

#: ``LanguageModelV4Usage``: both token counts are required objects (@ai-sdk/provider 4.0.38).
USAGE: Final = {
    "inputTokens": {"total": 472, "noCache": 472, "cacheRead": 0, "cacheWrite": 0},
    "outputTokens": {"total": 89, "text": 89, "reasoning": 0},
}


def call_id(call: Tokened) -> str:
    """``call_`` and 24 characters: the ids of the providers the SDK wraps (OpenAI's shape)."""
    return f"call_{call.token}"


def finish(reason: str) -> dict[str, Any]:
    """The ``finish`` part: a V4 finish reason (unified and raw) and the usage."""
    return {
        "type": "finish",
        "finishReason": {"unified": reason, "raw": reason},
        "usage": copy.deepcopy(USAGE),
    }


def aisdk_stream(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """AI SDK provider stream parts: ``tool-input-start`` .. ``tool-input-end``, then ``tool-call``.

    A call is announced by ``tool-input-start`` and completed by ``tool-call``
    without input deltas, or arrives whole as one ``tool-call`` (providers
    without input streaming), or streams its input in deltas, optionally
    closed by ``tool-input-end``, before ``tool-call``.
    """
    turn = plan.turns[0]
    events: Wire = []
    if draw(st.booleans()):
        events.append({"type": "stream-start", "warnings": []})
    # A turn without calls answers in text: a stream is never empty.
    text = turn.text or ("" if turn.calls else "Hello")
    if text:
        events.append({"type": "text-start", "id": "txt-0"})
        events.append({"type": "text-delta", "id": "txt-0", "delta": text})
        events.append({"type": "text-end", "id": "txt-0"})
    modes = [draw(st.sampled_from(("announced", "whole", "streamed"))) for _ in turn.calls]
    ended = [draw(st.booleans()) for _ in turn.calls]
    for filler, k, j, last in timeline(turn):
        call = turn.calls[k]
        ident = call_id(call)
        if filler:
            events.append({"type": "raw", "rawValue": {}})
        if modes[k] != "whole" and j == 0:
            events.append({"type": "tool-input-start", "id": ident, "toolName": call.name})
        if modes[k] == "streamed":
            events.append({"type": "tool-input-delta", "id": ident, "delta": call.pieces[j]})
            if last and ended[k]:
                events.append({"type": "tool-input-end", "id": ident})
        if last:
            events.append(
                {"type": "tool-call", "toolCallId": ident, "toolName": call.name, "input": call.arguments}
            )
    if draw(st.booleans()):
        reason = "tool-calls" if turn.calls else "stop"
        events.append(finish(reason))
    return events


def aisdk_ui_stream(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """AI SDK UI message chunks: ``tool-input-start``, ``-available``, then ``tool-output-available``."""
    turn = plan.turns[0]
    events: Wire = [{"type": "start", "messageId": "msg_5f2a"}, {"type": "start-step"}]
    if turn.text:
        events.append({"type": "text-start", "id": "txt-0"})
        events.append({"type": "text-delta", "id": "txt-0", "delta": turn.text})
        events.append({"type": "text-end", "id": "txt-0"})
    answered = [draw(st.booleans()) for _ in turn.calls]
    for _, k, j, last in timeline(turn):
        call = turn.calls[k]
        ident = call_id(call)
        if j == 0:
            events.append({"type": "tool-input-start", "toolCallId": ident, "toolName": call.name})
        events.append({"type": "tool-input-delta", "toolCallId": ident, "inputTextDelta": call.pieces[j]})
        if last:
            events.append(
                {
                    "type": "tool-input-available",
                    "toolCallId": ident,
                    "toolName": call.name,
                    "input": call.input,
                }
            )
    for k, call in enumerate(turn.calls):
        if answered[k]:
            events.append(
                {"type": "tool-output-available", "toolCallId": call_id(call), "output": call.result}
            )
    events.extend([{"type": "finish-step"}, {"type": "finish"}])
    return events


#: Provider stream parts; calls may stream at once.
STREAM: Final = Generator(aisdk_stream, interleave=True)
#: UI message stream chunks; calls may stream at once.
UI_STREAM: Final = Generator(aisdk_ui_stream, interleave=True)
