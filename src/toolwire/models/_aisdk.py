"""Vercel AI SDK: provider stream parts (LanguageModelV2/V3/V4) and UI message stream chunks.

Src: ``@ai-sdk/provider`` 4.0.38 ``language-model-v4-stream-part.ts`` (and
3.0.19 for V3, 2.0.5 for V2); ``ai`` 7.0.173
``src/ui-message-stream/ui-message-chunks.ts``, ``src/ui/process-ui-message-stream.ts``.
"""

from __future__ import annotations

from typing import Final

__all__ = ["INPUT_PART_TYPES", "OTHER_PART_TYPES", "OTHER_UI_CHUNK_TYPES", "PART_TYPES", "UI_TOOL_CHUNKS"]

#: Parts that carry the call id in ``id``; the rest carry it in ``toolCallId`` (VS-1).
INPUT_PART_TYPES: Final = frozenset({"tool-input-start", "tool-input-delta", "tool-input-end"})

#: The tool parts of each provider specification version.
PART_TYPES: Final = {
    "v2": frozenset({*INPUT_PART_TYPES, "tool-call", "tool-result"}),
    "v3": frozenset({*INPUT_PART_TYPES, "tool-call", "tool-result", "tool-approval-request"}),
    "v4": frozenset({*INPUT_PART_TYPES, "tool-call", "tool-result", "tool-approval-request"}),
}
#: Parts that carry no tool call.
OTHER_PART_TYPES: Final = frozenset(
    {
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
OTHER_UI_CHUNK_TYPES: Final = frozenset(
    {
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
