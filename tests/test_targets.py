"""Targets that misbehave are findings, never toolwire's crash (audit D6, D7, D10, D16, D17, D23, D24)."""

from __future__ import annotations

import json
import math
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from toolwire.engines import fuzz, judge, load_target

CHUNKS = [
    {"choices": [{"index": 0, "delta": {"role": "assistant", "content": None}, "finish_reason": None}]},
    {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
]


@pytest.mark.parametrize(
    "output",
    [[{"a": {1, 2}}], [{"a": b"x"}], [{"a": math.nan}]],
    ids=["set", "bytes", "nan"],
)
def test_output_that_is_not_json_is_garbage(output: list[dict[str, Any]]) -> None:
    outcome = judge(load_target(lambda trace: output), CHUNKS, "openai-chat-stream", "openai-chat-stream")
    assert [f.finding for f in outcome.faults()] == ["garbage"]


def test_absurdly_deep_output_is_garbage() -> None:
    deep: Any = {}
    for _ in range(100_000):
        deep = {"a": deep}
    outcome = judge(load_target(lambda trace: [deep]), CHUNKS, "openai-chat-stream", "openai-chat-stream")
    assert [f.finding for f in outcome.faults()] == ["garbage"]


def test_a_timeout_too_short_to_finish_is_a_hang_not_a_traceback() -> None:
    run = fuzz(lambda trace: trace, "openai-chat-stream", "openai-chat-stream", timeout=1e-9, max_examples=5)
    assert {c.finding for c in run.counterexamples} <= {"hangs"}


def test_the_callers_interval_timer_survives_a_campaign() -> None:
    fired: list[int] = []
    previous = signal.signal(signal.SIGALRM, lambda *_: fired.append(1))
    try:
        signal.setitimer(signal.ITIMER_REAL, 30.0)
        fuzz(lambda trace: trace, "openai-chat-stream", "openai-chat-stream", max_examples=20, save_to=None)
        remaining, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 0 < remaining < 30.0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _sleepers(tag: str) -> int:
    found = subprocess.run(["pgrep", "-f", tag], capture_output=True, text=True, check=False)
    return len(found.stdout.split())


def test_a_hanging_command_is_killed_with_every_process_it_started(tmp_path: Path) -> None:
    tag = f"sleep 987{int(time.time()) % 1000}"
    command = f"sh -c 'cat >/dev/null; {tag}'"
    run = fuzz(command, "openai-chat-stream", "openai-chat-stream", timeout=0.5, max_examples=2, save_to=None)
    assert {c.finding for c in run.counterexamples} == {"hangs"}
    assert _sleepers(tag) == 0


def test_a_command_that_leaves_a_child_holding_its_output_is_no_hang(tmp_path: Path) -> None:
    tag = f"sleep 654{int(time.time()) % 1000}"
    script = tmp_path / "holding.sh"
    script.write_text(f"{tag} &\ncat\nexit 0\n")
    run = fuzz(
        f"sh {script}", "openai-chat-stream", "openai-chat-stream", timeout=5, max_examples=3, save_to=None
    )
    assert run.counterexamples == []
    assert _sleepers(tag) == 0


def test_a_python_file_whose_path_has_spaces_is_python(tmp_path: Path) -> None:
    folder = tmp_path / "with spaces"
    folder.mkdir()
    (folder / "conv.py").write_text("def f(trace):\n    return trace\n")
    assert load_target(f"{folder / 'conv.py'}:f").run_python is not None


def test_two_files_of_one_name_in_two_folders_are_two_targets(tmp_path: Path) -> None:
    for name, value in (("a", "first"), ("b", "second")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "conv.py").write_text(f"def f(trace):\n    return {value!r}\n")
    results = [load_target(str(tmp_path / n / "conv.py") + ":f").run_python(CHUNKS) for n in "ab"]  # type: ignore[misc]
    assert results == ["first", "second"]


def test_saved_counterexamples_are_strict_json(tmp_path: Path) -> None:
    run = fuzz(lambda trace: [{"x": math.inf}], "openai-chat-stream", "openai-chat-stream", save_to=tmp_path)
    assert run.saved
    for path in run.saved.values():
        text = path.read_text()
        assert "NaN" not in text and "Infinity" not in text
        json.loads(text)
