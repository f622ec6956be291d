"""A stream converter, Anthropic Messages events -> OpenAI Chat Completions chunks, with three planted bugs.

The first bug raises on an event most streams carry, so nearly every example trips it and nothing
else of the example can be judged; a campaign must look past it for the other two:

- ``raises [KeyError@_convert]``: every ``content_block_delta`` is read as
  ``delta["partial_json"]``, so the first text delta raises ``KeyError`` (a converter written
  against tool-use blocks only);
- ``arguments``: argument text accumulates by tool name, so of two calls of one tool the second
  repeats the first's arguments before its own;
- ``names``: a tool name loses everything up to its first underscore, as a converter that strips
  an MCP server prefix (``server_tool``) would: ``get_weather`` becomes ``weather``.

    toolwire fuzz examples/multibug_anthropic_to_chat_stream.py:convert \\
        --from anthropic-stream --to openai-chat-stream
    toolwire fuzz examples/multibug_anthropic_to_chat_stream.py:convert \\
        --from anthropic-stream --to openai-chat-stream --ignore raises
    toolwire fuzz examples/multibug_anthropic_to_chat_stream.py:fixed \\
        --from anthropic-stream --to openai-chat-stream
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

Event = dict[str, Any]
_HEAD = {"id": "chatcmpl-B9MHDbslfQvqqiERYBXGvnQ2sEwRp", "created": 1764000000, "model": "gpt-4o-2024-08-06"}
_FINISH = {"tool_use": "tool_calls", "max_tokens": "length", "end_turn": "stop", "stop_sequence": "stop"}


def convert(events: Iterable[Event]) -> list[Event]:
    """The buggy converter."""
    return _convert(events, planted=True)


def fixed(events: Iterable[Event]) -> list[Event]:
    """The same converter without its bugs."""
    return _convert(events, planted=False)


def _chunk(delta: Event, finish: str | None = None) -> Event:
    choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
    return _HEAD | {"object": "chat.completion.chunk", "choices": [choice]}


def _convert(events: Iterable[Event], planted: bool) -> list[Event]:
    out = [_chunk({"role": "assistant", "content": None})]
    calls: dict[int, dict[str, Any]] = {}  # block index -> the call's number, name and argument text
    by_name: dict[str, str] = {}  # the planted bug: argument text so far, by tool name
    finish = None
    for event in events:
        kind = event.get("type")
        if kind == "content_block_start" and event["content_block"].get("type") == "tool_use":
            block = event["content_block"]
            call = calls[event["index"]] = {"number": len(calls), "name": block["name"], "text": ""}
            name = block["name"].split("_", 1)[-1] if planted else block["name"]
            function = {"name": name, "arguments": ""}
            fragment = {"index": call["number"], "id": block["id"], "type": "function", "function": function}
            out.append(_chunk({"tool_calls": [fragment]}))
            if block.get("input") and not planted:
                # A call made from code (programmatic tool calling) comes whole in its start.
                call["text"] = json.dumps(block["input"])
                out.append(
                    _chunk(
                        {"tool_calls": [{"index": call["number"], "function": {"arguments": call["text"]}}]}
                    )
                )
        elif kind == "content_block_delta":
            delta = event["delta"]
            if planted:
                piece = delta["partial_json"]  # KeyError on text, thinking and signature deltas
            elif delta.get("type") == "text_delta":
                out.append(_chunk({"content": delta["text"]}))
                continue
            elif delta.get("type") != "input_json_delta":
                continue
            else:
                piece = delta["partial_json"]
            call = calls.get(event["index"])
            if call is None:  # a server tool's input (web search): not a call for the client
                continue
            if planted:
                piece = by_name.get(call["name"], "") + piece if not call["text"] else piece
                by_name[call["name"]] = by_name.get(call["name"], "") + piece
            call["text"] += piece
            fragment = {"index": call["number"], "function": {"arguments": piece}}
            out.append(_chunk({"tool_calls": [fragment]}))
        elif kind == "message_delta":
            finish = _FINISH.get(event["delta"].get("stop_reason") or "", "stop")
    out.append(_chunk({}, finish or "stop"))
    return out
