"""Shape features of Mistral chat requests: the Chat Completions message shape, as Mistral's clients send."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from toolwire.properties._body import BodyTurn, Reader, body_catalogue
from toolwire.properties._shapes import Feature, Shapes, calls_shapes, is_json

__all__ = ["MESSAGE_SHAPES", "response_shapes"]

_API: Final = "docs.mistral.ai/api: chat completion messages (AssistantMessage, ToolMessage, SystemMessage)"
#: The function-calling guide: parallel calls in one assistant message, each answered by a tool
#: message with ``name``, ``tool_call_id`` and the function's JSON result.
_GUIDE: Final = "docs.mistral.ai/capabilities/function_calling (parallel function calling; tool messages)"
_SDK: Final = "mistralai 3.7.0 client/models"

_MESSAGES: Final = (
    Feature("several-calls", "an assistant message with two or more calls", documented=_GUIDE),
    Feature("same-tool-twice", "two calls of one tool in one message", documented=_GUIDE),
    Feature(
        "empty-arguments",
        'a call with arguments "" or "{}"',
        documented=f"{_GUIDE}; a function without parameters is called with arguments {{}}",
    ),
    Feature("several-turns", "two or more assistant turns with calls", documented=_GUIDE),
    Feature("content-empty-with-calls", 'an assistant message with tool_calls and content ""'),
    Feature(
        "content-null-with-calls",
        "an assistant message with tool_calls and content null",
        documented=f"{_API}; {_SDK}/assistantmessage.py (content OptionalNullable)",
    ),
    Feature(
        "content-text-with-calls",
        "an assistant message with tool_calls and text content",
        documented=f"{_API}; {_SDK}/assistantmessage.py",
    ),
    Feature("content-omitted-with-calls", "an assistant message with tool_calls and no content key"),
    Feature("prefix-field", 'assistant messages carry "prefix"'),
    Feature("call-index-field", 'calls carry "index"'),
    Feature("call-without-type", 'calls without "type": "function"', documented=_API),
    Feature(
        "tool-message-name",
        'tool messages carry "name"',
        documented=f"{_GUIDE}; {_SDK}/toolmessage.py (name)",
    ),
    Feature("json-tool-content", "a tool message whose content is JSON text"),
    Feature(
        "empty-tool-content",
        "a tool message with empty content",
        documented=f'{_SDK}/toolmessage.py (content: any string); tools that print nothing answer "": '
        "earendil-works/pi#3309",
    ),
    Feature("tool-content-chunks", "a tool message whose content is a list of chunks", documented=_API),
    Feature("system-message", "a system message", documented=_API),
)


def _messages(trace: list[Any]) -> Iterator[str]:
    turns = 0
    for m in trace:
        if not isinstance(m, dict):
            continue
        role = m.get("role")
        if role == "system":
            yield "system-message"
        if role == "assistant" and "prefix" in m:
            yield "prefix-field"
        if role == "assistant" and m.get("tool_calls"):
            turns += 1
            yield from _assistant(m)
        elif role == "tool":
            if "name" in m:
                yield "tool-message-name"
            content = m.get("content")
            if isinstance(content, list):
                yield "tool-content-chunks"
            elif content in ("", None):
                yield "empty-tool-content"
            elif isinstance(content, str) and content.lstrip()[:1] in ("{", "[") and is_json(content):
                yield "json-tool-content"
    if turns > 1:
        yield "several-turns"


def _assistant(m: dict[str, Any]) -> Iterator[str]:
    if "content" not in m:
        yield "content-omitted-with-calls"
    elif m["content"] == "":
        yield "content-empty-with-calls"
    elif m["content"] is None:
        yield "content-null-with-calls"
    else:
        yield "content-text-with-calls"
    calls = [c for c in m["tool_calls"] if isinstance(c, dict)]
    functions: list[dict[str, Any]] = [
        c["function"] if isinstance(c.get("function"), dict) else {} for c in calls
    ]
    yield from calls_shapes([f.get("name") for f in functions])
    if any(f.get("arguments") in ("", "{}", {}) for f in functions):
        yield "empty-arguments"
    if any("index" in c for c in calls):
        yield "call-index-field"
    if any("type" not in c for c in calls):
        yield "call-without-type"


MESSAGE_SHAPES: Final = Shapes(_MESSAGES, lambda trace: set(_messages(trace)))


_RESPONSE: Final = (
    Feature(
        "content-empty-with-calls",
        'the message with tool_calls has content ""',
        documented=f'{_GUIDE} (the response\'s assistant message: content "" next to tool_calls)',
    ),
    Feature(
        "content-null-with-calls",
        "the message with tool_calls has content null",
        documented="mistralai 3.7.0 client/models/assistantmessage.py (content: OptionalNullable)",
    ),
)

#: No recorded Mistral body: every shared feature cites its source.
_DOCUMENTED: Final = {
    "several-calls": _GUIDE,
    "same-tool-twice": _GUIDE,
    "no-calls": f"{_API}: a choice that answers in text alone (finish_reason stop)",
    "empty-arguments": f"{_GUIDE}; a function without parameters is called with arguments {{}}",
    "text-with-calls": f"{_SDK}/assistantmessage.py (content next to tool_calls)",
}


def response_shapes(read: Reader) -> Shapes:
    """The catalogue of chat completion bodies, read by ``read`` (the Chat Completions reader)."""

    def message(body: dict[str, Any], turn: BodyTurn) -> dict[str, Any]:
        choice = body["choices"][int(turn.path.removeprefix("choices[").removesuffix("]"))]
        found = choice.get("message") if isinstance(choice, dict) else None
        return found if isinstance(found, dict) else {}

    def extra(body: dict[str, Any], turns: list[BodyTurn]) -> Iterator[str]:
        for turn in turns:
            content = message(body, turn).get("content", "")
            if turn.calls and content in (None, ""):
                yield "content-null-with-calls" if content is None else "content-empty-with-calls"

    def texts(body: dict[str, Any], turn: BodyTurn) -> bool:
        return bool(message(body, turn).get("content"))

    return body_catalogue(read, _RESPONSE, texts, extra, _DOCUMENTED)
