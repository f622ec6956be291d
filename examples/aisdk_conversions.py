"""Vercel AI SDK conversions, each correct and with the bug people write: toolwire tells them apart.

* ``ui_to_model``: ``UIMessage[]`` -> ``ModelMessage[]``, a port of ``ai`` 7.0.173
  ``convertToModelMessages`` (tool parts: a tool-call in the assistant message, the
  outcome as a tool-result in the tool message after it; an error as ``error-text``,
  a denial as ``execution-denied`` or ``error-text``).  ``ui_to_model_buggy`` answers
  only ``output-available`` parts, so a failed call goes to the model without a result:
  ``AI_MissingToolResultsError`` (VS-6).  The real ``convertToModelMessages`` runs as a
  command target: ``node tests/sdk/convert_to_model_messages.mjs``.
* ``stream_to_full``: provider stream parts -> ``streamText``'s full stream (steps around
  the parts, ``tool-call.input`` parsed).  ``stream_to_full_buggy`` forwards the
  provider's input text (VF-7).
* ``full_to_ui_stream``: the full stream -> UI message chunks, as ``toUIMessageStream``
  maps them.  ``full_to_ui_stream_buggy`` keys tool parts by tool name, so two calls of
  one tool become one part.
* ``full_to_ui_messages``: the full stream -> the ``UIMessage[]`` ``useChat`` sends next:
  the client runs each call the stream left to it (``addToolOutput``).
  ``full_to_ui_messages_buggy`` mints new ids for the tool parts.

    toolwire fuzz examples/aisdk_conversions.py:ui_to_model_buggy \\
        --from aisdk-ui-messages --to aisdk-model-messages
    toolwire fuzz "node tests/sdk/convert_to_model_messages.mjs" \\
        --from aisdk-ui-messages --to aisdk-model-messages
    toolwire explore examples/aisdk_conversions.py:stream_to_full_buggy \\
        --from aisdk-stream --to aisdk-full-stream
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

Event = dict[str, Any]
Message = dict[str, Any]
RunTool = Callable[[str, Any], Any]

#: ``convertToModelMessages``'s text for a denied call without a reason.
DENIED = "Tool call execution denied."


def _tool_name(part: Any) -> str | None:
    if not isinstance(part, dict):
        return None
    kind = part.get("type", "")
    if kind == "dynamic-tool":
        return str(part.get("toolName"))
    return kind[len("tool-") :] if kind.startswith("tool-") else None


def _output(value: Any, error: bool) -> dict[str, Any]:
    """``createToolModelOutput`` without a tool's ``toModelOutput``: text for strings, else json."""
    if error:
        return {"type": "error-text", "value": value if isinstance(value, str) else json.dumps(value)}
    return {"type": "text", "value": value} if isinstance(value, str) else {"type": "json", "value": value}


def _convert(messages: Iterable[Message], answered: tuple[str, ...]) -> list[Message]:
    out: list[Message] = []
    for message in messages:
        role, parts = message.get("role"), message.get("parts") or []
        if role == "system":
            out.append(
                {"role": "system", "content": "".join(p["text"] for p in parts if p.get("type") == "text")}
            )
        elif role == "user":
            out.append(
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": p["text"]} for p in parts if p.get("type") == "text"
                    ],
                }
            )
        elif role == "assistant":
            block: list[Event] = []
            for part in [*parts, {"type": "step-start"}]:
                if part.get("type") == "step-start":
                    out.extend(_block(block, answered))
                    block = []
                else:
                    block.append(part)
    return out


