"""Severity from evidence (issue 38), Vercel AI SDK full stream: ``streamText``'s result fed each VF trace.

The sibling of test_consumer_evidence_aisdk.py for ``aisdk-full-stream`` (``TextStreamPart``,
what ``streamText``'s fullStream yields and what its own result is built from).  An
``experimental_transform`` puts each hand-written trace (tests/helpers/violating_aisdk.py) in
place of the model's stream, so ai 7's streamText records its steps and response messages from
it and turns it into the UI message stream that ``readUIMessageStream`` (useChat) builds the
message from.  Each test pins the calls its fullStream yields, the tool parts of its steps and
response messages, the tool parts of the UI message and what ``convertToModelMessages`` sends
back of it.  They run where node and ``npm ci --prefix tests/sdk`` are.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import toolwire
from helpers import consumers
from helpers import violating_aisdk as v
from toolwire.protocols import RULES

pytestmark = pytest.mark.slow

PARIS, LYON = '{"city":"Paris"}', '{"city":"Lyon"}'
CALLS = [("call_1", "get_weather", PARIS), ("call_2", "get_weather", LYON)]
ANSWERED = [("call_1", "output-available", PARIS), ("call_2", "output-available", LYON)]
AVAILABLE = [("call_1", "input-available", PARIS), ("call_2", "input-available", LYON)]
RESULTS = [("call_1", {"celsius": 20}), ("call_2", {"celsius": 21})]
#: The tool parts of the well-formed stream's one step, then of its response messages.
STEPS = [
    ("tool-call 1", "call_1"),
    ("tool-call 1", "call_2"),
    ("tool-result 1", "call_1"),
    ("tool-result 1", "call_2"),
    ("tool-call in assistant", "call_1"),
    ("tool-call in assistant", "call_2"),
    ("tool-result in tool", "call_1"),
    ("tool-result in tool", "call_2"),
]


@pytest.fixture(autouse=True)
def _node() -> None:
    if reason := consumers.node_missing():
        pytest.skip(reason)


def _flagged(tmp_path: Path, parts: list[dict[str, Any]]) -> dict[str, str]:
    path = tmp_path / "trace.jsonl"
    path.write_text("".join(json.dumps(part) + "\n" for part in parts))
    return {f.rule: f.severity for f in toolwire.check_file(path, "aisdk-full-stream").findings}


def test_stream_text_builds_its_result_from_the_well_formed_full_stream(tmp_path: Path) -> None:
    assert _flagged(tmp_path, v.full_stream()) == {}
    seen = consumers.ai_full_stream(v.full_stream())
    assert (seen.calls, seen.steps, seen.error) == (CALLS, STEPS, None)
    assert (seen.ui, seen.sent_back, seen.answered) == (ANSWERED, ["call_1", "call_2"], RESULTS)


@pytest.mark.parametrize(
    ("rule", "trace", "flagged"),
    [
        ("VF-1", v.vf1_id_reused, {"VF-1": "error"}),
        ("VF-1", v.vf1_call_repeated, {"VF-1": "error"}),
        ("VF-2", v.vf2_delta_after_call, {"VF-2": "error", "VF-8": "warning"}),
        ("VF-3", v.vf3_result_without_call, {"VF-3": "error"}),
        ("VF-4", v.vf4_result_in_next_step, {"VF-4": "warning", "VF-8": "warning"}),
        ("VF-5", v.vf5_call_after_finish, {"VF-5": "error"}),
        ("VF-6", v.vf6_no_finish, {"VF-6": "error"}),
        ("VF-7", v.vf7_input_as_json_text, {"VF-7": "error"}),
    ],
)
def test_each_full_stream_trace_breaks_its_rule_alone(
    tmp_path: Path, rule: str, trace: Any, flagged: dict[str, str]
) -> None:
    """VF-8 (a warning: the stream cannot tell whether a tool has execute) also flags a step
    finished with a client call unanswered."""
    assert _flagged(tmp_path, trace()) == flagged
    assert RULES[rule].severity == flagged[rule]


def test_a_second_call_under_the_first_calls_id_is_recorded_twice_and_built_once() -> None:
    seen = consumers.ai_full_stream(v.vf1_id_reused())
    assert seen.calls == [CALLS[0], ("call_1", "get_weather", LYON)]
    assert [step for step in seen.steps or [] if "in assistant" in step[0]] == [
        ("tool-call in assistant", "call_1"),
        ("tool-call in assistant", "call_1"),
    ]
    assert seen.ui == [("call_1", "output-available", LYON)]
    assert seen.sent_back == ["call_1"]


def test_a_tool_call_repeated_is_handed_over_and_recorded_twice() -> None:
    seen = consumers.ai_full_stream(v.vf1_call_repeated())
    assert seen.calls == [CALLS[0], *CALLS]
    assert [step for step in seen.steps or [] if "in assistant" in step[0]] == [
        ("tool-call in assistant", "call_1"),
        ("tool-call in assistant", "call_1"),
        ("tool-call in assistant", "call_2"),
    ]


@pytest.mark.parametrize("after", ["tool-input-delta", "tool-input-end"])
def test_a_start_repeated_before_the_tool_call_changes_nothing(tmp_path: Path, after: str) -> None:
    parts = v.vf1_start_repeated(after)
    assert _flagged(tmp_path, parts) == {"VF-1": "warning"}
    assert consumers.ai_full_stream(parts) == consumers.ai_full_stream(v.full_stream())


def test_a_delta_after_the_tool_call_of_an_unanswered_call_drops_it_from_the_messages_sent_back() -> None:
    seen = consumers.ai_full_stream(v.vf2_delta_after_call())
    assert seen.calls == CALLS
    assert seen.ui == [("call_1", "input-streaming", PARIS), AVAILABLE[1]]
    assert seen.sent_back == ["call_2"]


def test_a_result_after_the_late_delta_restores_the_call() -> None:
    seen = consumers.ai_full_stream(v.vf2_delta_after_call(answered=True))
    assert (seen.ui, seen.sent_back, seen.steps) == (ANSWERED, ["call_1", "call_2"], STEPS)


def test_a_delta_after_tool_input_end_before_the_call_changes_nothing(tmp_path: Path) -> None:
    assert _flagged(tmp_path, v.vf2_delta_after_end()) == {"VF-2": "warning", "VF-8": "warning"}
    seen = consumers.ai_full_stream(v.vf2_delta_after_end())
    assert (seen.calls, seen.ui, seen.sent_back, seen.error) == (CALLS, AVAILABLE, ["call_1", "call_2"], None)


def test_a_result_without_its_call_stops_the_ui_message_and_is_sent_back_alone() -> None:
    seen = consumers.ai_full_stream(v.vf3_result_without_call())
    assert seen.error == 'No tool invocation found for tool call ID "call_1".'
    assert seen.ui == [AVAILABLE[1]]
    assert seen.steps is not None and ("tool-result in tool", "call_1") in seen.steps


def test_a_result_in_the_next_step_keeps_every_call_and_result() -> None:
    seen = consumers.ai_full_stream(v.vf4_result_in_next_step())
    assert (seen.calls, seen.ui, seen.sent_back, seen.answered, seen.error) == (
        CALLS,
        ANSWERED,
        ["call_1", "call_2"],
        RESULTS,
        None,
    )
    assert seen.steps == [
        ("tool-call 1", "call_1"),
        ("tool-call 1", "call_2"),
        ("tool-result 1", "call_2"),
        ("tool-result 2", "call_1"),
        ("tool-call in assistant", "call_1"),
        ("tool-call in assistant", "call_2"),
        ("tool-result in tool", "call_2"),
        ("tool-result in tool", "call_1"),
    ]


def test_a_call_after_finish_is_lost_from_the_response_messages() -> None:
    seen = consumers.ai_full_stream(v.vf5_call_after_finish())
    assert [step for step in seen.steps or [] if " in " in step[0]] == [
        ("tool-call in assistant", "call_1"),
        ("tool-result in tool", "call_1"),
    ]


def test_a_stream_without_finish_never_settles() -> None:
    seen = consumers.ai_full_stream(v.vf6_no_finish())
    assert seen.calls == CALLS
    assert seen.steps == [("error", "steps never settled")]
    assert seen.error == "the UI message stream never ended"


def test_a_tool_call_with_json_text_input_sends_the_arguments_back_as_a_string() -> None:
    seen = consumers.ai_full_stream(v.vf7_input_as_json_text())
    assert seen.ui == [("call_1", "output-available", json.dumps(PARIS)), ANSWERED[1]]
    assert seen.sent_back == ["call_1", "call_2"]
