"""Generated Vercel AI SDK traffic: provider stream parts, UI message stream chunks, the full
stream, UI messages and model messages.

No recording of the AI SDK is in the corpus: each shape drawn with :func:`pick` is one the
``ai`` 7.0.173 types define (the catalogue in ``shapes`` names the file), the commonest first.
"""

from __future__ import annotations

import copy
from typing import Any, Final

from hypothesis import strategies as st

from toolwire.properties._strategies._plan import Plan, PlannedCall, PlannedTurn, Tokened, timeline
from toolwire.properties._strategies._render import Generator, Spelling, Wire, conversation, pick

__all__ = [
    "FULL_STREAM",
    "MODEL_MESSAGES",
    "STREAM",
    "UI_MESSAGES",
    "UI_STREAM",
    "call_id",
    "finish",
    "finish_step",
    "model_output",
    "start_step",
]

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


#: ``LanguageModelUsage`` as ``finish-step`` and ``finish`` carry it (ai 7.0.173 ``src/types/usage.ts``).
FULL_USAGE: Final = {
    "inputTokens": 472,
    "inputTokenDetails": {"noCacheTokens": 472, "cacheReadTokens": 0, "cacheWriteTokens": 0},
    "outputTokens": 89,
    "outputTokenDetails": {"textTokens": 89, "reasoningTokens": 0},
    "totalTokens": 561,
}
#: ``StepResultPerformance`` (``src/generate-text/step-result.ts``).
PERFORMANCE: Final = {
    "effectiveOutputTokensPerSecond": 61.2,
    "outputTokensPerSecond": 64.0,
    "inputTokensPerSecond": 3210.9,
    "effectiveTotalTokensPerSecond": 385.6,
    "stepTimeMs": 1455,
    "responseTimeMs": 1390,
    "toolExecutionMs": {},
    "timeToFirstOutputMs": 412,
}
TIMEOUT: Final = "Request to the weather service timed out"


def start_step() -> dict[str, Any]:
    """The ``start-step`` part: the request (no body: ``include.requestBody`` is off) and warnings."""
    return {"type": "start-step", "request": {}, "warnings": []}


def finish_step(reason: str, step: int) -> dict[str, Any]:
    """The ``finish-step`` part of step ``step``: response metadata, usage, performance, reasons."""
    raw = "tool_calls" if reason == "tool-calls" else reason
    return {
        "type": "finish-step",
        "response": {
            "id": f"resp_68c1f0a2{step:04d}",
            "timestamp": "2026-11-24T09:15:32.000Z",
            "modelId": "gpt-5",
        },
        "usage": copy.deepcopy(FULL_USAGE),
        "performance": copy.deepcopy(PERFORMANCE),
        "finishReason": reason,
        "rawFinishReason": raw,
    }


def _text(events: Wire, ident: str, text: str) -> None:
    events.append({"type": "text-start", "id": ident})
    events.append({"type": "text-delta", "id": ident, "text": text})
    events.append({"type": "text-end", "id": ident})


def _outcome(call: PlannedCall, outcome: str, provider: bool) -> Wire:
    ident, name = call_id(call), call.name
    if outcome == "tool-result-part":
        part: dict[str, Any] = {
            "type": "tool-result",
            "toolCallId": ident,
            "toolName": name,
            "input": call.input,
            "output": call.result,
        }
        return [part | {"providerExecuted": True}] if provider else [part]
    if outcome == "tool-error-part":
        return [
            {
                "type": "tool-error",
                "toolCallId": ident,
                "toolName": name,
                "input": call.input,
                "error": TIMEOUT,
            }
        ]
    if outcome == "approval-request":
        tool_call = {"type": "tool-call", "toolCallId": ident, "toolName": name, "input": call.input}
        return [
            {"type": "tool-approval-request", "approvalId": f"aprv_{call.token[:12]}", "toolCall": tool_call}
        ]
    return []


