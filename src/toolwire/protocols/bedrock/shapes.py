"""Shape features of AWS Bedrock Converse traffic: ConverseStream events and request messages."""

from __future__ import annotations

import itertools
import re
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
)
from toolwire.protocols.bedrock.body import converse_turns

__all__ = ["MESSAGE_SHAPES", "RESPONSE_SHAPES", "STREAM_SHAPES"]

_API: Final = "docs.aws.amazon.com/bedrock/latest/APIReference"
_GUIDE: Final = "docs.aws.amazon.com/bedrock/latest/userguide/tool-use-inference-call.html"
#: Claude on Bedrock streams Anthropic's input_json_delta pieces as toolUse input deltas.
_PIECES: Final = (
    f"{_API}/API_runtime_ToolUseBlockDelta.html: input is a piece of the JSON input, cut where the "
    "model's stream cuts it (Claude on Bedrock: as Anthropic's own input_json_delta pieces)"
)
_STREAM_DOCUMENTED: Final = {
    "empty-arguments": f"{_API}/API_runtime_ToolUseBlock.html: input is any JSON document, {{}} for a "
    "tool without parameters (Claude streams one empty input delta for it)",
    "escape-split-across-fragments": _PIECES,
    "fragment-is-json-on-its-own": _PIECES,
    "fragment-is-a-bare-number": _PIECES,
}
_UUID: Final = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

_STREAM: Final = (
    Feature("several-calls", "two or more toolUse blocks"),
    Feature("same-tool-twice", "two toolUse blocks of one tool"),
    *(Feature(f.name, f.summary, documented=_STREAM_DOCUMENTED.get(f.name)) for f in ARGUMENT_FEATURES),
    Feature(
        "no-calls",
        "a stream without toolUse blocks",
        documented=f"{_API}/API_runtime_ConverseStream.html: a turn that answers in text alone",
    ),
    Feature("empty-input-delta", 'a toolUse delta with input ""'),
    Feature("text-before-tool-use", "a text block before a toolUse block"),
    Feature("text-without-block-start", "a text block whose deltas come without a contentBlockStart"),
    Feature("several-text-blocks", "two or more text blocks (Nova: one block per text delta)"),
    Feature("block-index-skips", "contentBlockIndex skips a value"),
    Feature(
        "reasoning-content",
        "reasoningContent deltas (text, signature, redactedContent)",
        documented=f"{_API}/API_runtime_ContentBlockDelta.html",
    ),
    Feature("uuid-tool-use-id", "toolUseId is a bare UUID, not tooluse_..."),
    Feature("padding-field", 'events carry a "p" padding field'),
    Feature("metadata-after-stop", "metadata arrives after messageStop"),
    Feature("metadata-metrics", "metadata carries metrics (latencyMs)"),
    Feature("bedrock-invocation-metrics", 'events carry "amazon-bedrock-invocationMetrics"'),
    Feature("stop-reason-tool-use", 'a stream with calls ends with stopReason "tool_use"'),
    Feature(
        "stop-reason-end-turn",
        'the stream ends with stopReason "end_turn"',
        documented=f"{_API}/API_runtime_MessageStopEvent.html",
    ),
    Feature(
        "max-tokens-stop",
        'the stream ends with stopReason "max_tokens" (a toolUse block may be cut)',
        documented=f"{_API}/API_runtime_MessageStopEvent.html",
    ),
)


def _body(event: dict[str, Any], key: str) -> dict[str, Any] | None:
    body = event.get(key)
    return body if isinstance(body, dict) else None


