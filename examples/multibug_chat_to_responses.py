"""A history converter, OpenAI Chat Completions messages -> Responses input items, with three planted bugs.

Each bug is independent, and a campaign finds each alone within seconds; one
campaign with a budget reports all three, each with its own counterexample:

- ``names``: a tool whose name has an underscore loses what follows it (``get_weather`` -> ``get``);
- ``correlation``: an empty tool result is dropped, so its call goes unanswered;
- ``identity``: the second call of one assistant message gets the first call's id.

    toolwire fuzz examples/multibug_chat_to_responses.py:convert --from openai-chat --to openai-responses
    toolwire fuzz examples/multibug_chat_to_responses.py:fixed --from openai-chat --to openai-responses
"""

from __future__ import annotations

from typing import Any

Item = dict[str, Any]


def convert(messages: list[Item]) -> list[Item]:
    """The buggy converter."""
    return _convert(messages, planted=True)


def fixed(messages: list[Item]) -> list[Item]:
    """The same converter without its bugs."""
    return _convert(messages, planted=False)


def _convert(messages: list[Item], planted: bool) -> list[Item]:
    items: list[Item] = []
    for message in messages:
        role = message.get("role")
        if role == "tool":
            output = message.get("content") or ""
            if planted and output == "":
                continue
            items.append(
                {"type": "function_call_output", "call_id": message["tool_call_id"], "output": output}
            )
            continue
        if message.get("content"):
            items.append({"role": role, "content": message["content"]})
        calls = message.get("tool_calls") or []
        for number, call in enumerate(calls):
            function = call["function"]
            name = function["name"].split("_")[0] if planted else function["name"]
            call_id = calls[0]["id"] if planted and number == 1 else call["id"]
            items.append(
                {
                    "type": "function_call",
                    "call_id": call_id,
                    "name": name,
                    "arguments": function["arguments"],
                }
            )
    return items
