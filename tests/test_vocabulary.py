"""The pinned SDKs' own vocabulary: every union member is modelled by toolwire or opaque with a reason.

Each test enumerates an SDK union (``typing.get_args``) and fails on a type that toolwire neither
models nor lists below as deliberately opaque.  Bumping a pin in pyproject.toml then shows each
new type here, as a failing test for us, not as a false alarm for a user (issue 29).
"""

from __future__ import annotations

import typing
from typing import Any

import pytest

from toolwire.models import anthropic as anthropic_wire
from toolwire.models import openai_responses as responses_wire
from toolwire.protocols.anthropic.rules import MODELLED_SDK as ANTHROPIC_SDK
from toolwire.protocols.gemini.monitors import _PART_FIELDS
from toolwire.protocols.gemini.rules import MODELLED_SDK as GEMINI_SDK
from toolwire.protocols.openai_responses.rules import MODELLED_SDK as OPENAI_SDK

#: Types of the SDKs toolwire passes over on purpose, each with why.  Empty today: every member
#: of the unions below is modelled.  Add a type here only with the reason it needs no model.
OPAQUE: dict[str, str] = {}


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


def _unmodelled(sdk: set[str], modelled: frozenset[str] | set[str]) -> set[str]:
    return sdk - set(modelled) - set(OPAQUE)


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
