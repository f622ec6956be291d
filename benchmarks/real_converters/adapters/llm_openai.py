"""LLM's default OpenAI plugin (``llm -m gpt-4o ...``) streaming a response with tool calls.

    toolwire fuzz benchmarks/real_converters/adapters/llm_openai.py:convert \
        --from openai-chat-stream --to openai-chat-response

The plugin's ``Chat`` model runs a streamed prompt as the CLI does (``model.prompt(..., stream=True)``)
against an OpenAI client that streams the generated chunks; ``Chat.execute`` adds the tool-call
fragments up into the response's ``ToolCall`` objects. The adapter writes them back as the plugin
itself does when it sends them in the next request (``"arguments": json.dumps(arguments)``), beside
the streamed text, in a chat.completion with the finish reason the plugin recorded
(``response.response_json``).
"""

from __future__ import annotations

import json
from typing import Any

import llm
from _openai_wire import body, client

_MODEL = llm.get_model("gpt-4o")


def convert(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    _MODEL.get_client = lambda *args, **kwargs: client(chunks)
    response = _MODEL.prompt("Go.", stream=True, key="sk-toolwire-benchmark")
    text = response.text()
    message: dict[str, Any] = {"role": "assistant", "content": text or None}
    calls = response.tool_calls()
    if calls:
        message["tool_calls"] = [
            {
                "id": call.tool_call_id,
                "type": "function",
                "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
            }
            for call in calls
        ]
    finish = (response.response_json or {}).get("finish_reason")
    return body(chunks, message, finish)
