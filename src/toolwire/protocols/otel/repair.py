"""OpenTelemetry GenAI messages as the repairer sees them: tool_call_response parts of tool messages."""

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


def _otel_answer(msg: Message | None, block: Block, new: Any, name: str | None) -> Any:
    if msg is not None:
        return {**msg["parts"][block], "id": new}
    return {"type": "tool_call_response", "id": new, "response": NOT_RUN}


def _otel_put(part: Any, new: Any) -> Any:
    return {**part, "id": new}


def _said(part: dict[str, Any]) -> Any:
    """What a tool_call_response said: its ``response``, or (a part that names it otherwise, as the
    semantic conventions' own example does with ``result``) every field but its type and id."""
    if "response" in part:
        return part["response"]
    return {k: v for k, v in part.items() if k not in ("type", "id")}


def _parts_left(out: Message | None) -> Message | None:
    return blocks_left(out, "parts")


_OTEL_RULES: Final = {
    "unanswered": "GA-5", "orphan": "GA-3", "move": "GA-4", "duplicate": "GA-6",
    "id": "GA-1", "missing": "GA-1", "second": "GA-6",
}  # fmt: skip


ADAPTER: Final = Adapter(
    protocol="otel-genai",
    container="messages",
    layout="block",
    rules=_OTEL_RULES,
    calls=lambda m: typed_parts(m, "assistant", "parts", "tool_call", "id", "name"),
    results=lambda m: typed_parts(m, "tool", "parts", "tool_call_response", "id", "name"),
    call_path=lambda i, b: f"messages[{i}].parts[{b}].id",
    result_path=lambda i, b: f"messages[{i}].parts[{b}]",
    with_calls=lambda m, e: _parts_left(replaced(m, "parts", e, _otel_put)),
    answer=_otel_answer,
    said=lambda m, b: _said(m["parts"][b]),
    note=lambda text: {"type": "text", "content": text},
    accepts=nonempty,
    fresh=numbered("call_tw"),
    carrier_role="tool",
    blocks_key="parts",
    ids_optional=True,
    note_in_place=False,
    note_message=lambda text: {"role": "user", "parts": [{"type": "text", "content": text}]},
)
