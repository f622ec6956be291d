"""A stream converter, Anthropic Messages events -> OpenAI Chat Completions chunks, with two planted bugs.

Both bugs are in how it reads the tool blocks of this year's features:

- ``one-to-one:invented``: a ``server_tool_use`` block (web search, tool search, code execution: a
  tool Anthropic runs, its result in the same stream) becomes a Chat tool call, which the client
  never declared and is asked to run (LiteLLM's proxy did so; tests/test_litellm.py);
- ``arguments:changed``: a ``tool_use`` block's input is read from its ``input_json_delta`` events
  only, so a call made from code (programmatic tool calling: its ``caller`` is the code-execution
  tool, its input whole in its ``content_block_start``, no delta after it) goes out with none.

A programmatic call is the client's to run all the same (the API waits for its ``tool_result``):
it must become a Chat tool call, with its input.

    toolwire fuzz examples/server_tools_anthropic_to_chat_stream.py:convert \\
        --from anthropic-stream --to openai-chat-stream
    toolwire fuzz examples/server_tools_anthropic_to_chat_stream.py:fixed \\
        --from anthropic-stream --to openai-chat-stream
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

Event = dict[str, Any]
_HEAD = {"id": "chatcmpl-D7nQwX2bLk9Mv4Rt8Hp1Zs6Gc", "created": 1764000000, "model": "claude-opus-4-6"}
_FINISH = {"tool_use": "tool_calls", "max_tokens": "length", "end_turn": "stop", "pause_turn": "stop"}


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
    calls: dict[int, int] = {}  # block index -> the Chat call's index
    finish = None
    for event in events:
        kind = event.get("type")
        if kind == "content_block_start":
            block = event["content_block"]
            client = block.get("type") == "tool_use"
            if not (client or (planted and block.get("type") == "server_tool_use")):
                continue
            number = calls[event["index"]] = len(calls)
            function = {"name": block["name"], "arguments": ""}
            fragment = {"index": number, "id": block["id"], "type": "function", "function": function}
            out.append(_chunk({"tool_calls": [fragment]}))
            if block.get("input") and not planted:
                # A call from code comes whole in its start: its input is the call's arguments.
                piece = json.dumps(block["input"])
                out.append(_chunk({"tool_calls": [{"index": number, "function": {"arguments": piece}}]}))
        elif kind == "content_block_delta":
            delta = event["delta"]
            if delta.get("type") == "text_delta":
                out.append(_chunk({"content": delta["text"]}))
            elif delta.get("type") == "input_json_delta" and event["index"] in calls:
                fragment = {"index": calls[event["index"]], "function": {"arguments": delta["partial_json"]}}
                out.append(_chunk({"tool_calls": [fragment]}))
        elif kind == "message_delta":
            finish = _FINISH.get(event["delta"].get("stop_reason") or "", "stop")
    out.append(_chunk({}, finish or "stop"))
    return out
