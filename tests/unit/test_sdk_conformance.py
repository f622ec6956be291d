"""Generated traffic validates against the providers' own SDK types (issue 14).

Every event, message and request body that ``traces()`` draws, and every
trace ``explore`` renders, is validated against the type the provider's SDK
declares for it: openai, anthropic, google-genai, mistralai and mcp through
pydantic (strict: a wire value must already have the declared JSON type;
required fields and types, never a ban on extra fields where the type allows
them), botocore through its service model's shapes, the Vercel
AI SDK's UI message chunks through ``ai``'s own zod schema (a node process),
and its provider stream parts through a transcription of
``@ai-sdk/provider``'s ``LanguageModelV4StreamPart``, which ships no runtime
schema; OpenTelemetry GenAI input messages through a transcription of
``opentelemetry-util-genai``'s message types.  The SDK versions are pinned in ``pyproject.toml`` (the ``dev``
extra) and ``tests/sdk/package.json``.
"""

from __future__ import annotations

import copy
import datetime
import functools
import json
import re
import shutil
import subprocess
import typing
from collections.abc import Callable, Iterator
from typing import Any, Literal, NotRequired

import pytest
from hypothesis import HealthCheck, given, settings
from pydantic import BaseModel, TypeAdapter, ValidationError
from typing_extensions import TypedDict, is_typeddict

from helpers import layout
from toolwire.engines.exploring._explore import paths
from toolwire.properties import Bounds
from toolwire.protocols import EXPLORED, GENERATED, quirks_for, space_for, traces

Validator = Callable[[list[dict[str, Any]]], None]
SDK = layout.TESTS / "sdk"


class Nonconforming(AssertionError):
    """A generated value that its SDK type rejects."""


def _fail(where: str, value: Any, error: object) -> typing.NoReturn:
    raise Nonconforming(f"{where}: {json.dumps(value, ensure_ascii=False)[:600]}\n{error}")


def _strict(kind: Any, where: str, value: Any) -> None:
    """``value`` validates strictly as ``kind``: a wire value must already have the declared JSON type.

    Models validate from the JSON text (so that a string is a valid enum member); request params
    (TypedDicts) from the parsed JSON, since in JSON mode pydantic lets a string match
    ``Iterable[...]`` before ``str`` in the params' ``Union[str, Iterable[...]]``.
    """
    text = json.dumps(value)
    try:
        if _is_params(kind):
            _drain(_adapter(kind).validate_python(json.loads(text), strict=True))
        else:
            _adapter(kind).validate_json(text, strict=True)
    except ValidationError as error:
        _fail(where, value, error)


@functools.cache
def _is_params(kind: Any) -> bool:
    return is_typeddict(kind) or any(is_typeddict(member) for member in typing.get_args(kind))


def _drain(value: Any) -> None:
    """Iterate what pydantic left lazy: an ``Iterable[...]`` field is validated only as it is read."""
    if isinstance(value, dict):
        for member in value.values():
            _drain(member)
    elif isinstance(value, list | tuple | Iterator):
        for member in value:
            _drain(member)


@functools.cache
def _adapter(kind: Any) -> TypeAdapter[Any]:
    return TypeAdapter(kind)


def _by_type(union: Any) -> dict[str, Any]:
    """The members of a union of models or TypedDicts, by their ``type`` literal."""
    while typing.get_origin(union) is typing.Annotated:
        union = typing.get_args(union)[0]
    members: dict[str, Any] = {}
    for member in typing.get_args(union):
        if isinstance(member, type) and issubclass(member, BaseModel):
            literal = member.model_fields["type"].annotation
        else:
            literal = typing.get_type_hints(member)["type"]
        while typing.get_origin(literal) is not Literal:
            literal = typing.get_args(literal)[0]
        for value in typing.get_args(literal):
            members[value] = member
    return members


def _events(union: Any, untyped: frozenset[str] = frozenset()) -> Validator:
    """Each event validates as the member of ``union`` its ``type`` names; ``untyped`` ones are skipped."""
    members = _by_type(union)

    def validate(trace: list[dict[str, Any]]) -> None:
        for number, event in enumerate(trace):
            if event.get("type") in untyped:
                continue
            kind = members.get(event.get("type"))
            if kind is None:
                _fail(f"event {number}", event, f"no {union} member has type {event.get('type')!r}")
            _strict(kind, f"event {number} ({kind.__name__})", event)

    return validate


def _each(kind: Any, body: Any = None, container: str = "messages", **fields: Any) -> Validator:
    """Each item validates as ``kind``; with ``body``, so does the request holding them in ``container``."""

    def validate(trace: list[dict[str, Any]]) -> None:
        for number, item in enumerate(trace):
            _strict(kind, f"item {number}", item)
        if body is not None:
            _strict(body, "request body", {**fields, container: trace})

    return validate


# OpenAI ------------------------------------------------------------------------------------------


