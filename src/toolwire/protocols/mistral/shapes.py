"""Shape features of Mistral chat requests: the Chat Completions message shape, as Mistral's clients send."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from toolwire.models import DONE
from toolwire.properties._body import BodyTurn, Reader, body_catalogue
from toolwire.properties._shapes import Feature, Shapes, calls_shapes, hashable, is_json

__all__ = ["MESSAGE_SHAPES", "STREAM_SHAPES", "response_shapes"]

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


#: The one recorded Mistral stream (tests/data/traffic, listed under openai-chat-stream).
_RECORDED: Final = (
    "tests/data/traffic DataDog__dd-trace-py mistral_v1_chat_completions_post_1798d156.sse "
    "(api.mistral.ai, mistral-large-latest)"
)
_STREAM: Final = (
    Feature(
        "call-whole-in-one-fragment", "each call's name and arguments in one fragment", documented=_RECORDED
    ),
    Feature(
        "finish-reason-in-calls-chunk",
        'finish_reason "tool_calls" in the last call\'s chunk',
        documented=_RECORDED,
    ),
    Feature("usage-in-last-chunk", "the last chunk carries usage", documented=_RECORDED),
    Feature("several-calls", "a turn with two or more calls", documented=_GUIDE),
    Feature("same-tool-twice", "two calls of one tool in one turn", documented=_GUIDE),
    Feature(
        "content-with-calls", "text content in the same turn as calls", documented=f"{_SDK}/deltamessage.py"
    ),
    Feature(
        "call-without-index",
        "fragments without index (quirk unindexed)",
        documented=f"docs/protocol-rules.md MI-6; comet-ml/opik#8362; {_SDK}/toolcall.py "
        "(index defaults to 0)",
    ),
    Feature(
        "arguments-split-across-fragments",
        'a call\'s arguments over several fragments, continuations with id "null" (quirk split-arguments)',
        documented="docs/protocol-rules.md MI-6; langchain-ai/langchainjs#11373, "
        "langchain-ai/langchain#40028",
    ),
)


def _stream(trace: list[Any]) -> Iterator[str]:
    names: dict[Any, Any] = {}
    fragments: dict[Any, int] = {}
    at: dict[Any, Any] = {}
    content = False
    for chunk in trace:
        if chunk is DONE or not isinstance(chunk, dict):
            continue
        if chunk.get("usage"):
            yield "usage-in-last-chunk"
        choices = chunk.get("choices")
        for choice in choices if isinstance(choices, list) else []:
            delta = choice.get("delta") if isinstance(choice, dict) else None
            if not isinstance(delta, dict):
                continue
            content = content or bool(isinstance(delta.get("content"), str) and delta["content"])
            listed = delta.get("tool_calls")
            entries = [f for f in listed if isinstance(f, dict)] if isinstance(listed, list) else []
            if entries and choice.get("finish_reason") == "tool_calls":
                yield "finish-reason-in-calls-chunk"
            for entry in entries:
                if "index" not in entry:
                    yield "call-without-index"
                index, call_id = hashable(entry.get("index")), hashable(entry.get("id"))
                if call_id not in (None, "null") and call_id not in names:
                    function = entry.get("function")
                    names[call_id] = function.get("name") if isinstance(function, dict) else None
                    at[index] = call_id
                key = at.get(index, call_id)
                fragments[key] = fragments.get(key, 0) + 1
    if names:
        yield from calls_shapes(list(names.values()))
        if content:
            yield "content-with-calls"
        split = max(fragments.values()) > 1
        yield "arguments-split-across-fragments" if split else "call-whole-in-one-fragment"


STREAM_SHAPES: Final = Shapes(_STREAM, lambda trace: set(_stream(trace)))
