"""What a campaign leaves behind, whatever its target does, over generated variants:

- a target that changes its input is judged against, and saved with, the input as generated,
  for every protocol pair and every way of changing it.
- campaigns sharing one ``--out`` folder never replace or delete each other's counterexamples.
- a target that changes the working folder: every printed counterexample path exists.
- No ``.hypothesis`` folder appears in the working folder, from the library as from the CLI.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import layout
from toolwire.cli import main
from toolwire.engines import explore, fuzz, load_counterexample
from toolwire.properties import Bounds
from toolwire.protocols import EXPLORED, GENERATED, PROTOCOLS

Wire = list[dict[str, Any]]
EXAMPLES = layout.ROOT / "examples"
SEED000 = str(EXAMPLES / "seed000_aisdk_to_openresponses.py")

#: Ways a target changes the input it was given, each in place.
CHANGES: dict[str, Callable[[Wire], Any]] = {
    "clears": lambda trace: trace.clear(),
    "pops the last event": lambda trace: trace and trace.pop(),
    "inserts an event": lambda trace: trace.insert(0, {"inserted": True}),
    "empties the first event": lambda trace: trace and trace[0].clear(),
    "changes a nested value": lambda trace: trace and trace[-1].update(changed={"deep": [1]}),
    "reverses": lambda trace: trace.reverse(),
    "replaces every event": lambda trace: trace.__setitem__(slice(None), [{}] * len(trace)),
}

#: One change per line of a file target, so that the worker process changes its own copy.
CHANGES_SOURCE = """
def clears(trace, *rest):
    _seen(trace); trace.clear(); return []
def pops(trace, *rest):
    _seen(trace); trace and trace.pop(); return []
def nests(trace, *rest):
    _seen(trace); trace and trace[-1].update(changed={"deep": [1]}); return []
def _seen(trace):
    import json, os
    with open(os.environ["TOOLWIRE_TEST_SEEN"], "a") as seen:
        seen.write(json.dumps(trace) + "\\n")
"""

nested = settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))


def _recording(change: Callable[[Wire], Any], seen: list[Wire]) -> Callable[..., Wire]:
    def target(trace: Wire, *rest: Any) -> Wire:
        seen.append(copy.deepcopy(trace))
        change(trace)
        return []

    return target


def _saved_inputs(folder: Path) -> list[Wire]:
    return [json.loads(path.read_text())["input"] for path in sorted(folder.glob("*.json"))]


@nested
@given(
    source=st.sampled_from(sorted(GENERATED)),
    destination=st.sampled_from(sorted(PROTOCOLS)),
    how=st.sampled_from(sorted(CHANGES)),
)
def test_fuzz_judges_and_saves_the_input_as_generated_whatever_the_target_does_to_it(
    source: str, destination: str, how: str
) -> None:
    import tempfile

    seen: list[Wire] = []
    with tempfile.TemporaryDirectory() as folder:
        run = fuzz(_recording(CHANGES[how], seen), source, destination, max_examples=4, out=folder)
        saved = _saved_inputs(Path(folder))
    assert run.counterexamples, "a target that returns nothing for valid input breaks some property"
    for found in run.counterexamples:
        assert found.input in seen, f"{found.finding}: the input saved is not an input the target was given"
    assert saved and all(given in seen for given in saved)
    changed = any(trace != _changed(trace, how) for trace in seen)
    assert ("mutates" in {c.finding for c in run.counterexamples}) == changed


def _changed(trace: Wire, how: str) -> Wire:
    copied = copy.deepcopy(trace)
    CHANGES[how](copied)
    return copied


@nested
@given(source=st.sampled_from(sorted(EXPLORED)), how=st.sampled_from(sorted(CHANGES)))
def test_explore_saves_the_input_as_generated_whatever_the_target_does_to_it(source: str, how: str) -> None:
    import tempfile

    seen: list[Wire] = []
    with tempfile.TemporaryDirectory() as folder:
        run = explore(
            _recording(CHANGES[how], seen), source, source, Bounds(calls=1), out=folder, compare=False
        )
        saved = _saved_inputs(Path(folder))
    assert run.counterexample is not None and run.counterexample.input in seen
    assert saved == [run.counterexample.input]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["clears", "pops", "nests"])
@pytest.mark.parametrize(
    ("source", "destination"),
    [
        ("openai-chat-stream", "openai-responses-stream"),
        ("anthropic-messages", "gemini-contents"),
        ("openai-chat-stream", "openai-chat"),
    ],
)
def test_a_worker_target_that_changes_its_input_is_saved_with_the_input_as_generated(
    name: str, source: str, destination: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "changes.py").write_text(CHANGES_SOURCE)
    monkeypatch.setenv("TOOLWIRE_TEST_SEEN", str(tmp_path / "seen.jsonl"))
    run = fuzz(f"{tmp_path / 'changes.py'}:{name}", source, destination, max_examples=5, out=tmp_path / "ce")
    seen = [json.loads(line) for line in (tmp_path / "seen.jsonl").read_text().splitlines()]
    assert "mutates" in {c.finding for c in run.counterexamples}
    assert all(found.input in seen for found in run.counterexamples)
    assert all(given in seen for given in _saved_inputs(tmp_path / "ce"))


#: Pairs of campaigns that share one folder: each keeps its own results.
SHARING = {
    "two targets of one name in two folders": (("a/conv.py:f", 0), ("b/conv.py:f", 0)),
    "one target, two seeds": (("a/conv.py:f", 1), ("a/conv.py:f", 2)),
}


@pytest.mark.parametrize("sharing", sorted(SHARING))
def test_campaigns_sharing_a_folder_keep_each_others_counterexamples(
    sharing: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "conv.py").write_text("def f(trace):\n    return []\n")
    runs = [
        fuzz(spec, "openai-chat-stream", "openai-chat", max_examples=20, seed=seed, out="shared")
        for spec, seed in SHARING[sharing]
    ]
    for run in runs:
        assert run.saved and all(path.is_file() for path in run.saved.values())
        for path in run.saved.values():
            assert load_counterexample(path).target == run.target
    names = [path.name for run in runs for path in run.saved.values()]
    assert len(set(names)) == len(names)
    assert sorted(p.name for p in (tmp_path / "shared").glob("*.json")) == sorted(names)


def test_fuzz_then_explore_into_one_folder_keeps_both_counterexamples(tmp_path: Path) -> None:
    out = tmp_path / "shared"
    fuzzed = fuzz(f"{SEED000}:buggy", "aisdk-stream", "open-responses-stream", max_examples=100, out=out)
    explored = explore(f"{SEED000}:buggy", "aisdk-stream", "open-responses-stream", Bounds(calls=2), out=out)
    assert fuzzed.saved and explored.saved is not None
    assert all(path.is_file() for path in [*fuzzed.saved.values(), explored.saved])


CHDIR_SOURCE = """
import os
def moves(trace, *rest):
    os.makedirs({where!r}, exist_ok=True)
    os.chdir({where!r})
    raise ValueError("moved")
