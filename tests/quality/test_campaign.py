"""Campaigns that find every bug: budgets, every property, distinct findings, known deviations."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from helpers import layout
from toolwire.cli import main
from toolwire.engines import fuzz, judge, load_counterexample, load_target
from toolwire.engines.fuzzing._coverage import Coverage, Watch
from toolwire.protocols._relations import ledger

EXAMPLES = layout.ROOT / "examples"
CHAT_TO_RESPONSES = str(EXAMPLES / "multibug_chat_to_responses.py")
STREAM_TO_ANTHROPIC = str(EXAMPLES / "multibug_chat_stream_to_anthropic.py")
GEMINI_TO_ANTHROPIC = str(EXAMPLES / "multibug_gemini_to_anthropic.py")
ANTHROPIC_TO_CHAT = str(EXAMPLES / "multibug_anthropic_to_chat_stream.py")
#: The fixed stream -> Anthropic converter, as the command line names it.
FIXED_STREAM_TO_ANTHROPIC = [
    "fuzz",
    f"{STREAM_TO_ANTHROPIC}:fixed",
    "--from",
    "openai-chat-stream",
    "--to",
    "anthropic-stream",
]

#: Per converter: its protocol pair and the findings its three planted bugs show (at least).
PLANTED = [
    (
        CHAT_TO_RESPONSES,
        "openai-chat",
        "openai-responses",
        {"names:changed", "correlation:lost", "identity:replaced"},
    ),
    (
        STREAM_TO_ANTHROPIC,
        "openai-chat-stream",
        "anthropic-stream",
        {"identity:truncated", "arguments:changed", "validity:AN-10e"},
    ),
    (
        GEMINI_TO_ANTHROPIC,
        "gemini-contents",
        "anthropic-messages",
        {"identity:replaced", "arguments:changed", "correlation:crossed"},
    ),
    (
        ANTHROPIC_TO_CHAT,
        "anthropic-stream",
        "openai-chat-stream",
        {"raises:KeyError@_convert", "arguments:changed", "names:changed"},
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("path", "source", "destination", "planted"), PLANTED, ids=["chat", "stream", "gemini", "raises-first"]
)
def test_one_campaign_reports_every_planted_bug_each_with_a_replayable_counterexample(
    path: str, source: str, destination: str, planted: set[str], tmp_path: Path
) -> None:
    run = fuzz(f"{path}:convert", source, destination, max_examples=600, out=tmp_path)
    found = {c.finding for c in run.counterexamples}
    assert planted <= found, found
    assert run.stopped == "max-examples"
    for finding, saved in run.saved.items():
        assert load_counterexample(saved).finding == finding
        assert main(["replay", str(saved), f"{path}:convert"]) == 1
        assert main(["replay", str(saved), f"{path}:fixed"]) == 0
    assert fuzz(f"{path}:fixed", source, destination, max_examples=300, out=None).counterexamples == []


@pytest.mark.slow
def test_an_ignored_finding_is_set_aside_and_the_rest_are_still_found(tmp_path: Path) -> None:
    ignore = tmp_path / "known.txt"
    ignore.write_text("# ids the converter re-mints on purpose\nidentity\nvalidity  # follows from it\n")
    out = tmp_path / "found"
    argv = ["fuzz", f"{CHAT_TO_RESPONSES}:convert", "--from", "openai-chat", "--to", "openai-responses"]
    assert main([*argv, "--ignore-file", str(ignore), "--ignore", "one-to-one", "--out", str(out)]) == 1
    found = {load_counterexample(p).finding for p in out.glob("*.json")}
    assert found == {"names:changed", "correlation:lost"}
    assert main([*argv, "--ignore", "names", "--ignore", "correlation", "--ignore", "identity",
                 "--ignore", "one-to-one", "--ignore", "RS-3", "--ignore", "RS-4", "--format", "json",
                 "--out", str(out)]) == 0  # fmt: skip


@pytest.mark.slow
def test_ignored_findings_are_counted_in_the_summary(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = [
        "fuzz",
        f"{STREAM_TO_ANTHROPIC}:convert",
        "--from",
        "openai-chat-stream",
        "--to",
        "anthropic-stream",
    ]
    main([*argv, "--ignore", "identity:truncated", "--out", str(tmp_path), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert "identity:truncated" in report["ignored"]
    assert "identity:truncated" not in [c["finding"] for c in report["counterexamples"]]
    assert {"arguments:changed", "validity:AN-10e"} <= {c["finding"] for c in report["counterexamples"]}


@pytest.mark.slow
def test_a_time_limit_alone_bounds_a_campaign(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    started = time.monotonic()
    argv = ["fuzz", f"{CHAT_TO_RESPONSES}:fixed", "--from", "openai-chat", "--to", "openai-responses"]
    assert main([*argv, "--time-limit", "2s", "--out", str(tmp_path), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["stopped"] == "time-limit"
    assert report["max_examples"] >= 10**9  # no limit of examples: the time limit alone bounds it
    assert time.monotonic() - started < 30


@pytest.mark.parametrize("bad", ["0s", "-1m", "soon", "5x"])
def test_a_bad_duration_is_a_usage_error(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["fuzz", "cat", "--from", "mcp", "--to", "mcp", f"--time-limit={bad}"])
    assert exit_info.value.code == 2
    assert "duration" in capsys.readouterr().err


def _mutating(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    messages.append({"role": "user", "content": "appended by the converter"})
    return messages[:-1]


@pytest.mark.slow
def test_a_target_that_changes_its_input_is_a_finding_and_the_input_is_judged_as_generated() -> None:
    run = fuzz(_mutating, "openai-chat", "openai-chat", max_examples=50, out=None)
    assert [c.finding for c in run.counterexamples] == ["mutates"]
    assert all(m["content"] != "appended by the converter" for m in run.counterexamples[0].input)


def test_an_input_that_breaks_its_own_protocol_is_reported_as_such() -> None:
    orphan = [{"role": "tool", "tool_call_id": "call_1", "content": "x"}, {"role": "user", "content": "Hi"}]
    outcome = judge(load_target(lambda m: m), orphan, "openai-chat", "openai-chat")
    assert [f.finding for f in outcome.faults()][:1] == ["input:CC-2"]


@pytest.mark.slow
def test_the_summary_reports_shape_coverage_and_min_coverage_fails_a_thin_campaign(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = FIXED_STREAM_TO_ANTHROPIC
    assert main([*argv, "--out", str(tmp_path), "--max-examples", "100"]) == 0
    text = capsys.readouterr().out
    assert "shape coverage: input " in text and "(openai-chat-stream), output " in text
    assert main([*argv, "--out", str(tmp_path), "--max-examples", "100", "--min-coverage", "0.99"]) == 1
    assert "FAIL coverage" in capsys.readouterr().out
    assert main([*argv, "--out", str(tmp_path), "--max-examples", "100", "--min-coverage", "0.01"]) == 0


def _start(index: int, call_id: str) -> dict[str, Any]:
    return {"index": index, "id": call_id, "type": "function", "function": {"name": "f", "arguments": ""}}


def _more(index: int, text: str) -> dict[str, Any]:
    return {"index": index, "function": {"arguments": text}}


def test_machine_coverage_counts_states_transitions_and_pairs_each_item_took() -> None:
    # Two interleaved calls: each item's pairs are its own, however the stream interleaves them.
    stream = [
        {"choices": [{"index": 0, "delta": {"tool_calls": [_start(0, "call_a"), _start(1, "call_b")]}}]},
        {"choices": [{"index": 0, "delta": {"tool_calls": [_more(0, "{}"), _more(1, "{}")]}}]},
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
    ]
    coverage = Coverage()
    watch = Watch(coverage)
    with watch.installed(), watch.input():
        ledger(stream, "openai-chat-stream")
    machines = coverage.input_machines
    assert sorted(machines.tables) == ["ChatToolCallStream"]
    table = machines.tables["ChatToolCallStream"]
    named = {(table.states[s], e) for _, s, e in machines.transitions}
    assert named == {("absent", "start"), ("open", "more"), ("open", "finish")}
    pairs = {(table.states[a[0]], a[1], table.states[b[0]], b[1]) for _, a, b in machines.pairs}
    # Not ("open", "more", "open", "more"): call_b's fragment came right after call_a's, but each
    # call had one fragment only.
    assert pairs == {("absent", "start", "open", "more"), ("open", "more", "open", "finish")}
    assert machines.reachable() == (3, 3, 4)
    assert machines.missing() == []
    # Outside a campaign the tables are plain again, and steps are not noted.
    assert all(type(row) is tuple for row in table.rows.values())
    ledger(stream, "openai-chat-stream")
    assert len(machines.transitions) == 3


@pytest.mark.slow
def test_a_campaign_reports_machine_coverage_in_text_and_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = FIXED_STREAM_TO_ANTHROPIC
    assert main([*argv, "--out", str(tmp_path), "--max-examples", "60"]) == 0
    text = capsys.readouterr().out
    assert "machine coverage, input (openai-chat-stream: ChatToolCallStream): states 3/3" in text
    assert "machine coverage, output (anthropic-stream: ContentBlock, MessageStream): states " in text
    assert main([*argv, "--out", str(tmp_path), "--max-examples", "60", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    output = report["coverage"]["output_machines"]
    covered, reachable = output["transitions"]
    assert 0 < covered <= reachable
    assert len(output["missing_transitions"]) == reachable - covered
