"""The pinned SDKs' own vocabulary: every union member is modelled by toolwire or opaque with a reason.

Each test enumerates an SDK union (``typing.get_args``) and fails on a type that toolwire neither
models nor lists below as deliberately opaque.  Bumping a pin in pyproject.toml then shows each
new type here, as a failing test for us, not as a false alarm for a user (issue 29).
"""

from __future__ import annotations

import re
import typing
from collections.abc import Iterable
from typing import Any

import pytest

from helpers import layout
from toolwire.models import aisdk as aisdk_wire
from toolwire.models import anthropic as anthropic_wire
from toolwire.models import bedrock as bedrock_wire
from toolwire.models import mcp as mcp_wire
from toolwire.models import mistral as mistral_wire
from toolwire.models import openai_chat as chat_wire
from toolwire.models import openai_responses as responses_wire
from toolwire.protocols.anthropic.rules import MODELLED_SDK as ANTHROPIC_SDK
from toolwire.protocols.gemini.monitors import _PART_FIELDS
from toolwire.protocols.gemini.rules import MODELLED_SDK as GEMINI_SDK
from toolwire.protocols.openai_responses.rules import MODELLED_SDK as OPENAI_SDK

#: Types and fields of the SDKs toolwire passes over on purpose, by the SDK type they belong to,
#: each with why.  Add one here only with the reason it needs no model.
OPAQUE: dict[str, dict[str, str]] = {
    "ChatCompletionChunk": dict.fromkeys(
        (
            "id",
            "created",
            "model",
            "object",
            "moderation",
            "obfuscation",
            "service_tier",
            "system_fingerprint",
        ),
        "the chunk's envelope: no tool call is in it",
    )
    | {"usage": "token counts of the last chunk: no tool call"},
    "Choice": {"logprobs": "token log probabilities of the text: no tool call"},
    "ChoiceDelta": dict.fromkeys(
        ("audio", "content", "refusal", "role"), "the turn's text or audio: no tool call"
    )
    | {
        "function_call": "the deprecated functions API's single call, streamed only when the request sent "
        "functions, not tools; toolwire models tool_calls"
    },
    "ChatCompletionMessageParam": dict.fromkeys(
        ("content", "name", "audio", "refusal"), "a message's text, author name or audio: no tool call"
    )
    | {"function_call": "the deprecated functions API's call, which tool messages cannot answer"},
    "GenerateContentResponse": dict.fromkeys(
        ("sdkHttpResponse", "automaticFunctionCallingHistory", "parsed"),
        "set by the SDK, never on the wire",
    )
    | dict.fromkeys(
        ("createTime", "modelVersion", "promptFeedback", "responseId", "usageMetadata", "modelStatus"),
        "the response's envelope: no function call",
    ),
    "Candidate": dict.fromkeys(
        (
            "citationMetadata",
            "finishMessage",
            "tokenCount",
            "groundingMetadata",
            "avgLogprobs",
            "logprobsResult",
            "safetyRatings",
            "urlContextMetadata",
        ),
        "metadata of the candidate's text: no function call",
    )
    | {
        "finishReason": "calls end with STOP like text, and MALFORMED_FUNCTION_CALL carries no call to "
        "judge: no rule ties it to the calls",
        "continuationToken": "resumes a response stopped with finishReason CONTINUATION in a later request",
    },
    "Content": {"role": "always model in a response"},
    "mistral CompletionChunk": dict.fromkeys(
        ("id", "model", "object", "created", "usage"), "the chunk's envelope: no tool call is in it"
    ),
    "mistral CompletionResponseStreamChoice": dict.fromkeys(
        ("logprobs", "prompt_logprobs"), "token log probabilities: no tool call"
    ),
    "mistral DeltaMessage": dict.fromkeys(("role", "content", "metadata"), "the turn's text: no tool call")
    | dict.fromkeys(
        ("tool_call_id", "index"),
        "set on a streamed tool message (agents' conversations), not on the chat stream's calls",
    ),
    "mistral ToolCall": {
        "type": "a free string defaulting to function; Mistral chat has only function tools"
    },
    "botocore ToolResultBlock": dict.fromkeys(
        ("content", "status"), "what the tool returned and whether it failed: the pairing is by toolUseId"
    ),
    "botocore ToolResultBlockStart": {"status": "whether a system tool failed: no call for the client"},
    "mcp ServerRequest": {
        "ping": "sent by both sides: a session's messages carry no direction, so it is keyed as the "
        "client's (CLIENT_METHODS)"
    },
    "mcp CallToolRequestParams": {
        "_meta": "progress token and metadata: no call",
        "inputResponses": "the answers to an input_required result, carried by the retried call",
        "requestState": "opaque state echoed from an input_required result",
        "task": "task-augmented execution; the SDK's ServerResult has no task result: read as a call",
    },
    "mcp CallToolResult": {
        "_meta": "metadata: no call",
        "structuredContent": "the tool's typed output, optional beside content",
    },
    "mistral messages": dict.fromkeys(
        ("content", "name", "prefix"), "a message's text, tool name or prefix flag: no tool call"
    ),
}


