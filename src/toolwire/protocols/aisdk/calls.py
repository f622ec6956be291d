"""Where calls and results sit in Vercel AI SDK traces: readers, sites, probe."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from toolwire.models import aisdk as wire
from toolwire.properties._protocol import Result
from toolwire.properties._sites import Path, Sites, first, intact_ids, key, role, typed_ids
from toolwire.properties._text import json_text
from toolwire.properties._turn import Call

__all__ = [
    "FULL_SITES",
    "MODEL_SITES",
    "STREAM_SITES",
    "UI_MESSAGE_SITES",
    "UI_SITES",
    "full_results",
    "intact_model",
    "intact_ui",
    "model_probe",
    "model_results",
    "probe",
    "recognises_full",
    "recognises_model",
    "recognises_ui",
    "results",
    "ui_calls",
    "ui_message_results",
    "ui_results",
]

#: ``tool-input-start`` opens a call.
STREAM_SITES: Final = Sites(key("tool-input-start", "id"))
#: ``tool-input-start`` opens a call (its id is ``toolCallId`` here).
UI_SITES: Final = Sites(key("tool-input-start", "toolCallId"))


def _opens_full(part: Any) -> Path | None:
    """A full stream call opens at its tool-input-start (``id``) or, sent whole, its tool-call."""
    return key("tool-input-start", "id")(part) or key("tool-call", "toolCallId")(part)


#: The full stream: tool-input-start or tool-call opens a call; tool-result and tool-error answer it.
FULL_SITES: Final = Sites(
    _opens_full, lambda part: key("tool-result", "toolCallId")(part) or key("tool-error", "toolCallId")(part)
)


def _tool_part(part: Any) -> Path | None:
    return ("toolCallId",) if wire.tool_part_name(part) is not None and "toolCallId" in part else None


#: UI messages: a call and its outcome are one tool part of an assistant message.
UI_MESSAGE_SITES: Final = Sites(role("assistant", lambda m: first(m, ("parts",), _tool_part)))
#: Model messages: assistant tool-call parts open calls; tool messages' tool-result parts answer them.
MODEL_SITES: Final = Sites(
    role("assistant", lambda m: first(m, ("content",), key("tool-call", "toolCallId"))),
    role("tool", lambda m: first(m, ("content",), key("tool-result", "toolCallId"))),
)


def results(trace: list[Any]) -> Iterable[Result]:
    """The ``tool-result`` parts: the call id each answers, its tool and result."""
    for e in trace:
        if isinstance(e, dict) and e.get("type") == "tool-result":
            yield Result(e.get("toolCallId"), e.get("toolName"), e.get("result", e.get("output")))


def ui_calls(trace: list[Any]) -> list[Call]:
    """The calls of a UI message stream, as ``tool-input-available`` chunks carry them whole."""
    return [
        Call(e.get("toolCallId"), e.get("toolName"), json_text(e.get("input")))
        for e in trace
        if isinstance(e, dict) and e.get("type") == "tool-input-available"
    ]


def ui_results(trace: list[Any]) -> Iterable[Result]:
    """The final ``tool-output-available`` and ``tool-output-error`` chunks: call id and output or error."""
    for e in trace:
        if not isinstance(e, dict) or e.get("preliminary") is True:
            continue
        if e.get("type") == "tool-output-available":
            yield Result(e.get("toolCallId"), None, e.get("output"))
        elif e.get("type") == "tool-output-error":
            yield Result(e.get("toolCallId"), None, e.get("errorText"))


def probe(call_id: str) -> list[dict[str, Any]]:
    """The smallest stream in which ``call_id`` is a call's id."""
    return [
        {"type": "tool-input-start", "id": call_id, "toolName": "get_weather"},
        {"type": "tool-input-end", "id": call_id},
        {"type": "tool-call", "toolCallId": call_id, "toolName": "get_weather", "input": "{}"},
    ]


def full_results(trace: list[Any]) -> Iterable[Result]:
    """The final ``tool-result`` and ``tool-error`` parts of a full stream: call id, tool, output."""
    for e in trace:
        if not isinstance(e, dict) or e.get("preliminary") is True:
            continue
        if e.get("type") == "tool-result":
            yield Result(e.get("toolCallId"), e.get("toolName"), e.get("output", e.get("result")))
        elif e.get("type") == "tool-error":
            yield Result(e.get("toolCallId"), e.get("toolName"), e.get("error"))


def _denied(part: dict[str, Any]) -> str:
    approval = part.get("approval")
    reason = approval.get("reason") if isinstance(approval, dict) else None
    return reason if isinstance(reason, str) else "Tool call execution denied."


