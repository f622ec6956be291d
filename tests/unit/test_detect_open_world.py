"""Detection in an open world: types no protocol models are passed over, and detection still
prefers the reading that models the calls (issue 38)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.recordings import DATA
from toolwire.cli import main
from toolwire.engines._core._detect import detect, detect_file
from toolwire.engines.checking import check
from toolwire.protocols import GENERATED, PROTOCOLS, traces

#: An Anthropic request with a block type no SDK has, beside a tool_use and its tool_result.
ANTHROPIC = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 1024,
    "messages": [
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": [
                {"type": "future_block", "data": "x"},
                {"type": "tool_use", "id": "toolu_01A", "name": "get_weather", "input": {"city": "Paris"}},
            ],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01A", "content": "sun"}]},
    ],
}
#: A Mistral request whose assistant message has a thinking part beside its tool_calls.
MISTRAL = {
    "model": "mistral-large-latest",
    "messages": [
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": [{"type": "thinking", "thinking": [{"type": "text", "text": "Paris, then."}]}],
            "tool_calls": [
                {
                    "id": "D681PevKs",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "D681PevKs", "name": "get_weather", "content": "sun"},
    ],
}


def _responses_stream() -> list[dict[str, Any]]:
    """A Responses stream whose first item is of a tool type no SDK has, with many events of its
    own (most of the stream), then a function_call."""
    unknown = {"id": "fut_1", "type": "future_tool_call", "status": "in_progress"}
    call = {
        "id": "fc_1",
        "type": "function_call",
        "status": "in_progress",
        "arguments": "",
        "call_id": "call_Qm3vT8bLx2Ws9Kd4Hn7Jp1Zc",
        "name": "get_weather",
    }
    done = {**call, "status": "completed", "arguments": '{"city":"Paris"}'}
    response = {"id": "resp_1", "object": "response", "status": "in_progress", "output": []}
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": response},
        {"type": "response.output_item.added", "output_index": 0, "item": unknown},
        *(
            {
                "type": "response.future_tool_call_input.delta",
                "output_index": 0,
                "item_id": "fut_1",
                "delta": "x",
            }
            for _ in range(12)
        ),
        {"type": "response.output_item.done", "output_index": 0, "item": {**unknown, "status": "completed"}},
        {"type": "response.output_item.added", "output_index": 1, "item": call},
        {
            "type": "response.function_call_arguments.delta",
            "output_index": 1,
            "item_id": "fc_1",
            "delta": '{"city":"Paris"}',
        },
        {
            "type": "response.function_call_arguments.done",
            "output_index": 1,
            "item_id": "fc_1",
            "arguments": '{"city":"Paris"}',
        },
        {"type": "response.output_item.done", "output_index": 1, "item": done},
        {"type": "response.completed", "response": {**response, "status": "completed", "output": [done]}},
    ]
    for number, event in enumerate(events):
        event["sequence_number"] = number
    return events


def _frames(values: list[Any]) -> list[Any]:
    return [(None, value, None) for value in values]


def test_an_unknown_block_does_not_hand_an_anthropic_request_to_a_reading_that_skips_its_calls() -> None:
    found = detect(_frames([ANTHROPIC]))
    assert (found.protocol, found.runner_up) == ("anthropic-messages", "aisdk-model-messages")
    best, runner_up = found.readings[:2]
    assert (best.calls, best.results) == (1, 1)
    assert (runner_up.calls, runner_up.results) == (0, 0)
    assert {"tool_use", "tool_result"} <= set(runner_up.passed)


def test_a_mistral_thinking_part_is_read_in_part_as_the_chat_wire_it_shares() -> None:
    found = detect(_frames([MISTRAL]))
    assert found.protocol == "openai-chat"
    reading = found.reading("openai-chat")
    assert reading is not None
    assert (reading.full, reading.calls, reading.results, reading.passed) == (False, 1, 1, ("thinking",))


def test_a_responses_stream_mostly_of_an_unknown_tool_item_is_still_a_responses_stream() -> None:
    events = _responses_stream()
    assert detect(_frames(events), document=False).protocol == "openai-responses-stream"
    report = check(events, "openai-responses-stream")
    assert (report.exit_code, report.calls) == (0, 1)


def test_a_reading_that_passes_over_every_call_is_never_clean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "request.json"
    path.write_text(json.dumps(ANTHROPIC))
    assert main(["check", str(path), "-p", "aisdk-model-messages", "--format", "json"]) == 2
    report = json.loads(capsys.readouterr().out)["reports"][0]
    assert (report["calls"], report["results"], report["findings"]) == (0, 0, [])
    [error] = [p["message"] for p in report["problems"] if p["severity"] == "error"]
    assert "passed over future_block, tool_result, tool_use" in error
    assert error.endswith("check it with -p anthropic-messages")


def test_json_says_what_was_detected_the_runner_up_and_what_was_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "request.json"
    path.write_text(json.dumps(ANTHROPIC))
    assert main(["check", str(path), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)["reports"][0]
    assert report["detection"] == {"protocol": "anthropic-messages", "runner_up": "aisdk-model-messages"}
    assert (report["calls"], report["results"]) == (1, 1)
    assert main(["check", str(path), "-p", "anthropic-messages", "--format", "json"]) == 0
    assert "detection" not in json.loads(capsys.readouterr().out)["reports"][0]


def test_text_says_how_many_calls_and_results_were_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "request.json"
    path.write_text(json.dumps(MISTRAL))
    assert main(["check", str(path)]) == 0
    assert "openai-chat, 3 messages, 1 call and 1 result checked: clean" in capsys.readouterr().out


# -- the property: unknown parts spliced into generated traffic of every protocol -------------

#: Where content alone cannot tell two protocols apart, the test accepts either:
#:
#: - a ``variant_of`` shares its base's wire, and detection names the base, as it does for traffic
#:   with nothing spliced in: open-responses-stream reads as openai-responses-stream, and
#:   mistral-chat, mistral-chat-stream and mistral-chat-response as openai-chat's (see
#:   :func:`_accepted`);
#: - an AI SDK provider stream (``LanguageModelV3StreamPart``) and a full stream
#:   (``TextStreamPart``) share their tool parts (``tool-input-start`` with ``id``, ``tool-call``,
#:   ``tool-result``): a trace of only those parts reads equally well as either, both readings
#:   judge every call, and detection leaves the choice to ``-p`` (an ambiguity of exactly these two).
SHARED_WIRE: dict[str, frozenset[str]] = {
    "aisdk-stream": frozenset({"aisdk-stream", "aisdk-full-stream"}),
    "aisdk-full-stream": frozenset({"aisdk-stream", "aisdk-full-stream"}),
}


def _unknown_type(known: str) -> str:
    """A type no protocol models, spelt as ``known`` is (dotted, hyphenated or snake case)."""
    if "." in known:
        return known.rsplit(".", 1)[0] + ".future_kind"
    return "future-kind" if "-" in known and "_" not in known else "future_kind"


def _typed(values: list[Any]) -> bool:
    return bool(values) and all(isinstance(v, dict) and isinstance(v.get("type"), str) for v in values)


def _keyed(values: list[Any]) -> bool:
    """Objects of one member each, named for their kind (Bedrock's blocks and events, Gemini's parts)."""
    return bool(values) and all(isinstance(v, dict) and len(v) == 1 and "type" not in v for v in values)


def _lists(value: Any, depth: int = 0) -> list[list[Any]]:
    """Every list inside ``value`` (not the trace itself) of typed or one-member objects: content
    blocks, parts, items, tool call entries."""
    found: list[list[Any]] = []
    if depth > 4:
        return found
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    for child in children:
        if isinstance(child, list) and (_typed(child) or _keyed(child)):
            found.append(child)
        found.extend(_lists(child, depth + 1))
    return found


def _unknown(siblings: list[Any]) -> dict[str, Any]:
    """A value of a type no protocol models, shaped as ``siblings`` are."""
    if _typed(siblings):
        return {"type": _unknown_type(siblings[0]["type"])}
    return {"futureKind": {}}


@st.composite
def spliced(draw: st.DrawFn, protocol: str) -> tuple[list[Any], list[Any]]:
    """A generated trace of ``protocol``, and the same trace with unknown typed values spliced in:
    top-level events or items (where the trace's values are typed), and parts, blocks or items
    inside them, each at a drawn position."""
    trace = draw(traces(protocol, max_calls=2))
    copy: list[Any] = json.loads(json.dumps(trace))
    for _ in range(draw(st.integers(1, 3))):
        top = _typed(copy) or _keyed(copy)
        targets: list[list[Any]] = ([copy] if top else []) + _lists(copy)
        if not targets:
            break
        target = draw(st.sampled_from(targets))
        position = draw(st.integers(0, len(target)))
        unknown = _unknown(target)
        if target is copy and isinstance(copy[0].get("sequence_number"), int):
            unknown["sequence_number"] = copy[max(0, position - 1)]["sequence_number"]
        target.insert(position, unknown)
    return trace, copy


def _accepted(protocol: str) -> frozenset[str]:
    spec = PROTOCOLS[protocol]
    own = {protocol, *([spec.variant_of] if spec.variant_of else [])}
    return frozenset(own) | SHARED_WIRE.get(protocol, frozenset())


@pytest.mark.parametrize("protocol", list(GENERATED))
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_detection_picks_the_generating_protocol_with_unknown_parts_spliced_in(
    protocol: str, data: st.DataObject
) -> None:
    original, trace = data.draw(spliced(protocol))
    calls, results = check(original, protocol).checked
    report = check(trace, protocol)
    # Unknown parts take no call away (an unknown entry of a tool_calls list may count as one more).
    assert report.checked[0] >= calls
    assert report.checked[1] >= results
    if not calls + results:
        return  # text alone is many protocols' traffic: nothing there tells them apart
    spec = PROTOCOLS[protocol]
    found = detect(_frames(trace), document=spec.document if spec.shape == "stream" else None)
    assert found.candidates, found
    assert set(found.candidates) <= _accepted(protocol), found
    # ... and the protocol detected judges them.
    best = found.readings[0]
    assert best.calls + best.results > 0, found


def test_every_corpus_trace_detected_is_detected_as_its_own_protocol() -> None:
    """Without -p, a trace of tests/data is its protocol (or the one it is a variant of); the
    requests and streams that once read equally well as another protocol's (an Anthropic request
    as AI SDK model messages, a full stream as a UI stream) are told apart by the calls each
    reading judges.  What is left ambiguous is a trace with nothing to tell by: an OTel GenAI
    tool message alone reads as a Chat Completions one."""
    wrong, ambiguous = {}, []
    for entry in tomllib.loads((DATA / "corpus.toml").read_text())["trace"]:
        spec = PROTOCOLS[entry["protocol"]]
        found = detect_file(DATA / entry["file"])
        if found.protocol is None:
            ambiguous.append(entry["file"])
        elif found.protocol not in (spec.name, spec.variant_of):
            wrong[entry["file"]] = found.protocol
    assert wrong == {}
    assert ambiguous == ["otel-genai/ga3-orphan-response.json"]
