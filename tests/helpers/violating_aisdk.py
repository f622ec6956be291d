"""Hand-written Vercel AI SDK traces that break one rule each (issue 38's consumer evidence).

The sibling of violating.py's AI SDK section (its well-formed provider stream and UI stream),
for the provider stream's VS-1, VS-3 and VS-4, the UI stream's VU-4 and the full stream's VF-1
to VF-7.  Written from the SDK's types (ai 7.0.173, @ai-sdk/provider 4.0.38), not from any
recording or fixture: the same two parallel get_weather calls, Paris and Lyon.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from helpers.violating import CALLS, aisdk_stream, ui_stream

_USAGE = {"inputTokens": 10, "outputTokens": 20, "totalTokens": 30}


def _first(parts: list[dict[str, Any]], kind: str, call_id: str = "call_1") -> int:
    return next(
        n for n, p in enumerate(parts) if p["type"] == kind and call_id in (p.get("id"), p.get("toolCallId"))
    )


# Provider stream parts (aisdk-stream) -------------------------------------------------------------


def vs1_id_reused() -> list[dict[str, Any]]:
    """VS-1: the second call streams and is called under the first call's id."""
    parts = aisdk_stream()
    for part in parts:
        for key in ("id", "toolCallId"):
            if part.get(key) == "call_2":
                part[key] = "call_1"
    return parts


def vs1_call_repeated() -> list[dict[str, Any]]:
    """VS-1: the first call's tool-call comes twice."""
    parts = aisdk_stream()
    at = _first(parts, "tool-call")
    parts.insert(at + 1, copy.deepcopy(parts[at]))
    return parts


def vs1_start_repeated(after: str) -> list[dict[str, Any]]:
    """VS-1, its warning case: the first call's tool-input-start comes again after its first part of
    type ``after`` (``tool-input-delta``: mid-input; ``tool-input-end``: before its tool-call)."""
    parts = aisdk_stream()
    parts.insert(_first(parts, after) + 1, copy.deepcopy(parts[_first(parts, "tool-input-start")]))
    return parts


def vs3_preliminary_result_only() -> list[dict[str, Any]]:
    """VS-3: the first call is provider-executed and its only result is preliminary."""
    parts = aisdk_stream()
    at = _first(parts, "tool-call")
    parts[at]["providerExecuted"] = True
    result = {
        "type": "tool-result",
        "toolCallId": "call_1",
        "toolName": "get_weather",
        "result": {"celsius": 20},
        "preliminary": True,
    }
    parts.insert(at + 1, result)
    return parts


def vs4_input_as_object() -> list[dict[str, Any]]:
    """VS-4: the first call's tool-call input is the arguments object, not their JSON text."""
    parts = aisdk_stream()
    call = parts[_first(parts, "tool-call")]
    call["input"] = json.loads(call["input"])
    return parts


# UI message chunks (aisdk-ui-stream) ----------------------------------------------------------------


def vu4_delta_after_output() -> list[dict[str, Any]]:
    """VU-4: a tool-input-delta for the first call after its tool-output-available."""
    chunks = ui_stream()
    at = _first(chunks, "tool-output-available")
    chunks.insert(at + 1, {"type": "tool-input-delta", "toolCallId": "call_1", "inputTextDelta": " "})
    return chunks


def vu4_output_without_input() -> list[dict[str, Any]]:
    """VU-4: the first call's output follows its tool-input-start (no delta, no tool-input-available)."""
    return [
        c
        for c in ui_stream()
        if c.get("toolCallId") != "call_1" or c["type"] not in ("tool-input-delta", "tool-input-available")
    ]


def vu4_output_twice(failed: bool = False) -> list[dict[str, Any]]:
    """VU-4, its warning case: the first call is answered twice, the second output different
    (a tool-output-error when ``failed``)."""
    chunks = ui_stream()
    at = _first(chunks, "tool-output-available")
    second: dict[str, Any] = {
        "type": "tool-output-available",
        "toolCallId": "call_1",
        "output": {"celsius": 0},
    }
    if failed:
        second = {"type": "tool-output-error", "toolCallId": "call_1", "errorText": "unavailable"}
    chunks.insert(at + 1, second)
    return chunks


# streamText's full stream (aisdk-full-stream) --------------------------------------------------------