def _openai_chat_stream() -> Validator:
    from openai.types.chat import ChatCompletionChunk

    each = _each(ChatCompletionChunk)

    def validate(trace: list[dict[str, Any]]) -> None:
        # Azure OpenAI's prompt-filter chunk (choices [], object "") is Azure's, not in the openai
        # SDK's types; the SDK reads stream chunks without validating them (construct), so it passes.
        each([chunk for chunk in trace if "prompt_filter_results" not in chunk])

    return validate


def _openai_chat() -> Validator:
    from openai.types.chat import ChatCompletionMessageParam
    from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming

    return _each(ChatCompletionMessageParam, CompletionCreateParamsNonStreaming, model="gpt-4.1")


def _openai_responses_stream() -> Validator:
    from openai.types.responses import ResponseStreamEvent

    events = _events(ResponseStreamEvent)

    def validate(trace: list[dict[str, Any]]) -> None:
        # Streams recorded before sequence_number existed (2025-05-21; tests/data/traffic
        # DataDog__dd-trace-py response_function_call_streamed.sse) carry none on any event, which
        # the pinned types require: such a stream is checked with its events' positions as numbers.
        if trace and all("sequence_number" not in event for event in trace):
            trace = [event | {"sequence_number": number} for number, event in enumerate(trace)]
        events(trace)

    return validate


def _openai_responses() -> Validator:
    from openai.types.responses import ResponseInputItemParam
    from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming

    return _each(ResponseInputItemParam, ResponseCreateParamsNonStreaming, "input", model="gpt-4.1")


# Anthropic ---------------------------------------------------------------------------------------


def _anthropic_stream() -> Validator:
    from anthropic.types import RawMessageStreamEvent

    # The SDK's Stream drops ``event: ping`` before typing (anthropic/_streaming.py): no type has it.
    return _events(RawMessageStreamEvent, untyped=frozenset({"ping"}))


def _anthropic_messages() -> Validator:
    from anthropic.types import MessageParam
    from anthropic.types.message_create_params import MessageCreateParamsNonStreaming

    return _each(MessageParam, MessageCreateParamsNonStreaming, model="claude-opus-4-6", max_tokens=1024)


# Google Gemini -----------------------------------------------------------------------------------


def _gemini_stream() -> Validator:
    from google.genai.types import GenerateContentResponse

    each = _each(GenerateContentResponse)

    def validate(trace: list[dict[str, Any]]) -> None:
        # Vertex AI's chunks carry createTime, RFC 3339 text the SDK parses leniently (as in
        # _gemini_response): checked as the SDK reads it.
        chunks = copy.deepcopy(trace)
        for chunk in chunks:
            if "createTime" in chunk:
                _adapter(datetime.datetime).validate_python(chunk.pop("createTime"))
        each(chunks)

    return validate


def _gemini_contents() -> Validator:
    from google.genai.types import Content

    return _each(Content)


# Mistral -----------------------------------------------------------------------------------------


def _mistral_chat() -> Validator:
    from mistralai.client.models import ChatCompletionRequest, ChatCompletionRequestMessage

    return _each(ChatCompletionRequestMessage, ChatCompletionRequest, model="mistral-large-latest")


# MCP ---------------------------------------------------------------------------------------------


def _mcp() -> Validator:
    from mcp.types import (
        CallToolRequest,
        CallToolResult,
        InitializedNotification,
        InitializeRequest,
        InitializeResult,
        JSONRPCMessage,
        ListToolsRequest,
        ListToolsResult,
    )

    requests = {
        "initialize": InitializeRequest,
        "tools/list": ListToolsRequest,
        "tools/call": CallToolRequest,
    }
    results = {"initialize": InitializeResult, "tools/list": ListToolsResult, "tools/call": CallToolResult}
    notifications = {"notifications/initialized": InitializedNotification}

    def validate(trace: list[dict[str, Any]]) -> None:
        asked: dict[Any, str] = {}
        for number, message in enumerate(trace):
            where = f"message {number}"
            _strict(JSONRPCMessage, where, message)
            method = message.get("method")
            if method is not None:
                kinds = requests if "id" in message else notifications
                if method not in kinds:
                    _fail(where, message, f"no typed check for method {method!r}")
                body = {k: v for k, v in message.items() if k not in ("jsonrpc", "id")}
                _strict(kinds[method], f"{where} ({kinds[method].__name__})", body)
                if "id" in message:
                    asked[message["id"]] = method
            elif "result" in message:
                kind = results[asked[message["id"]]]
                _strict(kind, f"{where} ({kind.__name__})", message["result"])

    return validate


# Bedrock -----------------------------------------------------------------------------------------


@functools.cache
def _bedrock() -> Any:
    import botocore.session

    return botocore.session.get_session().get_service_model("bedrock-runtime")