def _opaque(scope: str) -> set[str]:
    return set(OPAQUE.get(scope, {}))


def _members(union: Any) -> tuple[Any, ...]:
    """The classes of an SDK union, through ``Annotated[Union[...], discriminator]``."""
    if typing.get_origin(union) is typing.Annotated:
        union = typing.get_args(union)[0]
    return typing.get_args(union)


def _type_literals(union: Any) -> set[str]:
    """The ``type`` literal of each member of an SDK union."""
    found = set()
    for member in _members(union):
        (literal,) = typing.get_args(member.model_fields["type"].annotation)
        found.add(literal)
    return found


def _version(package: str) -> str:
    module = pytest.importorskip(package)
    return f"{package.replace('_', '-')} {module.__version__}"


def _unmodelled(sdk: set[str], modelled: Iterable[str], scope: str = "") -> set[str]:
    return sdk - set(modelled) - _opaque(scope)


def _fields(model: Any) -> set[str]:
    """The fields of a pydantic model, by name and by wire alias."""
    return set(model.model_fields) | {field.alias for field in model.model_fields.values() if field.alias}


def test_the_modelled_sdk_versions_are_the_pinned_ones() -> None:
    assert _version("openai") == OPENAI_SDK
    assert _version("anthropic") == ANTHROPIC_SDK
    genai = pytest.importorskip("google.genai")
    assert f"google-genai {genai.__version__}" == GEMINI_SDK


def test_every_responses_output_item_type_is_modelled() -> None:
    items = pytest.importorskip("openai.types.responses.response_output_item")
    sdk = _type_literals(items.ResponseOutputItem)
    assert _unmodelled(sdk, responses_wire.OUTPUT_ITEM_TYPES) == set()
    assert set(responses_wire.OUTPUT_ITEM_TYPES) - sdk == set(), "modelled types the SDK does not have"


def test_every_responses_stream_event_type_is_modelled() -> None:
    events = pytest.importorskip("openai.types.responses.response_stream_event")
    sdk = _type_literals(events.ResponseStreamEvent)
    assert _unmodelled(sdk, responses_wire.KNOWN_EVENT_TYPES) == set()
    assert set(responses_wire.KNOWN_EVENT_TYPES) - sdk == set(), "modelled types the SDK does not have"


def test_every_anthropic_content_block_type_is_modelled() -> None:
    blocks = pytest.importorskip("anthropic.types.content_block")
    beta = pytest.importorskip("anthropic.types.beta.beta_content_block")
    sdk = _type_literals(blocks.ContentBlock) | _type_literals(beta.BetaContentBlock)
    assert _unmodelled(sdk, anthropic_wire.BLOCK_TYPES) == set()
    assert set(anthropic_wire.BLOCK_TYPES) - sdk == set(), "modelled types the SDK does not have"