def full_stream() -> list[dict[str, Any]]:
    """A well-formed full stream (TextStreamPart): one step streaming and calling both tools,
    their results in the same step, then finish-step and finish."""
    parts: list[dict[str, Any]] = [{"type": "start"}, {"type": "start-step", "request": {}, "warnings": []}]
    for _, call_id, deltas in CALLS:
        arguments = json.loads("".join(deltas))
        parts.append({"type": "tool-input-start", "id": call_id, "toolName": "get_weather"})
        parts += [{"type": "tool-input-delta", "id": call_id, "delta": delta} for delta in deltas]
        parts.append({"type": "tool-input-end", "id": call_id})
        parts.append(
            {"type": "tool-call", "toolCallId": call_id, "toolName": "get_weather", "input": arguments}
        )
    for n, (_, call_id, deltas) in enumerate(CALLS):
        parts.append(
            {
                "type": "tool-result",
                "toolCallId": call_id,
                "toolName": "get_weather",
                "input": json.loads("".join(deltas)),
                "output": {"celsius": 20 + n},
            }
        )
    finish = {"finishReason": "tool-calls", "rawFinishReason": "tool_calls"}
    parts.append(
        {
            "type": "finish-step",
            "response": {"id": "resp_1", "timestamp": "2026-01-01T00:00:00.000Z", "modelId": "gpt-test"},
            "usage": _USAGE,
            **finish,
            "providerMetadata": None,
        }
    )
    return [*parts, {"type": "finish", **finish, "totalUsage": _USAGE}]


def vf1_id_reused() -> list[dict[str, Any]]:
    """VF-1: the second call streams and is called under the first call's id; one result answers it."""
    parts = [p for p in full_stream() if p["type"] != "tool-result" or p["toolCallId"] != "call_2"]
    for part in parts:
        for key in ("id", "toolCallId"):
            if part.get(key) == "call_2":
                part[key] = "call_1"
    return parts


def vf1_call_repeated() -> list[dict[str, Any]]:
    """VF-1: the first call's tool-call comes twice."""
    parts = full_stream()
    at = _first(parts, "tool-call")
    parts.insert(at + 1, copy.deepcopy(parts[at]))
    return parts


def vf1_start_repeated(after: str) -> list[dict[str, Any]]:
    """VF-1, its warning case: the first call's tool-input-start comes again after its first part of
    type ``after`` (``tool-input-delta``: mid-input; ``tool-input-end``: before its tool-call)."""
    parts = full_stream()
    parts.insert(_first(parts, after) + 1, copy.deepcopy(parts[_first(parts, "tool-input-start")]))
    return parts


def _unanswered() -> list[dict[str, Any]]:
    """The full stream of client tools without execute: the calls and no results."""
    return [p for p in full_stream() if p["type"] != "tool-result"]


def vf2_delta_after_call(answered: bool = False) -> list[dict[str, Any]]:
    """VF-2: the first call's last tool-input-delta comes after its tool-call (and before its
    result when ``answered``; without results, as tools without execute stream)."""
    parts = full_stream() if answered else _unanswered()
    last = [n for n, p in enumerate(parts) if p["type"] == "tool-input-delta" and p["id"] == "call_1"][-1]
    delta = parts.pop(last)
    parts.insert(_first(parts, "tool-call") + 1, delta)
    return parts


def vf2_delta_after_end() -> list[dict[str, Any]]:
    """VF-2: the first call's last tool-input-delta comes after its tool-input-end, before its tool-call."""
    parts = _unanswered()
    last = [n for n, p in enumerate(parts) if p["type"] == "tool-input-delta" and p["id"] == "call_1"][-1]
    delta = parts.pop(last)
    parts.insert(_first(parts, "tool-input-end") + 1, delta)
    return parts


def vf3_result_without_call() -> list[dict[str, Any]]:
    """VF-3: the first call's result comes, its tool-call (and input parts) never do."""
    return [
        p
        for p in full_stream()
        if p["type"] == "tool-result" or "call_1" not in (p.get("id"), p.get("toolCallId"))
    ]


def vf4_result_in_next_step() -> list[dict[str, Any]]:
    """VF-4: the first call's (client) result comes in a second step, after the first step's finish-step."""
    parts = full_stream()
    result = parts.pop(_first(parts, "tool-result"))
    step_end = next(n for n, p in enumerate(parts) if p["type"] == "finish-step")
    second = [copy.deepcopy(parts[1]), result, copy.deepcopy(parts[step_end])]
    return parts[: step_end + 1] + second + parts[step_end + 1 :]


def vf5_call_after_finish() -> list[dict[str, Any]]:
    """VF-5: the second call (its parts and result) comes after finish."""
    parts = full_stream()
    late = [p for p in parts if "call_2" in (p.get("id"), p.get("toolCallId"))]
    return [p for p in parts if p not in late] + late


def vf6_no_finish() -> list[dict[str, Any]]:
    """VF-6: the stream ends after the results, without finish-step or finish."""
    return [p for p in full_stream() if p["type"] not in ("finish-step", "finish")]


def vf7_input_as_json_text() -> list[dict[str, Any]]:
    """VF-7: the first call's tool-call input is the provider's JSON text, not the parsed value."""
    parts = full_stream()
    call = parts[_first(parts, "tool-call")]
    call["input"] = json.dumps(call["input"], separators=(",", ":"))
    return parts
