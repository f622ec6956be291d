"""OpenAI Chat Completions histories as the repairer sees them: results are tool messages."""

from __future__ import annotations

from typing import Any, Final

from toolwire.models import openai_chat
from toolwire.properties._repair import (
    NOT_RUN,
    Adapter,
    Block,
    Message,
    had_text,
    numbered,
    replaced,
)

__all__ = ["ADAPTER", "chat"]


# The two readers run on every message of a history: ``role_is`` inlined.
def _chat_calls(msg: Any) -> list[tuple[Block, Any, str | None]]:
    if not isinstance(msg, dict) or msg.get("role") != "assistant":
        return []
    calls = msg.get("tool_calls")
    if not isinstance(calls, list):
        return []
    out: list[tuple[Block, Any, str | None]] = []
    for k, tc in enumerate(calls):
        if isinstance(tc, dict):
            function = tc.get("function")
            out.append((k, tc.get("id"), function.get("name") if isinstance(function, dict) else None))
    return out


def _chat_results(msg: Any) -> list[tuple[Block, Any, str | None]]:
    if not isinstance(msg, dict) or msg.get("role") != "tool":
        return []
    return [(None, msg.get("tool_call_id"), msg.get("name"))]


def _chat_with_calls(msg: Message, edit: dict[Block, Any]) -> Message | None:
    out = replaced(msg, "tool_calls", edit, lambda tc, new: {**tc, "id": new})
    assert out is not None
    if not out["tool_calls"]:
        # An empty tool_calls array is rejected ("Invalid 'messages[N].tool_calls': empty array").
        del out["tool_calls"]
        if not had_text(out, "content") and not out.get("reasoning_content"):
            return None
    return out


def _chat_answer(msg: Message | None, block: Block, new: Any, name: str | None) -> Message:
    if msg is not None:
        return {**msg, "tool_call_id": new}
    return {"role": "tool", "tool_call_id": new, "content": NOT_RUN}


def _openai_accepts(value: str) -> bool:
    return 0 < len(value) <= openai_chat.CHAT_TOOL_CALL_ID_MAX


def chat(protocol: str, rules: dict[str, str], accepts: Any, fresh: Any) -> Adapter:
    return Adapter(
        protocol=protocol,
        container="messages",
        layout="message",
        rules=rules,
        calls=_chat_calls,
        results=_chat_results,
        call_path=lambda i, b: f"messages[{i}].tool_calls[{b}].id",
        result_path=lambda i, b: f"messages[{i}]",
        with_calls=_chat_with_calls,
        answer=_chat_answer,
        said=lambda m, b: m.get("content"),
        note=lambda text: {"role": "user", "content": text},
        accepts=accepts,
        fresh=fresh,
    )


_CHAT_RULES: Final = {
    "unanswered": "CC-4", "orphan": "CC-3", "move": "CC-2", "duplicate": "CC-5b",
    "id": "CC-1", "missing": "CC-1", "second": "CC-5c",
}  # fmt: skip


ADAPTER: Final = chat("openai-chat", _CHAT_RULES, _openai_accepts, numbered("call_tw"))
