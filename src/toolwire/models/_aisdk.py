"""Vercel AI SDK: provider stream parts, UI message stream chunks, the full stream, UI and model messages.

Src: ``@ai-sdk/provider`` 4.0.38 ``language-model-v4-stream-part.ts`` (and
3.0.19 for V3, 2.0.5 for V2); ``ai`` 7.0.173
``src/ui-message-stream/ui-message-chunks.ts``, ``src/ui/process-ui-message-stream.ts``,
``src/generate-text/stream-text-result.ts`` (``TextStreamPart``), ``src/ui/ui-messages.ts``
(``UIMessage``) and ``@ai-sdk/provider-utils`` ``src/types/*-message.ts`` (``ModelMessage``).
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "DYNAMIC_TOOL",
    "FULL_OTHER_PARTS",
    "FULL_TOOL_PARTS",
    "INPUT_PART_TYPES",
    "MODEL_PART_TYPES",
    "MODEL_ROLES",
    "OTHER_PART_TYPES",
    "OTHER_UI_CHUNK_TYPES",
    "PART_TYPES",
    "TOOL_OUTPUT_TYPES",
    "UI_PART_TYPES",
    "UI_ROLES",
    "UI_TOOL_CHUNKS",
    "UI_TOOL_STATES",
    "tool_part_name",
]

#: Parts that carry the call id in ``id``; the rest carry it in ``toolCallId`` (VS-1).
INPUT_PART_TYPES: Final = frozenset({"tool-input-start", "tool-input-delta", "tool-input-end"})

#: The tool parts of each provider specification version.
PART_TYPES: Final = {
    "v2": frozenset({*INPUT_PART_TYPES, "tool-call", "tool-result"}),
    "v3": frozenset({*INPUT_PART_TYPES, "tool-call", "tool-result", "tool-approval-request"}),
    "v4": frozenset({*INPUT_PART_TYPES, "tool-call", "tool-result", "tool-approval-request"}),
}
#: Parts that carry no tool call (``custom``: provider-specific content; ``ping``: a keep-alive).
OTHER_PART_TYPES: Final = frozenset(
    {
        "custom",
        "ping",
        "reasoning-file",
        "stream-start",
        "response-metadata",
        "text-start",
        "text-delta",
        "text-end",
        "reasoning-start",
        "reasoning-delta",
        "reasoning-end",
        "file",
        "source",
        "finish",
        "raw",
        "error",
    }
)

#: UI chunk type -> the event of the UI tool part machine it drives.
UI_TOOL_CHUNKS: Final = {
    "tool-input-start": "start",
    "tool-input-delta": "delta",
    "tool-input-available": "input",
    "tool-input-error": "input_failed",
    "tool-approval-request": "ask",
    "tool-approval-response": "reply",
    "tool-output-available": "output",
    "tool-output-error": "failed",
    "tool-output-denied": "denied",
}
#: UI chunk types that carry no tool call (``reset-step`` removes the step's parts: the monitor
#: forgets its tool parts).
OTHER_UI_CHUNK_TYPES: Final = frozenset(
    {
        "custom",
        "reasoning-file",
        "reset-step",
        "steering-message",
        "start",
        "finish",
        "abort",
        "start-step",
        "finish-step",
        "text-start",
        "text-delta",
        "text-end",
        "reasoning-start",
        "reasoning-delta",
        "reasoning-end",
        "source-url",
        "source-document",
        "file",
        "error",
        "message-metadata",
    }
)

#: ``TextStreamPart`` (``streamText``'s ``fullStream``) part type -> the event of the full
#: stream's tool call machine it drives.  Input parts carry the call id in ``id``; the rest
#: in ``toolCallId``, but the approval parts, which carry it in ``toolCall.toolCallId``.
FULL_TOOL_PARTS: Final = {
    "tool-input-start": "input_start",
    "tool-input-delta": "input_delta",
    "tool-input-end": "input_end",
    "tool-call": "call",
    "tool-approval-request": "ask",
    "tool-approval-response": "reply",
    "tool-result": "result",
    "tool-error": "error",
    "tool-output-denied": "denied",
}
#: ``TextStreamPart`` types that carry no tool call.
FULL_OTHER_PARTS: Final = frozenset(
    {
        "start",
        "finish",
        "start-step",
        "finish-step",
        "text-start",
        "text-delta",
        "text-end",
        "reasoning-start",
        "reasoning-delta",
        "reasoning-end",
        "custom",
        "source",
        "file",
        "reasoning-file",
        "steering-message",
        "abort",
        "error",
        "ping",
        "raw",
    }
)

#: ``UIMessage.role``.
#: Tuples, not sets: a role or type read from the wire may be any JSON value, a list too.
UI_ROLES: Final = ("system", "user", "assistant")
#: The states of a UI tool part (``UIToolInvocation``), in lifecycle order (VU-4).
UI_TOOL_STATES: Final = (
    "input-streaming",
    "input-available",
    "approval-requested",
    "approval-responded",
    "output-available",
    "output-error",
    "output-denied",
)
#: The type of a tool part whose tool is not in the tool set (it names it in ``toolName``).
DYNAMIC_TOOL: Final = "dynamic-tool"

#: ``UIMessagePart`` types: a tool part is ``tool-<name>`` or ``dynamic-tool``, a data part
#: ``data-<name>`` (written with ``*``); the others carry no call.
UI_PART_TYPES: Final = frozenset(
    {
        "custom",
        "data-*",
        DYNAMIC_TOOL,
        "file",
        "reasoning",
        "reasoning-file",
        "source-document",
        "source-url",
        "steering-message",
        "step-start",
        "text",
        "tool-*",
    }
)
#: The part types of ``UserContent``, ``AssistantContent`` and ``ToolContent``; the tool parts
#: are judged, the others carry no call.
MODEL_PART_TYPES: Final = frozenset(
    {
        "custom",
        "file",
        "image",
        "reasoning",
        "reasoning-file",
        "text",
        "tool-approval-request",
        "tool-approval-response",
        "tool-call",
        "tool-result",
    }
)

#: ``ModelMessage.role``.
MODEL_ROLES: Final = ("system", "user", "assistant", "tool")
#: ``ToolResultOutput.type`` (``@ai-sdk/provider-utils`` ``content-part.ts``); all but
#: ``execution-denied`` carry ``value``.
TOOL_OUTPUT_TYPES: Final = ("text", "json", "error-text", "error-json", "content", "execution-denied")


def tool_part_name(part: object) -> str | None:
    """The tool a UI message part calls (``tool-<name>``, or ``dynamic-tool``'s ``toolName``), or None.

    >>> tool_part_name({"type": "tool-get_weather"}), tool_part_name({"type": "text"})
    ('get_weather', None)
    """
    if not isinstance(part, dict):
        return None
    kind = part.get("type")
    if kind == DYNAMIC_TOOL:
        name = part.get("toolName")
        return name if isinstance(name, str) else ""
    if isinstance(kind, str) and kind.startswith("tool-"):
        return kind[len("tool-") :]
    return None