def _shape_errors(shape: Any, value: Any, where: str) -> Iterator[str]:
    """Where ``value`` breaks an output ``shape`` (required members, types, unions, limits, enums).

    Unknown members are allowed, as botocore's parser ignores them on output.
    """
    kind = shape.type_name
    meta = shape.metadata
    if meta.get("document"):
        return
    if kind == "structure":
        if not isinstance(value, dict):
            yield f"{where}: {shape.name} wants an object, not {value!r}"
            return
        known = {k: v for k, v in value.items() if k in shape.members}
        if meta.get("union") and len(known) != 1:
            yield f"{where}: union {shape.name} needs exactly one of {list(shape.members)}, has {list(known)}"
        for name in shape.required_members:
            if name not in value:
                yield f"{where}: {shape.name} misses required member {name!r}"
        for name, member in known.items():
            yield from _shape_errors(shape.members[name], member, f"{where}.{name}")
    elif kind == "list":
        if not isinstance(value, list):
            yield f"{where}: {shape.name} wants a list, not {value!r}"
            return
        if len(value) < meta.get("min", 0):
            yield f"{where}: {shape.name} wants at least {meta['min']} members"
        for number, member in enumerate(value):
            yield from _shape_errors(shape.member, member, f"{where}[{number}]")
    elif kind == "map":
        if not isinstance(value, dict):
            yield f"{where}: {shape.name} wants an object, not {value!r}"
            return
        for key, member in value.items():
            yield from _shape_errors(shape.value, member, f"{where}[{key!r}]")
    elif kind == "string":
        if not isinstance(value, str):
            yield f"{where}: {shape.name} wants a string, not {value!r}"
            return
        if not meta.get("min", 0) <= len(value) <= meta.get("max", len(value)):
            yield f"{where}: {shape.name} length {len(value)} outside {meta.get('min')}..{meta.get('max')}"
        if "pattern" in meta and not re.fullmatch(meta["pattern"].strip("^$"), value):
            yield f"{where}: {shape.name} {value!r} does not match {meta['pattern']}"
        if shape.enum and value not in shape.enum:
            yield f"{where}: {shape.name} {value!r} is not one of {shape.enum}"
    elif kind in ("integer", "long"):
        if not isinstance(value, int) or isinstance(value, bool):
            yield f"{where}: {shape.name} wants an integer, not {value!r}"
        elif not meta.get("min", value) <= value <= meta.get("max", value):
            yield f"{where}: {shape.name} {value} outside {meta.get('min')}..{meta.get('max')}"
    elif kind in ("float", "double"):
        if not isinstance(value, int | float) or isinstance(value, bool):
            yield f"{where}: {shape.name} wants a number, not {value!r}"
    elif kind == "boolean":
        if not isinstance(value, bool):
            yield f"{where}: {shape.name} wants a boolean, not {value!r}"
    else:
        yield f"{where}: the walker does not know shape type {kind} ({shape.name})"


def _walk(shape: Any, value: Any, where: str) -> None:
    errors = list(_shape_errors(shape, value, where))
    if errors:
        _fail(where, value, "\n".join(errors))


#: InvokeModelWithResponseStream (Nova) sends its invocation metrics beside the last event of the
#: stream (tests/data/traffic open-telemetry__opentelemetry-python-contrib test_invoke_model_with_
#: response_stream_*); botocore hands that chunk back as bytes, so no shape declares the key.
_INVOCATION_METRICS = "amazon-bedrock-invocationMetrics"


def _bedrock_stream() -> Validator:
    output = _bedrock().shape_for("ConverseStreamOutput")

    def validate(trace: list[dict[str, Any]]) -> None:
        for number, event in enumerate(trace):
            (kind,) = (key for key in event if key != _INVOCATION_METRICS)
            if kind not in output.members:
                _fail(f"event {number}", event, f"{kind!r} is not a ConverseStreamOutput event")
            _walk(output.members[kind], event[kind], f"event {number} {kind}")

    return validate


def _bedrock_converse() -> Validator:
    from botocore.validate import ParamValidator

    model = _bedrock()
    request = model.operation_model("Converse").input_shape

    def validate(trace: list[dict[str, Any]]) -> None:
        body = {"modelId": "anthropic.claude-sonnet-4-5", "messages": trace}
        report = ParamValidator().validate(body, request)
        if report.has_errors():
            _fail("Converse request", body, report.generate_report())
        # ParamValidator leaves patterns (toolUseId's) and enums to the service; the walker checks them.
        for number, message in enumerate(trace):
            _walk(model.shape_for("Message"), message, f"message {number}")

    return validate


# Vercel AI SDK -----------------------------------------------------------------------------------
# @ai-sdk/provider 4.0.38 ships LanguageModelV4StreamPart as a TypeScript type only; these are its
# members that carry text, tool calls or the stream's envelope, transcribed from dist/index.d.ts.

_Metadata = dict[str, dict[str, Any]]