def _stream(trace: list[Any]) -> Iterator[str]:
    pieces: dict[Any, list[str]] = {}
    names: list[Any] = []
    order: list[str] = []
    started: set[Any] = set()
    indexes: list[Any] = []
    stopped = False
    for event in trace:
        if not isinstance(event, dict):
            continue
        if "amazon-bedrock-invocationMetrics" in event:
            yield "bedrock-invocation-metrics"
        if any(isinstance(body, dict) and "p" in body for body in event.values()):
            yield "padding-field"
        if (start := _body(event, "contentBlockStart")) is not None:
            index = hashable(start.get("contentBlockIndex"))
            started.add(index)
            indexes.append(index)
            opening = start.get("start")
            tool = opening.get("toolUse") if isinstance(opening, dict) else None
            if isinstance(tool, dict):
                order.append("tool")
                pieces[index] = []
                names.append(tool.get("name"))
                if isinstance(tool.get("toolUseId"), str) and _UUID.fullmatch(tool["toolUseId"]):
                    yield "uuid-tool-use-id"
        elif (delta := _body(event, "contentBlockDelta")) is not None:
            index = hashable(delta.get("contentBlockIndex"))
            if index not in indexes:
                indexes.append(index)
            body = delta.get("delta")
            if not isinstance(body, dict):
                continue
            if "text" in body and index not in started:
                started.add(index)
                order.append("text")
                yield "text-without-block-start"
            if "reasoningContent" in body:
                yield "reasoning-content"
            tool = body.get("toolUse")
            if isinstance(tool, dict) and isinstance(tool.get("input"), str):
                if tool["input"] == "":
                    yield "empty-input-delta"
                pieces.setdefault(index, []).append(tool["input"])
        elif (stop := _body(event, "messageStop")) is not None:
            stopped = True
            yield from _stop(stop.get("stopReason"), bool(names))
        elif (metadata := _body(event, "metadata")) is not None:
            if stopped:
                yield "metadata-after-stop"
            if metadata.get("metrics"):
                yield "metadata-metrics"
    yield from _order(order, indexes)
    if not names:
        yield "no-calls"
        return
    yield from calls_shapes(names)
    for texts in pieces.values():
        yield from arguments_shapes(texts)


def _order(order: list[str], indexes: list[Any]) -> Iterator[str]:
    if "tool" in order and "text" in order[: order.index("tool")]:
        yield "text-before-tool-use"
    if order.count("text") > 1:
        yield "several-text-blocks"
    numbers = [i for i in indexes if isinstance(i, int)]
    if any(b - a > 1 for a, b in itertools.pairwise(numbers)):
        yield "block-index-skips"


def _stop(reason: Any, calls: bool) -> Iterator[str]:
    if reason == "tool_use" and calls:
        yield "stop-reason-tool-use"
    elif reason == "end_turn":
        yield "stop-reason-end-turn"
    elif reason == "max_tokens":
        yield "max-tokens-stop"


STREAM_SHAPES: Final = Shapes(_STREAM, lambda trace: set(_stream(trace)))

_MESSAGES: Final = (
    Feature("several-calls", "an assistant message with two or more toolUse blocks"),
    Feature("same-tool-twice", "two toolUse blocks of one tool in one message"),
    Feature(
        "empty-arguments",
        "a toolUse block with input {}",
        documented=f"{_API}/API_runtime_ToolUseBlock.html: input is any JSON document, {{}} for a tool "
        "without parameters",
    ),
    Feature(
        "several-turns",
        "two or more assistant messages with toolUse blocks",
        documented=f"{_GUIDE}: the conversation goes on with each toolResult, and the model may call again",
    ),
    Feature(
        "results-out-of-call-order",
        "toolResult blocks answer a turn's calls in another order",
        documented=f"{_API}/API_runtime_ToolResultBlock.html: a result names its call by toolUseId",
    ),
    Feature("text-before-tool-use", "an assistant message with text before its toolUse blocks"),
    Feature("result-json-block", "a toolResult whose content holds a json block"),
    Feature("result-text-block", "a toolResult whose content holds a text block"),
    Feature(
        "result-media-block",
        "a toolResult whose content holds an image, document or video block",
        documented=f"{_API}/API_runtime_ToolResultContentBlock.html",
    ),
    Feature(
        "result-empty",
        "a toolResult with empty content",
        documented=f"{_API}/API_runtime_ToolResultBlock.html",
    ),
    Feature(
        "result-status-error",
        'a toolResult with status "error"',
        documented=f"{_API}/API_runtime_ToolResultBlock.html",
    ),
    Feature(
        "result-status-success",
        'a toolResult with status "success" spelled out',
        documented=f"{_API}/API_runtime_ToolResultBlock.html",
    ),
    Feature("result-without-status", "a toolResult without status"),
    Feature("text-with-results", "a user message with text besides its toolResult blocks"),
    Feature(
        "reasoning-content",
        "an assistant reasoningContent block replayed",
        documented=f"{_API}/API_runtime_ReasoningContentBlock.html",
    ),
    Feature(
        "cache-point",
        "a cachePoint block",
        documented=f"{_API}/API_runtime_CachePointBlock.html",
    ),
)