def _block(block: list[Event], answered: tuple[str, ...]) -> list[Message]:
    """One step of an assistant message: its content, then a tool message with its outcomes."""
    content: list[Event] = []
    results: list[Event] = []
    for part in block:
        name = _tool_name(part)
        if part.get("type") == "text":
            content.append({"type": "text", "text": part["text"]})
        if name is None or part.get("state") == "input-streaming":
            continue
        call_id = part["toolCallId"]
        content.append(
            {"type": "tool-call", "toolCallId": call_id, "toolName": name, "input": part.get("input")}
        )
        approval = part.get("approval")
        if approval is not None:
            content.append(
                {"type": "tool-approval-request", "approvalId": approval["id"], "toolCallId": call_id}
            )
            if isinstance(approval.get("approved"), bool):
                response = {
                    "type": "tool-approval-response",
                    "approvalId": approval["id"],
                    "approved": approval["approved"],
                }
                results.append(response | ({"reason": approval["reason"]} if "reason" in approval else {}))
        state = part.get("state")
        if state not in answered:
            continue
        if state == "output-denied":
            output = {"type": "error-text", "value": (approval or {}).get("reason") or DENIED}
        elif state == "approval-responded":
            if approval.get("approved") is not False:
                continue
            output = {"type": "execution-denied", "reason": approval.get("reason")}
        else:
            error = state == "output-error"
            output = _output(part.get("errorText") if error else part.get("output"), error)
        results.append({"type": "tool-result", "toolCallId": call_id, "toolName": name, "output": output})
    messages = [{"role": "assistant", "content": content}] if content else []
    return messages + ([{"role": "tool", "content": results}] if results else [])


def ui_to_model(messages: Iterable[Message]) -> list[Message]:
    """``convertToModelMessages``: every finished tool part answered in the tool message after it."""
    return _convert(messages, ("output-available", "output-error", "output-denied", "approval-responded"))


def ui_to_model_ignoring_incomplete(messages: Iterable[Message]) -> list[Message]:
    """``convertToModelMessages(messages, {ignoreIncompleteToolCalls: true})``: tool parts still
    waiting for their input or output (``input-streaming``, ``input-available``) are dropped first."""
    waiting = ("input-streaming", "input-available")
    kept = [
        message
        | {
            "parts": [
                p
                for p in message.get("parts") or []
                if _tool_name(p) is None or p.get("state") not in waiting
            ]
        }
        for message in messages
    ]
    return ui_to_model(kept)


def ui_to_model_buggy(messages: Iterable[Message]) -> list[Message]:
    """Answers only ``output-available`` parts: errors and denials are left without a result."""
    return _convert(messages, ("output-available", "approval-responded"))


_USAGE: dict[str, Any] = {
    "inputTokens": 472,
    "inputTokenDetails": {"noCacheTokens": 472, "cacheReadTokens": 0, "cacheWriteTokens": 0},
    "outputTokens": 89,
    "outputTokenDetails": {"textTokens": 89, "reasoningTokens": 0},
    "totalTokens": 561,
}


def _stream_to_full(parts: Iterable[Event], parse: bool) -> list[Event]:
    out: list[Event] = [{"type": "start"}, {"type": "start-step", "request": {}, "warnings": []}]
    reason = "other"
    for part in parts:
        kind = part.get("type")
        if kind in ("tool-input-start", "tool-input-delta", "tool-input-end", "text-start", "text-end"):
            out.append(dict(part))
        elif kind == "text-delta":
            out.append({"type": "text-delta", "id": part["id"], "text": part["delta"]})
        elif kind == "tool-call":
            text = part.get("input") or "{}"
            out.append({**part, "input": json.loads(text) if parse else text})
        elif kind == "finish":
            finish = part.get("finishReason")
            reason = finish.get("unified", "other") if isinstance(finish, dict) else str(finish)
    out.append(
        {
            "type": "finish-step",
            "response": {"id": "resp_0", "timestamp": "2026-11-24T09:15:32.000Z", "modelId": "gpt-5"},
            "usage": _USAGE,
            "performance": {},
            "finishReason": reason,
        }
    )
    out.append({"type": "finish", "finishReason": reason, "totalUsage": _USAGE})
    return out


def stream_to_full(parts: Iterable[Event]) -> list[Event]:
    """Steps around the provider's parts; ``tool-call.input`` parsed, as ``parseToolCall`` does."""
    return _stream_to_full(parts, parse=True)


def stream_to_full_buggy(parts: Iterable[Event]) -> list[Event]:
    """Forwards ``tool-call.input`` as the provider's JSON text."""
    return _stream_to_full(parts, parse=False)