class _Text(TypedDict):
    type: Literal["text-start", "text-end", "reasoning-start", "reasoning-end"]
    id: str
    providerMetadata: NotRequired[_Metadata]


class _TextDelta(TypedDict):
    type: Literal["text-delta", "reasoning-delta"]
    id: str
    delta: str
    providerMetadata: NotRequired[_Metadata]


class _ToolInputStart(TypedDict):
    type: Literal["tool-input-start"]
    id: str
    toolName: str
    inputEncoding: NotRequired[Literal["json", "text"]]
    providerMetadata: NotRequired[_Metadata]
    providerExecuted: NotRequired[bool]
    dynamic: NotRequired[bool]
    title: NotRequired[str]


class _ToolInputDelta(TypedDict):
    type: Literal["tool-input-delta"]
    id: str
    delta: str
    providerMetadata: NotRequired[_Metadata]


class _ToolInputEnd(TypedDict):
    type: Literal["tool-input-end"]
    id: str
    providerMetadata: NotRequired[_Metadata]


class _ToolCall(TypedDict):
    type: Literal["tool-call"]
    toolCallId: str
    toolName: str
    input: str
    providerExecuted: NotRequired[bool]
    dynamic: NotRequired[bool]
    providerMetadata: NotRequired[_Metadata]


class _Warning(TypedDict):
    type: str


class _StreamStart(TypedDict):
    type: Literal["stream-start"]
    warnings: list[_Warning]


class _InputTokens(TypedDict):
    total: NotRequired[int]
    noCache: NotRequired[int]
    cacheRead: NotRequired[int]
    cacheWrite: NotRequired[int]


class _OutputTokens(TypedDict):
    total: NotRequired[int]
    text: NotRequired[int]
    reasoning: NotRequired[int]


class _Usage(TypedDict):
    inputTokens: _InputTokens
    outputTokens: _OutputTokens
    raw: NotRequired[dict[str, Any]]


class _FinishReason(TypedDict):
    unified: Literal["stop", "length", "content-filter", "tool-calls", "error", "interrupted", "other"]
    raw: NotRequired[str]


class _Finish(TypedDict):
    type: Literal["finish"]
    usage: _Usage
    finishReason: _FinishReason
    providerMetadata: NotRequired[_Metadata]


class _Raw(TypedDict):
    type: Literal["raw"]
    rawValue: Any


class _Ping(TypedDict):
    type: Literal["ping"]


_V4_PART = _Text | _TextDelta | _ToolInputStart | _ToolInputDelta | _ToolInputEnd | _ToolCall
_V4_PART |= _StreamStart | _Finish | _Raw | _Ping


def _aisdk_stream() -> Validator:
    return _events(_V4_PART)


