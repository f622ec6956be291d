"""A stream reader, OpenAI Chat Completions chunks -> one chat.completion body, with two planted bugs
of one symptom (a call lost) and two causes.

- on the strict wire: text before the calls ends the message there, so its calls are lost (the
  reader takes the first delta's kind for the whole message, as langfuse/langfuse-python#1715 did);
- with a provider's shape: fragments are accumulated by ``index`` alone, so where a provider puts
  every call at index 0 (Mistral, Ollama) or reuses an index for a new call, the second call
  merges into the first and is lost (the accumulators of haystack#9576 and agno#8879).

A campaign that counts symptoms reports one ``one-to-one:lost`` (the smaller example, usually the
merge at index 0) and hides the other bug; keyed by cause, a default campaign reports both:
``one-to-one:lost`` on the strict wire and ``one-to-one:lost [index-0]``.

    toolwire fuzz examples/multibug_same_symptom.py:convert \\
        --from openai-chat-stream --to openai-chat-response
    toolwire fuzz examples/multibug_same_symptom.py:fixed \\
        --from openai-chat-stream --to openai-chat-response
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _chat_stream import accumulate

Event = dict[str, Any]


def convert(chunks: Iterable[Event]) -> list[Event]:
    """The buggy reader."""
    return [_body(list(chunks), planted=True)]


def fixed(chunks: Iterable[Event]) -> list[Event]:
    """The same reader without its bugs."""
    return [_body(list(chunks), planted=False)]


def _by_index(chunks: list[Event]) -> list[dict[str, Any]]:
    """Fragments accumulated by ``index`` alone: a new id at a busy index continues the old call."""
    calls: dict[Any, dict[str, Any]] = {}
    for chunk in chunks:
        for choice in chunk.get("choices") or []:
            for fragment in (choice.get("delta") or {}).get("tool_calls") or []:
                call = calls.setdefault(fragment.get("index", 0), {"id": None, "name": None, "arguments": ""})
                function = fragment.get("function") or {}
                fresh = fragment.get("id") if fragment.get("id") not in ("", "null") else None
                call["id"] = call["id"] or fresh
                call["name"] = call["name"] or function.get("name")
                call["arguments"] += function.get("arguments") or ""
    return list(calls.values())


def _body(chunks: list[Event], planted: bool) -> Event:
    text, finish, kind = "", None, None
    for chunk in chunks:
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            if kind is None and (delta.get("content") or delta.get("tool_calls")):
                kind = "text" if delta.get("content") else "calls"
            text += delta.get("content") or ""
            finish = choice.get("finish_reason") or finish
    calls = _by_index(chunks) if planted else accumulate(chunks)
    if planted and kind == "text":
        calls = []  # the message was text: the calls after it are never read
    message: Event = {"role": "assistant", "content": text or None, "refusal": None}
    if calls:
        message["tool_calls"] = [
            {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
            for c in calls
        ]
    head = chunks[0] if chunks else {}
    reason = "tool_calls" if calls else (finish if finish != "tool_calls" else "stop") or "stop"
    return {
        "id": head.get("id", "chatcmpl-0"),
        "object": "chat.completion",
        "created": head.get("created", 0),
        "model": head.get("model", "gpt-4o"),
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": reason}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
