"""The engines report as events and print nothing; handlers save, show progress and print."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from toolwire.engines import (
    EngineEvent,
    FindingFound,
    FindingShrunk,
    Finished,
    Progress,
    SaveCounterexamples,
    ShowProgress,
    Started,
    explore,
    fuzz,
)
from toolwire.properties import Bounds


def _drops_the_last_call(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for message in messages:
        calls = message.get("tool_calls") or []
        if len(calls) >= 2:
            message = dict(message, tool_calls=calls[:-1])
        out.append(message)
    return out


def test_a_campaign_reports_its_start_findings_shrinks_and_end_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    events: list[EngineEvent] = []
    run = fuzz(
        _drops_the_last_call,
        "openai-chat",
        "openai-chat",
        max_examples=150,
        out=None,
        handlers=[events.append],
    )
    assert isinstance(events[0], Started) and isinstance(events[-1], Finished)
    assert events[-1].run is run
    assert not any(isinstance(e, Started | Finished) for e in events[1:-1])
    latest: dict[str, Any] = {}
    for event in events:
        if isinstance(event, FindingFound):
            assert event.counterexample.finding not in latest
            latest[event.counterexample.finding] = event.counterexample
        elif isinstance(event, FindingShrunk):
            before = latest[event.counterexample.finding]
            assert event.counterexample.key() < before.key()
            latest[event.counterexample.finding] = event.counterexample
    assert run.counterexamples and {c.finding: c for c in run.counterexamples} == latest
    # The engine printed nothing and, without ``out``, wrote nothing.
    assert capsys.readouterr() == ("", "")
    assert list(tmp_path.iterdir()) == []
    assert run.saved == {}


def test_the_saving_handler_keeps_one_file_per_finding_the_latest(tmp_path: Path) -> None:
    run = fuzz(_drops_the_last_call, "openai-chat", "openai-chat", max_examples=150, out=tmp_path)
    assert run.counterexamples
    assert sorted(tmp_path.glob("*.json")) == sorted(run.saved.values())


def test_an_exploration_reports_its_counterexample_and_end(tmp_path: Path) -> None:
    events: list[EngineEvent] = []
    run = explore(
        _drops_the_last_call,
        "openai-chat",
        "openai-chat",
        Bounds(calls=2),
        out=tmp_path,
        handlers=[events.append],
    )
    found = [e for e in events if isinstance(e, FindingFound)]
    assert run.counterexample is not None and [e.counterexample for e in found] == [run.counterexample]
    assert isinstance(events[0], Started) and isinstance(events[-1], Finished)
    assert run.saved is not None and run.saved.is_file()


def test_progress_shows_after_a_while_and_only_now_and_then() -> None:
    stream = io.StringIO()
    show = ShowProgress(stream, after=3.0)
    for second in (0.5, 2.9, 3.1, 3.2, 12.0, 13.5, 22.5):
        show(
            Progress(
                engine="fuzz", done=int(second * 100), findings=1, elapsed=second, left=10.0, coverage=0.5
            )
        )
    lines = stream.getvalue().splitlines()
    # Not within the first three seconds; on a plain stream (not a terminal), a line every ten.
    assert lines == [
        "fuzz: 1200 examples (100/s), 1 distinct finding(s), coverage 50%, 12 s, 10 s left",
        "fuzz: 2250 examples (100/s), 1 distinct finding(s), coverage 50%, 22 s, 10 s left",
    ]


def test_the_saving_handler_does_not_follow_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    save = SaveCounterexamples("found", resolve=False)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    run = fuzz(lambda trace: [], "openai-chat", "openai-chat", max_examples=5, out=None, handlers=[save])
    monkeypatch.chdir(tmp_path)
    assert run.saved and all(path.is_file() and not path.is_absolute() for path in run.saved.values())


def _run(examples: int, *found: Any) -> Any:
    from toolwire.engines import FuzzRun

    run = FuzzRun("t", "openai-chat", "openai-chat", 100, 0, None, examples=examples)
    run.counterexamples = list(found)
    run.hits = {c.finding: 1 for c in found}
    run.first_seen = {c.finding: float(examples) for c in found}
    return run


def _found(finding: str, events: int, text: str = "x") -> Any:
    from toolwire.engines import Counterexample

    prop, _, kind = finding.partition(":")
    return Counterexample(
        target="t", source="openai-chat", destination="openai-chat", property=prop, kind=kind,
        message="", input=[{"role": "user", "content": text}] * events, output=None,
    )  # fmt: skip


def test_merging_worker_runs_keeps_each_findings_smallest_example_in_any_order() -> None:
    one = _run(10, _found("raises", 3), _found("validity:CC-1", 1, "b"))
    two = _run(20, _found("raises", 2), _found("validity:CC-1", 1, "a"), _found("one-to-one:lost", 4))
    for merged in (one.merge(two), two.merge(one)):
        assert merged.examples == 30
        assert [(c.finding, len(c.input)) for c in merged.counterexamples] == [
            ("raises", 2), ("one-to-one:lost", 4), ("validity:CC-1", 1)
        ]  # fmt: skip
        assert merged.counterexamples[-1].input[0]["content"] == "a"  # a tie goes to the smaller text
        assert merged.hits == {"raises": 2, "validity:CC-1": 2, "one-to-one:lost": 1}
        assert merged.first_seen == {"raises": 10.0, "validity:CC-1": 10.0, "one-to-one:lost": 20.0}
