"""toolwire explore: exact trace counts, sound symmetry reduction, proofs of the fixed seed designs,
shortest counterexamples of the buggy ones, runs cut short that never claim to hold."""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Sequence
from pathlib import Path

import pytest

from helpers import layout
from toolwire.cli import main
from toolwire.engines import check, judge, replay
from toolwire.engines.exploring._explore import coverage_suite, explore, paths, state_space
from toolwire.engines.fuzzing._targets import load_target
from toolwire.properties import Bounds
from toolwire.properties._spaces import Move
from toolwire.properties._spaces._bodies import BodySpace
from toolwire.protocols import EXPLORED, space_for

EXAMPLES = layout.ROOT / "examples"
SMALL = Bounds(calls=2, deltas=2, turns=2, names=2)


def target(seed: str, variant: str) -> str:
    return f"{next(EXAMPLES.glob(seed + '_*.py'))}:{variant}"


@pytest.mark.parametrize("protocol", EXPLORED)
def test_every_explored_trace_passes_check(protocol: str) -> None:
    space = space_for(protocol, SMALL)
    traces = [space.render(path) for path in paths(space)]
    # A body's calls come whole: calls x names, not fragments and interleavings, make its traces.
    assert len(traces) == state_space(space).traces > (6 if isinstance(space, BodySpace) else 10)
    for trace in traces:
        report = check(trace, protocol)
        assert report.ok, (trace, [f.message for f in report.errors])
    # The check is not vacuous: the longest trace without its first or last event breaks a rule (a
    # warning where no consumer is hurt: a Mistral stream cut before its finish, issue 38).
    longest = max(traces, key=len)
    cut = any(not r.ok or r.findings for r in (check(longest[1:], protocol), check(longest[:-1], protocol)))
    # A message list whose rules hold message by message (UI messages) survives a cut; a repeat
    # of its biggest trace does not.
    biggest = max(traces, key=lambda trace: len(json.dumps(trace)))
    assert cut or not check(biggest + biggest, protocol).ok


@pytest.mark.parametrize("quirks", ["two-per-chunk", "repeated-ids", "null-ids", "index-0"])
def test_chat_stream_quirks_render_what_check_expects(quirks: str) -> None:
    space = space_for("openai-chat-stream", Bounds(calls=2, deltas=2, quirks=frozenset({quirks})))
    deviates = {"null-ids": {"CC-6b"}, "index-0": {"CC-6c"}}.get(quirks, set())
    for path in paths(space):
        report = check(space.render(path), "openai-chat-stream")
        assert {f.rule for f in report.errors} <= deviates


def responses_count(calls: int, deltas: int, symmetry: bool) -> int:
    """Calls one after the other, 1..deltas fragments each; ids in order, or any ids of the pool."""
    return sum((1 if symmetry else math.perm(calls, c)) * deltas**c for c in range(calls + 1))


def interleavings(fragments: Sequence[int]) -> int:
    """Orders of the fragments of calls 0..c-1 in which calls start in order (brute force)."""
    multiset = [k for k, f in enumerate(fragments) for _ in range(f)]
    count = 0
    for order in set(itertools.permutations(multiset)):
        firsts = [order.index(k) for k in range(len(fragments))]
        count += firsts == sorted(firsts)
    return count


def chat_stream_count(calls: int, deltas: int, symmetry: bool) -> int:
    total = 0
    for c in range(calls + 1):
        for fragments in itertools.product(range(1, deltas + 1), repeat=c):
            total += interleavings(fragments) * (1 if symmetry else math.perm(calls, c))
    return total


@pytest.mark.parametrize(("calls", "deltas"), [(1, 1), (2, 3), (3, 3), (4, 2)])
@pytest.mark.parametrize("symmetry", [True, False])
def test_trace_counts_match_closed_forms(calls: int, deltas: int, symmetry: bool) -> None:
    bounds = Bounds(calls=calls, deltas=deltas, symmetry=symmetry)
    responses = state_space(space_for("openai-responses-stream", bounds))
    assert responses.traces == responses_count(calls, deltas, symmetry)
    chat = state_space(space_for("openai-chat-stream", bounds))
    assert chat.traces == chat_stream_count(calls, deltas, symmetry)


