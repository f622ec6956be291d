"""Shared by the examples: read Chat Completions chunks into calls, the way legacy mode does; write one."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def accumulate(chunks: Iterable[dict[str, Any]], keep_ids: bool = True) -> list[dict[str, Any]]:
    """Fragments accumulated by ``index`` (CC-6): id and name from the first, arguments concatenated.

    A fragment with a new id at an index still in use starts a new call: providers that put every
    call at index 0 (Mistral, Ollama) or reuse an index send that.  An id of "null" or "" is none.
    """
    calls: list[dict[str, Any]] = []
    current: dict[Any, dict[str, Any]] = {}  # fragment index -> the call it continues
    for chunk in chunks:
        for choice in chunk.get("choices") or []:
            for fragment in (choice.get("delta") or {}).get("tool_calls") or []:
                index = fragment.get("index", 0)
                fresh = fragment.get("id") if fragment.get("id") not in ("", "null") else None
                call = current.get(index)
                if call is None or (fresh and call["seen"] and fresh != call["seen"]):
                    call = current[index] = {"id": None, "name": None, "arguments": "", "seen": None}
                    calls.append(call)
                call["seen"] = call["seen"] or fresh
                if keep_ids and fresh and call["id"] is None:
                    call["id"] = fresh
                function = fragment.get("function") or {}
                call["name"] = call["name"] or function.get("name")
                call["arguments"] += function.get("arguments") or ""
    return [{key: call[key] for key in ("id", "name", "arguments")} for call in calls]


def chunk(head: dict[str, Any], delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    """A Chat Completions chunk of one choice: ``head`` (id, created, model), ``delta``, ``finish``."""
    choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
    return head | {"object": "chat.completion.chunk", "choices": [choice]}
