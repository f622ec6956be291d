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


@pytest.mark.parametrize(
    "content",
    [
        b'{"from":"openai-chat-stream","to":"openai-responses-stream","input":[],"seed":"abc"}',
        b'{"from":"openai-chat-stream","to":"openai-responses-stream","input":[],"showing":5}',
        b'{"from":"openai-chat-stream","to":"openai-responses-stream","input":[],"message":"caf\xe9"}',
        b'{"from":"nope","to":"openai-responses-stream","input":[]}',
        b'{"from":"openai-chat-stream","to":"mcp","input":[],"x":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    ],
    ids=["seed", "showing", "latin1", "protocol", "deep"],
)
def test_a_malformed_counterexample_file_is_a_usage_error(
    tmp_path: Path, content: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    from toolwire.cli import main

    path = tmp_path / "ce.json"
    path.write_bytes(content)
    assert main(["replay", str(path), "cat"]) == 2
    assert main(["diagram", "--counterexample", str(path), "--out", str(tmp_path), "--format", "dot"]) == 2
    assert str(path) in capsys.readouterr().err


def test_a_crafted_counterexample_cannot_inject_into_dot_or_mermaid(tmp_path: Path) -> None:
    from toolwire.cli import main

    evil = {
        "target": "conv.py:convert",
        "from": "openai-chat-stream",
        "to": "openai-responses-stream",
        "property": 'x"; "INJECTED" [URL="javascript:alert(1)", label="pwn"]; label="y\nparticipant EVIL',
        "message": "m\nparticipant EVIL2",
        "input": [{"choices": []}],
        "output": [{"type": "response.created"}],
        "showing": [0],
    }
    path = tmp_path / "evil.json"
    path.write_text(json.dumps(evil))
    assert main(["diagram", "--counterexample", str(path), "--out", str(tmp_path), "--format", "dot",
                 "--format", "mermaid"]) == 0  # fmt: skip
    dot = (tmp_path / "evil.dot").read_text()
    assert '"INJECTED" [' not in dot
    mermaid = (tmp_path / "evil.mmd").read_text()
    assert not any(
        line.startswith(("participant EVIL", "    participant EVIL")) for line in mermaid.splitlines()
    )


def test_diagram_writes_replace_a_planted_link_instead_of_following_it(tmp_path: Path) -> None:
    from toolwire.cli import main

    victim = tmp_path / "victim"
    victim.write_text("precious")
    out = tmp_path / "out"
    out.mkdir()
    (out / "FunctionCallItem.dot").symlink_to(victim)
    assert main(["diagram", "FunctionCallItem", "--out", str(out), "--format", "dot"]) == 0
    assert victim.read_text() == "precious"
    assert not (out / "FunctionCallItem.dot").is_symlink()


def _noisy(trace: list[dict[str, Any]]) -> list[dict[str, Any]]:
    import os
    import sys

    print("debug: converting")
    os.chdir("/")
    sys.stdout.close()
    return trace


def test_a_target_that_prints_closes_stdout_or_changes_folder_leaves_toolwire_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    run = fuzz(_noisy, "openai-chat-stream", "openai-chat-stream", max_examples=5, save_to="found")
    assert Path.cwd() == tmp_path
    assert "debug" not in capsys.readouterr().out
    print("toolwire still prints")
    assert "still prints" in capsys.readouterr().out
    assert all(path.is_relative_to(tmp_path) for path in run.saved.values())