def test_exact_trace_and_state_counts_are_pinned() -> None:
    def counts(protocol: str, bounds: Bounds) -> tuple[int, int, int]:
        found = state_space(space_for(protocol, bounds))
        return found.traces, found.states, found.depth

    three = Bounds(calls=3, deltas=3, turns=2)
    assert counts("openai-responses-stream", three) == (40, 173, 21)
    assert counts("openai-responses-stream", Bounds(calls=3, deltas=3, symmetry=False)) == (226, 466, 21)
    assert counts("openai-chat-stream", three) == (877, 80, 10)
    assert counts("openai-chat-stream", Bounds(calls=3, deltas=3, symmetry=False)) == (5248, 128, 10)
    assert counts("aisdk-stream", three) == (585, 317, 19)
    assert counts("openai-chat", three) == (121, 69, 10)
    assert counts("gemini-contents", three) == (121, 35, 6)
    assert counts("gemini-contents", Bounds(calls=3, turns=2, symmetry=False)) == (52618, 1913, 6)


def canonical(path: Sequence[Move]) -> tuple[Move, ...]:
    """``path`` with call slots renamed in order of first use (what symmetry reduction keeps)."""
    names: dict[int, int] = {}

    def rename(slot: int) -> int:
        return names.setdefault(slot, len(names))

    out: list[Move] = []
    for move in path:
        if move[0] == "lane":
            out.append(("lane", rename(move[1]), *move[2:]))
        elif move[0] == "calls":
            out.append(("calls", tuple(rename(s) for s in move[1]), move[2]))
        elif move[0] in ("result", "failed"):
            out.append((move[0], *(rename(s) for s in move[1:])))
        else:
            out.append(move)
    return tuple(out)


@pytest.mark.parametrize("protocol", EXPLORED)
def test_symmetry_reduction_keeps_exactly_one_trace_per_renaming(protocol: str) -> None:
    bounds = Bounds(calls=2, deltas=2, turns=2, names=2)
    reduced = list(paths(space_for(protocol, bounds)))
    every = list(paths(space_for(protocol, Bounds(calls=2, deltas=2, turns=2, names=2, symmetry=False))))
    assert len(set(reduced)) == len(reduced) < len(every)
    assert {canonical(p) for p in every} == set(reduced)
    assert all(canonical(p) == p for p in reduced)


def test_paths_come_shortest_first() -> None:
    lengths = [len(p) for p in paths(space_for("aisdk-stream", Bounds(calls=2, deltas=2)))]
    assert lengths == sorted(lengths)


FIXED = [
    ("seed000", "fixed", "aisdk-stream", "open-responses-stream", None, False),
    ("seed001", "fixed", "openai-chat-stream", "openai-chat", None, False),
    ("seed002", "fixed", "openai-chat-stream", "openai-chat", "two-per-chunk", False),
    ("seed002", "fixed", "openai-chat-stream", "openai-chat", None, False),
    ("seed003", "fixed", "gemini-contents", "aisdk-ui-stream", None, False),
    ("seed003", "fixed", "gemini-contents", "aisdk-ui-stream", "missing-ids", False),
    ("seed004", "fixed", "openai-chat", "openai-chat", None, True),
]


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "variant", "source", "destination", "quirks", "damage"), FIXED)
def test_fixed_seed_designs_hold_within_3_calls_by_3_deltas(
    seed: str, variant: str, source: str, destination: str, quirks: str | None, damage: bool, tmp_path: Path
) -> None:
    bounds = Bounds(calls=3, deltas=3, turns=2, quirks=frozenset({quirks} if quirks else ()))
    run = explore(target(seed, variant), source, destination, bounds, mutate=damage, out=tmp_path)
    assert run.verdict == "holds", run.counterexample
    assert run.traces == run.space.traces > 20
    assert run.exit_code == 0 and not list(tmp_path.iterdir())


