"""A stream converter, OpenAI Responses events -> OpenAI Chat Completions chunks, with one planted bug.

The Responses API runs some tools itself: tool search (a ``tool_search_call`` item with
``execution: "server"``, then the ``tool_search_output`` it loaded) and remote MCP servers (an
``mcp_call`` item, its output inside it).  The planted bug takes every item whose type ends in
``_call`` for a function call, so those become Chat tool calls the client never declared and is
asked to run (``one-to-one:invented``).

    toolwire fuzz examples/hosted_tools_responses_to_chat_stream.py:convert \\
        --from openai-responses-stream --to openai-chat-stream
    toolwire fuzz examples/hosted_tools_responses_to_chat_stream.py:fixed \\
        --from openai-responses-stream --to openai-chat-stream
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from _chat_stream import chunk

Event = dict[str, Any]
_HEAD = {"id": "chatcmpl-E4kTmQ8wZr2Ln6Xv9Bc3Hd7Jp", "created": 1764000000, "model": "gpt-4.1-2025-04-14"}


def convert(events: Iterable[Event]) -> list[Event]:
    """The buggy converter."""
    return _convert(events, planted=True)


def fixed(events: Iterable[Event]) -> list[Event]:
    """The same converter without its bug."""
    return _convert(events, planted=False)


def _chunk(delta: Event, finish: str | None = None) -> Event:
    return chunk(_HEAD, delta, finish)


def _convert(events: Iterable[Event], planted: bool) -> list[Event]:
    out = [_chunk({"role": "assistant", "content": None})]
    calls: dict[Any, int] = {}  # item id -> the Chat call's index
    for event in events:
        kind = event.get("type")
        item = event.get("item") or {}
        if kind == "response.output_item.added" and item.get("type") == "function_call":
            number = calls[item["id"]] = len(calls)
            function = {"name": item["name"], "arguments": ""}
            fragment = {"index": number, "id": item["call_id"], "type": "function", "function": function}
            out.append(_chunk({"tool_calls": [fragment]}))
        elif kind == "response.output_item.done" and planted and item.get("type", "").endswith("_call"):
            if item["type"] == "function_call":
                continue
            # The planted bug: a tool the API ran, sent to the client as a call of its own.
            arguments = item.get("arguments")
            text = arguments if isinstance(arguments, str) else json.dumps(arguments)
            function = {"name": item.get("name") or item["type"], "arguments": text}
            fragment = {"index": len(calls), "id": item["id"], "type": "function", "function": function}
            calls[item["id"]] = len(calls)
            out.append(_chunk({"tool_calls": [fragment]}))
        elif kind == "response.function_call_arguments.delta" and event.get("item_id") in calls:
            fragment = {"index": calls[event["item_id"]], "function": {"arguments": event["delta"]}}
            out.append(_chunk({"tool_calls": [fragment]}))
        elif kind == "response.output_text.delta":
            out.append(_chunk({"content": event["delta"]}))
    out.append(_chunk({}, "tool_calls" if calls else "stop"))
    return out
