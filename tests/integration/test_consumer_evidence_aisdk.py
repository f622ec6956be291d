"""Severity from evidence (issue 38), Vercel AI SDK streams: the ``ai`` package fed each VS and VU trace.

The sibling of test_consumer_evidence.py for ``aisdk-stream`` (a provider's LanguageModelV4 stream
parts, which ai 7's ``streamText`` reads from a mock model) and ``aisdk-ui-stream`` (UI message
chunks, which ``readUIMessageStream`` builds the message from, as useChat does).  Each test pins
what the consumer made of one hand-written trace (tests/helpers/violating.py): the calls its
fullStream yields, the tool parts of its UI message, and the calls ``convertToModelMessages``
keeps of that message (what the conversation sends back).  They run where node and
``npm ci --prefix tests/sdk`` are.  The VS-1, VS-3, VS-4 and VU-4 traces are in
tests/helpers/violating_aisdk.py; the full stream's (VF) evidence is test_consumer_evidence_aisdk_full.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import toolwire
from helpers import consumers, violating, violating_aisdk
from toolwire.protocols import RULES

pytestmark = pytest.mark.slow

PARIS, LYON = '{"city":"Paris"}', '{"city":"Lyon"}'
CALLS = [("call_1", "get_weather", PARIS), ("call_2", "get_weather", LYON)]
AVAILABLE = [("call_1", "input-available", PARIS), ("call_2", "input-available", LYON)]
ANSWERED = [("call_1", "output-available", PARIS), ("call_2", "output-available", LYON)]


@pytest.fixture(autouse=True)
def _node() -> None:
    if reason := consumers.node_missing():
        pytest.skip(reason)


def _flagged(tmp_path: Path, trace: list[dict[str, Any]], protocol: str) -> dict[str, str]:
    if protocol == "aisdk-stream":
        path = tmp_path / "trace.jsonl"
        path.write_text("".join(json.dumps(part) + "\n" for part in trace))
    else:
        path = tmp_path / "trace.sse"
        path.write_text(consumers.sse(trace, named=False, done=True))
    return {f.rule: f.severity for f in toolwire.check_file(path, protocol).findings}


def test_stream_text_hands_over_and_sends_back_both_calls_of_the_well_formed_stream(tmp_path: Path) -> None:
    assert _flagged(tmp_path, violating.aisdk_stream(), "aisdk-stream") == {}
    seen = consumers.ai_stream_text(violating.aisdk_stream())
    assert (seen.calls, seen.ui, seen.sent_back, seen.error) == (CALLS, AVAILABLE, ["call_1", "call_2"], None)


@pytest.mark.parametrize(
    ("rule", "trace", "protocol", "severity"),
    [
        ("VS-2", violating.vs2_delta_after_call, "aisdk-stream", "error"),
        ("VS-5", violating.vs5_whole_call_without_id, "aisdk-stream", "error"),
        ("VU-3", lambda: violating.vu3_start_repeated("tool-input-delta"), "aisdk-ui-stream", "warning"),
        ("VS-1", violating_aisdk.vs1_id_reused, "aisdk-stream", "error"),
        ("VS-1", violating_aisdk.vs1_call_repeated, "aisdk-stream", "error"),
        ("VS-3", violating_aisdk.vs3_preliminary_result_only, "aisdk-stream", "warning"),
        ("VS-4", violating_aisdk.vs4_input_as_object, "aisdk-stream", "error"),
        ("VU-4", violating_aisdk.vu4_delta_after_output, "aisdk-ui-stream", "error"),
        ("VU-4", violating_aisdk.vu4_output_without_input, "aisdk-ui-stream", "error"),
    ],
)
def test_each_aisdk_trace_breaks_its_rule_alone(
    tmp_path: Path, rule: str, trace: Any, protocol: str, severity: str
) -> None:
    assert _flagged(tmp_path, trace(), protocol) == {rule: severity}
    assert RULES[rule].severity == severity


def test_a_delta_after_the_tool_call_leaves_the_call_streaming_and_out_of_the_messages_sent_back() -> None:
    seen = consumers.ai_stream_text(violating.vs2_delta_after_call())
    assert seen.calls == CALLS
    assert seen.ui == [("call_1", "input-streaming", PARIS), AVAILABLE[1]]
    assert seen.sent_back == ["call_2"]


def test_a_delta_after_tool_input_end_before_the_call_changes_nothing(tmp_path: Path) -> None:
    assert _flagged(tmp_path, violating.vs2_delta_after_end(), "aisdk-stream") == {"VS-2": "warning"}
    assert consumers.ai_stream_text(violating.vs2_delta_after_end()) == consumers.ai_stream_text(
        violating.aisdk_stream()
    )


def test_a_tool_call_without_id_is_handed_over_and_sent_back_without_one() -> None:
    seen = consumers.ai_stream_text(violating.vs5_whole_call_without_id())
    assert seen.calls == [(None, "get_weather", PARIS), CALLS[1]]
    assert seen.ui == [(None, "input-available", PARIS), AVAILABLE[1]]
    assert seen.sent_back == [None, "call_2"]


def test_a_tool_input_start_without_id_stops_the_ui_message_at_the_first_delta(tmp_path: Path) -> None:
    parts = violating.aisdk_stream()
    del parts[1]["id"]
    assert _flagged(tmp_path, parts, "aisdk-stream") == {"VS-5": "error", "VS-2": "error"}
    seen = consumers.ai_stream_text(parts)
    assert seen.calls == CALLS
    assert seen.error == (
        'Received tool-input-delta for missing tool call with ID "call_1". '
        'Ensure a "tool-input-start" chunk is sent before any "tool-input-delta" chunks.'
    )
    assert seen.ui == [(None, "input-streaming", "null")]
    assert seen.sent_back == []


def test_read_ui_message_stream_builds_both_calls_of_the_well_formed_ui_stream(tmp_path: Path) -> None:
    assert _flagged(tmp_path, violating.ui_stream(), "aisdk-ui-stream") == {}
    seen = consumers.ai_read_ui_message_stream(violating.ui_stream())
    assert (seen.ui, seen.sent_back, seen.error) == (ANSWERED, ["call_1", "call_2"], None)


def test_a_start_repeated_mid_input_restarts_the_input_but_the_call_is_built_as_sent() -> None:
    seen = consumers.ai_read_ui_message_stream(violating.vu3_start_repeated("tool-input-delta"))
    assert (seen.ui, seen.sent_back, seen.error) == (ANSWERED, ["call_1", "call_2"], None)


@pytest.mark.parametrize(
    ("after", "call_1", "sent_back"),
    [
        ("tool-input-available", ("call_1", "output-available", "null"), ["call_1", "call_2"]),
        ("tool-output-available", ("call_1", "input-streaming", "null"), ["call_2"]),
    ],
)
def test_a_start_repeated_after_the_input_is_available_empties_or_drops_the_call_under_vu4(
    tmp_path: Path, after: str, call_1: tuple[str, str, str], sent_back: list[str]
) -> None:
    chunks = violating.vu3_start_repeated(after)
    assert _flagged(tmp_path, chunks, "aisdk-ui-stream") == {"VU-3": "warning", "VU-4": "error"}
    seen = consumers.ai_read_ui_message_stream(chunks)
    assert seen.ui == [call_1, ANSWERED[1]]
    assert seen.sent_back == sent_back


def test_a_second_call_under_the_first_calls_id_is_handed_over_twice_but_sent_back_once() -> None:
    seen = consumers.ai_stream_text(violating_aisdk.vs1_id_reused())
    assert seen.calls == [CALLS[0], ("call_1", "get_weather", LYON)]
    assert seen.ui == [("call_1", "input-available", LYON)]
    assert seen.sent_back == ["call_1"]


def test_a_tool_call_repeated_is_handed_over_twice() -> None:
    seen = consumers.ai_stream_text(violating_aisdk.vs1_call_repeated())
    assert seen.calls == [CALLS[0], *CALLS]
    assert (seen.ui, seen.sent_back) == (AVAILABLE, ["call_1", "call_2"])


@pytest.mark.parametrize("after", ["tool-input-delta", "tool-input-end"])
def test_a_start_repeated_before_the_tool_call_changes_nothing(tmp_path: Path, after: str) -> None:
    parts = violating_aisdk.vs1_start_repeated(after)
    assert _flagged(tmp_path, parts, "aisdk-stream") == {"VS-1": "warning"}
    assert consumers.ai_stream_text(parts) == consumers.ai_stream_text(violating.aisdk_stream())


def test_a_preliminary_result_left_alone_is_sent_back_as_the_calls_output() -> None:
    seen = consumers.ai_stream_text(violating_aisdk.vs3_preliminary_result_only())
    assert (seen.calls, seen.error) == (CALLS, None)
    assert seen.ui == [("call_1", "output-available", PARIS), AVAILABLE[1]]
    assert (seen.sent_back, seen.answered) == (["call_1", "call_2"], [("call_1", {"celsius": 20})])


def test_a_tool_call_input_that_is_not_json_text_fails_the_call() -> None:
    seen = consumers.ai_stream_text(violating_aisdk.vs4_input_as_object())
    assert seen.error == "TypeError: toolCall.input.trim is not a function"
    assert seen.ui == [("call_1", "output-error", PARIS), AVAILABLE[1]]


def test_a_delta_after_the_output_drops_the_call_from_the_messages_sent_back() -> None:
    seen = consumers.ai_read_ui_message_stream(violating_aisdk.vu4_delta_after_output())
    assert seen.ui == [("call_1", "input-streaming", PARIS), ANSWERED[1]]
    assert (seen.sent_back, seen.error) == (["call_2"], None)


def test_an_output_before_any_input_sends_the_call_back_without_arguments() -> None:
    seen = consumers.ai_read_ui_message_stream(violating_aisdk.vu4_output_without_input())
    assert seen.ui == [("call_1", "output-available", "null"), ANSWERED[1]]
    assert (seen.sent_back, seen.error) == (["call_1", "call_2"], None)


@pytest.mark.parametrize(
    ("failed", "state", "output"),
    [(False, "output-available", {"celsius": 0}), (True, "output-error", "unavailable")],
)
def test_a_second_outcome_replaces_the_first_and_keeps_the_call(
    tmp_path: Path, failed: bool, state: str, output: Any
) -> None:
    chunks = violating_aisdk.vu4_output_twice(failed)
    assert _flagged(tmp_path, chunks, "aisdk-ui-stream") == {"VU-4": "warning"}
    seen = consumers.ai_read_ui_message_stream(chunks)
    assert (seen.ui, seen.sent_back, seen.error) == (
        [("call_1", state, PARIS), ANSWERED[1]],
        ["call_1", "call_2"],
        None,
    )
    assert seen.answered == [("call_1", output), ("call_2", {"celsius": 21})]