#: (seed, variant, from, to, damage, broken property, events in the shortest counterexample)
BUGGY = [
    ("seed000", "buggy", "aisdk-stream", "open-responses-stream", False, "one-to-one", 3),
    ("seed001", "buggy", "openai-chat-stream", "openai-chat", False, "identity", 3),
    ("seed002", "buggy", "openai-chat-stream", "openai-chat", False, "identity", 3),
    ("seed003", "buggy", "gemini-contents", "aisdk-ui-stream", False, "correlation", 3),
    ("seed004", "solution_a", "openai-chat", "openai-chat", True, "validity", 2),
    ("seed004", "solution_b", "openai-chat", "openai-chat", True, "validity", 2),
    ("seed004", "solution_c", "openai-chat", "openai-chat", True, "validity", 2),
]


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "variant", "source", "destination", "damage", "prop", "size"), BUGGY)
def test_buggy_seed_designs_yield_their_shortest_counterexample(
    seed: str,
    variant: str,
    source: str,
    destination: str,
    damage: bool,
    prop: str,
    size: int,
    tmp_path: Path,
) -> None:
    bounds = Bounds(calls=3, deltas=3, turns=2)
    name = target(seed, variant)
    run = explore(name, source, destination, bounds, mutate=damage, out=tmp_path)
    assert run.verdict == "broken" and run.exit_code == 1
    found = run.counterexample
    assert found is not None and found.property == prop and len(found.input) == size
    # No shorter valid input breaks it: every trace with fewer events passes.
    space = space_for(source, bounds)
    loaded = load_target(name)
    shorter = [space.render(p) for p in paths(space) if len(space.render(p)) < size]
    if not damage:
        assert all(judge(loaded, t, source, destination).verdict is None for t in shorter)
    # Saved, and replayable.
    assert run.saved is not None and run.saved.exists()
    saved, outcome = replay(run.saved, name)
    assert saved.input == found.input and outcome.verdict == prop


def test_a_run_cut_short_says_so_and_never_holds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fixed = target("seed001", "fixed")
    run = explore(fixed, "openai-chat-stream", "openai-chat", Bounds(calls=3, deltas=3), max_traces=5)
    assert run.verdict == "cut short" and run.exit_code == 2 and run.traces == 5
    code = main(
        ["explore", fixed, "--from", "openai-chat-stream", "--to", "openai-chat", "--max-traces", "5",
         "--out", str(tmp_path)]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 2
    assert "NOT PROVEN: stopped after 5 of 10 traces (--max-traces)" in out and "HOLDS" not in out
    cut = state_space(space_for("aisdk-stream", Bounds(calls=3, deltas=3, interleave=True)), max_states=100)
    assert cut.cut is not None and cut.traces == 0


def test_explore_cli_reports_both_symmetry_counts_and_coverage(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", "--from", "openai-responses-stream", "--calls", "3", "--deltas", "3"]) == 0
    out = capsys.readouterr().out
    assert "with symmetry reduction: 173 distinct states, 172 moves, depth 21, 40 valid traces" in out
    assert "without symmetry reduction: 466 distinct states, 546 moves, depth 21, 226 valid traces" in out
    assert "transition coverage: 9 of 20 reachable table transitions" in out
    assert "ResponseStream: in_progress --failed--> ended" in out
    assert main(["explore", "--from", "openai-chat-stream", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["traces"] == 10 and data["without_symmetry"]["traces"] == 19


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--from", "mcp"], "explore has no state space for 'mcp' yet"),
        (["--from", "openai-chat", "--to", "openai-chat"], "--to needs a TARGET"),
        (["examples/x.py:f", "--from", "openai-chat"], "needs --to Q"),
        (
            ["--from", "gemini-contents", "--quirks", "two-per-chunk"],
            "renders no quirk profile two-per-chunk",
        ),
        (["--from", "openai-chat", "--calls", "-1"], "bound calls must be an integer >= 0"),
    ],
)
def test_explore_usage_errors_are_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["explore", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize("protocol", EXPLORED)
def test_coverage_suite_traces_pass_check_and_fire_every_covered_transition(protocol: str) -> None:
    space = space_for(protocol, Bounds(calls=2, deltas=2, turns=2))
    suite = coverage_suite(space)
    assert 1 <= len(suite) <= len(state_space(space).fired)
    for trace in suite:
        assert check(trace, protocol).ok


def test_suite_cli_writes_jsonl_traces_check_accepts(tmp_path: Path) -> None:
    assert main(["explore", "--from", "openai-responses-stream", "--suite", str(tmp_path)]) == 0
    files = sorted(tmp_path.glob("*.jsonl"))
    assert files
    for path in files:
        assert main(["check", str(path), "-p", "openai-responses-stream"]) == 0


def test_damaged_inputs_are_every_mutation_once() -> None:
    from toolwire.engines.exploring._explore import mutations

    space = space_for("openai-chat", Bounds(calls=2, turns=1))
    trace = space.render(next(p for p in paths(space) if len(p) == 4))
    broken = list(mutations(trace, "openai-chat"))
    keys = [json.dumps(b, sort_keys=True) for b in broken]
    assert len(keys) == len(set(keys)) > 5 and trace not in broken