"""


@pytest.mark.parametrize("where", ["elsewhere", "..", "deep/er"])
@pytest.mark.parametrize("out", ["relative", "absolute"])
@pytest.mark.parametrize("verb", ["fuzz", "explore"])
def test_every_printed_counterexample_path_exists_after_the_target_changed_folder(
    where: str, out: str, verb: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    work = tmp_path / "work"
    work.mkdir()
    (work / "t.py").write_text(CHDIR_SOURCE.format(where=where))
    monkeypatch.chdir(work)
    folder = "ce" if out == "relative" else str(tmp_path / "ce")
    argv = [
        verb,
        "t.py:moves",
        "--from",
        "openai-chat-stream",
        "--to",
        "openai-responses-stream",
        "--out",
        folder,
    ]
    argv += ["--max-examples", "5"] if verb == "fuzz" else ["--calls", "1"]
    assert main(argv) == 1
    printed = [
        line.split("saved: ", 1)[1] for line in capsys.readouterr().out.splitlines() if "saved: " in line
    ]
    assert printed and all(Path(path).is_file() for path in printed), printed


@pytest.mark.parametrize("where", ["elsewhere", ".."])
def test_an_in_process_target_that_changes_folder_does_not_move_the_saved_files(
    where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def moves(trace: Wire) -> Wire:
        os.makedirs(where, exist_ok=True)
        os.chdir(where)
        raise ValueError("moved")

    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    fuzzed = fuzz(moves, "openai-chat", "openai-chat", max_examples=5, out="ce")
    explored = explore(moves, "openai-chat", "openai-chat", Bounds(calls=1), out="ce")
    assert Path.cwd() == work
    assert fuzzed.saved and explored.saved is not None
    assert all(path.is_file() for path in [*fuzzed.saved.values(), explored.saved])


LIBRARY_RUNS = {
    "fuzz": "fuzz(conv, 'openai-chat-stream', 'openai-chat', max_examples=20, out=None)",
    "fuzz --mutate": "fuzz(conv, 'openai-chat', 'openai-chat', max_examples=20, out=None, mutate=True)",
    "explore": "explore(conv, 'openai-chat-stream', 'openai-chat', Bounds(calls=1), out=None)",
    "replay": "replay(saved, conv)",
}


@pytest.mark.slow
@pytest.mark.parametrize("run", sorted(LIBRARY_RUNS))
def test_the_library_leaves_no_hypothesis_folder_in_the_working_folder(run: str, tmp_path: Path) -> None:
    from toolwire.engines import Counterexample
    from toolwire.engines.fuzzing._counterexample import save

    found = Counterexample(
        target="x", source="openai-chat", destination="openai-chat", property="raises", message="",
        input=[{"role": "user", "content": "hi"}], output=None,
    )  # fmt: skip
    saved = save(found, tmp_path / "saved")
    work = tmp_path / "work"
    work.mkdir()
    code = (
        "from toolwire.engines import explore, fuzz, replay\n"
        "from toolwire.properties import Bounds\n"
        f"conv = {str(EXAMPLES / 'seed001_genkit_history.py')!r} + ':fixed'\n"
        f"saved = {str(saved)!r}\n"
        f"{LIBRARY_RUNS[run]}\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_STORAGE_DIRECTORY"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    argv = [sys.executable, "-c", code]
    done = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert list(work.iterdir()) == []
