"""AI SDK model messages as the repairer sees them: tool-result parts of the next tool message."""

from __future__ import annotations

from typing import Any, Final

from toolwire.properties._repair import (
    NOT_RUN,
    Adapter,
    Block,
    Message,
    blocks_left,
    nonempty,
    numbered,
    replaced,
    typed_parts,
)

__all__ = ["ADAPTER"]


def _aisdk_answer(msg: Message | None, block: Block, new: Any, name: str | None) -> Any:
    if msg is not None:
        return {**msg["content"][block], "toolCallId": new}
    return {
        "type": "tool-result",
        "toolCallId": new,
        "toolName": name,
        "output": {"type": "error-text", "value": NOT_RUN},
    }


_AISDK_RULES: Final = {
    "unanswered": "VS-6", "orphan": "VP-1", "move": "VP-1", "duplicate": "VP-2",
    "id": "VP-4", "missing": "VP-4", "second": "VP-1",
}  # fmt: skip


def _user_text(text: str) -> Message:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


ADAPTER: Final = Adapter(
    protocol="aisdk-model-messages",
    container="messages",
    layout="block",
    rules=_AISDK_RULES,
    calls=lambda m: typed_parts(m, "assistant", "content", "tool-call", "toolCallId", "toolName"),
    results=lambda m: typed_parts(m, "tool", "content", "tool-result", "toolCallId", "toolName"),
    call_path=lambda i, b: f"messages[{i}].content[{b}].toolCallId",
    result_path=lambda i, b: f"messages[{i}].content[{b}]",
    with_calls=lambda m, e: blocks_left(replaced(m, "content", e, lambda p, new: {**p, "toolCallId": new})),
    answer=_aisdk_answer,
    said=lambda m, b: m["content"][b].get("output"),
    note=lambda text: {"type": "text", "text": text},
    accepts=nonempty,
    fresh=numbered("call_tw"),
    carrier_role="tool",
    note_in_place=False,
    note_message=_user_text,
)
