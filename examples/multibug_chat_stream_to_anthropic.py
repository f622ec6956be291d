"""A stream converter, OpenAI Chat Completions chunks -> Anthropic Messages events, with three planted bugs.

- ``identity``: ids are cut to 20 characters (a column width somewhere), so ``call_...`` loses its tail;
- ``arguments``: arguments accumulate by tool name, so two concurrent calls of one tool mix theirs;
- ``validity``: with more than one call, the message stops with ``end_turn``, not ``tool_use`` (AN-10).

    toolwire fuzz examples/multibug_chat_stream_to_anthropic.py:convert \\
        --from openai-chat-stream --to anthropic-stream
    toolwire fuzz examples/multibug_chat_stream_to_anthropic.py:fixed \\
        --from openai-chat-stream --to anthropic-stream
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

Event = dict[str, Any]


def convert(chunks: Iterable[Event]) -> list[Event]:
    """The buggy converter."""
    return _convert(chunks, planted=True)


def fixed(chunks: Iterable[Event]) -> list[Event]:
    """The same converter without its bugs."""
    return _convert(chunks, planted=False)


def _convert(chunks: Iterable[Event], planted: bool) -> list[Event]:
    calls: dict[int, dict[str, Any]] = {}  # call number -> its id and name
    current: dict[Any, int] = {}  # fragment index -> the number of the call it continues
    arguments: dict[Any, str] = {}
    for chunk in chunks:
        for choice in chunk.get("choices") or []:
            for fragment in (choice.get("delta") or {}).get("tool_calls") or []:
                index = fragment.get("index", 0)
                # Some servers send later fragments with the id "null" or "": no id at all.
                fresh = fragment.get("id") if fragment.get("id") not in ("", "null") else None
                number = current.get(index)
                # A new id at a busy index is a new call (providers that put every call at index 0,
                # or reuse an index once its call is done); a repeated id continues the call.
                if number is None or (fresh and calls[number]["id"] and fresh != calls[number]["id"]):
                    number = current[index] = len(calls)
                    calls[number] = {"id": None, "name": None}
                call = calls[number]
                function = fragment.get("function") or {}
                call["id"] = call["id"] or fresh
                call["name"] = call["name"] or function.get("name")
                key = call["name"] if planted else number
                arguments[key] = arguments.get(key, "") + (function.get("arguments") or "")
    message = {
        "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
        "type": "message",
        "role": "assistant",
        "content": [],
        "model": "claude-opus-4-6",
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1},
    }
    events: list[Event] = [{"type": "message_start", "message": message}]
    for block, index in enumerate(sorted(calls)):
        call = calls[index]
        call_id = call["id"][:20] if planted else call["id"]
        start = {"type": "tool_use", "id": call_id, "name": call["name"], "input": {}}
        events.append({"type": "content_block_start", "index": block, "content_block": start})
        text = arguments.get(call["name"] if planted else index, "")
        delta = {"type": "input_json_delta", "partial_json": text}
        events.append({"type": "content_block_delta", "index": block, "delta": delta})
        events.append({"type": "content_block_stop", "index": block})
    reason = "tool_use" if calls else "end_turn"
    if planted and len(calls) > 1:
        reason = "end_turn"
    events.append(
        {
            "type": "message_delta",
            "delta": {"stop_reason": reason, "stop_sequence": None},
            "usage": {"output_tokens": 5},
        }
    )
    events.append({"type": "message_stop"})
    return events