class _Node:
    """``tests/sdk/ui_chunks.mjs``: ``ai``'s ``uiMessageChunkSchema`` over a pipe, one trace a line."""

    script = "ui_chunks.mjs"

    def __init__(self) -> None:
        node = shutil.which("node")
        if node is None:
            pytest.skip("node is not installed: the AI SDK's zod schemas run in node")
        if not (SDK / "node_modules" / "ai").is_dir():
            pytest.skip(f"the npm package ai is not installed: npm ci --prefix {SDK}")
        self.process = subprocess.Popen(
            [node, str(SDK / self.script)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=SDK,
        )

    def ask(self, line: Any) -> Any:
        """Send one JSON line, read the answer line."""
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.write(json.dumps(line) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def __call__(self, trace: list[dict[str, Any]]) -> None:
        answer = self.ask(trace)
        if answer is not None:
            _fail(f"chunk {answer['index']}", trace[answer["index"]], answer["error"])

    def close(self) -> None:
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)
        self.process.stdout.close()


@pytest.fixture(scope="module")
def ui_chunks() -> Iterator[_Node]:
    node = _Node()
    yield node
    node.close()


# ``streamText``'s full stream: ``ai`` 7.0.173 ships no runtime schema of ``TextStreamPart``, so this
# transcribes ``src/generate-text/stream-text-result.ts`` and the types it names (``tool-call.ts``,
# ``tool-result.ts``, ``tool-error.ts``, ``tool-output-denied.ts``, ``tool-approval-*-output.ts``,
# ``src/types/usage.ts``, ``step-result.ts``).  ``undefined`` fields are absent in JSON (NotRequired);
# a ``Date`` is its ISO string.


class _FullToolInputStart(_ToolInputStart):
    toolMetadata: NotRequired[dict[str, Any]]


class _FullTextDelta(TypedDict):
    type: Literal["text-delta", "reasoning-delta"]
    id: str
    text: str
    providerMetadata: NotRequired[_Metadata]


class _FullCallObject(TypedDict):
    type: Literal["tool-call"]
    toolCallId: str
    toolName: str
    input: Any
    providerExecuted: NotRequired[bool]
    providerMetadata: NotRequired[_Metadata]
    toolMetadata: NotRequired[dict[str, Any]]
    dynamic: NotRequired[bool]
    invalid: NotRequired[bool]
    error: NotRequired[Any]
    title: NotRequired[str]


class _FullToolResult(TypedDict):
    type: Literal["tool-result"]
    toolCallId: str
    toolName: str
    input: Any
    output: Any
    providerExecuted: NotRequired[bool]
    providerMetadata: NotRequired[_Metadata]
    toolMetadata: NotRequired[dict[str, Any]]
    dynamic: NotRequired[bool]
    preliminary: NotRequired[bool]
    title: NotRequired[str]


class _FullToolError(TypedDict):
    type: Literal["tool-error"]
    toolCallId: str
    toolName: str
    input: Any
    error: Any
    providerExecuted: NotRequired[bool]
    providerMetadata: NotRequired[_Metadata]
    toolMetadata: NotRequired[dict[str, Any]]
    dynamic: NotRequired[bool]
    title: NotRequired[str]


class _FullOutputDenied(TypedDict):
    type: Literal["tool-output-denied"]
    toolCallId: str
    toolName: str
    providerExecuted: NotRequired[bool]
    dynamic: NotRequired[bool]


class _FullApprovalRequest(TypedDict):
    type: Literal["tool-approval-request"]
    approvalId: str
    toolCall: _FullCallObject
    reason: NotRequired[str]
    isAutomatic: NotRequired[bool]
    signature: NotRequired[str]


class _FullApprovalResponse(TypedDict):
    type: Literal["tool-approval-response"]
    approvalId: str
    toolCall: _FullCallObject
    approved: bool
    reason: NotRequired[str]
    providerExecuted: NotRequired[bool]


class _FullInputDetails(TypedDict):
    noCacheTokens: NotRequired[int]
    cacheReadTokens: NotRequired[int]
    cacheWriteTokens: NotRequired[int]


class _FullOutputDetails(TypedDict):
    textTokens: NotRequired[int]
    reasoningTokens: NotRequired[int]


class _FullUsage(TypedDict):
    inputTokens: NotRequired[int]
    inputTokenDetails: _FullInputDetails
    outputTokens: NotRequired[int]
    outputTokenDetails: _FullOutputDetails
    totalTokens: NotRequired[int]
    raw: NotRequired[dict[str, Any]]


class _FullPerformance(TypedDict):
    effectiveOutputTokensPerSecond: float
    outputTokensPerSecond: NotRequired[float]
    inputTokensPerSecond: NotRequired[float]
    effectiveTotalTokensPerSecond: float
    stepTimeMs: float
    responseTimeMs: float
    toolExecutionMs: dict[str, float]
    timeToFirstOutputMs: NotRequired[float]


class _FullResponse(TypedDict):
    id: str
    timestamp: str
    modelId: str
    headers: NotRequired[dict[str, str]]


_FullReason = Literal["stop", "length", "content-filter", "tool-calls", "error", "interrupted", "other"]


class _FullStartStep(TypedDict):
    type: Literal["start-step"]
    request: dict[str, Any]
    warnings: list[_Warning]


class _FullFinishStep(TypedDict):
    type: Literal["finish-step"]
    response: _FullResponse
    usage: _FullUsage
    performance: _FullPerformance
    finishReason: _FullReason
    rawFinishReason: NotRequired[str]
    providerMetadata: NotRequired[_Metadata]


class _FullStart(TypedDict):
    type: Literal["start"]


class _FullFinish(TypedDict):
    type: Literal["finish"]
    finishReason: _FullReason
    rawFinishReason: NotRequired[str]
    totalUsage: _FullUsage


_FULL_PART = _Text | _FullTextDelta | _FullToolInputStart | _ToolInputDelta | _ToolInputEnd | _Ping
_FULL_PART |= _FullCallObject | _FullToolResult | _FullToolError | _FullOutputDenied
_FULL_PART |= _FullApprovalRequest | _FullApprovalResponse | _FullStartStep | _FullFinishStep
_FULL_PART |= _FullStart | _FullFinish | _Raw


def _aisdk_full_stream() -> Validator:
    return _events(_FULL_PART)


class _Messages(_Node):
    """``tests/sdk/ai_messages.mjs``: ``ai``'s ``safeValidateUIMessages`` and ``modelMessageSchema``."""

    script = "ai_messages.mjs"

    def for_protocol(self, protocol: str) -> Validator:
        def validate(trace: list[dict[str, Any]]) -> None:
            answer = self.ask({"protocol": protocol, "messages": trace})
            if answer is not None:
                _fail(f"message {answer['index']}", trace[answer["index"]], answer["error"])

        return validate


@pytest.fixture(scope="module")
def ai_messages() -> Iterator[_Messages]:
    node = _Messages()
    yield node
    node.close()


# OpenTelemetry GenAI ----------------------------------------------------------------------------
# opentelemetry-util-genai 1.3b0 declares the input messages as dataclasses it writes and never reads
# (types.py, after semconv's non-normative models.py); the parts explore renders, transcribed.


class _GenAIText(TypedDict):
    type: Literal["text"]
    content: str


class _GenAIToolCall(TypedDict):
    type: Literal["tool_call"]
    name: str
    id: str | None
    arguments: Any


class _GenAIToolCallResponse(TypedDict):
    type: Literal["tool_call_response"]
    id: str | None
    response: Any


class _GenAIInputMessage(TypedDict):
    role: str
    parts: list[_GenAIText | _GenAIToolCall | _GenAIToolCallResponse]
    name: NotRequired[str | None]


def _otel_genai() -> Validator:
    return _each(_GenAIInputMessage)


VALIDATORS: dict[str, Callable[[], Validator]] = {
    "openai-chat": _openai_chat,
    "openai-chat-stream": _openai_chat_stream,
    "openai-responses": _openai_responses,
    "openai-responses-stream": _openai_responses_stream,
    # Open Responses has no SDK of its own; it is the OpenAI Responses stream, so OpenAI's types.
    "open-responses-stream": _openai_responses_stream,
    "anthropic-messages": _anthropic_messages,
    "anthropic-stream": _anthropic_stream,
    "bedrock-converse": _bedrock_converse,
    "bedrock-converse-stream": _bedrock_stream,
    "gemini-contents": _gemini_contents,
    "gemini-stream": _gemini_stream,
    "mistral-chat": _mistral_chat,
    "aisdk-stream": _aisdk_stream,
    "mcp": _mcp,
    "aisdk-full-stream": _aisdk_full_stream,
    "otel-genai": _otel_genai,
}
NODE = "aisdk-ui-stream"
#: Validated by ``ai``'s own schemas in node (``tests/sdk/ai_messages.mjs``).
NODE_MESSAGES = ("aisdk-ui-messages", "aisdk-model-messages")
CASES = [(p, q) for p in GENERATED for q in (None, *quirks_for(p))]
_IDS = [f"{p}-{q or 'plain'}" for p, q in CASES]
#: The cases validated in node run a subprocess: slow (left out of a plain pytest, make test runs them).
_MARKED = [
    pytest.param(p, q, marks=pytest.mark.slow) if p in (NODE, *NODE_MESSAGES) else (p, q) for p, q in CASES
]
_SETTINGS = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def test_every_generated_protocol_has_an_sdk_check() -> None:
    assert set(GENERATED) == {*VALIDATORS, NODE, *NODE_MESSAGES}


def _validator(protocol: str, request: pytest.FixtureRequest) -> Validator:
    if protocol in NODE_MESSAGES:
        messages: _Messages = request.getfixturevalue("ai_messages")
        return messages.for_protocol(protocol)
    if protocol == NODE:
        node: _Node = request.getfixturevalue("ui_chunks")
        return node
    return VALIDATORS[protocol]()


@pytest.mark.parametrize(("protocol", "quirk"), _MARKED, ids=_IDS)
def test_every_generated_trace_validates_against_its_sdk_types(
    protocol: str, quirk: str | None, request: pytest.FixtureRequest
) -> None:
    validate = _validator(protocol, request)

    @_SETTINGS
    @given(traces(protocol, quirk))
    def conforms(trace: list[dict[str, Any]]) -> None:
        validate(trace)

    conforms()


@pytest.mark.slow
@pytest.mark.parametrize("protocol", EXPLORED)
def test_every_explored_trace_validates_against_its_sdk_types(
    protocol: str, request: pytest.FixtureRequest
) -> None:
    validate = _validator(protocol, request)
    space = space_for(protocol, Bounds(calls=2, deltas=2, turns=2, names=2))
    for path in paths(space):
        validate(space.render(path))


def _bad_cases() -> list[tuple[str, dict[str, Any], str]]:
    return [
        ("openai-chat-stream", {"id": "x", "object": "chat.completion.chunk", "choices": []}, "created"),
        ("openai-responses-stream", {"type": "response.output_text.delta", "delta": "a"}, "logprobs"),
        ("anthropic-stream", {"type": "content_block_stop"}, "index"),
        ("gemini-stream", {"candidates": [{"content": {"parts": [{"functionCall": 1}]}}]}, "functionCall"),
        ("bedrock-converse-stream", {"metadata": {"usage": {}}}, "metrics"),
        ("mcp", {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}}, "protocolVersion"),
        ("aisdk-stream", {"type": "finish", "finishReason": {"unified": "stop"}, "usage": {}}, "inputTokens"),
        ("openai-chat", {"role": "tool", "content": "x"}, "tool_call_id"),
        ("openai-responses", {"type": "function_call", "name": "f", "arguments": "{}"}, "call_id"),
        ("anthropic-messages", {"role": "assistant", "content": [{"type": "tool_use", "id": "t"}]}, "name"),
        ("bedrock-converse", {"role": "user", "content": [{"toolResult": {"content": []}}]}, "toolUseId"),
        ("gemini-contents", {"role": "model", "parts": [{"functionCall": {"name": 1}}]}, "name"),
        ("mistral-chat", {"role": "tool"}, "content"),
    ]


