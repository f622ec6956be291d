"""Severity from evidence (issue 38), more stream rules: AN-10d and BR-9d (input fragments that do
not join to JSON), BR-9a (the order of Bedrock's envelope events), MI-6a, MI-6d and MI-6e (Mistral's
chat stream, whose calls come whole, one fragment each).

Each test pins what each consumer made of one hand-written trace (tests/helpers/violating_streams.py)
and that toolwire flags it at the severity this evidence gives.  A Mistral stream is read by the
consumers that read Mistral's OpenAI-compatible endpoint: openai-python's ChatCompletionStreamState,
langchain-openai, pydantic-ai's OpenAI chat model and @ai-sdk/openai's chat model.  The node
consumers run only where ``npm ci --prefix tests/sdk`` was run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import toolwire
from helpers import consumers, violating
from helpers import consumers_native as native
from helpers import violating_streams as streams
from helpers.consumers import Seen
from toolwire.protocols import RULES

pytestmark = pytest.mark.slow

PARIS, LYON = '{"city":"Paris"}', '{"city":"Lyon"}'
NOT_JSON = '{"city":Paris}'


def _node() -> None:
    if reason := consumers.node_missing():
        pytest.skip(reason)


def _flagged(tmp_path: Path, name: str, body: str | bytes, protocol: str) -> dict[str, str]:
    path = tmp_path / name
    if isinstance(body, bytes):
        path.write_bytes(body)
    else:
        path.write_text(body)
    return {f.rule: f.severity for f in toolwire.check_file(path, protocol).findings}


# Input fragments that do not join to JSON ------------------------------------------------------------


def test_anthropic_fragments_that_are_not_json_end_messagestream_and_change_the_call(tmp_path: Path) -> None:
    body = consumers.sse(streams.an10d_fragments_not_json())
    assert _flagged(tmp_path, "t.sse", body, "anthropic-stream") == {"AN-10d": "error"}
    seen = native.anthropic_stream(body)
    assert seen.calls == [] and seen.error is not None
    assert seen.error.startswith("ValueError: Unable to parse tool parameter JSON from model.")
    invalid = '{"INVALID_JSON":"{\\"city\\":Paris}"}'
    assert native.pydantic_ai_anthropic(body).calls == [
        ("toolu_1", "get_weather", invalid),
        ("toolu_2", "get_weather", LYON),
    ]
    _node()
    assert consumers.ai_sdk("ai-sdk-anthropic", body).calls == [
        ("toolu_1", "get_weather", NOT_JSON),
        ("toolu_2", "get_weather", LYON),
    ]


def test_bedrock_fragments_that_are_not_json_change_the_call(tmp_path: Path) -> None:
    body = native.eventstream(streams.br9d_fragments_not_json())
    assert _flagged(tmp_path, "t.eventstream", body, "bedrock-converse-stream") == {"BR-9d": "error"}
    invalid = '{"INVALID_JSON":"{\\"city\\":Paris}"}'
    assert native.pydantic_ai_bedrock(body).calls == [
        ("tooluse_1", "get_weather", invalid),
        ("tooluse_2", "get_weather", LYON),
    ]
    _node()
    # The AI SDK hands over input that is not JSON: streamText cannot parse it into the tool's input.
    assert native.ai_sdk_bedrock(body).calls == [
        ("tooluse_1", "get_weather", NOT_JSON),
        ("tooluse_2", "get_weather", LYON),
    ]


# Bedrock's envelope order ---------------------------------------------------------------------------


@pytest.mark.parametrize("trace", [streams.br9a_no_message_start, streams.br9a_metadata_before_message_stop])
def test_bedrock_envelope_events_out_of_order_change_no_consumer_call(tmp_path: Path, trace: Any) -> None:
    body = native.eventstream(trace())
    assert _flagged(tmp_path, "t.eventstream", body, "bedrock-converse-stream") == {"BR-9a": "warning"}
    calls = [("tooluse_1", "get_weather", PARIS), ("tooluse_2", "get_weather", LYON)]
    assert native.pydantic_ai_bedrock(body).calls == calls
    _node()
    assert native.ai_sdk_bedrock(body).calls == calls


# Mistral's chat stream ------------------------------------------------------------------------------

MISTRAL = [(i, "get_weather", a) for i, a in streams.MISTRAL]


def _chat(events: list[dict[str, Any]], *, done: bool = True) -> str:
    return consumers.sse(events, named=False, done=done)


def _plain(seen: Seen) -> list[tuple[str, str, str]]:
    import json

    return [
        (i, n, a if a.startswith("invalid:") else json.dumps(json.loads(a), separators=(",", ":")))
        for i, n, a in seen.calls
    ]


def _final(seen: Seen) -> list[tuple[str, str, str]]:
    return [(i.removeprefix("final:"), n, a) for i, n, a in seen.calls if i.startswith("final:")]


def test_every_consumer_hands_over_both_calls_of_the_well_formed_mistral_stream(tmp_path: Path) -> None:
    body = _chat(streams.mistral_stream())
    assert _flagged(tmp_path, "t.sse", body, "mistral-chat-stream") == {}
    assert _final(consumers.openai_chat_stream(body)) == MISTRAL
    assert _plain(consumers.langchain_openai_chat(body)) == MISTRAL
    assert consumers.pydantic_ai_chat(body).calls == MISTRAL
    _node()
    assert consumers.ai_sdk("ai-sdk-openai-chat", body).calls == MISTRAL


def test_mistral_calls_without_index_end_openai_python_and_the_ai_sdk(tmp_path: Path) -> None:
    body = _chat(streams.mi6a_calls_without_index())
    assert _flagged(tmp_path, "t.sse", body, "mistral-chat-stream") == {"MI-6a": "error"}
    seen = consumers.openai_chat_stream(body)
    assert (seen.calls, seen.error) == (
        [],
        "TypeError: list indices must be integers or slices, not NoneType",
    )
    assert _plain(consumers.langchain_openai_chat(body)) == MISTRAL
    assert consumers.pydantic_ai_chat(body).calls == MISTRAL
    _node()
    seen = consumers.ai_sdk("ai-sdk-openai-chat", body)
    assert seen.calls == [] and (seen.error or "").startswith("Type validation failed")


@pytest.mark.parametrize(
    ("trace", "done"),
    [
        (streams.mi6d_call_after_finish, True),
        (streams.mi6d_no_finish_reason, True),
        (streams.mi6d_no_finish_reason, False),
    ],
)
def test_a_mistral_choice_finished_early_or_never_changes_no_consumer_call(
    tmp_path: Path, trace: Any, done: bool
) -> None:
    body = _chat(trace(), done=done)
    assert _flagged(tmp_path, "t.sse", body, "mistral-chat-stream") == {"MI-6d": "warning"}
    assert _final(consumers.openai_chat_stream(body)) == MISTRAL
    assert _plain(consumers.langchain_openai_chat(body)) == MISTRAL
    assert consumers.pydantic_ai_chat(body).calls == MISTRAL
    _node()
    assert consumers.ai_sdk("ai-sdk-openai-chat", body).calls == MISTRAL


def test_mistral_arguments_that_are_not_json_change_the_call(tmp_path: Path) -> None:
    body = _chat(streams.mi6e_arguments_not_json())
    assert _flagged(tmp_path, "t.sse", body, "mistral-chat-stream") == {"MI-6e": "error"}
    bad = '{"city": Paris}'
    assert consumers.pydantic_ai_chat(body).calls == [
        ("D681PevKs", "get_weather", '{"INVALID_JSON":"{\\"city\\": Paris}"}'),
        MISTRAL[1],
    ]
    assert consumers.langchain_openai_chat(body).calls == [
        ("Kx9Lm2Qa1", "get_weather", '{"city": "Lyon"}'),
        ("D681PevKs", "get_weather", f"invalid:{bad}"),
    ]
    _node()
    assert consumers.ai_sdk("ai-sdk-openai-chat", body).calls == [
        ("D681PevKs", "get_weather", bad),
        MISTRAL[1],
    ]


def test_the_rules_say_the_severity_this_evidence_gives() -> None:
    assert {r: RULES[r].severity for r in ("AN-10d", "BR-9d", "MI-6a", "MI-6e")} == dict.fromkeys(
        ("AN-10d", "BR-9d", "MI-6a", "MI-6e"), "error"
    )
    assert {r: RULES[r].severity for r in ("BR-9a", "MI-6d")} == {"BR-9a": "warning", "MI-6d": "warning"}
    assert violating.CALLS  # the well-formed streams these were cut from