def _full_to_ui_stream(parts: Iterable[Event], by_name: bool) -> list[Event]:
    out: list[Event] = []
    ids: dict[str, str] = {}

    def key(call_id: str, name: str | None) -> str:
        if by_name and name is not None:
            return ids.setdefault(name, call_id)
        return call_id

    names: dict[str, str] = {}
    for part in parts:
        kind = part.get("type")
        if kind in ("start", "start-step", "finish-step", "finish", "text-start", "text-end"):
            out.append(
                {"type": kind, **({"id": part["id"]} if "id" in part and kind.startswith("text") else {})}
            )
        elif kind == "text-delta":
            out.append({"type": "text-delta", "id": part["id"], "delta": part["text"]})
        elif kind == "tool-input-start":
            names[part["id"]] = part["toolName"]
            out.append(
                {
                    "type": "tool-input-start",
                    "toolCallId": key(part["id"], part["toolName"]),
                    "toolName": part["toolName"],
                }
            )
        elif kind == "tool-input-delta":
            call_id = key(part["id"], names.get(part["id"]))
            out.append({"type": "tool-input-delta", "toolCallId": call_id, "inputTextDelta": part["delta"]})
        elif kind == "tool-call":
            call_id = key(part["toolCallId"], part["toolName"])
            out.append(
                {
                    "type": "tool-input-available",
                    "toolCallId": call_id,
                    "toolName": part["toolName"],
                    "input": part["input"],
                }
            )
        elif kind == "tool-result":
            call_id = key(part["toolCallId"], part["toolName"])
            out.append({"type": "tool-output-available", "toolCallId": call_id, "output": part["output"]})
        elif kind == "tool-error":
            call_id = key(part["toolCallId"], part["toolName"])
            out.append({"type": "tool-output-error", "toolCallId": call_id, "errorText": str(part["error"])})
        elif kind == "tool-approval-request":
            call = part["toolCall"]
            call_id = key(call["toolCallId"], call["toolName"])
            out.append(
                {"type": "tool-approval-request", "approvalId": part["approvalId"], "toolCallId": call_id}
            )
    return out


def full_to_ui_stream(parts: Iterable[Event]) -> list[Event]:
    """``toUIMessageStream``: input parts by id, ``tool-input-end`` dropped, outcomes by toolCallId."""
    return _full_to_ui_stream(parts, by_name=False)


def full_to_ui_stream_buggy(parts: Iterable[Event]) -> list[Event]:
    """Keys tool parts by tool name: a tool called twice becomes one part."""
    return _full_to_ui_stream(parts, by_name=True)


def _full_to_ui_messages(parts: Iterable[Event], run_tool: RunTool, fresh_ids: bool) -> list[Message]:
    out: list[Event] = []
    tools: dict[str, Event] = {}
    for part in parts:
        kind = part.get("type")
        if kind == "start-step":
            out.append({"type": "step-start"})
        elif kind == "text-delta":
            out.append({"type": "text", "text": part["text"], "state": "done"})
        elif kind == "tool-call":
            call_id = f"call_{len(tools)}" if fresh_ids else part["toolCallId"]
            tool = {
                "type": f"tool-{part['toolName']}",
                "toolCallId": call_id,
                "state": "input-available",
                "input": part["input"],
            }
            tools[part["toolCallId"]] = tool
            out.append(tool)
        elif kind == "tool-result" and part["toolCallId"] in tools:
            tools[part["toolCallId"]].update(state="output-available", output=part["output"])
        elif kind == "tool-error" and part["toolCallId"] in tools:
            tools[part["toolCallId"]].update(state="output-error", errorText=str(part["error"]))
        elif kind == "tool-approval-request" and part["toolCall"]["toolCallId"] in tools:
            tools[part["toolCall"]["toolCallId"]].update(
                state="approval-requested", approval={"id": part["approvalId"]}
            )
    for tool in tools.values():
        if tool["state"] == "input-available":
            # The client runs the tool the stream left to it (addToolOutput).
            tool.update(
                state="output-available", output=run_tool(tool["type"][len("tool-") :], tool["input"])
            )
    return [
        {"id": "msg_u0", "role": "user", "parts": [{"type": "text", "text": "Hello"}]},
        {"id": "msg_a0", "role": "assistant", "parts": out},
    ]


def full_to_ui_messages(parts: Iterable[Event], run_tool: RunTool) -> list[Message]:
    """``readUIMessageStream`` and ``addToolOutput``: one tool part per call, under the call's id."""
    return _full_to_ui_messages(parts, run_tool, fresh_ids=False)


def full_to_ui_messages_buggy(parts: Iterable[Event], run_tool: RunTool) -> list[Message]:
    """Mints its own ids for the tool parts (``call_0``, ``call_1``...)."""
    return _full_to_ui_messages(parts, run_tool, fresh_ids=True)