def test_every_anthropic_delta_type_is_modelled() -> None:
    deltas = pytest.importorskip("anthropic.types.raw_content_block_delta")
    beta = pytest.importorskip("anthropic.types.beta.beta_raw_content_block_delta")
    sdk = _type_literals(deltas.RawContentBlockDelta) | _type_literals(beta.BetaRawContentBlockDelta)
    assert _unmodelled(sdk, anthropic_wire.DELTA_TYPES) == set()
    assert set(anthropic_wire.DELTA_TYPES) - sdk == set(), "modelled types the SDK does not have"


def test_every_anthropic_stream_event_type_is_modelled() -> None:
    events = pytest.importorskip("anthropic.types.raw_message_stream_event")
    beta = pytest.importorskip("anthropic.types.beta.beta_raw_message_stream_event")
    sdk = _type_literals(events.RawMessageStreamEvent) | _type_literals(beta.BetaRawMessageStreamEvent)
    modelled = {
        anthropic_wire.MESSAGE_START,
        anthropic_wire.MESSAGE_DELTA,
        anthropic_wire.MESSAGE_STOP,
        anthropic_wire.BLOCK_START,
        anthropic_wire.BLOCK_DELTA,
        anthropic_wire.BLOCK_STOP,
    }
    assert _unmodelled(sdk, modelled) == set()


def test_every_anthropic_stop_reason_is_judged() -> None:
    reasons = pytest.importorskip("anthropic.types.beta.beta_stop_reason")
    sdk = set(typing.get_args(reasons.BetaStopReason))
    finished = {anthropic_wire.STOP_TOOL_USE, "end_turn", "stop_sequence"}
    assert _unmodelled(sdk, finished | anthropic_wire.UNFINISHED_STOP_REASONS) == set()


def test_every_gemini_part_field_is_modelled() -> None:
    types = pytest.importorskip("google.genai.types")
    sdk = set(types.Part.model_fields) | {
        field.alias for field in types.Part.model_fields.values() if field.alias
    }
    assert _unmodelled(sdk, _PART_FIELDS) == set()
    assert set(_PART_FIELDS) - sdk == set(), "modelled fields the SDK does not have"


@pytest.mark.parametrize(
    ("sdk_type", "read"),
    [
        ("GenerateContentResponse", {"candidates"}),
        ("Candidate", {"content", "index"}),
        ("Content", {"parts"}),
    ],
)
def test_every_gemini_response_field_is_read(sdk_type: str, read: set[str]) -> None:
    types = pytest.importorskip("google.genai.types")
    model = getattr(types, sdk_type)
    wire_names = {field.alias or name for name, field in model.model_fields.items()}
    assert _unmodelled(wire_names, read, sdk_type) == set()
    assert read - wire_names == set(), "read fields the SDK does not have"


def test_every_gemini_function_call_field_is_read() -> None:
    types = pytest.importorskip("google.genai.types")
    read = {"id", "args", "name", "partial_args", "will_continue"}
    assert _unmodelled(set(types.FunctionCall.model_fields), read) == set()
    assert (
        _unmodelled(
            set(types.PartialArg.model_fields),
            {"json_path", "string_value", "number_value", "bool_value", "null_value", "will_continue"},
        )
        == set()
    )


def _literals(union: Any, field: str = "type") -> set[str]:
    """The ``field`` literals of the members of an SDK union of pydantic models or TypedDicts."""
    return {literal for member in _members(union) for literal in _literal_values(member, field)}


def _literal_values(member: Any, field: str) -> tuple[Any, ...]:
    """The literals of ``field`` of a pydantic model or TypedDict, through ``Optional``."""
    if hasattr(member, "model_fields"):
        annotation = member.model_fields[field].annotation
    else:
        annotation = typing.get_type_hints(member)[field]
    while typing.get_origin(annotation) is not typing.Literal:
        (annotation,) = (a for a in typing.get_args(annotation) if a is not type(None))
    return typing.get_args(annotation)


def test_every_responses_input_item_type_is_modelled() -> None:
    items = pytest.importorskip("openai.types.responses.response_input_item_param")
    sdk = _literals(items.ResponseInputItemParam)
    assert _unmodelled(sdk, responses_wire.INPUT_ITEM_TYPES) == set()
    assert set(responses_wire.INPUT_ITEM_TYPES) - sdk == set(), "modelled types the SDK does not have"


