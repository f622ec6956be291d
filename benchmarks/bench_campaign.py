"""Campaign benchmark: every planted bug in one campaign, examples per second, and two workers against one.

(a) For each converter in examples/ with three planted bugs: the time one
    campaign (``--time-limit 60s``) takes until it has tripped every planted
    bug, and each bug's time alone (a campaign that ignores the other two).
(b) Examples per second of a campaign through a correct converter, against
    plain Hypothesis drawing the same inputs (``traces``) and nothing else, in
    the same run: the ratio.
(c) ``workers=2`` against ``workers=1``: examples per second over the same time
    limit (these machines have 2 cores), and the time two workers take to trip
    every planted bug.

    python benchmarks/bench_campaign.py [--time-limit 60] [--rate-seconds 10]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings

from toolwire.engines import fuzz
from toolwire.protocols import traces

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PLANTED = [
    (
        "multibug_chat_to_responses.py",
        "openai-chat",
        "openai-responses",
        {"names:changed", "correlation:lost", "identity:replaced"},
    ),
    (
        "multibug_chat_stream_to_anthropic.py",
        "openai-chat-stream",
        "anthropic-stream",
        {"identity:truncated", "arguments:changed", "validity:AN-10e"},
    ),
    (
        "multibug_gemini_to_anthropic.py",
        "gemini-contents",
        "anthropic-messages",
        {"identity:replaced", "arguments:changed", "correlation:crossed"},
    ),
]
UNLIMITED = 10**9


def all_found(name: str, source: str, destination: str, planted: set[str], limit: float, workers: int) -> str:
    run = fuzz(
        f"{EXAMPLES / name}:convert", source, destination, max_examples=UNLIMITED, time_limit=limit,
        out=None, workers=workers,
    )  # fmt: skip
    seen = {f: t for f, t in run.first_seen.items() if f in planted}
    if set(seen) != planted:
        return f"missed {sorted(planted - set(seen))} in {limit:g} s"
    return f"all {len(planted)} by {max(seen.values()):.2f} s ({run.examples} examples in the campaign)"


def alone(
    name: str, source: str, destination: str, planted: set[str], bug: str, limit: float
) -> float | None:
    others = sorted(planted - {bug})
    run = fuzz(
        f"{EXAMPLES / name}:convert", source, destination, max_examples=UNLIMITED, time_limit=limit,
        out=None, ignore=others,
    )  # fmt: skip
    return run.first_seen.get(bug)


def rate(workers: int, seconds: float) -> float:
    name, source, destination, _ = PLANTED[0]
    run = fuzz(
        f"{EXAMPLES / name}:fixed", source, destination, max_examples=UNLIMITED, time_limit=seconds,
        out=None, workers=workers,
    )  # fmt: skip
    return run.examples / run.seconds


def plain_hypothesis(protocol: str, count: int) -> float:
    drawn = [0]

    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=(Phase.generate,),
        suppress_health_check=list(HealthCheck),
    )
    @given(traces(protocol, swarm=True))
    def draw(trace: list[object]) -> None:
        drawn[0] += 1

    started = time.monotonic()
    draw()
    return drawn[0] / (time.monotonic() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--rate-seconds", type=float, default=10.0)
    args = parser.parse_args()
    print("(a) one campaign against every planted bug (time limit", f"{args.time_limit:g} s)")
    for name, source, destination, planted in PLANTED:
        print(f"  {name}: {all_found(name, source, destination, planted, args.time_limit, 1)}")
        for bug in sorted(planted):
            found = alone(name, source, destination, planted, bug, args.time_limit)
            print(f"    {bug} alone: " + (f"{found:.2f} s" if found is not None else "not found"))
    campaign = rate(1, args.rate_seconds)
    plain = plain_hypothesis(PLANTED[0][1], max(200, int(campaign * args.rate_seconds)))
    print(f"(b) campaign {campaign:.0f} examples/s, plain Hypothesis drawing the same inputs {plain:.0f}/s: "
          f"ratio {campaign / plain:.2f}")  # fmt: skip
    two = rate(2, args.rate_seconds)
    print(
        f"(c) workers=2: {two:.0f} examples/s against workers=1: {campaign:.0f}/s "
        f"(process start-up included): speed-up {two / campaign:.2f}"
    )
    for name, source, destination, planted in PLANTED:
        print(f"    two workers, {name}: {all_found(name, source, destination, planted, args.time_limit, 2)}")


if __name__ == "__main__":
    main()