@pytest.mark.parametrize(("protocol", "event", "field"), _bad_cases(), ids=[c[0] for c in _bad_cases()])
def test_the_sdk_checks_are_not_vacuous(protocol: str, event: dict[str, Any], field: str) -> None:
    with pytest.raises(Nonconforming, match=field):
        VALIDATORS[protocol]()([event])


def test_the_genai_message_check_is_not_vacuous() -> None:
    with pytest.raises(Nonconforming, match="name"):
        _otel_genai()([{"role": "assistant", "parts": [{"type": "tool_call", "id": "c", "arguments": {}}]}])
    with pytest.raises(Nonconforming, match="response"):
        _otel_genai()([{"role": "tool", "parts": [{"type": "tool_call_response", "id": "c", "result": 1}]}])


@pytest.mark.slow
def test_the_ui_chunk_check_is_not_vacuous(ui_chunks: _Node) -> None:
    with pytest.raises(Nonconforming, match="toolCallId"):
        ui_chunks([{"type": "tool-input-start", "toolName": "f"}])


@_SETTINGS
@given(traces("gemini-stream"))
def test_gemini_stream_ids_are_the_apis_own_not_adks(trace: list[dict[str, Any]]) -> None:
    # The types cannot tell: the recorded Gemini API streams (shared/traffic) carry 8 letters and
    # digits from Gemini 3 models, nothing from Gemini 2.x, and never ADK's client-side adk- ids.
    for chunk in trace:
        for part in chunk["candidates"][0]["content"]["parts"]:
            # The parts after the one that names a call streaming its arguments carry no id.
            if "functionCall" in part and "name" in part["functionCall"]:
                assert re.fullmatch(r"[0-9A-Za-z]{8}", part["functionCall"]["id"])


