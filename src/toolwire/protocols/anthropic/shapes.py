"""Shape features of Anthropic Messages traffic: stream events and request messages."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

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
from toolwire.protocols.anthropic.body import message_turns

__all__ = ["MESSAGE_SHAPES", "RESPONSE_SHAPES", "STREAM_SHAPES"]

_DOCS: Final = "docs.anthropic.com"
_STREAMING: Final = f"{_DOCS}/en/docs/build-with-claude/streaming"
_THINKING: Final = f"{_DOCS}/en/docs/build-with-claude/extended-thinking"
_SERVER_TOOLS: Final = ("server_tool_use", "mcp_tool_use")
_TOOL_USE: Final = f"{_DOCS}/en/docs/agents-and-tools/tool-use"
_PTC: Final = "platform.claude.com/docs/en/agents-and-tools/tool-use/programmatic-tool-calling"
#: Result blocks of server tools with a shape feature of their own (stream catalogue).
_RESULTS: Final = {
    "web_search_tool_result": "web-search-tool-result",
    "tool_search_tool_result": "tool-search-tool-result",
    "code_execution_tool_result": "code-execution-tool-result",
}
#: Where the docs show argument fragments the recorded streams happen not to (their cuts are arbitrary).
_FRAGMENTS: Final = {
    "whole-arguments-in-one-fragment": f"{_STREAMING}#input-json-delta: models emit one complete key "
    "and value of input at a time, so a one-key input can arrive in one fragment",
    "escape-split-across-fragments": f"{_STREAMING}#input-json-delta: the deltas are partial JSON "
    "strings, cut anywhere for maximum granularity",
}


def _server_result(kind: Any) -> bool:
    """A server tool's result block: web_search_tool_result, web_fetch_tool_result, mcp_tool_result, ..."""
    return isinstance(kind, str) and kind.endswith("_tool_result")


_BLOCKS: Final = (
    Feature("text-before-tool-use", "a text block before a tool_use block"),
    Feature("thinking-block", "a thinking block (extended thinking)"),
    Feature("redacted-thinking", "a redacted_thinking block", documented=_THINKING),
    Feature("server-tool-use", "a server_tool_use block (a tool the API runs: web search, code execution)"),
    Feature("server-tool-result", "a server tool's result block (web_search_tool_result, ...)"),
)

_STREAM: Final = (
    Feature("several-calls", "two or more tool_use blocks"),
    Feature("same-tool-twice", "two tool_use blocks of one tool"),
    *(Feature(f.name, f.summary, documented=_FRAGMENTS.get(f.name)) for f in ARGUMENT_FEATURES),
    Feature("no-calls", "a stream without tool_use blocks"),
    Feature("empty-partial-json", 'an input_json_delta with partial_json ""'),
    Feature(
        "input-whole-in-start",
        "a tool_use block whose content_block_start carries the whole input",
        documented="Anthropic-compatible servers; Yeachan-Heo/gajae-code#1895",
    ),
    *_BLOCKS,
    Feature("text-after-tool-use", "a text block after a tool_use block"),
    Feature("signature-delta", "a signature_delta ending a thinking block"),
    Feature("citations-delta", "a citations_delta in a text block"),
    Feature("caller-field", 'tool_use blocks carry "caller" (programmatic tool calling)'),
    Feature(
        "programmatic-tool-call",
        "a tool_use block called from code: its caller is the code-execution tool, its input whole "
        "in its start",
        documented=f"{_PTC}; anthropic 2.12.0 ServerToolCaller, ServerToolCaller20260120",
    ),
    Feature(
        "web-search-tool-result",
        "a web_search_tool_result block",
        documented="anthropic 2.12.0 WebSearchToolResultBlock",
    ),
    Feature(
        "tool-search-tool-result",
        "a tool_search_tool_result block naming the deferred tools found (tool search)",
        documented=f"{_DOCS}/en/docs/agents-and-tools/tool-use/tool-search-tool; anthropic 2.12.0 "
        "ToolSearchToolResultBlock",
    ),
    Feature(
        "code-execution-tool-result",
        "a code_execution_tool_result block",
        documented="anthropic 2.12.0 CodeExecutionToolResultBlock",
    ),
    Feature(
        "container-field",
        "message_delta carries the code-execution container",
        documented="anthropic 2.12.0 RawMessageDeltaEvent.Delta.container",
    ),
    Feature("ping", "ping events"),
    Feature("stop-reason-tool-use", 'a stream with calls ends with stop_reason "tool_use"'),
    Feature("stop-reason-end-turn", 'the stream ends with stop_reason "end_turn"'),
    Feature(
        "max-tokens-stop",
        'the stream ends with stop_reason "max_tokens" (a tool_use block may be cut)',
        documented=f"{_DOCS}/en/docs/build-with-claude/handling-stop-reasons",
    ),
    Feature(
        "pause-turn",
        'the stream ends with stop_reason "pause_turn" (a long server tool turn)',
        documented=f"{_DOCS}/en/docs/build-with-claude/handling-stop-reasons",
    ),
    Feature("message-delta-full-usage", "message_delta usage carries input and cache token counts"),
    Feature(
        "bedrock-invocation-metrics", 'message_stop carries "amazon-bedrock-invocationMetrics" (Bedrock)'
    ),
    Feature("error-event", "an error event in the stream (overloaded_error)", documented=_STREAMING),
)


