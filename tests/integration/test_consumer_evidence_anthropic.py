"""Severity from evidence (issue 38), Anthropic Messages streams: real consumers fed each AN-10 trace.

The sibling of test_consumer_evidence.py for ``anthropic-stream``: each test pins what one consumer
made of one hand-written trace (tests/helpers/violating.py, cut from ``anthropic_stream``), and that
toolwire flags the trace with the rule at the severity this evidence gives.  The consumers:
anthropic-python's ``messages.stream`` (MessageStream: its content_block_stop events, then its final
message) and its beta tool runner, pydantic-ai's AnthropicModel and, where
``npm ci --prefix tests/sdk`` was run, @ai-sdk/anthropic.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import toolwire
from helpers import consumers, violating
from helpers import consumers_native as native
from helpers.consumers import Seen
from toolwire.protocols import RULES

pytestmark = pytest.mark.slow

PARIS, LYON = '{"city":"Paris"}', '{"city":"Lyon"}'
CALLS = [("toolu_1", "get_weather", PARIS), ("toolu_2", "get_weather", LYON)]
#: What anthropic-python hands its user on the well-formed stream: each block's stop event, then
#: the final message's tool_use blocks.
ANTHROPIC = [(f"{k}:{i}", n, a) for k in ("stop", "final") for i, n, a in CALLS]


def _flagged(tmp_path: Path, events: list[dict[str, Any]]) -> dict[str, str]:
    path = tmp_path / "trace.sse"
    path.write_text(consumers.sse(events))
    return {f.rule: f.severity for f in toolwire.check_file(path, "anthropic-stream").findings}


def _ai_sdk(body: str) -> Seen:
    if reason := consumers.node_missing():
        pytest.skip(reason)
    return consumers.ai_sdk("ai-sdk-anthropic", body)


GOOD = consumers.sse(violating.anthropic_stream())


def test_every_consumer_hands_over_both_calls_of_the_well_formed_stream(tmp_path: Path) -> None:
    assert _flagged(tmp_path, violating.anthropic_stream()) == {}
    assert native.anthropic_stream(GOOD).calls == ANTHROPIC
    assert native.anthropic_tool_runner(GOOD).calls == [("ran", n, a) for _, n, a in CALLS]
    assert native.pydantic_ai_anthropic(GOOD).calls == CALLS
    assert _ai_sdk(GOOD).calls == CALLS


@pytest.mark.parametrize(
    ("trace", "flagged"),
    [
        (violating.an10b_index_reused, {"AN-10b": "error"}),
        (violating.an10b_indexes_from_one, {"AN-10b": "error"}),
        (violating.an10c_block_never_stopped, {"AN-10c": "error"}),
        # The late fragment is missing at the block's stop: its input is cut there (AN-10d).
        (violating.an10c_delta_after_stop, {"AN-10c": "error", "AN-10d": "error"}),
        (violating.an10e_stop_reason_end_turn, {"AN-10e": "error"}),
    ],
)
def test_each_anthropic_trace_breaks_its_rule(tmp_path: Path, trace: Any, flagged: dict[str, str]) -> None:
    assert _flagged(tmp_path, trace()) == flagged
    assert all(RULES[rule].severity == "error" for rule in flagged)


def test_a_reused_block_index_duplicates_the_first_call_or_merges_both() -> None:
    body = consumers.sse(violating.an10b_index_reused())
    # MessageStream appends each started block but sends deltas and stops to content[index].
    assert native.anthropic_stream(body).calls == [
        ("stop:toolu_1", "get_weather", PARIS),
        ("stop:toolu_1", "get_weather", PARIS),
        ("final:toolu_1", "get_weather", PARIS),
        ("final:toolu_2", "get_weather", "{}"),
    ]
    merged = json.dumps({"INVALID_JSON": PARIS + LYON}, separators=(",", ":"))
    assert native.pydantic_ai_anthropic(body).calls == [("toolu_2", "get_weatherget_weather", merged)]
    assert _ai_sdk(body).calls == CALLS


def test_block_indexes_from_one_end_anthropic_python() -> None:
    body = consumers.sse(violating.an10b_indexes_from_one())
    seen = native.anthropic_stream(body)
    assert (seen.calls, seen.error) == ([], "IndexError: list index out of range")
    assert native.pydantic_ai_anthropic(body).calls == CALLS
    assert _ai_sdk(body).calls == CALLS


def test_a_block_never_stopped_is_lost_to_the_ai_sdk() -> None:
    body = consumers.sse(violating.an10c_block_never_stopped())
    assert native.anthropic_stream(body).calls == ANTHROPIC[1:]
    assert native.pydantic_ai_anthropic(body).calls == CALLS
    seen = _ai_sdk(body)
    # @ai-sdk/anthropic emits a tool-call at the block's stop: none here, after the whole input streamed.
    assert seen.streamed["toolu_1"] == ['{"city":', '"Paris"}']
    assert seen.calls == CALLS[1:]


def test_a_delta_after_its_block_stopped_cuts_the_call_in_the_ai_sdk() -> None:
    body = consumers.sse(violating.an10c_delta_after_stop())
    assert native.anthropic_stream(body).calls == [("stop:toolu_1", "get_weather", "{}"), *ANTHROPIC[1:]]
    assert native.pydantic_ai_anthropic(body).calls == CALLS
    assert _ai_sdk(body).calls == [("toolu_1", "get_weather", '{"city":'), CALLS[1]]


def test_calls_ending_end_turn_are_not_run_by_the_tool_runner_but_handed_over_by_the_others() -> None:
    body = consumers.sse(violating.an10e_stop_reason_end_turn())
    seen = native.anthropic_tool_runner(body)
    assert (seen.calls, seen.error) == ([], None)
    assert native.anthropic_stream(body).calls == ANTHROPIC
    assert native.pydantic_ai_anthropic(body).calls == CALLS
    assert _ai_sdk(body).calls == CALLS
