"""AI SDK conversions in fuzz and explore: UI messages -> model messages, provider stream -> full stream,
full stream -> UI stream and -> UI messages; each correct converter holds, each buggy one is caught,
and the real ``convertToModelMessages`` of the installed ``ai`` package passes as a command target."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from helpers import layout
from toolwire.engines import fuzz
from toolwire.engines.exploring._explore import explore
from toolwire.engines.fuzzing._targets import load_target
from toolwire.properties import Bounds
from toolwire.protocols import traces

#: Campaigns that must catch planted bugs, and the real ai package run in node: left out of a plain
#: pytest (make test runs them).
pytestmark = pytest.mark.slow

ROOT = layout.ROOT
EXAMPLE = ROOT / "examples" / "aisdk_conversions.py"
SDK = ROOT / "tests" / "sdk"
REAL = f"node {SDK / 'convert_to_model_messages.mjs'}"
UI, MODEL = "aisdk-ui-messages", "aisdk-model-messages"
STREAM, FULL, UI_STREAM = "aisdk-stream", "aisdk-full-stream", "aisdk-ui-stream"
#: The round trip to UI messages: the client runs the calls the stream left to it.
CLIENT_CALLS: dict[str, Any] = {"like": ["call-without-outcome"]}

#: (converter, from, to, fuzz options, the findings of its buggy twin)
PAIRS = [
    # Without ignoreIncompleteToolCalls a call waiting on the client (pending-client-tool) reaches the
    # model unanswered, as the real SDK's does (test_swarm: the option's port passes under it).
    ("ui_to_model", UI, MODEL, {"quirks": "none"}, {"correlation:lost", "validity:VS-6"}),
    ("stream_to_full", STREAM, FULL, {}, {"validity:VF-7"}),
    ("full_to_ui_stream", FULL, UI_STREAM, {}, {"one-to-one:duplicated", "identity:merged"}),
    ("full_to_ui_messages", FULL, UI, CLIENT_CALLS, {"identity:replaced"}),
]


def _target(name: str) -> str:
    return f"{EXAMPLE}:{name}"


@pytest.mark.parametrize(
    ("name", "source", "destination", "options", "bugs"), PAIRS, ids=[p[0] for p in PAIRS]
)
def test_the_correct_converter_survives_fuzzing_and_its_buggy_twin_is_caught(
    name: str, source: str, destination: str, options: dict[str, Any], bugs: set[str]
) -> None:
    fine = fuzz(_target(name), source, destination, out=None, max_examples=100, **options)
    assert fine.counterexamples == [], [c.message for c in fine.counterexamples]
    broken = fuzz(_target(f"{name}_buggy"), source, destination, out=None, max_examples=100, **options)
    assert bugs <= {c.finding for c in broken.counterexamples}


#: (converter, from, to, bounds, property of the shortest counterexample of its buggy twin, its length)
EXPLORED = [
    ("ui_to_model", UI, MODEL, Bounds(calls=3, deltas=3, turns=2), "correlation", 2),
    ("stream_to_full", STREAM, FULL, Bounds(calls=3, deltas=3), "validity", 2),
    ("full_to_ui_stream", FULL, UI_STREAM, Bounds(calls=2, deltas=2), "one-to-one", 6),
]


@pytest.mark.parametrize(
    ("name", "source", "destination", "bounds", "prop", "size"), EXPLORED, ids=[e[0] for e in EXPLORED]
)
def test_explore_proves_the_correct_converter_and_finds_the_shortest_bug(
    name: str, source: str, destination: str, bounds: Bounds, prop: str, size: int, tmp_path: Path
) -> None:
    run = explore(_target(name), source, destination, bounds, out=tmp_path)
    assert run.verdict == "holds", run.counterexample
    assert run.traces == run.space.traces > 20
    bug = explore(_target(f"{name}_buggy"), source, destination, bounds, out=tmp_path)
    assert bug.verdict == "broken" and bug.counterexample is not None
    assert bug.counterexample.property == prop and len(bug.counterexample.input) == size


def _node() -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the real convertToModelMessages runs in node")
    if not (SDK / "node_modules" / "ai").is_dir():
        pytest.skip(f"the npm package ai is not installed: npm ci --prefix {SDK}")


def test_the_real_convert_to_model_messages_keeps_every_call_answered_and_its_ids() -> None:
    _node()
    # Every call answered (no pending-client-tool: the test below has it).
    run = fuzz(REAL, UI, MODEL, out=None, max_examples=30, timeout=30, quirks="none")
    assert run.examples == 30
    assert run.counterexamples == [], [c.message for c in run.counterexamples]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(traces(UI))
def test_the_python_port_converts_as_the_real_convert_to_model_messages_does(messages: list[Any]) -> None:
    _node()
    module, real = load_target(_target("ui_to_model")), load_target(REAL)
    try:
        assert module.run(messages, 10) == real.run(messages, 30)
    finally:
        module.close()  # (its worker process: one per example otherwise, until the session ends)
        real.close()


def test_a_pending_client_tool_reaches_the_model_unanswered_in_the_real_sdk() -> None:
    # useChat's state before addToolOutput, converted as is: streamText would raise
    # AI_MissingToolResultsError (convertToModelMessages' ignoreIncompleteToolCalls drops the part).
    _node()
    run = fuzz(REAL, UI, MODEL, out=None, max_examples=20, timeout=30, quirks="pending-client-tool")
    # Pinned or not, the profile is the finding's cause: without it the same history is answered.
    assert {c.finding for c in run.counterexamples} == {"validity:VS-6 [pending-client-tool]"}
    (found,) = run.counterexamples
    assert found.input[-1]["parts"][-1]["state"] == "input-available"