def _stream(trace: list[Any]) -> Iterator[str]:
    pieces: dict[Any, list[str]] = {}
    names: list[Any] = []
    order: list[str] = []
    for event in trace:
        if not isinstance(event, dict):
            continue
        kind = event.get("type")
        if kind == "content_block_start":
            block = event.get("content_block")
            if not isinstance(block, dict):
                continue
            yield from _block(block.get("type"))
            order.append(str(block.get("type")))
            if block.get("type") == "tool_use":
                pieces[hashable(event.get("index"))] = []
                names.append(block.get("name"))
                if block.get("input"):
                    yield "input-whole-in-start"
                if "caller" in block:
                    yield "caller-field"
                    caller = block["caller"]
                    if isinstance(caller, dict) and str(caller.get("type")).startswith("code_execution"):
                        yield "programmatic-tool-call"
            elif block.get("type") in _RESULTS:
                yield _RESULTS[block["type"]]
        elif kind == "content_block_delta":
            delta = event.get("delta")
            if not isinstance(delta, dict):
                continue
            if delta.get("type") == "input_json_delta" and isinstance(delta.get("partial_json"), str):
                if delta["partial_json"] == "":
                    yield "empty-partial-json"
                if (index := hashable(event.get("index"))) in pieces:
                    pieces[index].append(delta["partial_json"])
            elif delta.get("type") in ("signature_delta", "citations_delta"):
                yield delta["type"].replace("_", "-")
        elif kind == "message_delta":
            yield from _stop(event, bool(names))
        elif kind == "message_stop":
            if "amazon-bedrock-invocationMetrics" in event:
                yield "bedrock-invocation-metrics"
        elif kind == "ping":
            yield "ping"
        elif kind == "error":
            yield "error-event"
    yield from _around(order)
    if not names:
        yield "no-calls"
        return
    yield from calls_shapes(names)
    for texts in pieces.values():
        yield from arguments_shapes(texts)


def _block(kind: Any) -> Iterator[str]:
    if kind == "thinking":
        yield "thinking-block"
    elif kind == "redacted_thinking":
        yield "redacted-thinking"
    elif kind in _SERVER_TOOLS:
        yield "server-tool-use"
    elif _server_result(kind):
        yield "server-tool-result"


def _around(order: list[str]) -> Iterator[str]:
    """Text before and after the client tool calls of one message."""
    if "tool_use" not in order:
        return
    first = order.index("tool_use")
    last = len(order) - order[::-1].index("tool_use")
    if "text" in order[:first]:
        yield "text-before-tool-use"
    if "text" in order[last:]:
        yield "text-after-tool-use"


def _stop(event: dict[str, Any], calls: bool) -> Iterator[str]:
    delta = event.get("delta")
    reason = delta.get("stop_reason") if isinstance(delta, dict) else None
    if isinstance(delta, dict) and delta.get("container"):
        yield "container-field"
    if reason == "tool_use" and calls:
        yield "stop-reason-tool-use"
    elif reason == "end_turn":
        yield "stop-reason-end-turn"
    elif reason == "max_tokens":
        yield "max-tokens-stop"
    elif reason == "pause_turn":
        yield "pause-turn"
    usage = event.get("usage")
    if isinstance(usage, dict) and "input_tokens" in usage:
        yield "message-delta-full-usage"


STREAM_SHAPES: Final = Shapes(_STREAM, lambda trace: set(_stream(trace)))

