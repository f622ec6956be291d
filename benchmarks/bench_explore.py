"""Explorer benchmark: states per second against a plain BFS, and the largest bound in 60 s.

(a) States per second of ``toolwire.engines.state_space`` (which also records
    every move, the transitions fired, and counts traces on the graph) on the
    OpenAI Responses stream, against a plain set-and-deque BFS written
    directly over the same compiled tables (``ResponseStream`` and
    ``FunctionCallItem``), in the same run; both must find the same states.
    The ratio (target: at least 0.5).
(b) The largest bound ``calls = deltas = n`` whose Responses stream space
    (interleaved calls, the hard case) the explorer finishes within 60 s,
    with and without symmetry reduction over call ids.

    python benchmarks/bench_explore.py [--calls 5] [--deltas 3] [--runs 5] [--budget 60]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import deque
from collections.abc import Hashable

from toolwire.engines import state_space
from toolwire.machines import ILLEGAL, FunctionCallItem, ResponseStream, compile_machine
from toolwire.properties import Bounds
from toolwire.protocols import space_for

PROTOCOL = "openai-responses-stream"


def plain_bfs(calls: int, deltas: int, symmetry: bool) -> int:
    """The Responses space by hand: opening, interleaved items, completion; returns its state count."""
    env, item = compile_machine(ResponseStream), compile_machine(FunctionCallItem)
    opening = [env.rows["response_created"], env.rows["response_in_progress"]]
    carrier, completed = env.rows["item"], env.rows["completed"]
    lane = [(item.rows[e], e == "delta", e == "arguments_complete") for e in item.events]
    initial, done = item.initial, item.finals
    start: Hashable = (0, env.initial, ((initial, 0, -1),) * calls)
    seen = {start}
    queue = deque([start])
    while queue:
        phase, e, slots = queue.popleft()  # type: ignore[misc]
        targets = []
        if phase < 2:
            targets.append((phase + 1, opening[phase][e], slots))
        elif phase == 2:
            e2 = carrier[e]
            free = next((k for k, s in enumerate(slots) if s[2] < 0), -1)
            for k, (s, c, opened) in enumerate(slots):
                if opened < 0 and symmetry and k != free:
                    continue
                for row, is_delta, needs_one in lane:
                    t = row[s]
                    if t == ILLEGAL or (needs_one and c < 1) or (is_delta and c + 1 > deltas):
                        continue
                    moved = (*slots[:k], (t, c + is_delta, 0), *slots[k + 1 :])
                    targets.append((2, e2, moved))
            if all(opened < 0 or s in done for s, _, opened in slots):
                targets.append((3, completed[e], slots))
        for target in targets:
            if target not in seen:
                seen.add(target)
                queue.append(target)
    return len(seen)


def compare(calls: int, deltas: int, runs: int) -> None:
    bounds = Bounds(calls=calls, deltas=deltas, interleave=True)
    space = space_for(PROTOCOL, bounds)
    states = state_space(space).states
    assert states == plain_bfs(calls, deltas, True), "the two searches disagree"
    ours, plain = [], []
    for _ in range(runs):
        started = time.perf_counter()
        state_space(space)
        ours.append(time.perf_counter() - started)
        started = time.perf_counter()
        plain_bfs(calls, deltas, True)
        plain.append(time.perf_counter() - started)
    a, b = states / statistics.median(ours), states / statistics.median(plain)
    print(f"Responses stream, {calls} calls x {deltas} deltas, interleaved: {states:,} states")
    print(f"(a) explorer:   {a:,.0f} states/s (median of {runs})")
    print(f"    plain BFS:  {b:,.0f} states/s (median of {runs})")
    verdict = "met" if a / b >= 0.5 else "MISSED"
    print(f"    ratio:      {a / b:.2f} (target >= 0.5: {verdict})")


def largest(budget: float, symmetry: bool) -> None:
    best = None
    n = 1
    while True:
        space = space_for(PROTOCOL, Bounds(calls=n, deltas=n, interleave=True, symmetry=symmetry))
        found = state_space(space, time_limit=budget)
        if found.cut is not None:
            break
        best = (n, found)
        n += 1
    label = "with" if symmetry else "without"
    if best is None:
        print(f"(b) {label} symmetry reduction: not even calls = deltas = 1 within {budget:.0f} s")
        return
    n, found = best
    print(
        f"(b) {label} symmetry reduction: calls = deltas = {n} in {found.seconds:.1f} s "
        f"({found.states:,} states, {found.traces:,} traces); {n + 1} did not finish in {budget:.0f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=5)
    parser.add_argument("--deltas", type=int, default=3)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--budget", type=float, default=60.0)
    args = parser.parse_args()
    compare(args.calls, args.deltas, args.runs)
    largest(args.budget, symmetry=True)
    largest(args.budget, symmetry=False)


if __name__ == "__main__":
    main()