@pytest.mark.parametrize(
    ("sdk_type", "read"),
    [
        ("ChatCompletionChunk", chat_wire.CHUNK_FIELDS),
        ("Choice", chat_wire.CHOICE_FIELDS),
        ("ChoiceDelta", chat_wire.DELTA_FIELDS),
        ("ChoiceDeltaToolCall", chat_wire.FRAGMENT_FIELDS),
        ("ChoiceDeltaToolCallFunction", chat_wire.FUNCTION_FRAGMENT_FIELDS),
    ],
)
def test_every_chat_chunk_field_is_read(sdk_type: str, read: frozenset[str]) -> None:
    chunk = pytest.importorskip("openai.types.chat.chat_completion_chunk")
    sdk = _fields(getattr(chunk, sdk_type))
    assert _unmodelled(sdk, read, sdk_type) == set()
    assert set(read) - sdk == set(), "read fields the SDK does not have"


def test_every_chat_message_role_and_field_is_modelled() -> None:
    messages = pytest.importorskip("openai.types.chat.chat_completion_message_param")
    union = messages.ChatCompletionMessageParam
    assert _literals(union, "role") == set(chat_wire.MESSAGE_ROLES)
    fields = {name for member in _members(union) for name in typing.get_type_hints(member)}
    assert _unmodelled(fields, chat_wire.MESSAGE_FIELDS, "ChatCompletionMessageParam") == set()
    calls = pytest.importorskip("openai.types.chat.chat_completion_message_tool_call_union_param")
    assert _literals(calls.ChatCompletionMessageToolCallUnionParam) == set(chat_wire.MESSAGE_TOOL_CALL_TYPES)


@pytest.mark.parametrize(
    ("sdk_type", "read"),
    [
        ("CompletionChunk", mistral_wire.CHUNK_FIELDS),
        ("CompletionResponseStreamChoice", mistral_wire.CHOICE_FIELDS),
        ("DeltaMessage", mistral_wire.DELTA_FIELDS),
        ("ToolCall", mistral_wire.TOOL_CALL_FIELDS),
        ("FunctionCall", {"name", "arguments"}),
    ],
)
def test_every_mistral_chunk_field_is_read(sdk_type: str, read: Iterable[str]) -> None:
    models = pytest.importorskip("mistralai.client.models")
    sdk = _fields(getattr(models, sdk_type))
    assert _unmodelled(sdk, read, f"mistral {sdk_type}") == set()
    assert set(read) - sdk == set(), "read fields the SDK does not have"


def test_every_mistral_message_role_and_field_is_modelled() -> None:
    models = pytest.importorskip("mistralai.client.models")
    (union,) = typing.get_args(models.ChatCompletionRequest.model_fields["messages"].annotation)
    members = [typing.get_args(member)[0] for member in _members(union)]
    roles = {literal for member in members for literal in _literal_values(member, "role")}
    assert roles == set(mistral_wire.ROLES)
    fields = {name for member in members for name in _fields(member)}
    assert _unmodelled(fields, mistral_wire.MESSAGE_FIELDS, "mistral messages") == set()


@pytest.fixture(scope="module")
def converse() -> Any:
    """botocore's bedrock-runtime service model (the Converse shapes)."""
    session = pytest.importorskip("botocore.session")
    return session.get_session().get_service_model("bedrock-runtime")


@pytest.mark.parametrize(
    ("shape", "modelled"),
    [
        ("ConverseStreamOutput", bedrock_wire.STREAM_EVENTS),
        ("ContentBlockStart", bedrock_wire.START_MEMBERS),
        ("ContentBlockDelta", bedrock_wire.DELTA_MEMBERS),
        ("ContentBlock", bedrock_wire.CONTENT_BLOCKS),
        ("ToolUseBlock", bedrock_wire.TOOL_USE_FIELDS),
        ("ToolUseBlockStart", bedrock_wire.TOOL_USE_FIELDS - {"input"}),
        ("ToolUseBlockDelta", {"input"}),
        ("ToolResultBlock", bedrock_wire.TOOL_RESULT_FIELDS),
        ("ToolResultBlockStart", bedrock_wire.TOOL_RESULT_FIELDS),
    ],
)
def test_every_converse_member_is_modelled(converse: Any, shape: str, modelled: Iterable[str]) -> None:
    sdk = set(converse.shape_for(shape).members)
    assert _unmodelled(sdk, modelled, f"botocore {shape}") == set()
    assert set(modelled) - sdk == set(), "modelled members the SDK does not have"


