"""Seed 001: history -> OpenAI request, where Genkit Go used the tool name and result as ids.

Genkit's Go OpenAI plugin set ``tool_calls[].id`` from ``ToolRequest.Name``
(the comment says it knew: "Temporarily set its name instead of its ref")
and answered with the tool's output in ``tool_call_id``; OpenAI answered
``Invalid parameter: 'tool_call_id' of '...' not found in 'tool_calls'``.
The JavaScript plugin uses ``ref``.  Both variants here are round trips:
provider stream -> Genkit history parts -> tool runs -> next request.

    toolwire fuzz examples/seed001_genkit_history.py:buggy --from openai-chat-stream --to openai-chat
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from _chat_stream import accumulate

Message = dict[str, Any]


def _history(chunks: Iterable[Message], run_tool: Callable[[str, str], str]) -> list[Message]:
    """Genkit parts: a model message of toolRequest parts, then a tool message of toolResponse parts."""
    requests = [
        {"toolRequest": {"name": c["name"], "ref": c["id"], "input": json.loads(c["arguments"] or "{}")}}
        for c in accumulate(chunks)
    ]
    responses = [
        {
            "toolResponse": {
                "name": part["toolRequest"]["name"],
                "ref": part["toolRequest"]["ref"],
                "output": run_tool(part["toolRequest"]["name"], json.dumps(part["toolRequest"]["input"])),
            }
        }
        for part in requests
    ]
    return [
        {"role": "user", "content": [{"text": "Go"}]},
        {"role": "model", "content": requests},
        {"role": "tool", "content": responses},
    ]


def _request(history: list[Message], use_ref: bool) -> list[Message]:
    messages: list[Message] = []
    for message in history:
        if message["role"] == "user":
            messages.append({"role": "user", "content": message["content"][0]["text"]})
        elif message["role"] == "model":
            calls = [
                {
                    # The Go plugin's convertToolCall: ID: part.ToolRequest.Name.
                    "id": part["toolRequest"]["ref"] if use_ref else part["toolRequest"]["name"],
                    "type": "function",
                    "function": {
                        "name": part["toolRequest"]["name"],
                        "arguments": json.dumps(part["toolRequest"]["input"]),
                    },
                }
                for part in message["content"]
            ]
            if calls:
                messages.append({"role": "assistant", "content": None, "tool_calls": calls})
        else:
            for part in message["content"]:
                response = part["toolResponse"]
                answer = response["ref"] if use_ref else response["output"]
                messages.append({"role": "tool", "tool_call_id": answer, "content": response["output"]})
    return messages


def buggy(chunks: Iterable[Message], run_tool: Callable[[str, str], str]) -> list[Message]:
    """The Go plugin: the tool name as the call id, the tool's output as ``tool_call_id``."""
    return _request(_history(chunks, run_tool), use_ref=False)


def fixed(chunks: Iterable[Message], run_tool: Callable[[str, str], str]) -> list[Message]:
    """The JavaScript plugin: ``ref``, the provider's call id, on both sides."""
    return _request(_history(chunks, run_tool), use_ref=True)
