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


def _ids_in(messages: list[Any]) -> set[Any]:
    """Every id a block of ``messages`` holds or names (``id``, ``tool_use_id``)."""
    return {
        block[key]
        for msg in messages
        if isinstance(msg, dict) and isinstance(msg.get("content"), list)
        for block in msg["content"]
        if isinstance(block, dict)
        for key in ("id", "tool_use_id")
        if isinstance(block.get(key), str)
    }


def _server_ids(messages: list[Any], changes: list[Change]) -> list[Any]:
    """Anthropic: a repeated server_tool_use id (AN-2) is renamed, each repeat to an id no block of
    the history holds, with the server tool's result that follows it; the server ran that tool, so
    neither moves.  A result (``web_search_tool_result`` and kin) follows the use of its id closest
    before it: in the nearest message, the first use not yet followed (uses and results in order)."""
    taken = _ids_in(messages)
    counter = 0

    def fresh() -> str:
        nonlocal counter
        while True:
            counter += 1
            if (new := f"srvtoolu_tw{counter}") not in taken:
                taken.add(new)
                return new

    seen: set[str] = set()
    #: Each use's id -> its uses not yet followed by a result: (message, the id it goes by now).
    open_uses: dict[str, list[tuple[int, str]]] = {}
    out: list[Any] = []
    for i, msg in enumerate(messages):
        blocks = msg.get("content") if isinstance(msg, dict) and msg.get("role") == "assistant" else None
        if not isinstance(blocks, list):
            out.append(msg)
            continue
        edited = list(blocks)
        changed = False
        for k, block in enumerate(blocks):
            if isinstance(block, dict) and block.get("type") == anthropic.SERVER_TOOL_USE:
                ident = block.get("id")
                if not isinstance(ident, str):
                    continue
                now = ident
                if ident in seen:
                    now = fresh()
                    edited[k], changed = {**block, "id": now}, True
                    changes.append(
                        Change(
                            "AN-2",
                            f"messages[{i}].content[{k}].id",
                            "rename",
                            ident,
                            now,
                            "a repeated server tool id, renamed with its result",
                        )
                    )
                seen.add(ident)
                open_uses.setdefault(ident, []).append((i, now))
            elif anthropic.is_server_result(block) and isinstance(named := block.get("tool_use_id"), str):
                uses = open_uses.get(named)
                if not uses:
                    continue  # no use before it: left as it is (check says so)
                nearest = uses[-1][0]
                use = next(u for u in uses if u[0] == nearest)
                uses.remove(use)
                if use[1] != named:
                    edited[k], changed = {**block, "tool_use_id": use[1]}, True
        out.append({**msg, "content": edited} if changed else msg)
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