def test_every_converse_tool_use_type_is_a_system_tool(converse: Any) -> None:
    """A ``toolUse`` with a ``type`` is passed over as a system tool's call: every type must be one."""
    assert converse.shape_for("ToolUseType").enum == ["server_tool_use"]


def _methods(surface: Any) -> set[str]:
    return {key[0] if isinstance(key, tuple) else key for key in surface}


def test_every_mcp_method_is_modelled() -> None:
    methods = pytest.importorskip("mcp_types.methods")
    clients = _methods(methods.CLIENT_REQUESTS)
    servers = _methods(methods.SERVER_REQUESTS)
    assert _unmodelled(clients, mcp_wire.CLIENT_METHODS) == set()
    assert _unmodelled(servers, mcp_wire.SERVER_METHODS, "mcp ServerRequest") == set()
    assert (mcp_wire.CLIENT_METHODS | mcp_wire.SERVER_METHODS) - clients - servers == set()
    notifications = _methods(methods.CLIENT_NOTIFICATIONS) | _methods(methods.SERVER_NOTIFICATIONS)
    assert notifications == mcp_wire.NOTIFICATIONS


def test_every_mcp_tools_call_field_is_read() -> None:
    types = pytest.importorskip("mcp.types")
    params = _fields(types.CallToolRequestParams) - set(types.CallToolRequestParams.model_fields)
    assert _unmodelled(params, mcp_wire.CALL_PARAMS, "mcp CallToolRequestParams") == set()
    result = _fields(types.CallToolResult) - set(types.CallToolResult.model_fields)
    assert _unmodelled(result, mcp_wire.CALL_RESULT_FIELDS, "mcp CallToolResult") == set()
    annotation = types.CallToolResult.model_fields["result_type"].annotation
    literals = {v for arg in typing.get_args(annotation) for v in typing.get_args(arg)}
    assert literals == mcp_wire.RESULT_TYPES
    assert _literal_values(types.InputRequiredResult, "result_type") == (mcp_wire.INPUT_REQUIRED,)


# -- the AI SDK: its unions read from the packages' type declarations (tests/sdk, npm ci) ---------

NODE_MODULES = layout.TESTS / "sdk" / "node_modules"
#: ``type: '...'`` or ``type: `tool-${NAME}``` (a template: its prefix and ``*``).
_TYPE_FIELD = r"\b{field}\??: (?:'([^']+)'|`([^`$]*)\$\{{[^}}]*\}}`)"


def _declarations(package: str) -> str:
    path = NODE_MODULES / package / "dist" / "index.d.ts"
    if not path.is_file():
        pytest.skip(f"{path.relative_to(NODE_MODULES.parent.parent)} missing: run make (npm ci in tests/sdk)")
    return path.read_text()


def _nesting(char: str, opens: str = "{([", closes: str = "})]") -> int:
    """How ``char`` changes the depth of brackets: 1 opens, -1 closes."""
    return (char in opens) - (char in closes)


def _alias(text: str, name: str) -> str:
    """The right-hand side of ``type NAME<...> = ...;`` (or the body of ``interface NAME``)."""
    found = re.search(rf"^(?:export )?(type|interface) {re.escape(name)}\b", text, re.M)
    assert found is not None, f"no declaration of {name}"
    depth, position = 0, found.end()
    while depth or text[position] not in "={":  # past the type parameters and their defaults
        depth += _nesting(text[position], "<", ">")
        position += 1
    interface = text[position] == "{"
    start = position if interface else position + 1
    for position in range(start, len(text)):
        char = text[position]
        depth += _nesting(char)
        if interface and depth == 0:
            return text[start : position + 1]  # the body, braces and all: one member
        if char == ";" and depth == 0:
            return text[start:position]
    raise AssertionError(f"{name} does not end")


