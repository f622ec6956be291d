"""A stream converter, Anthropic Messages events -> OpenAI Chat Completions chunks, two buggy variants.

Each bug is in how it reads the tool blocks of this year's features:

- ``invents``: a ``server_tool_use`` block (web search, tool search, code execution: a tool Anthropic
  runs, its result in the same stream) becomes a Chat tool call, which the client never declared and
  is asked to run (``one-to-one:invented``; LiteLLM's proxy did so,
  tests/integration/litellm/test_litellm.py);
- ``loses_input``: a ``tool_use`` block's input is read from its ``input_json_delta`` events only, so
  a call made from code (programmatic tool calling: its ``caller`` is the code-execution tool, its
  input whole in its ``content_block_start``, no delta after it) goes out without its arguments
  (``arguments:changed``).

A programmatic call is the client's to run all the same (the API waits for its ``tool_result``):
it must become a Chat tool call, with its input.  The bugs come in two variants because every
programmatic call comes after a ``server_tool_use`` block: a campaign steering away from the first
bug would rarely draw the second.

    toolwire fuzz examples/server_tools_anthropic_to_chat_stream.py:invents \\
        --from anthropic-stream --to openai-chat-stream
    toolwire fuzz examples/server_tools_anthropic_to_chat_stream.py:loses_input \\
        --from anthropic-stream --to openai-chat-stream
    toolwire fuzz examples/server_tools_anthropic_to_chat_stream.py:fixed \\
        --from anthropic-stream --to openai-chat-stream
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from _chat_stream import chunk

Event = dict[str, Any]
_HEAD = {"id": "chatcmpl-D7nQwX2bLk9Mv4Rt8Hp1Zs6Gc", "created": 1764000000, "model": "claude-opus-4-6"}
_FINISH = {"tool_use": "tool_calls", "max_tokens": "length", "end_turn": "stop", "pause_turn": "stop"}


def invents(events: Iterable[Event]) -> list[Event]:
    """Server tools become client calls."""
    return _convert(events, server_calls=True, start_input=True)


def loses_input(events: Iterable[Event]) -> list[Event]:
    """A programmatic call's input, whole in its start, is lost."""
    return _convert(events, server_calls=False, start_input=False)


def fixed(events: Iterable[Event]) -> list[Event]:
    """The converter without either bug."""
    return _convert(events, server_calls=False, start_input=True)


def _chunk(delta: Event, finish: str | None = None) -> Event:
    return chunk(_HEAD, delta, finish)


def _convert(events: Iterable[Event], *, server_calls: bool, start_input: bool) -> list[Event]:
    out = [_chunk({"role": "assistant", "content": None})]
    calls: dict[int, int] = {}  # block index -> the Chat call's index
    finish = None
    for event in events:
        kind = event.get("type")
        if kind == "content_block_start":
            block = event["content_block"]
            client = block.get("type") == "tool_use"
            if not (client or (server_calls and block.get("type") == "server_tool_use")):
                continue
            number = calls[event["index"]] = len(calls)
            function = {"name": block["name"], "arguments": ""}
            fragment = {"index": number, "id": block["id"], "type": "function", "function": function}
            out.append(_chunk({"tool_calls": [fragment]}))
            if block.get("input") and start_input:
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
