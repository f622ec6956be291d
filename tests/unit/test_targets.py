"""Targets that misbehave (garbage or no output, hangs, children left running, prints, changed folders,
crashes, bad imports, crafted counterexample files) are findings or usage errors, never toolwire's crash."""

from __future__ import annotations

import json
import math
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import layout
from toolwire.engines import fuzz, judge, load_target
from toolwire.engines.fuzzing._targets import PythonName, WorkerTarget, spelling
from toolwire.errors import UsageError

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
        fuzz(lambda trace: trace, "openai-chat-stream", "openai-chat-stream", max_examples=20, out=None)
        remaining, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 0 < remaining < 30.0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _sleepers(tag: str) -> int:
    found = subprocess.run(["pgrep", "-f", tag], capture_output=True, text=True, check=False)
    return len(found.stdout.split())


@pytest.mark.slow
def test_a_hanging_command_is_killed_with_every_process_it_started(tmp_path: Path) -> None:
    tag = f"sleep 987{int(time.time()) % 1000}"
    command = f"sh -c 'cat >/dev/null; {tag}'"
    run = fuzz(command, "openai-chat-stream", "openai-chat-stream", timeout=0.5, max_examples=2, out=None)
    assert {c.finding for c in run.counterexamples} == {"hangs"}
    assert _sleepers(tag) == 0


@pytest.mark.slow
def test_a_command_that_leaves_a_child_holding_its_output_is_no_hang(tmp_path: Path) -> None:
    tag = f"sleep 654{int(time.time()) % 1000}"
    script = tmp_path / "holding.sh"
    script.write_text(f"{tag} &\ncat\nexit 0\n")
    run = fuzz(
        f"sh {script}", "openai-chat-stream", "openai-chat-stream", timeout=5, max_examples=3, out=None
    )
    assert run.counterexamples == []
    assert _sleepers(tag) == 0


@pytest.mark.slow
def test_a_python_file_whose_path_has_spaces_is_python(tmp_path: Path) -> None:
    folder = tmp_path / "with spaces"
    folder.mkdir()
    (folder / "conv.py").write_text("def f(trace):\n    return trace\n")
    target = load_target(f"{folder / 'conv.py'}:f")
    try:
        assert isinstance(target, WorkerTarget) and target.run(CHUNKS, 5) == CHUNKS
    finally:
        target.close()


@pytest.mark.slow
def test_two_files_of_one_name_in_two_folders_are_two_targets(tmp_path: Path) -> None:
    for name, value in (("a", "first"), ("b", "second")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "conv.py").write_text(f"def f(trace):\n    return [{{'v': {value!r}}}]\n")
    targets = [load_target(str(tmp_path / n / "conv.py") + ":f") for n in "ab"]
    try:
        assert [t.run(CHUNKS, 5) for t in targets] == [[{"v": "first"}], [{"v": "second"}]]
    finally:
        for target in targets:
            target.close()


def test_saved_counterexamples_are_strict_json(tmp_path: Path) -> None:
    run = fuzz(lambda trace: [{"x": math.inf}], "openai-chat-stream", "openai-chat-stream", out=tmp_path)
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
    run = fuzz(_noisy, "openai-chat-stream", "openai-chat-stream", max_examples=5, out="found")
    assert Path.cwd() == tmp_path
    assert "debug" not in capsys.readouterr().out
    print("toolwire still prints")
    assert "still prints" in capsys.readouterr().out
    assert all(path.is_relative_to(tmp_path) for path in run.saved.values())


#: Targets that would take a process down with them, run in toolwire's worker process.
MISBEHAVING = """
import ctypes, os, signal, sys, time

def ok(trace):
    return [dict(event) for event in trace]

def exits(trace):
    os._exit(3)

def segfault(trace):
    ctypes.string_at(0)

def c_hang(trace):
    return sum(range(10**13))

def no_alarm(trace):
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    while True:
        pass

def prints(trace):
    print("debug")
    os.write(1, b"C-level noise\\n")
    return ok(trace)

def forks(trace):
    if os.fork() == 0:
        time.sleep(120)
        os._exit(0)
    return ok(trace)

def consumes(trace):
    trace.clear()
    return []

def huge(trace):
    return [{"x": "a" * (70 * 1024 * 1024)}]

def sometimes_exits(trace):
    if len(trace) > 2:
        os._exit(7)
    return ok(trace)

def ignores_sigint(trace):
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    return ok(trace)
"""


