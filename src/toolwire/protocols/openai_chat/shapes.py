"""Shape features of OpenAI Chat Completions traffic: stream chunks and request messages."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from toolwire.models import DONE
from toolwire.properties._body import BodyTurn, body_catalogue
from toolwire.properties._shapes import (
    ARGUMENT_FEATURES,
    Feature,
    Shapes,
    arguments_shapes,
    calls_shapes,
    hashable,
    is_json,
)
from toolwire.protocols.openai_chat.body import chat_turns

__all__ = ["MESSAGE_SHAPES", "RESPONSE_SHAPES", "STREAM_SHAPES"]

_CC6: Final = "docs/protocol-rules.md CC-6, deviations seen in practice"
#: Models write a \uXXXX escape token by token, so a fragment can end inside one.
_ESCAPES: Final = "ggml-org/llama.cpp#16526, assistant-ui/assistant-ui#6355 (escapes cut between fragments)"
#: Agents append tool results as the tools finish, not in call order; the API pairs them by id.
_COMPLETION_ORDER: Final = (
    "docs/protocol-rules.md CC-5 (order not required); results in completion order: vercel/ai#16567, "
    "can1357/oh-my-pi#11179"
)
#: Tools with no output (a write, a silent command) answer with content "".
_EMPTY_RESULT: Final = 'earendil-works/pi#3309, dirge-code/dirge#757 (tools that print nothing answer "")'


def _documented(feature: Feature) -> Feature:
    """The shared argument features, with the source of the one the recorded corpus lacks."""
    if feature.name == "escape-split-across-fragments":
        return Feature(feature.name, feature.summary, documented=_ESCAPES)
    return feature


_STREAM: Final = (
    Feature("first-fragment-arguments-empty", 'a call\'s first fragment carries "arguments": ""'),
    Feature("first-fragment-carries-arguments", "a call's first fragment carries argument text"),
    Feature("first-fragment-without-arguments", "a call's first fragment has no arguments"),
    Feature("first-fragment-without-type", 'a call\'s first fragment has no "type"'),
    Feature("continuation-index-and-arguments-only", "later fragments carry only index and arguments"),
    Feature("continuation-repeats-id", "later fragments repeat the call id (quirk repeated-ids)"),
    Feature(
        "continuation-id-null-string",
        'later fragments carry the id "null" (quirk null-ids)',
        documented=f"{_CC6}; langchain-ai/langchainjs#11373",
    ),
    Feature("continuation-id-empty", "later fragments carry an empty or null id"),
    Feature("continuation-carries-type", 'later fragments carry "type"'),
    Feature("continuation-carries-name", "later fragments carry the function name"),
    *map(_documented, ARGUMENT_FEATURES),
    Feature("several-calls", "a turn with two or more calls"),
    Feature("same-tool-twice", "two calls of one tool in one turn"),
    Feature(
        "interleaved-fragments",
        "fragments of two calls interleave",
        documented=f"{_CC6}; QwenLM/Qwen-Agent#943, mcowger/plexus#694, continuedev/continue#13223",
    ),
    Feature(
        "several-calls-in-one-chunk",
        "one chunk carries fragments of two calls (quirk two-per-chunk)",
        documented="openapi ChatCompletionChunk (delta.tool_calls is an array); langchain4j/langchain4j#4889",
    ),
    Feature(
        "index-0-for-every-call",
        "every call of a turn arrives at index 0 (quirk index-0)",
        documented=f"{_CC6}; comet-ml/opik#8362 (Mistral), huggingface/smolagents#1958, "
        "ai-dynamo/dynamo#4723",
    ),
    Feature(
        "index-reused",
        "a new call reuses an earlier call's index",
        documented=f"{_CC6}; mcowger/plexus#691",
    ),
    Feature(
        "index-gap",
        "call indexes skip a number: the first call above 0, or a gap between two (quirk block-index)",
        documented="agno-agi/agno#6579, aws-samples/bedrock-access-gateway#134, "
        "NVIDIA-NeMo/Switchyard#712, router-for-me/CLIProxyAPI#5229",
    ),
    Feature("content-with-calls", "text content in the same turn as calls"),
    Feature("refusal-field", 'deltas carry "refusal"'),
    Feature("finish-reason-tool-calls", 'the turn ends with finish_reason "tool_calls"'),
    Feature("finish-reason-stop-with-calls", 'a turn with calls ends with finish_reason "stop"'),
    Feature("finish-reason-in-calls-chunk", "finish_reason arrives in a chunk that also carries fragments"),
    Feature("no-finish-reason", "a turn with calls and no finish_reason"),
    Feature("usage-only-chunk", "a chunk with choices [] and usage (stream_options.include_usage)"),
    Feature(
        "prompt-filter-chunk",
        "a chunk with choices [] and Azure's prompt_filter_results, no usage",
        documented="Azure OpenAI content filtering, streaming (prompt_filter_results); haystack#8780",
    ),
    Feature(
        "empty-string-arguments",
        'a call without arguments sent as "" (not "{}")',
        documented="simonw/llm#1521 (json.loads of a no-argument call's empty arguments)",
    ),
    Feature("done-sentinel", "the stream ends with data: [DONE]"),
    Feature(
        "no-calls",
        "a stream without tool calls",
        documented='openai types/chat/chat_completion_chunk.py: a text answer ends with finish_reason "stop"',
    ),
)


def _stream(trace: list[Any]) -> Iterator[str]:
    pieces: dict[Any, list[str]] = {}
    names: dict[Any, Any] = {}
    by_index: dict[Any, Any] = {}
    last: Any = None
    finish: Any = None
    content = False
    for chunk in trace:
        if chunk is DONE:
            yield "done-sentinel"
        if not isinstance(chunk, dict):
            continue
        choices = chunk.get("choices")
        if choices == [] and chunk.get("usage"):
            yield "usage-only-chunk"
        if choices == [] and "prompt_filter_results" in chunk:
            yield "prompt-filter-chunk"
        for choice in choices if isinstance(choices, list) else []:
            delta = choice.get("delta") if isinstance(choice, dict) else None
            if not isinstance(delta, dict):
                continue
            if "refusal" in delta:
                yield "refusal-field"
            content = content or bool(isinstance(delta.get("content"), str) and delta["content"])
            listed = delta.get("tool_calls")
            fragments = [f for f in listed if isinstance(f, dict)] if isinstance(listed, list) else []
            if len({hashable(f.get("index")) for f in fragments}) > 1:
                yield "several-calls-in-one-chunk"
            if isinstance(choice.get("finish_reason"), str):
                finish = choice["finish_reason"]
                if fragments:
                    yield "finish-reason-in-calls-chunk"
            for fragment in fragments:
                function: dict[str, Any] = fragment.get("function") or {}
                if not isinstance(function, dict):
                    function = {}
                index, call_id = hashable(fragment.get("index")), fragment.get("id")
                key: Any
                if isinstance(call_id, str) and call_id not in ("", "null") and call_id not in pieces:
                    if index in by_index:
                        yield "index-reused"
                    by_index[index] = key = call_id
                    pieces[key], names[key] = [], function.get("name")
                    yield from _opening(fragment, function)
                else:
                    key = by_index.get(index)
                    if key is None:
                        continue
                    yield from _continuation(fragment, function, key)
                    if last not in (None, key):
                        yield "interleaved-fragments"
                if isinstance(function.get("arguments"), str):
                    pieces[key].append(function["arguments"])
                last = key
    if not pieces:
        yield "no-calls"
        return
    if len(pieces) > 1:
        yield "several-calls"
        if set(by_index) == {0}:
            yield "index-0-for-every-call"
    numbers = [i for i in by_index if isinstance(i, int) and not isinstance(i, bool)]
    if numbers and max(numbers) >= len(set(numbers)):
        yield "index-gap"
    if len(set(map(hashable, names.values()))) < len(names):
        yield "same-tool-twice"
    if content:
        yield "content-with-calls"
    yield _FINISH.get(finish, "finish-reason-tool-calls")
    for texts in pieces.values():
        yield from arguments_shapes(texts)
        if not "".join(texts):
            yield "empty-string-arguments"


_FINISH: Final = {
    "tool_calls": "finish-reason-tool-calls",
    "stop": "finish-reason-stop-with-calls",
    None: "no-finish-reason",
}


def _opening(fragment: dict[str, Any], function: dict[str, Any]) -> Iterator[str]:
    arguments = function.get("arguments")
    if arguments == "":
        yield "first-fragment-arguments-empty"
    elif arguments is None:
        yield "first-fragment-without-arguments"
    else:
        yield "first-fragment-carries-arguments"
    if "type" not in fragment:
        yield "first-fragment-without-type"


def _continuation(fragment: dict[str, Any], function: dict[str, Any], key: Any) -> Iterator[str]:
    if set(fragment) <= {"index", "function"} and set(function) <= {"arguments"}:
        yield "continuation-index-and-arguments-only"
    call_id = fragment.get("id")
    if call_id == key:
        yield "continuation-repeats-id"
    elif call_id == "null":
        yield "continuation-id-null-string"
    elif "id" in fragment and call_id in ("", None):
        yield "continuation-id-empty"
    if "type" in fragment:
        yield "continuation-carries-type"
    if "name" in function:
        yield "continuation-carries-name"


STREAM_SHAPES: Final = Shapes(_STREAM, lambda trace: set(_stream(trace)))

_MESSAGES: Final = (
    Feature("content-null-with-calls", "an assistant message with tool_calls and content null"),
    Feature("content-text-with-calls", "an assistant message with tool_calls and text content"),
    Feature("content-omitted-with-calls", "an assistant message with tool_calls and no content key"),
    Feature("several-calls", "an assistant message with two or more calls"),
    Feature("same-tool-twice", "two calls of one tool in one message"),
    Feature(
        "results-out-of-call-order",
        "tool messages answer a turn's calls in another order",
        documented=_COMPLETION_ORDER,
    ),
    Feature("tool-message-name", 'tool messages carry "name"'),
    Feature("tool-content-parts", "a tool message's content is a list of parts"),
    Feature("empty-tool-content", "a tool message with empty content", documented=_EMPTY_RESULT),
    Feature("json-tool-content", "a tool message whose content is JSON text"),
    Feature("empty-arguments", 'a call with arguments "" or "{}"'),
    Feature("system-message", "a system or developer message"),
    Feature("several-turns", "two or more assistant turns with calls"),
    Feature("refusal-field", 'an assistant message with "refusal"'),
)


def _messages(trace: list[Any]) -> Iterator[str]:
    turns = 0
    pending: list[Any] = []
    answered: list[Any] = []
    for m in trace:
        if not isinstance(m, dict):
            continue
        role = m.get("role")
        if role in ("system", "developer"):
            yield "system-message"
        if role == "assistant" and "refusal" in m:
            yield "refusal-field"
        if role == "assistant" and m.get("tool_calls") and isinstance(m["tool_calls"], list):
            turns += 1
            if answered and answered != pending[: len(answered)]:
                yield "results-out-of-call-order"
            calls = [c for c in m["tool_calls"] if isinstance(c, dict)]
            pending, answered = [c.get("id") for c in calls], []
            if "content" not in m:
                yield "content-omitted-with-calls"
            else:
                yield "content-null-with-calls" if not m["content"] else "content-text-with-calls"
            functions = [c["function"] if isinstance(c.get("function"), dict) else {} for c in calls]
            yield from calls_shapes([f.get("name") for f in functions])
            if any(f.get("arguments") in ("", "{}") for f in functions):
                yield "empty-arguments"
        elif role == "tool":
            answered.append(m.get("tool_call_id"))
            if "name" in m:
                yield "tool-message-name"
            content = m.get("content")
            if isinstance(content, list):
                yield "tool-content-parts"
            elif content in ("", None):
                yield "empty-tool-content"
            elif isinstance(content, str) and content.lstrip()[:1] in ("{", "[") and is_json(content):
                yield "json-tool-content"
    if answered and answered != pending[: len(answered)]:
        yield "results-out-of-call-order"
    if turns > 1:
        yield "several-turns"


MESSAGE_SHAPES: Final = Shapes(_MESSAGES, lambda trace: set(_messages(trace)))


_RESPONSE: Final = (
    Feature("content-null-with-calls", "the message with tool_calls has content null"),
    Feature("content-empty-with-calls", 'the message with tool_calls has content ""'),
    Feature("refusal-field", "the message carries refusal (null) and annotations"),
    Feature("no-refusal-field", "the message carries no refusal"),
    Feature("call-index-field", "each tool_calls entry carries its index"),
    Feature("no-call-index-field", "no tool_calls entry carries an index"),
    Feature("finish-reason-stop-with-calls", 'finish_reason "stop" on a choice with tool_calls'),
)


def _message(body: dict[str, Any], turn: BodyTurn) -> dict[str, Any]:
    choice = body["choices"][int(turn.path.removeprefix("choices[").removesuffix("]"))]
    message = choice.get("message")
    return message if isinstance(message, dict) else {}


def _response(body: dict[str, Any], turns: list[BodyTurn]) -> Iterator[str]:
    for turn in turns:
        message = _message(body, turn)
        if not turn.calls:
            continue
        if message.get("content") in (None, ""):
            yield "content-null-with-calls" if message.get("content") is None else "content-empty-with-calls"
        yield "refusal-field" if "refusal" in message else "no-refusal-field"
        entries = message.get("tool_calls") or []
        yield "call-index-field" if any("index" in e for e in entries) else "no-call-index-field"
        if turn.reason == "stop":
            yield "finish-reason-stop-with-calls"


RESPONSE_SHAPES: Final = body_catalogue(
    chat_turns, _RESPONSE, lambda body, turn: bool(_message(body, turn).get("content")), _response
)