def aisdk_full_stream(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """``streamText``'s full stream: ``start``, a step with the calls and their outcomes, ``finish``.

    Each call streams its input (start, deltas, end), is announced (start,
    end) or comes whole (tool-call alone); its tool-call carries the parsed
    input.  Its outcome (drawn per trace): a tool-result, a tool-error, an
    approval request, or none (a client tool without ``execute``).  When
    every call has its result, a second step answers in text.
    """
    turn = plan.turns[0]
    mode = pick(
        draw,
        {"input-streamed": "streamed", "announced-without-deltas": "announced", "whole-tool-call": "whole"},
        quirks,
    )
    outcome = pick(
        draw,
        {
            "tool-result-part": "tool-result-part",
            "call-without-outcome": "none",
            "tool-error-part": "tool-error-part",
            "approval-request": "approval-request",
        },
        quirks,
    )
    provider = outcome == "tool-result-part" and pick(
        draw, {"client-tool": False, "provider-executed": True}, quirks
    )
    events: Wire = [{"type": "start"}, start_step()]
    text = turn.text or ("" if turn.calls else "Hello")
    if text:
        _text(events, "txt-0", text)
    for filler, k, j, last in timeline(turn):
        call = turn.calls[k]
        ident = call_id(call)
        if filler:
            events.append({"type": "ping"})
        if mode != "whole" and j == 0:
            start = {"type": "tool-input-start", "id": ident, "toolName": call.name, "dynamic": False}
            events.append(start | ({"providerExecuted": True} if provider else {}))
        if mode == "streamed":
            events.append({"type": "tool-input-delta", "id": ident, "delta": call.pieces[j]})
        if last and mode != "whole":
            events.append({"type": "tool-input-end", "id": ident})
        if last:
            part = {"type": "tool-call", "toolCallId": ident, "toolName": call.name, "input": call.input}
            events.append(part | ({"providerExecuted": True} if provider else {}))
    for call in turn.calls:
        events.extend(_outcome(call, outcome, provider))
    reason = "tool-calls" if turn.calls and not provider else "stop"
    events.append(finish_step(reason, 0))
    if turn.calls and outcome in ("tool-result-part", "tool-error-part") and not provider:
        events.append(start_step())
        _text(events, "txt-1", "Done.")
        events.append(finish_step("stop", 1))
        reason = "stop"
    events.append(
        {
            "type": "finish",
            "finishReason": reason,
            "rawFinishReason": reason,
            "totalUsage": copy.deepcopy(FULL_USAGE),
        }
    )
    return events


def ui_part(call: PlannedCall, state: str, dynamic: bool) -> dict[str, Any]:
    """A UI message's tool part for ``call`` in ``state``, with the fields that state has."""
    ident = call_id(call)
    part: dict[str, Any] = (
        {"type": "dynamic-tool", "toolName": call.name} if dynamic else {"type": f"tool-{call.name}"}
    )
    part |= {"toolCallId": ident, "state": state, "input": call.input}
    approval = {"id": f"aprv_{call.token[:12]}"}
    if state == "output-available":
        part["output"] = call.result
    elif state == "output-error":
        part["errorText"] = TIMEOUT
    elif state == "output-denied":
        part["approval"] = approval | {"approved": False, "reason": "The user denied the call."}
    elif state == "approval-responded":
        part["approval"] = approval | {"approved": True}
    return part


def aisdk_ui_messages(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """``UIMessage[]`` as ``useChat`` sends them: per turn a user message, then one assistant message.

    The assistant message opens each step with ``step-start``: its text and
    tool parts, each in a final state (drawn per trace), then a step that
    answers in text.
    """
    state = pick(
        draw,
        {
            "output-available": "output-available",
            "output-error": "output-error",
            "output-denied": "output-denied",
            "approval-responded": "approval-responded",
        },
        quirks,
    )
    dynamic = pick(draw, {"static-tool-parts": False, "dynamic-tool": True}, quirks)
    messages: Wire = []
    for number, turn in enumerate(plan.turns):
        messages.append(
            {"id": f"msg_u{number}", "role": "user", "parts": [{"type": "text", "text": turn.user}]}
        )
        parts: Wire = [{"type": "step-start"}]
        if turn.text or not turn.calls:
            parts.append({"type": "text", "text": turn.text or "Hello", "state": "done"})
        # useChat's state before addToolOutput: the last turn's client tools wait for their output.
        pending = "pending-client-tool" in quirks and number == len(plan.turns) - 1
        parts.extend(ui_part(call, "input-available" if pending else state, dynamic) for call in turn.calls)
        if turn.calls and not pending:
            parts.extend([{"type": "step-start"}, {"type": "text", "text": "Done.", "state": "done"}])
        messages.append({"id": f"msg_a{number}", "role": "assistant", "parts": parts})
    return messages


def model_output(value: Any, as_json: bool) -> dict[str, Any]:
    """A tool-result's output, as ``createToolModelOutput`` writes it: text for a string, else json."""
    if as_json or not isinstance(value, str):
        return {"type": "json", "value": value}
    return {"type": "text", "value": value}


def _model_spelling(draw: st.DrawFn, quirks: frozenset[str]) -> Spelling:
    user_parts = pick(draw, {"user-text-string": False, "user-text-parts": True}, quirks)
    as_json = pick(draw, {"text-output": False, "json-output": True}, quirks)
    one_message = pick(draw, {"one-tool-message": True, "tool-message-per-result": False}, quirks)

    def user(text: str) -> dict[str, Any]:
        return {"role": "user", "content": [{"type": "text", "text": text}] if user_parts else text}

    def assistant(turn: PlannedTurn) -> Wire:
        content: Wire = [{"type": "text", "text": turn.text}] if turn.text else []
        content += [
            {"type": "tool-call", "toolCallId": call_id(c), "toolName": c.name, "input": c.input}
            for c in turn.calls
        ]
        return [{"role": "assistant", "content": content}] if content else []

    def results(calls: list[PlannedCall], _: str) -> Wire:
        parts = [
            {
                "type": "tool-result",
                "toolCallId": call_id(c),
                "toolName": c.name,
                "output": model_output(c.result, as_json),
            }
            for c in calls
        ]
        if one_message:
            return [{"role": "tool", "content": parts}]
        return [{"role": "tool", "content": [part]} for part in parts]

    def answer(text: str) -> dict[str, Any]:
        return {"role": "assistant", "content": text}

    return user, assistant, results, answer


def aisdk_model_messages(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """``ModelMessage[]``: per turn a user message, the assistant's tool-call parts, the tool message(s)."""
    system = pick(draw, {"no-system-message": False, "system-message": True}, quirks)
    spelling = _model_spelling(draw, quirks)
    messages = conversation(lambda _: spelling, any_order=True)(draw, plan, quirks)
    return ([{"role": "system", "content": "You are a helpful assistant."}] if system else []) + messages


#: ``streamText``'s full stream; calls may stream at once.
FULL_STREAM: Final = Generator(aisdk_full_stream, interleave=True)
#: ``UIMessage[]``: up to three turns.
UI_MESSAGES: Final = Generator.conversation(aisdk_ui_messages)
#: ``ModelMessage[]``: up to three turns.
MODEL_MESSAGES: Final = Generator.conversation(aisdk_model_messages)