def ui_message_results(trace: list[Any]) -> Iterable[Result]:
    """The outcomes of UI tool parts: output, errorText, or the denial (as convertToModelMessages has it)."""
    for message in trace:
        parts = message.get("parts") if isinstance(message, dict) else None
        for part in parts if isinstance(parts, list) else []:
            name = wire.tool_part_name(part)
            state = part.get("state") if name is not None else None
            if state == "output-available" and part.get("preliminary") is not True:
                yield Result(part.get("toolCallId"), name, part.get("output"))
            elif state == "output-error":
                yield Result(part.get("toolCallId"), name, part.get("errorText"))
            elif state == "output-denied":
                yield Result(part.get("toolCallId"), name, _denied(part))


def model_results(trace: list[Any]) -> Iterable[Result]:
    """The ``tool-result`` parts: call id, tool, the output's value (or an execution denial's reason)."""
    for message in trace:
        content = message.get("content") if isinstance(message, dict) else None
        for part in content if isinstance(content, list) else []:
            if isinstance(part, dict) and part.get("type") == "tool-result":
                output = part.get("output")
                value = output.get("value", output.get("reason")) if isinstance(output, dict) else output
                yield Result(part.get("toolCallId"), part.get("toolName"), value)


def model_probe(call_id: str) -> list[dict[str, Any]]:
    """The smallest model-message list in which ``call_id`` is a call's id and its result's."""
    call = {"type": "tool-call", "toolCallId": call_id, "toolName": "get_weather", "input": {}}
    result = {
        "type": "tool-result",
        "toolCallId": call_id,
        "toolName": "get_weather",
        "output": {"type": "text", "value": "15 degrees"},
    }
    return [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": [call]},
        {"role": "tool", "content": [result]},
    ]


def recognises_full(part: Any) -> bool:
    """A full stream part: a ``TextStreamPart`` type (``text-delta`` carries ``text``, not ``delta``)."""
    if not isinstance(part, dict):
        return False
    kind = part.get("type")
    if not isinstance(kind, str):
        return False  # a list or an object is no type, and cannot be looked up in a set
    if kind in ("text-delta", "reasoning-delta"):
        return "text" in part
    # The parts the full-stream monitor takes anywhere (full.py's _ANYWHERE) are its parts too.
    return kind in wire.FULL_TOOL_PARTS or kind in (
        "start-step", "finish-step", "start", "finish", "error", "abort", "ping", "raw", "steering-message"
    )  # fmt: skip


def recognises_ui(message: Any) -> bool:
    """A UI message: a role and a ``parts`` list."""
    return (
        isinstance(message, dict)
        and message.get("role") in wire.UI_ROLES
        and isinstance(message.get("parts"), list)
    )


def recognises_model(message: Any) -> bool:
    """A model message: a role and a ``content`` string or list of typed parts (no ``parts``)."""
    if not isinstance(message, dict) or message.get("role") not in wire.MODEL_ROLES or "parts" in message:
        return False
    content = message.get("content")
    if isinstance(content, str):
        return bool(message["role"] != "tool")
    return isinstance(content, list) and all(isinstance(p, dict) and "type" in p for p in content)


_TOOL_CALLS: Final = typed_ids("assistant", "content", "tool-call", ("toolCallId",))
_TOOL_RESULTS: Final = typed_ids("tool", "content", "tool-result", ("toolCallId",))


def intact_model(trace: list[Any]) -> set[str]:
    """Ids of the tool-call/tool-result pairs a damaged model-message history still holds intact:
    each called once and answered once, in the tool message right after its assistant message."""
    return intact_ids(trace, _TOOL_CALLS, _TOOL_RESULTS, one_message=True)


def intact_ui(trace: list[Any]) -> set[str]:
    """Ids of the calls a damaged UI-message history still holds intact: an assistant message's
    tool part with its outcome (output, error or denial), the only tool part of its id."""
    seen: dict[str, int] = {}
    done: set[str] = set()
    for message in trace:
        parts = message.get("parts") if isinstance(message, dict) else None
        for part in parts if isinstance(parts, list) else []:
            if wire.tool_part_name(part) is None or not isinstance(part.get("toolCallId"), str):
                continue
            ident = part["toolCallId"]
            seen[ident] = seen.get(ident, 0) + 1
            state = part.get("state")
            outcome = state in ("output-error", "output-denied") or (
                state == "output-available" and part.get("preliminary") is not True
            )
            if outcome and message.get("role") == "assistant":
                done.add(ident)
    return {i for i in done if seen[i] == 1}