def _messages(trace: list[Any]) -> Iterator[str]:
    turns = 0
    pending: list[Any] = []
    for m in trace:
        if not isinstance(m, dict):
            continue
        content = m.get("content")
        blocks = [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
        if any("cachePoint" in b for b in blocks):
            yield "cache-point"
        if m.get("role") == "assistant":
            if any("reasoningContent" in b for b in blocks):
                yield "reasoning-content"
            calls = [b["toolUse"] for b in blocks if isinstance(b.get("toolUse"), dict)]
            if not calls:
                continue
            turns += 1
            pending = [c.get("toolUseId") for c in calls]
            yield from calls_shapes([c.get("name") for c in calls])
            if any(c.get("input") == {} for c in calls):
                yield "empty-arguments"
            kinds = ["toolUse" in b for b in blocks]
            if any("text" in b for b in blocks[: kinds.index(True)]):
                yield "text-before-tool-use"
        elif m.get("role") == "user":
            results = [b["toolResult"] for b in blocks if isinstance(b.get("toolResult"), dict)]
            answered = [r.get("toolUseId") for r in results]
            if [c for c in answered if c in pending] != [c for c in pending if c in answered]:
                yield "results-out-of-call-order"
            for result in results:
                yield from _result(result)
            if results and any("text" in b for b in blocks):
                yield "text-with-results"
    if turns > 1:
        yield "several-turns"


def _result(result: dict[str, Any]) -> Iterator[str]:
    status = result.get("status")
    if status == "error":
        yield "result-status-error"
    elif status == "success":
        yield "result-status-success"
    elif status is None:
        yield "result-without-status"
    content = result.get("content")
    parts = [p for p in content if isinstance(p, dict)] if isinstance(content, list) else []
    if not parts:
        yield "result-empty"
    for part in parts:
        if "json" in part:
            yield "result-json-block"
        elif "text" in part:
            yield "result-text-block"
        elif any(kind in part for kind in ("image", "document", "video")):
            yield "result-media-block"


MESSAGE_SHAPES: Final = Shapes(_MESSAGES, lambda trace: set(_messages(trace)))


_RESPONSE: Final = (
    Feature("tool-use-type-field", 'toolUse blocks carry type "tool_use"'),
    Feature("no-tool-use-type", "toolUse blocks carry no type"),
    Feature("uuid-tool-use-id", "toolUseId is a bare UUID, not tooluse_... (Nova through InvokeModel)"),
    Feature("tooluse-id", "toolUseId is tooluse_..."),
    Feature("metrics-field", "the response carries metrics (latencyMs)"),
    Feature("no-metrics-field", "the response carries no metrics"),
)


def _response(body: dict[str, Any], turns: list[BodyTurn]) -> Iterator[str]:
    yield "metrics-field" if "metrics" in body else "no-metrics-field"
    calls = [call for turn in turns for call in turn.calls]
    if not calls:
        return
    content = body["output"]["message"].get("content") or []
    uses = [b["toolUse"] for b in content if isinstance(b, dict) and isinstance(b.get("toolUse"), dict)]
    yield "tool-use-type-field" if any("type" in use for use in uses) else "no-tool-use-type"
    yield "uuid-tool-use-id" if any(_UUID.fullmatch(str(c.id)) for c in calls) else "tooluse-id"


def _texts(body: dict[str, Any], turn: BodyTurn) -> bool:
    content = body["output"]["message"].get("content") or []
    return any(isinstance(b, dict) and b.get("text") for b in content)


RESPONSE_SHAPES: Final = body_catalogue(
    converse_turns,
    _RESPONSE,
    _texts,
    _response,
    {
        "empty-arguments": _STREAM_DOCUMENTED["empty-arguments"],
        "no-calls": f"{_API}/API_runtime_Converse.html: a turn that answers in text alone "
        "(stopReason end_turn)",
    },
)
