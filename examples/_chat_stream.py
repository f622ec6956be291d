"""Shared by seeds 001 and 002: read Chat Completions chunks into calls, the way legacy mode does."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def accumulate(chunks: Iterable[dict[str, Any]], keep_ids: bool = True) -> list[dict[str, Any]]:
    """Fragments accumulated by ``index`` (CC-6): id and name from the first, arguments concatenated."""
    calls: dict[int, dict[str, Any]] = {}
    for chunk in chunks:
        for choice in chunk.get("choices") or []:
            for fragment in (choice.get("delta") or {}).get("tool_calls") or []:
                call = calls.setdefault(fragment.get("index", 0), {"id": None, "name": None, "arguments": ""})
                if keep_ids and fragment.get("id") and call["id"] is None:
                    call["id"] = fragment["id"]
                function = fragment.get("function") or {}
                call["name"] = call["name"] or function.get("name")
                call["arguments"] += function.get("arguments") or ""
    return [calls[index] for index in sorted(calls)]