@pytest.fixture
def misbehaving(tmp_path: Path) -> Path:
    path = tmp_path / "t.py"
    path.write_text(MISBEHAVING)
    return path


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "finding", "says"),
    [
        ("exits", "crashes", "exited with status 3"),
        ("segfault", "crashes", "killed by SIGSEGV"),
        ("c_hang", "hangs", "no output within 0.5 s"),
        ("no_alarm", "hangs", "no output within 0.5 s"),
        ("consumes", "mutates", "changed its input"),
        ("huge", "garbage", "MiB of output"),
    ],
)
def test_a_python_target_that_would_take_toolwire_down_is_a_finding(
    misbehaving: Path, name: str, finding: str, says: str
) -> None:
    timeout = 30 if name == "huge" else 0.5  # writing 70 MiB takes a while on a busy machine
    run = fuzz(f"{misbehaving}:{name}", "openai-chat-stream", "openai-chat-stream", timeout=timeout,
               max_examples=3, out=None)  # fmt: skip
    assert [c.finding for c in run.counterexamples] == [finding]
    assert says in run.counterexamples[0].message


@pytest.mark.slow
def test_the_campaign_goes_on_after_the_worker_dies_with_a_fresh_worker(misbehaving: Path) -> None:
    target = load_target(f"{misbehaving}:sometimes_exits")
    try:
        run = fuzz(target, "openai-chat-stream", "openai-chat-stream", max_examples=60, out=None)
        assert [c.finding for c in run.counterexamples] == ["crashes"]
        assert run.examples == 60
        assert isinstance(target, WorkerTarget) and target.worker.starts > 1
    finally:
        target.close()


@pytest.mark.slow
def test_prints_of_a_python_target_leave_json_output_intact(
    misbehaving: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from toolwire.cli import main

    argv = ["fuzz", f"{misbehaving}:prints", "--from", "openai-chat-stream", "--to", "openai-chat-stream"]
    assert main([*argv, "--max-examples", "5", "--format", "json", "--out", str(misbehaving.parent)]) == 0
    assert json.loads(capsys.readouterr().out)["examples"] == 5


@pytest.mark.slow
def test_a_forking_target_leaves_no_process_behind(misbehaving: Path) -> None:
    fuzz(f"{misbehaving}:forks", "openai-chat-stream", "openai-chat-stream", max_examples=5, out=None)
    assert _sleepers(str(misbehaving)) == 0


@pytest.mark.slow
def test_a_target_that_ignores_sigint_leaves_toolwires_handler_alone(misbehaving: Path) -> None:
    before = signal.getsignal(signal.SIGINT)
    fuzz(f"{misbehaving}:ignores_sigint", "openai-chat-stream", "openai-chat-stream", max_examples=3,
         out=None)  # fmt: skip
    assert signal.getsignal(signal.SIGINT) is before


@pytest.mark.slow
@pytest.mark.parametrize(
    ("source", "says"),
    [
        ("import sys\nsys.exit(4)\n", "SystemExit: 4"),
        ("import os\nos._exit(5)\n", "exited with status 5"),
        ("raise ImportError('no such thing')\n", "ImportError: no such thing"),
        ("x = 1\n", "has no callable 'f'"),
    ],
    ids=["sys-exit", "os-exit", "raises", "missing"],
)
def test_a_target_that_fails_to_import_is_a_usage_error(
    tmp_path: Path, source: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from toolwire.cli import main

    (tmp_path / "conv.py").write_text(source + "def g(trace):\n    return trace\n")
    argv = ["fuzz", f"{tmp_path / 'conv.py'}:f", "--from", "openai-chat", "--to", "openai-chat"]
    assert main(argv) == 2
    assert says in capsys.readouterr().err


@pytest.mark.slow
def test_a_module_function_target_is_importable_from_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "myconv.py").write_text("def f(trace):\n    return trace\n")
    monkeypatch.chdir(tmp_path)
    run = fuzz("myconv:f", "openai-chat", "openai-chat", max_examples=5, out=None)
    assert run.counterexamples == []


@pytest.mark.slow
def test_a_campaign_writes_nothing_into_the_working_folder_but_its_counterexamples(tmp_path: Path) -> None:
    import os
    import sys

    conv = layout.ROOT / "examples" / "seed001_genkit_history.py"
    env = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_STORAGE_DIRECTORY"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    work = tmp_path / "work"
    work.mkdir()
    argv = [sys.executable, "-m", "toolwire", "fuzz", f"{conv}:buggy", "--from", "openai-chat-stream",
            "--to", "openai-chat", "--max-examples", "30"]  # fmt: skip
    done = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 1, done.stderr
    assert sorted(p.name for p in work.iterdir()) == ["counterexamples"]
    assert (tmp_path / "cache" / "toolwire" / "hypothesis").is_dir()


def test_saved_counterexamples_get_the_users_umask(tmp_path: Path) -> None:
    import os

    previous = os.umask(0o027)
    try:
        run = fuzz(lambda trace: [], "openai-chat", "openai-chat", max_examples=20, out=tmp_path)
    finally:
        os.umask(previous)
    assert run.saved
    assert {path.stat().st_mode & 0o777 for path in run.saved.values()} == {0o640}


#: Path parts a Python target's folder may have: spaces, dashes, dots, colons, non-ASCII letters.
_parts = st.text(alphabet="abcxyz -_.:éü0", min_size=1, max_size=8).filter(lambda p: p.strip(" .") != "")
_functions = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,7}", fullmatch=True)


