"""Fuzz benchmark: time to the first shrunk counterexample per seed design, and examples per second.

(a) For each buggy seed design in examples/, the median over 10 seeds of the
    time ``toolwire.engines.fuzz`` takes to find and shrink its first
    counterexample (target: under 2 s).
(b) Examples per second of ``fuzz`` through an identity converter, against
    plain Hypothesis drawing the same number of raw event lists (lists of
    JSON-like dicts of the same sizes) in the same run; the ratio (target: at
    least 0.5).

    python benchmarks/bench_fuzz.py [--seeds 10] [--examples 1000]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from toolwire.engines import fuzz
from toolwire.protocols import traces

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
BUGGY = [
    ("seed000_aisdk_to_openresponses.py:buggy", "aisdk-stream", "open-responses-stream", False),
    ("seed001_genkit_history.py:buggy", "openai-chat-stream", "openai-chat", False),
    ("seed002_pipeline_mode.py:buggy", "openai-chat-stream", "openai-chat", False),
    ("seed003_adk_to_aisdk.py:buggy", "gemini-contents", "aisdk-ui-stream", False),
    ("seed004_sanitizer.py:solution_a", "openai-chat", "openai-chat", True),
]
PROTOCOL = "openai-chat-stream"


def identity(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return events


def first_counterexample(seeds: int) -> None:
    print("(a) time to the first shrunk counterexample, median over", seeds, "seeds")
    worst = 0.0
    for spec, source, destination, damaged in BUGGY:
        times, found = [], set()
        for value in range(seeds):
            start = time.perf_counter()
            run = fuzz(str(EXAMPLES / spec), source, destination, seed=value, mutate=damaged, out=None)
            times.append(time.perf_counter() - start)
            found.update(c.property for c in run.counterexamples)
        median = statistics.median(times)
        worst = max(worst, median)
        print(f"    {spec:42} median {median:6.3f} s  max {max(times):6.3f} s  found {sorted(found)}")
    print(f"    slowest median {worst:.3f} s (target < 2 s): {'met' if worst < 2 else 'NOT met'}")


def examples_per_second(examples: int) -> None:
    sizes: list[int] = []
    start = time.perf_counter()
    run = fuzz(identity, PROTOCOL, PROTOCOL, max_examples=examples, out=None)
    ours = run.examples / (time.perf_counter() - start)
    assert not run.counterexamples, run.counterexamples

    event = st.fixed_dictionaries(
        {
            "id": st.text(max_size=30),
            "object": st.text(max_size=20),
            "choices": st.lists(st.dictionaries(st.text(max_size=8), st.text(max_size=10)), max_size=1),
        }
    )

    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        phases=(Phase.generate,),
        suppress_health_check=list(HealthCheck),
    )
    @seed(0)
    @given(st.lists(event, max_size=24))
    def plain(events: list[dict[str, Any]]) -> None:
        sizes.append(len(events))

    start = time.perf_counter()
    plain()
    theirs = len(sizes) / (time.perf_counter() - start)
    ours_sizes: list[int] = []

    @settings(max_examples=examples, database=None, deadline=None, phases=(Phase.generate,))
    @seed(0)
    @given(traces(PROTOCOL))
    def drawn(events: list[dict[str, Any]]) -> None:
        ours_sizes.append(len(events))

    drawn()
    print(f"(b) examples per second, {examples} examples of {PROTOCOL} through an identity converter")
    print(f"    toolwire fuzz  {ours:8.0f} examples/s (generate, render, run, check both sides, relations)")
    print(f"    plain Hypothesis {theirs:6.0f} examples/s (raw event lists, draw only)")
    ratio = ours / theirs
    print(
        f"    mean events per example: toolwire {statistics.mean(ours_sizes):.1f}, "
        f"plain {statistics.mean(sizes):.1f}"
    )
    print(f"    ratio {ratio:.2f} (target >= 0.5): {'met' if ratio >= 0.5 else 'NOT met'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--examples", type=int, default=1000)
    args = parser.parse_args()
    first_counterexample(args.seeds)
    examples_per_second(args.examples)


if __name__ == "__main__":
    main()
