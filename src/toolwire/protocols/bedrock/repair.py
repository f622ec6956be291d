"""Bedrock Converse histories as the repairer sees them: results are blocks of the next user message."""

from __future__ import annotations

from typing import Any, Final

from toolwire.models import bedrock
from toolwire.properties._repair import (
    NOT_RUN,
    Adapter,
    Block,
    Message,
    as_dict,
    blocks_left,
    numbered,
    parts_of,
    replaced,
)

__all__ = ["ADAPTER"]


def _system(body: Any) -> bool:
    """A system tool's toolUse or toolResult (it has a ``type``: botocore 1.44.8 ToolUseType
    ``server_tool_use``): Bedrock ran and answered it in its message, so check (BR-2) and the
    repairer leave it alone."""
    return isinstance(body, dict) and body.get("type") is not None


def _tool_use(b: Any) -> tuple[Any, str | None] | None:
    if not isinstance(b, dict) or "toolUse" not in b or _system(b["toolUse"]):
        return None
    return as_dict(b["toolUse"]).get("toolUseId"), as_dict(b["toolUse"]).get("name")


def _tool_result(b: Any) -> tuple[Any, str | None] | None:
    if not isinstance(b, dict) or "toolResult" not in b or _system(b["toolResult"]):
        return None
    return as_dict(b["toolResult"]).get("toolUseId"), None


def _bedrock_calls(msg: Any) -> list[tuple[Block, Any, str | None]]:
    return parts_of(msg, "assistant", "content", _tool_use)


def _bedrock_results(msg: Any) -> list[tuple[Block, Any, str | None]]:
    return parts_of(msg, "user", "content", _tool_result)


def _bedrock_answer(msg: Message | None, block: Block, new: Any, name: str | None) -> Any:
    if msg is not None:
        result = msg["content"][block]["toolResult"]
        return {**msg["content"][block], "toolResult": {**result, "toolUseId": new}}
    # No ``status: error``: botocore says only Nova and Claude 3/4 models take it (BR-7).
    return {"toolResult": {"toolUseId": new, "content": [{"text": NOT_RUN}]}}


def _said(block: dict[str, Any]) -> Any:
    """What a toolResult said: its ``content``; else (a toolResult not of the API's shape) every
    field but its id, or the toolResult itself when it is no object (a string, a list)."""
    result = block.get("toolResult")
    if not isinstance(result, dict):
        return result
    if "content" in result:
        return result["content"]
    return {k: v for k, v in result.items() if k != "toolUseId"}


def _bedrock_accepts(value: str) -> bool:
    return len(value) <= bedrock.TOOL_USE_ID_MAX and bool(bedrock.TOOL_USE_ID.fullmatch(value))


_BEDROCK_RULES: Final = {
    "unanswered": "BR-2", "orphan": "BR-3", "move": "BR-2", "duplicate": "BR-4",
    "id": "BR-1", "missing": "BR-1", "second": "BR-4",
}  # fmt: skip


ADAPTER: Final = Adapter(
    protocol="bedrock-converse",
    container="messages",
    layout="block",
    rules=_BEDROCK_RULES,
    calls=_bedrock_calls,
    results=_bedrock_results,
    call_path=lambda i, b: f"messages[{i}].content[{b}].toolUse.toolUseId",
    result_path=lambda i, b: f"messages[{i}].content[{b}]",
    with_calls=lambda m, e: blocks_left(
        replaced(m, "content", e, lambda b, new: {**b, "toolUse": {**b["toolUse"], "toolUseId": new}})
    ),
    answer=_bedrock_answer,
    said=lambda m, b: _said(m["content"][b]),
    note=lambda text: {"text": text},
    accepts=_bedrock_accepts,
    fresh=numbered("tooluse_tw"),
)
