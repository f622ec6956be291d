"""Shape features of Vercel AI SDK traffic: provider stream parts, UI message stream chunks,
the full stream, UI messages and model messages.

No recording of either stream is in the corpus yet: each feature names the
type definition it comes from.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from toolwire.models import aisdk as wire
from toolwire.properties._shapes import (
    ARGUMENT_FEATURES,
    INTERLEAVED,
    Feature,
    Shapes,
    arguments_shapes,
    calls_shapes,
    hashable,
)

__all__ = [
    "FULL_STREAM_SHAPES",
    "MODEL_MESSAGE_SHAPES",
    "STREAM_SHAPES",
    "UI_MESSAGE_SHAPES",
    "UI_STREAM_SHAPES",
]

_PARTS: Final = "@ai-sdk/provider language-model-v3-stream-part.ts"
_CHUNKS: Final = "ai src/ui-message-stream/ui-message-chunks.ts"


def _documented(source: str, *features: tuple[str, str]) -> tuple[Feature, ...]:
    return tuple(Feature(name, summary, documented=source) for name, summary in features)


_STREAM: Final = (
    *_documented(
        _PARTS,
        ("several-calls", "two or more tool calls"),
        ("same-tool-twice", "two calls of one tool"),
        ("interleaved-fragments", "tool-input-delta parts of two calls interleave"),
    ),
    *(Feature(f.name, f.summary, documented=_PARTS) for f in ARGUMENT_FEATURES),
    *_documented(
        _PARTS,
        ("no-calls", "a stream without tool calls"),
        ("input-streamed", "a call's input streams in tool-input-delta parts"),
        ("input-end", "a call's input stream closes with tool-input-end"),
        ("announced-without-deltas", "a tool-input-start followed by its tool-call, no deltas between"),
        ("whole-tool-call", "a tool-call without tool-input-start (providers without input streaming)"),
        ("provider-executed", "a tool call the provider runs (providerExecuted: true)"),
        ("tool-result-part", "a tool-result part (a provider-executed tool's result)"),
        ("dynamic-tool", "a tool call with dynamic: true"),
        ("approval-request", "a tool-approval-request part"),
        ("text-with-calls", "text parts besides tool calls"),
        ("reasoning-parts", "reasoning-start / -delta / -end parts"),
        ("stream-start", "a stream-start part"),
        ("response-metadata", "a response-metadata part"),
        ("raw-parts", "raw parts (includeRawChunks)"),
        ("provider-metadata", "parts carry providerMetadata"),
        ("finish-usage", "the finish part carries token usage"),
        ("finish-reason-object", "finishReason is an object {unified, raw} (v3)"),
        ("finish-reason-string", "finishReason is a string (v2)"),
        ("no-finish", "a stream without a finish part"),
        ("error-part", "an error part"),
    ),
)


def _stream(trace: list[Any]) -> Iterator[str]:
    pieces: dict[Any, list[str]] = {}
    started: set[Any] = set()
    names: list[Any] = []
    last: Any = None
    finished = text = False
    for part in trace:
        if not isinstance(part, dict):
            continue
        kind = part.get("type")
        if "providerMetadata" in part:
            yield "provider-metadata"
        if kind == "tool-input-start":
            last = hashable(part.get("id"))
            started.add(last)
            pieces[last] = []
        elif kind == "tool-input-delta":
            key = hashable(part.get("id"))
            if key != last and pieces.get(key):
                yield INTERLEAVED
            last = key
            yield "input-streamed"
            if isinstance(part.get("delta"), str):
                pieces.setdefault(key, []).append(part["delta"])
        elif kind == "tool-input-end":
            yield "input-end"
        elif kind == "tool-call":
            yield from _call(part, started, pieces)
            names.append(part.get("toolName"))
        elif kind == "tool-result":
            yield "tool-result-part"
        elif kind == "tool-approval-request":
            yield "approval-request"
        elif kind == "finish":
            finished = True
            yield from _finish(part)
        elif kind in ("text-start", "text-delta", "text-end"):
            text = True
        else:
            yield from _other(kind)
    if not finished:
        yield "no-finish"
    if not names:
        yield "no-calls"
        return
    yield from calls_shapes(names)
    if text:
        yield "text-with-calls"


def _call(part: dict[str, Any], started: set[Any], pieces: dict[Any, list[str]]) -> Iterator[str]:
    key = hashable(part.get("toolCallId"))
    if key not in started:
        yield "whole-tool-call"
    elif not pieces.get(key):
        yield "announced-without-deltas"
    if pieces.get(key):
        yield from arguments_shapes(pieces[key])
    elif part.get("input") in ("", "{}"):
        yield "empty-arguments"
    if part.get("providerExecuted"):
        yield "provider-executed"
    if part.get("dynamic"):
        yield "dynamic-tool"


def _finish(part: dict[str, Any]) -> Iterator[str]:
    if part.get("usage"):
        yield "finish-usage"
    reason = part.get("finishReason")
    if isinstance(reason, dict):
        yield "finish-reason-object"
    elif isinstance(reason, str):
        yield "finish-reason-string"


def _other(kind: Any) -> Iterator[str]:
    if kind in ("reasoning-start", "reasoning-delta", "reasoning-end"):
        yield "reasoning-parts"
    elif kind == "raw":
        yield "raw-parts"
    elif kind == "error":
        yield "error-part"
    elif kind in ("stream-start", "response-metadata"):
        yield kind


STREAM_SHAPES: Final = Shapes(_STREAM, lambda trace: set(_stream(trace)))

_UI: Final = (
    *_documented(
        _CHUNKS,
        ("several-calls", "two or more tool calls"),
        ("same-tool-twice", "two calls of one tool"),
        ("interleaved-fragments", "tool-input-delta chunks of two calls interleave"),
    ),
    *(Feature(f.name, f.summary, documented=_CHUNKS) for f in ARGUMENT_FEATURES),
    *_documented(
        _CHUNKS,
        ("no-calls", "a stream without tool calls"),
        ("input-streamed", "a call's input streams in tool-input-delta chunks"),
        ("input-without-deltas", "a tool-input-available without tool-input-delta chunks before it"),
        ("output-available", "a tool-output-available chunk"),
        ("preliminary-output", "a tool-output-available with preliminary: true"),
        ("output-error", "a tool-output-error chunk"),
        ("input-error", "a tool-input-error chunk"),
        ("call-without-output", "a call that the stream never answers (the client runs it)"),
        ("provider-executed", "a tool call the provider runs (providerExecuted: true)"),
        ("dynamic-tool", "a tool call with dynamic: true"),
        ("approval-request", "a tool-approval-request chunk"),
        ("step-boundaries", "start-step / finish-step chunks"),
        ("several-steps", "two or more steps"),
        ("text-with-calls", "text chunks besides tool calls"),
        ("reasoning-chunks", "reasoning-start / -delta / -end chunks"),
        ("data-parts", "data-* chunks"),
        ("message-metadata", "message-metadata chunks, or metadata on start / finish"),
        ("abort", "an abort chunk"),
        ("error-chunk", "an error chunk"),
    ),
)


def _ui_stream(trace: list[Any]) -> Iterator[str]:
    pieces: dict[Any, list[str]] = {}
    names: dict[Any, Any] = {}
    answered: set[Any] = set()
    last: Any = None
    steps = 0
    text = False
    for chunk in trace:
        if not isinstance(chunk, dict):
            continue
        kind, key = chunk.get("type"), hashable(chunk.get("toolCallId"))
        if chunk.get("providerExecuted"):
            yield "provider-executed"
        if chunk.get("dynamic"):
            yield "dynamic-tool"
        if kind == "tool-input-start":
            names.setdefault(key, chunk.get("toolName"))
            pieces.setdefault(key, [])
            last = key
        elif kind == "tool-input-delta":
            if key != last and pieces.get(key):
                yield INTERLEAVED
            last = key
            yield "input-streamed"
            if isinstance(chunk.get("inputTextDelta"), str):
                pieces.setdefault(key, []).append(chunk["inputTextDelta"])
        elif kind == "tool-input-available":
            names.setdefault(key, chunk.get("toolName"))
            if not pieces.get(key):
                yield "input-without-deltas"
                if chunk.get("input") in ({}, None):
                    yield "empty-arguments"
        elif kind in ("tool-output-available", "tool-output-error", "tool-output-denied"):
            answered.add(key)
            if kind == "tool-output-error":
                yield "output-error"
            elif kind == "tool-output-available":
                yield "preliminary-output" if chunk.get("preliminary") else "output-available"
        elif kind in ("text-start", "text-delta", "text-end"):
            text = True
        else:
            steps += kind == "start-step"
            yield from _ui_other(kind, chunk)
    if steps:
        yield "step-boundaries"
    if steps > 1:
        yield "several-steps"
    if not names:
        yield "no-calls"
        return
    yield from calls_shapes(list(names.values()))
    if text:
        yield "text-with-calls"
    if set(names) - answered:
        yield "call-without-output"
    for texts in pieces.values():
        if texts:
            yield from arguments_shapes(texts)


def _ui_other(kind: Any, chunk: dict[str, Any]) -> Iterator[str]:
    if kind == "tool-input-error":
        yield "input-error"
    elif kind == "tool-approval-request":
        yield "approval-request"
    elif kind in ("reasoning-start", "reasoning-delta", "reasoning-end"):
        yield "reasoning-chunks"
    elif isinstance(kind, str) and kind.startswith("data-"):
        yield "data-parts"
    elif kind == "message-metadata" or (kind in ("start", "finish") and "messageMetadata" in chunk):
        yield "message-metadata"
    elif kind == "abort":
        yield "abort"
    elif kind == "error":
        yield "error-chunk"


UI_STREAM_SHAPES: Final = Shapes(_UI, lambda trace: set(_ui_stream(trace)))

_FULL_TYPES: Final = "ai 7.0.173 src/generate-text/stream-text-result.ts (TextStreamPart)"
_UI_TYPES: Final = "ai 7.0.173 src/ui/ui-messages.ts (UIMessage, ToolUIPart, DynamicToolUIPart)"
_MODEL_TYPES: Final = (
    "@ai-sdk/provider-utils src/types/*-message.ts (ModelMessage); ai 7.0.173 src/prompt/message.ts"
)

_FULL: Final = (
    *_documented(
        _FULL_TYPES,
        ("several-calls", "two or more tool calls"),
        ("same-tool-twice", "two calls of one tool"),
        ("interleaved-fragments", "tool-input-delta parts of two calls interleave"),
        ("no-calls", "a stream without tool calls"),
        ("input-streamed", "a call's input streams in tool-input-delta parts"),
        ("announced-without-deltas", "a tool-input-start and -end, then the tool-call, no deltas"),
        ("whole-tool-call", "a tool-call without tool-input-start"),
        ("tool-result-part", "a tool-result part"),
        ("tool-error-part", "a tool-error part"),
        ("approval-request", "a tool-approval-request part"),
        ("call-without-outcome", "a client call the stream never answers (a tool without execute)"),
        ("client-tool", "a tool-result of a tool the SDK ran (not provider-executed)"),
        ("provider-executed", "a call the provider runs (providerExecuted: true)"),
        ("preliminary-result", "a tool-result with preliminary: true"),
        ("several-steps", "two or more start-step .. finish-step steps"),
        ("text-with-calls", "text parts besides tool calls"),
        ("reasoning-parts", "reasoning-start / -delta / -end parts"),
        ("ping-parts", "ping parts"),
        ("raw-parts", "raw parts (includeRawChunks)"),
        ("abort", "an abort part"),
        ("error-part", "an error part"),
    ),
    *(Feature(f.name, f.summary, documented=_FULL_TYPES) for f in ARGUMENT_FEATURES),
)


def _full_stream(trace: list[Any]) -> Iterator[str]:
    pieces: dict[Any, list[str]] = {}
    names: list[Any] = []
    answered: set[Any] = set()
    last: Any = None
    steps = 0
    text = False
    simple = {
        "tool-error": "tool-error-part",
        "tool-approval-request": "approval-request",
        "ping": "ping-parts",
        "raw": "raw-parts",
        "abort": "abort",
        "error": "error-part",
        "reasoning-start": "reasoning-parts",
    }
    for part in trace:
        if not isinstance(part, dict):
            continue
        kind = part.get("type")
        if part.get("providerExecuted"):
            yield "provider-executed"
        if isinstance(kind, str) and kind in simple:
            yield simple[kind]
        if kind == "tool-input-start":
            pieces[hashable(part.get("id"))] = []
        elif kind == "tool-input-delta":
            key = hashable(part.get("id"))
            if key != last and pieces.get(key):
                yield INTERLEAVED
            last = key
            yield "input-streamed"
            if isinstance(part.get("delta"), str):
                pieces.setdefault(key, []).append(part["delta"])
        elif kind == "tool-call":
            key = hashable(part.get("toolCallId"))
            names.append(part.get("toolName"))
            if key not in pieces:
                yield "whole-tool-call"
            elif not pieces[key]:
                yield "announced-without-deltas"
            else:
                yield from arguments_shapes(pieces[key])
        elif kind in ("tool-result", "tool-error", "tool-approval-request", "tool-output-denied"):
            answered.add(hashable(part.get("toolCallId") or (part.get("toolCall") or {}).get("toolCallId")))
            if kind == "tool-result":
                yield "preliminary-result" if part.get("preliminary") else "tool-result-part"
                if not part.get("providerExecuted"):
                    yield "client-tool"
        elif kind == "text-start":
            text = True
        steps += kind == "start-step"
    if steps > 1:
        yield "several-steps"
    if not names:
        yield "no-calls"
        return
    yield from calls_shapes(names)
    if text:
        yield "text-with-calls"
    if len(answered) < len(set(map(hashable, names))):
        yield "call-without-outcome"


FULL_STREAM_SHAPES: Final = Shapes(_FULL, lambda trace: set(_full_stream(trace)))

_UI_MESSAGES: Final = _documented(
    _UI_TYPES,
    ("several-calls", "two or more tool parts in one assistant message"),
    ("same-tool-twice", "two calls of one tool in one assistant message"),
    ("no-calls", "messages without tool parts"),
    ("several-turns", "two or more user messages"),
    ("static-tool-parts", "tool parts typed tool-<name>"),
    ("dynamic-tool", "dynamic-tool parts (toolName in the part)"),
    ("output-available", "a tool part in output-available"),
    ("output-error", "a tool part in output-error"),
    ("output-denied", "a tool part in output-denied"),
    ("approval-requested", "a tool part in approval-requested"),
    ("approval-responded", "a tool part in approval-responded"),
    ("input-available", "a tool part in input-available"),
    ("input-streaming", "a tool part in input-streaming"),
    ("step-start-parts", "step-start parts between steps"),
    ("text-with-calls", "text parts besides tool parts"),
    ("provider-executed", "a tool part of a provider-executed tool"),
)


def _ui_messages(trace: list[Any]) -> Iterator[str]:
    users = 0
    calls = False
    for message in trace:
        if not isinstance(message, dict):
            continue
        users += message.get("role") == "user"
        found = message.get("parts")
        parts = found if isinstance(found, list) else []
        names = []
        text = False
        for part in parts:
            if not isinstance(part, dict):
                continue
            kind = part.get("type")
            if kind == "step-start":
                yield "step-start-parts"
            elif kind == "text":
                text = True
            elif isinstance(kind, str) and (kind.startswith("tool-") or kind == "dynamic-tool"):
                names.append(part.get("toolName") if kind == "dynamic-tool" else kind)
                yield "dynamic-tool" if kind == "dynamic-tool" else "static-tool-parts"
                if isinstance(part.get("state"), str) and part["state"] in _STATES:
                    yield part["state"]
                if part.get("providerExecuted"):
                    yield "provider-executed"
        if names:
            calls = True
            yield from calls_shapes(names)
            if text:
                yield "text-with-calls"
    if users > 1:
        yield "several-turns"
    if not calls:
        yield "no-calls"


_STATES: Final = frozenset(wire.UI_TOOL_STATES)
UI_MESSAGE_SHAPES: Final = Shapes(_UI_MESSAGES, lambda trace: set(_ui_messages(trace)))

_MODEL: Final = _documented(
    _MODEL_TYPES,
    ("several-calls", "two or more tool-call parts in one assistant message"),
    ("same-tool-twice", "two calls of one tool in one assistant message"),
    ("no-calls", "messages without tool-call parts"),
    ("several-turns", "two or more user messages"),
    ("system-message", "a system message"),
    ("no-system-message", "no system message"),
    ("user-text-string", "a user message whose content is a string"),
    ("user-text-parts", "a user message whose content is a list of parts"),
    ("text-output", "a tool-result output of type text"),
    ("json-output", "a tool-result output of type json"),
    ("error-output", "a tool-result output of type error-text or error-json"),
    ("execution-denied", "a tool-result output of type execution-denied"),
    ("one-tool-message", "one tool message carries the results of several calls"),
    ("tool-message-per-result", "consecutive tool messages, one result each"),
    ("text-with-calls", "text parts besides tool-call parts"),
    ("approval-parts", "tool-approval-request / -response parts"),
    ("provider-executed", "a provider-executed tool-call"),
)


def _model_messages(trace: list[Any]) -> Iterator[str]:
    users = 0
    calls = False
    previous: Any = None
    system = False
    for message in trace:
        if not isinstance(message, dict):
            continue
        kind = message.get("role")
        content = message.get("content")
        parts = [p for p in content if isinstance(p, dict)] if isinstance(content, list) else []
        system = system or kind == "system"
        if kind == "user":
            users += 1
            yield "user-text-string" if isinstance(content, str) else "user-text-parts"
        elif kind == "tool":
            results = [p for p in parts if p.get("type") == "tool-result"]
            if len(results) > 1:
                yield "one-tool-message"
            if previous == "tool":
                yield "tool-message-per-result"
        names = [p.get("toolName") for p in parts if p.get("type") == "tool-call"]
        if names:
            calls = True
            yield from calls_shapes(names)
            if any(p.get("type") == "text" for p in parts):
                yield "text-with-calls"
        for part in parts:
            yield from _model_part(part)
        previous = kind
    yield "system-message" if system else "no-system-message"
    if users > 1:
        yield "several-turns"
    if not calls:
        yield "no-calls"


def _model_part(part: dict[str, Any]) -> Iterator[str]:
    if part.get("providerExecuted"):
        yield "provider-executed"
    if part.get("type") in ("tool-approval-request", "tool-approval-response"):
        yield "approval-parts"
    output = part.get("output") if part.get("type") == "tool-result" else None
    kind = output.get("type") if isinstance(output, dict) else None
    if kind == "text":
        yield "text-output"
    elif kind == "json":
        yield "json-output"
    elif kind in ("error-text", "error-json"):
        yield "error-output"
    elif kind == "execution-denied":
        yield "execution-denied"


MODEL_MESSAGE_SHAPES: Final = Shapes(_MODEL, lambda trace: set(_model_messages(trace)))