# Response bodies (issue 17) ----------------------------------------------------------------------


def _openai_chat_response() -> Validator:
    from openai.types.chat import ChatCompletion

    return _each(ChatCompletion)


def _openai_responses_response() -> Validator:
    from openai.types.responses import Response

    return _each(Response)


def _anthropic_message_response() -> Validator:
    from anthropic.types import Message

    return _each(Message)


def _gemini_response() -> Validator:
    from google.genai.types import FinishReason, GenerateContentResponse

    members = list(FinishReason)
    validate = _each(GenerateContentResponse)

    def named(trace: list[dict[str, Any]]) -> None:
        trace = copy.deepcopy(trace)
        # A client that dumps the proto writes finishReason as its enum number (tests/data/traffic
        # open-telemetry__opentelemetry-python-contrib gemini-response test_function_call_choice*.json);
        # the SDK's JSON types take the name, which is what such a number stands for.
        for body in trace:
            for candidate in body.get("candidates") or []:
                if isinstance(candidate.get("finishReason"), int):
                    candidate["finishReason"] = members[candidate["finishReason"]].value
            # Vertex's createTime is RFC 3339 text, which the SDK parses leniently (strict pydantic
            # takes no text for a datetime): it is checked as the SDK reads it.
            if "createTime" in body:
                _adapter(datetime.datetime).validate_python(body.pop("createTime"))
        validate(trace)

    return named


def _bedrock_converse_response() -> Validator:
    output = _bedrock().operation_model("Converse").output_shape

    def validate(trace: list[dict[str, Any]]) -> None:
        for number, body in enumerate(trace):
            # Nova answers InvokeModel with the Converse body less its metrics (tests/data/traffic
            # open-telemetry__opentelemetry-python-contrib bedrock-converse-response
            # test_invoke_model_*-amazon.nova*.json), which ConverseResponse requires.
            body = {"metrics": {"latencyMs": 0}} | copy.deepcopy(body)
            # Claude on Bedrock types its toolUse blocks "tool_use" (tests/data/traffic crewAIInc__crewAI
            # bedrock-converse-response), a ToolUseType botocore 1.44.5 does not list yet.
            for block in body["output"]["message"].get("content") or []:
                if block.get("toolUse", {}).get("type") == "tool_use":
                    del block["toolUse"]["type"]
            _walk(output, body, f"response {number}")

    return validate


# Mistral chat stream -----------------------------------------------------------------------------