def _split_union(body: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for position, char in enumerate(body):
        depth += _nesting(char, "{([<", "})]>")
        if char == "|" and depth == 0:
            parts.append(body[start:position])
            start = position + 1
    return [*parts, body[start:]]


def _union_literals(text: str, name: str, field: str = "type") -> set[str]:
    """The ``field`` literal of each member of the union ``name`` (named members resolved)."""
    return _members_literals(text, _alias(text, name), field)


def _members_literals(text: str, union: str, field: str) -> set[str]:
    found: set[str] = set()
    pattern = re.compile(_TYPE_FIELD.format(field=field))
    for member in _split_union(union):
        member = member.strip()
        array = re.fullmatch(r"Array<(.*)>", member, re.S)
        if array:
            found |= _members_literals(text, array.group(1), field)
            continue
        depth, best = 0, None
        for position, char in enumerate(member):
            depth += _nesting(char, "{", "}")
            match = pattern.match(member, position) if char == field[0] else None
            if match and (best is None or depth < best[0]):
                best = (depth, match.group(1) or f"{match.group(2)}*")
        if best is not None:
            found.add(best[1])
        elif re.fullmatch(r"[A-Za-z0-9_$]+(<.*>)?", member, re.S) and member != "string":
            found |= _union_literals(text, member.split("<")[0], field)
        elif member != "string":
            raise AssertionError(f"cannot read the {field} of {member[:60]!r}")
    return found


def test_every_provider_stream_part_type_is_modelled() -> None:
    sdk = _union_literals(_declarations("@ai-sdk/provider"), "LanguageModelV4StreamPart")
    modelled = aisdk_wire.PART_TYPES["v4"] | aisdk_wire.OTHER_PART_TYPES
    assert _unmodelled(sdk, modelled) == set()
    assert set(modelled) - sdk == set(), "modelled types the SDK does not have"


def test_every_ui_message_chunk_type_is_modelled() -> None:
    sdk = _union_literals(_declarations("ai"), "UIMessageChunk")
    modelled = aisdk_wire.UI_TOOL_CHUNKS.keys() | aisdk_wire.OTHER_UI_CHUNK_TYPES | {"data-*"}
    assert _unmodelled(sdk, modelled) == set()
    assert set(modelled) - sdk == set(), "modelled types the SDK does not have"


def test_every_full_stream_part_type_is_modelled() -> None:
    sdk = _union_literals(_declarations("ai"), "TextStreamPart")
    modelled = aisdk_wire.FULL_TOOL_PARTS.keys() | aisdk_wire.FULL_OTHER_PARTS
    assert _unmodelled(sdk, modelled) == set()
    assert set(modelled) - sdk == set(), "modelled types the SDK does not have"


def test_every_ui_and_model_message_role_is_modelled() -> None:
    ai = _declarations("ai")
    assert set(re.findall(r"'(\w+)'", _alias(ai, "UIMessage").split("role: ")[1].split(";")[0])) == set(
        aisdk_wire.UI_ROLES
    )
    utils = _declarations("@ai-sdk/provider-utils")
    assert _union_literals(utils, "ModelMessage", "role") == set(aisdk_wire.MODEL_ROLES)


def test_every_ui_message_part_type_is_modelled() -> None:
    sdk = _union_literals(_declarations("ai"), "UIMessagePart")
    assert _unmodelled(sdk, aisdk_wire.UI_PART_TYPES) == set()
    assert set(aisdk_wire.UI_PART_TYPES) - sdk == set(), "modelled types the SDK does not have"


def test_every_model_message_part_type_is_modelled() -> None:
    utils = _declarations("@ai-sdk/provider-utils")
    sdk = set().union(*(_union_literals(utils, f"{role}Content") for role in ("User", "Assistant", "Tool")))
    assert _unmodelled(sdk, aisdk_wire.MODEL_PART_TYPES) == set()
    assert set(aisdk_wire.MODEL_PART_TYPES) - sdk == set(), "modelled types the SDK does not have"
