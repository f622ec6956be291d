"""Relations see what real converters get wrong: mangled ids, result encodings, every round trip."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from toolwire.engines import fuzz
from toolwire.protocols import ledger, relate
from toolwire.protocols._relations import _value, accepts

CALL = "call_IivGPLZMz3JdzNpqvFLjxdvd"


def chat_request(call_id: str, result: Any = "15 degrees") -> list[dict[str, Any]]:
    call = {"id": call_id, "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}
    return [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": call_id, "content": result},
    ]


@pytest.mark.parametrize(
    ("mangled", "how"),
    [
        (CALL + CALL, "concatenated"),
        (CALL[:20], "truncated"),
        (CALL.lower(), "re-cased"),
        (CALL + "_0", "extended"),
        ("call_0", "replaced"),
    ],
)
def test_identity_names_how_a_converter_mangled_an_id_the_target_accepts(mangled: str, how: str) -> None:
    broken = relate(
        ledger(chat_request(CALL), "openai-chat"),
        ledger(chat_request(mangled), "openai-chat"),
        target="openai-chat",
    )
    identity = [b for b in broken if b.relation == "identity"]
    assert len(identity) == 1
    assert identity[0].message.endswith(f"({how})")
    # A concatenated id is also longer than OpenAI's 40 characters: validity says so too.
    assert {b.relation for b in broken} - {"identity"} == ({"validity"} if how == "concatenated" else set())


def test_an_emptied_id_is_an_identity_break() -> None:
    broken = relate(ledger(chat_request(CALL), "openai-chat"), ledger(chat_request(""), "openai-chat"))
    assert "identity" in [b.relation for b in broken]


def test_identity_catches_mangled_ids_on_stream_outputs() -> None:
    def stream(call_id: str) -> list[dict[str, Any]]:
        item = {
            "type": "function_call",
            "id": "fc_1",
            "call_id": call_id,
            "name": "get_weather",
            "arguments": "",
        }
        events: list[dict[str, Any]] = [
            {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress", "output": []}},
            {"type": "response.output_item.added", "output_index": 0, "item": item},
            {
                "type": "response.function_call_arguments.done",
                "item_id": "fc_1",
                "output_index": 0,
                "arguments": "{}",
            },
            {
                "type": "response.output_item.done",
                "output_index": 0,
                "item": item | {"arguments": "{}", "status": "completed"},
            },
            {"type": "response.completed", "response": {"id": "resp_1", "status": "completed", "output": []}},
        ]
        return [e | {"sequence_number": n} for n, e in enumerate(events)]

    source = ledger(chat_request(CALL)[:2], "openai-chat")  # the call, not yet answered
    assert (
        relate(source, ledger(stream(CALL), "openai-responses-stream"), target="openai-responses-stream")
        == []
    )
    broken = relate(
        source, ledger(stream(CALL * 2), "openai-responses-stream"), target="openai-responses-stream"
    )
    assert [b.relation for b in broken] == ["identity"]
    assert broken[0].message.endswith("(concatenated)")


def test_an_id_the_target_rejects_must_be_mapped_to_one_it_accepts() -> None:
    assert accepts("mistral-chat", CALL) is False
    assert accepts("mistral-chat", "abcDEF123") is True
    source = ledger(chat_request(CALL), "openai-chat")
    mapped = ledger(chat_request("abcDEF123"), "mistral-chat")
    assert relate(source, mapped, exact_ids=True, target="mistral-chat") == []
    kept = ledger(chat_request(CALL), "mistral-chat")
    broken = relate(source, kept, exact_ids=True, target="mistral-chat")
    assert [b.relation for b in broken] == ["validity"]  # MI-1: the id does not fit Mistral


@pytest.mark.parametrize(
    "encodings",
    [
        ("15 degrees", '"15 degrees"', {"output": "15 degrees"}, [{"type": "text", "text": "15 degrees"}]),
        ("15 degrees", [{"text": "15 degrees"}], {"result": "15 degrees"}, '{"output": "15 degrees"}'),
        ({"t": 15}, '{"t": 15}', [{"json": {"t": 15}}], {"output": {"t": 15}}, '{"output": {"t": 15}}'),
        ("", None, [], {}, '{"output": ""}', {"output": ""}, [{"type": "text", "text": ""}]),
    ],
)
def test_correlation_reads_a_result_the_way_providers_encode_it(encodings: tuple[Any, ...]) -> None:
    assert len({json.dumps(_value(e), sort_keys=True) for e in encodings}) == 1


# A correct converter from each provider stream to the next request of its own protocol: the
# request replays the streamed calls, with the ids the target accepts and a consistent mapping
# for the ids it does not (Mistral's 9 characters).


def _mistral_id(call_id: str) -> str:
    digest = hashlib.sha256(call_id.encode()).hexdigest()
    return "".join(c for c in digest if c.isalnum())[:9]


def _calls(trace: list[Any], protocol: str) -> list[tuple[str, str, str]]:
    return [(str(c[0]), str(c[1]), c[2] or "{}") for c in ledger(trace, protocol).calls]


def _chat(mapping: Callable[[str], str], named: bool) -> Callable[..., Any]:
    def convert(trace: list[Any], run: Callable[[str, str], str]) -> list[Any]:
        calls = _calls(trace, "openai-chat-stream")
        if not calls:
            return [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]
        wire = [
            {"id": mapping(i), "type": "function", "function": {"name": n, "arguments": a}}
            for i, n, a in calls
        ]
        tools = [
            {"role": "tool", "tool_call_id": mapping(i), "content": run(n, a)}
            | ({"name": n} if named else {})
            for i, n, a in calls
        ]
        return [
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": None, "tool_calls": wire},
            *tools,
        ]

    return convert


def _responses(trace: list[Any], run: Callable[[str, str], str]) -> list[Any]:
    items: list[dict[str, Any]] = [{"role": "user", "content": "Hi"}]
    for i, n, a in _calls(trace, "openai-responses-stream"):
        items.append({"type": "function_call", "call_id": i, "name": n, "arguments": a})
        items.append({"type": "function_call_output", "call_id": i, "output": run(n, a)})
    return items


def _anthropic(trace: list[Any], run: Callable[[str, str], str]) -> list[Any]:
    calls = _calls(trace, "anthropic-stream")
    uses = [{"type": "tool_use", "id": i, "name": n, "input": json.loads(a)} for i, n, a in calls]
    results = [{"type": "tool_result", "tool_use_id": i, "content": run(n, a)} for i, n, a in calls]
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Hi"}]
    return (
        [*messages, {"role": "assistant", "content": uses}, {"role": "user", "content": results}]
        if calls
        else messages
    )


def _bedrock(trace: list[Any], run: Callable[[str, str], str]) -> list[Any]:
    calls = _calls(trace, "bedrock-converse-stream")
    uses = [{"toolUse": {"toolUseId": i, "name": n, "input": json.loads(a)}} for i, n, a in calls]
    results = [{"toolResult": {"toolUseId": i, "content": [{"text": run(n, a)}]}} for i, n, a in calls]
    messages: list[dict[str, Any]] = [{"role": "user", "content": [{"text": "Hi"}]}]
    return (
        [*messages, {"role": "assistant", "content": uses}, {"role": "user", "content": results}]
        if calls
        else messages
    )


def _gemini(trace: list[Any], run: Callable[[str, str], str]) -> list[Any]:
    calls = list(ledger(trace, "gemini-stream").calls)

    def ided(body: dict[str, Any], call_id: Any) -> dict[str, Any]:
        return body | {"id": call_id} if call_id is not None else body

    parts = [
        {"functionCall": ided({"name": n, "args": json.loads(a) if isinstance(a, str) else a}, i)}
        for i, n, a in calls
    ]
    answers = [
        {
            "functionResponse": ided(
                {"name": n, "response": {"output": run(n, a if isinstance(a, str) else json.dumps(a))}}, i
            )
        }
        for i, n, a in calls
    ]
    messages: list[dict[str, Any]] = [{"role": "user", "parts": [{"text": "Hi"}]}]
    return (
        [*messages, {"role": "model", "parts": parts}, {"role": "user", "parts": answers}]
        if calls
        else messages
    )


ROUND_TRIPS = [
    ("openai-chat-stream", "openai-chat", _chat(lambda i: i, named=False)),
    ("openai-chat-stream", "mistral-chat", _chat(_mistral_id, named=True)),
    ("openai-responses-stream", "openai-responses", _responses),
    ("anthropic-stream", "anthropic-messages", _anthropic),
    ("bedrock-converse-stream", "bedrock-converse", _bedrock),
    ("gemini-stream", "gemini-contents", _gemini),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("source", "destination", "converter"), ROUND_TRIPS, ids=lambda v: v if isinstance(v, str) else ""
)
def test_a_correct_round_trip_passes_for_every_pair_that_carries_ids(
    source: str, destination: str, converter: Callable[..., Any], tmp_path: Path
) -> None:
    run = fuzz(converter, source, destination, max_examples=60, out=tmp_path)
    assert run.counterexamples == [], [c.message for c in run.counterexamples]


@pytest.mark.slow
def test_a_mistral_round_trip_that_keeps_openai_ids_fails() -> None:
    run = fuzz(
        _chat(lambda i: i, named=True), "openai-chat-stream", "mistral-chat", max_examples=60, out=None
    )
    assert "validity" in {c.property for c in run.counterexamples}
