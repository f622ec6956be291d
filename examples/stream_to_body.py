"""Stream -> body: the accumulator every SDK ships, adding Chat Completions chunks up to a chat.completion.

``fixed`` accumulates fragments by ``index``, as openai's ``ChatCompletionStreamState`` does.
``buggy`` keys them by tool name, as hand-rolled accumulators (and some proxies) do: two
parallel calls of one tool merge into one call whose arguments are both calls' text.

    toolwire fuzz examples/stream_to_body.py:buggy --from openai-chat-stream --to openai-chat-response
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from _chat_stream import accumulate

Chunk = dict[str, Any]


def _body(chunks: list[Chunk], calls: list[dict[str, Any]]) -> dict[str, Any]:
    head = chunks[0] if chunks else {}
    finish = [
        c["finish_reason"] for chunk in chunks for c in chunk.get("choices") or [] if c.get("finish_reason")
    ]
    message: dict[str, Any] = {"role": "assistant", "content": None}
    if calls:
        message["tool_calls"] = [
            {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
            for c in calls
        ]
    choice = {"index": 0, "message": message, "finish_reason": finish[-1] if finish else "stop"}
    return {
        "id": head.get("id"),
        "object": "chat.completion",
        "model": head.get("model"),
        "choices": [choice],
    }


def fixed(chunks: Iterable[Chunk]) -> dict[str, Any]:
    """Fragments accumulated by index, a new id at a busy index starting a new call."""
    chunks = list(chunks)
    return _body(chunks, accumulate(chunks))


def index_keyed(chunks: Iterable[Chunk]) -> dict[str, Any]:
    """Fragments accumulated strictly by index, id and name from its first fragment: right for
    OpenAI's own streams, wrong for servers that send every call at index 0 (Mistral, Ollama)."""
    chunks = list(chunks)
    calls: dict[int, dict[str, Any]] = {}
    for chunk in chunks:
        for choice in chunk.get("choices") or []:
            for fragment in (choice.get("delta") or {}).get("tool_calls") or []:
                call = calls.setdefault(fragment.get("index", 0), {"id": None, "name": None, "arguments": ""})
                function = fragment.get("function") or {}
                call["id"] = call["id"] or fragment.get("id")
                call["name"] = call["name"] or function.get("name")
                call["arguments"] += function.get("arguments") or ""
    return _body(chunks, [calls[index] for index in sorted(calls)])


def buggy(chunks: Iterable[Chunk]) -> dict[str, Any]:
    """Fragments accumulated by tool name: two calls of one tool become one."""
    chunks = list(chunks)
    by_name: dict[str, dict[str, Any]] = {}
    for call in accumulate(chunks):
        kept = by_name.setdefault(call["name"], dict(call, arguments=""))
        kept["arguments"] += call["arguments"]
    return _body(chunks, list(by_name.values()))