_MESSAGES: Final = (
    Feature("several-calls", "an assistant message with two or more tool_use blocks"),
    Feature("same-tool-twice", "two tool_use blocks of one tool in one message"),
    Feature("empty-arguments", "a tool_use block with input {}"),
    Feature("several-turns", "two or more assistant messages with tool_use blocks"),
    Feature(
        "results-out-of-call-order",
        "tool_result blocks answer a turn's calls in another order",
        documented=f"{_TOOL_USE}/parallel-tool-use: one tool_result per tool_use, all in the next user "
        "message, paired by tool_use_id; the API sets no order among them",
    ),
    *_BLOCKS,
    Feature("result-string", "a tool_result whose content is a string"),
    Feature("result-json-string", "a tool_result whose content is JSON text"),
    Feature("result-text-blocks", "a tool_result whose content is a list of text blocks"),
    Feature("result-image-blocks", "a tool_result whose content holds image blocks"),
    Feature(
        "result-empty",
        "a tool_result with empty or absent content",
        documented="anthropic SDK types ToolResultBlockParam: content is optional (a tool with no output)",
    ),
    Feature("result-is-error", "a tool_result with is_error true"),
    Feature("result-is-error-false", "a tool_result with is_error false spelled out"),
    Feature("text-after-results", "a user message with text after its tool_result blocks"),
    Feature("cache-control", "blocks carry cache_control"),
    Feature("user-content-string", "a user message whose content is a string"),
    Feature("assistant-content-string", "an assistant message whose content is a string"),
)


def _messages(trace: list[Any]) -> Iterator[str]:
    turns = 0
    pending: list[Any] = []
    for m in trace:
        if not isinstance(m, dict):
            continue
        role, content = m.get("role"), m.get("content")
        if isinstance(content, str):
            yield "assistant-content-string" if role == "assistant" else "user-content-string"
            continue
        blocks = [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
        if any("cache_control" in b for b in blocks):
            yield "cache-control"
        if role == "assistant":
            for b in blocks:
                yield from _block(b.get("type"))
            yield from _around([str(b.get("type")) for b in blocks])
            calls = [b for b in blocks if b.get("type") == "tool_use"]
            if calls:
                turns += 1
                pending = [b.get("id") for b in calls]
                yield from calls_shapes([b.get("name") for b in calls])
                if any(b.get("input") == {} for b in calls):
                    yield "empty-arguments"
        elif role == "user":
            results = [b for b in blocks if b.get("type") == "tool_result"]
            answered = [b.get("tool_use_id") for b in results]
            if [c for c in answered if c in pending] != [c for c in pending if c in answered]:
                yield "results-out-of-call-order"
            for b in results:
                yield from _result(b)
            kinds = [b.get("type") for b in blocks]
            if results and "text" in kinds[kinds.index("tool_result") :]:
                yield "text-after-results"
    if turns > 1:
        yield "several-turns"


def _result(block: dict[str, Any]) -> Iterator[str]:
    if block.get("is_error") is True:
        yield "result-is-error"
    elif block.get("is_error") is False:
        yield "result-is-error-false"
    content = block.get("content")
    if content in ("", [], None):
        yield "result-empty"
    elif isinstance(content, str):
        json_text = content.lstrip()[:1] in ("{", "[") and is_json(content)
        yield "result-json-string" if json_text else "result-string"
    elif isinstance(content, list):
        kinds = {hashable(part.get("type")) for part in content if isinstance(part, dict)}
        if "text" in kinds:
            yield "result-text-blocks"
        if "image" in kinds:
            yield "result-image-blocks"


MESSAGE_SHAPES: Final = Shapes(_MESSAGES, lambda trace: set(_messages(trace)))


_RESPONSE: Final = (
    Feature("caller-field", "tool_use blocks carry caller (type direct)"),
    Feature("no-caller-field", "tool_use blocks carry no caller"),
    Feature("thinking-block", "a thinking block (extended thinking) first, with its signature"),
    Feature("redacted-thinking", "a redacted_thinking block first", documented=_THINKING),
)


def _response(body: dict[str, Any], turns: list[BodyTurn]) -> Iterator[str]:
    blocks = [b for b in body.get("content") or [] if isinstance(b, dict)]
    uses = [b for b in blocks if b.get("type") == "tool_use"]
    if uses:
        yield "caller-field" if any("caller" in b for b in uses) else "no-caller-field"
    kinds = {hashable(b.get("type")) for b in blocks}
    if "thinking" in kinds:
        yield "thinking-block"
    if "redacted_thinking" in kinds:
        yield "redacted-thinking"


def _texts(body: dict[str, Any], turn: BodyTurn) -> bool:
    return any(isinstance(b, dict) and b.get("type") == "text" for b in body.get("content") or [])


RESPONSE_SHAPES: Final = body_catalogue(
    message_turns,
    _RESPONSE,
    _texts,
    _response,
    {
        "empty-arguments": "anthropic 2.12.0 lib/streaming/_messages.py accumulate_event: a tool_use without "
        "input fragments keeps its start's input {} in the accumulated message"
    },
)
