"""A history converter, Gemini contents -> Anthropic Messages, with three planted bugs.

Gemini calls carry an ``id`` only where Google ADK set one, so the converter mints Anthropic
``tool_use`` ids and pairs each ``functionResponse`` with its call.  Each bug is independent, and a
campaign finds each alone within seconds; one campaign with a budget reports all three:

- ``correlation``: responses are paired with calls through a map keyed by the tool's name, so of two
  concurrent calls of one tool, both results answer the last one (the seed reports' name-keyed map);
- ``arguments``: an argument whose value is ``null`` is dropped from the call's ``input``;
- ``identity``: ADK ids lose their hyphens (an over-eager fit to Anthropic's id pattern, which
  allows hyphens).

    toolwire fuzz examples/multibug_gemini_to_anthropic.py:convert \
        --from gemini-contents --to anthropic-messages
    toolwire fuzz examples/multibug_gemini_to_anthropic.py:fixed \
        --from gemini-contents --to anthropic-messages
"""

from __future__ import annotations

from collections import deque
from typing import Any

Item = dict[str, Any]


def convert(contents: list[Item]) -> list[Item]:
    """The buggy converter."""
    return _convert(contents, planted=True)


def fixed(contents: list[Item]) -> list[Item]:
    """The same converter without its bugs."""
    return _convert(contents, planted=False)


def _convert(contents: list[Item], planted: bool) -> list[Item]:
    messages: list[Item] = []
    pending: dict[str, deque[str]] = {}  # tool name -> ids of its calls not answered yet, in order
    by_name: dict[str, str] = {}  # the planted bug's map: tool name -> id of its last call
    minted = 0
    for content in contents:
        role = "assistant" if content.get("role") == "model" else "user"
        results: list[Item] = []
        blocks: list[Item] = []
        for part in content.get("parts") or []:
            if "text" in part:
                blocks.append({"type": "text", "text": part["text"]})
            elif _field(part, "functionCall", "function_call") is not None:
                call = _field(part, "functionCall", "function_call")
                call_id = call.get("id")
                if call_id is None:
                    minted += 1
                    call_id = f"toolu_{minted:024d}"
                elif planted:
                    call_id = call_id.replace("-", "")
                args = dict(call.get("args") or {})
                if planted:
                    args = {k: v for k, v in args.items() if v is not None}
                pending.setdefault(call["name"], deque()).append(call_id)
                by_name[call["name"]] = call_id
                blocks.append({"type": "tool_use", "id": call_id, "name": call["name"], "input": args})
            elif _field(part, "functionResponse", "function_response") is not None:
                response = _field(part, "functionResponse", "function_response")
                queue = pending.get(response["name"]) or deque([response.get("id") or ""])
                answered = queue.popleft()
                if response.get("id") is not None and not planted:
                    answered = _take(queue, answered, response["id"])
                elif response.get("id") is not None:
                    answered = response["id"].replace("-", "")
                if planted:
                    answered = by_name.get(response["name"], answered)
                results.append(
                    {
                        "type": "tool_result",
                        "tool_use_id": answered,
                        "content": _text(response.get("response")),
                    }
                )
        # Anthropic wants a user turn's tool_result blocks before anything else in it.
        if results or blocks:
            messages.append({"role": role, "content": results + blocks})
    return messages


def _field(part: Item, camel: str, snake: str) -> Any:
    """A part's field as the REST API spells it, or as the Python SDK and ADK do (snake_case)."""
    return part.get(camel, part.get(snake))


def _take(queue: deque[str], first: str, wanted: str) -> str:
    """The pending call ``wanted`` (an ADK id), leaving the others pending in order."""
    if first == wanted:
        return first
    queue.appendleft(first)
    if wanted in queue:
        queue.remove(wanted)
    return wanted


def _text(response: Any) -> str:
    import json

    return json.dumps(response, sort_keys=True) if response is not None else ""