def _mistral_chat_stream() -> Validator:
    """Each chunk parses as mistralai's ``CompletionEvent`` (``data``: a ``CompletionChunk``), strictly."""
    from mistralai.client.models import CompletionChunk, CompletionEvent

    def validate(trace: list[dict[str, Any]]) -> None:
        for number, chunk in enumerate(trace):
            _strict(CompletionChunk, f"chunk {number} (CompletionChunk)", chunk)
            _strict(CompletionEvent, f"chunk {number} (CompletionEvent)", {"data": chunk})

    return validate


def _mistral_chat_response() -> Validator:
    from mistralai.client.models import ChatCompletionResponse

    return _each(ChatCompletionResponse)


VALIDATORS.update(
    {
        "openai-chat-response": _openai_chat_response,
        "openai-responses-response": _openai_responses_response,
        "anthropic-message-response": _anthropic_message_response,
        "gemini-response": _gemini_response,
        "bedrock-converse-response": _bedrock_converse_response,
        "mistral-chat-response": _mistral_chat_response,
    }
)

_BAD_BODIES = [
    ("openai-chat-response", {"id": "c", "object": "chat.completion", "created": 1, "model": "m"}, "choices"),
    (
        "openai-responses-response",
        {"id": "r", "object": "response", "output": [{"type": "function_call"}]},
        "call_id",
    ),
    (
        "anthropic-message-response",
        {"type": "message", "role": "assistant", "content": [{"type": "tool_use"}]},
        "input",
    ),
    ("gemini-response", {"candidates": [{"content": {"parts": [{"functionCall": {"args": "{}"}}]}}]}, "args"),
    (
        "bedrock-converse-response",
        {"output": {"message": {"role": "assistant", "content": [{"toolUse": {}}]}}},
        "toolUseId",
    ),
    (
        "mistral-chat-response",
        {"id": "c", "object": "chat.completion", "model": "m", "created": 1},
        "choices",
    ),
]


@pytest.mark.parametrize(("protocol", "body", "field"), _BAD_BODIES, ids=[c[0] for c in _BAD_BODIES])
def test_the_body_checks_are_not_vacuous(protocol: str, body: dict[str, Any], field: str) -> None:
    with pytest.raises(Nonconforming, match=field):
        VALIDATORS[protocol]()([body])


VALIDATORS["mistral-chat-stream"] = _mistral_chat_stream


def test_the_mistral_stream_check_is_not_vacuous() -> None:
    fragment = {"id": "D681PevKs", "function": {"arguments": "{}"}, "index": 0}
    chunk = {"id": "x", "model": "m", "choices": [{"index": 0, "delta": {"tool_calls": [fragment]}}]}
    with pytest.raises(Nonconforming, match="name"):
        _mistral_chat_stream()([chunk | {"choices": [chunk["choices"][0] | {"finish_reason": None}]}])


def test_mistralai_reads_a_fragment_without_index_as_index_0() -> None:
    """MI-6a's hazard, as the SDK shows it: two calls without index both land at 0."""
    from mistralai.client.models import CompletionEvent

    from toolwire import check

    indexes = []
    for call_id in ("D681PevKs", "Kx9Lm2Qa1"):
        fragment = {"id": call_id, "function": {"name": "get_weather", "arguments": "{}"}}
        choice = {"index": 0, "delta": {"tool_calls": [fragment]}, "finish_reason": None}
        chunk = {"id": "x", "model": "m", "choices": [choice]}
        (call,) = CompletionEvent.model_validate({"data": chunk}).data.choices[0].delta.tool_calls or []
        indexes.append(call.index)
    assert indexes == [0, 0]
    chunks = [
        {
            "choices": [
                {
                    "index": 0,
                    "delta": {"tool_calls": [{"id": i, "function": {"name": "f", "arguments": "{}"}}]},
                }
            ]
        }
        for i in ("D681PevKs", "Kx9Lm2Qa1")
    ]
    report = check(chunks, "mistral-chat-stream")
    assert "MI-6a" in {f.rule for f in report.errors}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("protocol", "messages", "field"),
    [
        (
            "aisdk-ui-messages",
            [
                {
                    "id": "m",
                    "role": "assistant",
                    "parts": [
                        {"type": "tool-f", "toolCallId": "c", "state": "output-available", "input": {}}
                    ],
                }
            ],
            "output",
        ),
        (
            "aisdk-model-messages",
            [
                {
                    "role": "tool",
                    "content": [
                        {"type": "tool-result", "toolCallId": "c", "output": {"type": "text", "value": "x"}}
                    ],
                }
            ],
            "toolName",
        ),
    ],
)
def test_the_ai_message_checks_are_not_vacuous(
    protocol: str, messages: list[dict[str, Any]], field: str, ai_messages: _Messages
) -> None:
    with pytest.raises(Nonconforming, match=field):
        ai_messages.for_protocol(protocol)(messages)


def test_the_full_stream_check_is_not_vacuous() -> None:
    with pytest.raises(Nonconforming, match="input"):
        _aisdk_full_stream()([{"type": "tool-call", "toolCallId": "c", "toolName": "f"}])
