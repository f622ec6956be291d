"""Anthropic Messages histories as the repairer sees them: results are blocks of the next user message."""

from __future__ import annotations

from typing import Any, Final

from toolwire.models import anthropic
from toolwire.properties._change import Change
from toolwire.properties._repair import (
    NOT_RUN,
    Adapter,
    Block,
    Message,
    blocks_left,
    numbered,
    parts_of,
    replaced,
)

__all__ = ["ADAPTER"]


def _tool_use(b: Any) -> tuple[Any, str | None] | None:
    if not isinstance(b, dict) or b.get("type") != anthropic.TOOL_USE:
        return None
    return b.get("id"), b.get("name")


def _tool_result(b: Any) -> tuple[Any, str | None] | None:
    if not isinstance(b, dict) or b.get("type") != anthropic.TOOL_RESULT:
        return None
    return b.get("tool_use_id"), None


def _anthropic_calls(msg: Any) -> list[tuple[Block, Any, str | None]]:
    return parts_of(msg, "assistant", "content", _tool_use)


def _anthropic_results(msg: Any) -> list[tuple[Block, Any, str | None]]:
    return parts_of(msg, "user", "content", _tool_result)


def _anthropic_answer(msg: Message | None, block: Block, new: Any, name: str | None) -> Any:
    if msg is not None:
        return {**msg["content"][block], "tool_use_id": new}
    return {"type": "tool_result", "tool_use_id": new, "content": NOT_RUN, "is_error": True}


_ANTHROPIC_RULES: Final = {
    "unanswered": "AN-3", "orphan": "AN-4", "move": "AN-4", "first": "AN-5", "duplicate": "AN-2",
    "id": "AN-1", "missing": "AN-1", "second": "AN-4",
}  # fmt: skip


def _server_ids(messages: list[Any], changes: list[Change]) -> list[Any]:
    """Anthropic: a repeated server_tool_use id (AN-2) is renamed with the server tool's result in
    the same assistant message; the server ran that tool, so neither moves."""
    seen: set[Any] = set()
    out: list[Any] = []
    counter = 0
    for i, msg in enumerate(messages):
        blocks = msg.get("content") if isinstance(msg, dict) and msg.get("role") == "assistant" else None
        if not isinstance(blocks, list):
            out.append(msg)
            continue
        renames: dict[Any, str] = {}
        for k, block in enumerate(blocks):
            if isinstance(block, dict) and block.get("type") == "server_tool_use":
                ident = block.get("id")
                if ident in seen:
                    counter += 1
                    renames[ident] = f"srvtoolu_tw{counter}"
                    changes.append(
                        Change(
                            "AN-2",
                            f"messages[{i}].content[{k}].id",
                            "rename",
                            ident,
                            renames[ident],
                            "a repeated server tool id, renamed with its result",
                        )
                    )
                seen.add(ident)
        if renames:
            blocks = [
                {**b, "id": renames[b["id"]]}
                if isinstance(b, dict) and b.get("type") == "server_tool_use" and b.get("id") in renames
                else {**b, "tool_use_id": renames[b["tool_use_id"]]}
                if isinstance(b, dict) and b.get("tool_use_id") in renames
                else b
                for b in blocks
            ]
            msg = {**msg, "content": blocks}
        out.append(msg)
    return out


ADAPTER: Final = Adapter(
    protocol="anthropic-messages",
    container="messages",
    layout="block",
    rules=_ANTHROPIC_RULES,
    calls=_anthropic_calls,
    results=_anthropic_results,
    call_path=lambda i, b: f"messages[{i}].content[{b}].id",
    result_path=lambda i, b: f"messages[{i}].content[{b}]",
    with_calls=lambda m, e: blocks_left(replaced(m, "content", e, lambda b, new: {**b, "id": new})),
    answer=_anthropic_answer,
    said=lambda m, b: m["content"][b].get("content"),
    note=lambda text: {"type": "text", "text": text},
    accepts=lambda v: bool(anthropic.TOOL_USE_ID.fullmatch(v)),
    fresh=numbered("toolu_tw"),
    after=_server_ids,
)