@settings(max_examples=200)
@given(
    folders=st.lists(_parts, max_size=3),
    stem=_parts,
    function=_functions,
    pad=st.sampled_from(["", " ", "  ", "\t"]),
)
def test_a_target_that_names_a_python_file_and_function_is_python_whatever_its_path_holds(
    folders: list[str], stem: str, function: str, pad: str
) -> None:
    where = "/".join([*folders, stem + ".py"])
    named = spelling(f"{pad}{where}:{function}{pad}")
    assert isinstance(named, PythonName)
    assert (named.where, named.name) == (where.strip(), function)


@settings(max_examples=100)
@given(
    module=st.from_regex(r"[a-z_][a-z0-9_]{0,6}(\.[a-z_][a-z0-9_]{0,6}){0,2}", fullmatch=True),
    function=_functions,
)
def test_a_module_and_function_is_python(module: str, function: str) -> None:
    assert spelling(f"{module}:{function}") == PythonName(module, function)


@pytest.mark.parametrize("spec", ["conv.py:1f", "a b/conv.py:not-a-name", "conv.py:", "  ", ""])
def test_a_python_file_with_no_function_name_is_a_usage_error_never_a_command(spec: str) -> None:
    with pytest.raises(UsageError):
        spelling(spec)


@settings(max_examples=15, deadline=None)
@given(
    first=st.from_regex(r"[a-z]{2,6}", fullmatch=True), rest=st.lists(_parts, max_size=2), function=_functions
)
def test_a_misspelt_python_target_never_runs_the_program_its_first_word_names(
    first: str, rest: list[str], function: str
) -> None:
    import os
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        marker = Path(folder) / "ran"
        program = Path(folder) / first
        program.write_text(f"#!/bin/sh\ntouch {marker}\n")
        program.chmod(0o755)
        spec = " ".join([first, *rest]) + f"/missing.py:{function}"
        path = os.environ.get("PATH", "")
        os.environ["PATH"] = f"{folder}{os.pathsep}{path}"
        try:
            with pytest.raises(UsageError):
                load_target(spec).close()
        finally:
            os.environ["PATH"] = path
        assert not marker.exists(), f"{spec!r} ran {first}"


def test_a_command_is_still_a_command() -> None:
    assert spelling("node conv.js --flag") == ("node", "conv.js", "--flag")
    assert spelling("docker run image:latest") == ("docker", "run", "image:latest")
    assert spelling("sh -c 'cat'") == ("sh", "-c", "cat")
