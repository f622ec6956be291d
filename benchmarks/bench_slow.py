"""Slow-target benchmark: findings per minute on a deliberately slowed converter, served as a slow
target (after) against served as any other (before), in the same run.

The converter is ``examples/multibug_same_symptom.py:convert`` (two bugs of one symptom, one on
the strict wire and one that needs ``index-0``) made to sleep ``--delay`` seconds an example
(0.4 s: about 2 examples a second, a Node SDK behind a command target).  Each campaign runs
``--time-limit`` seconds on each of ``--seeds`` seeds, once with slow serving off (the threshold
``toolwire.engines.fuzzing._campaign.SLOW`` set to 0: the campaign spends its examples as it
would spend 3,000) and once as toolwire serves it.  It prints, for each, the distinct findings a
minute, how many campaigns found both planted bugs, and the examples each ran.

    python benchmarks/bench_slow.py [--seeds 3] [--time-limit 30] [--delay 0.4]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from toolwire.engines import fuzz
from toolwire.engines.fuzzing import _campaign

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
sys.path.insert(0, str(EXAMPLES))

from multibug_same_symptom import convert  # noqa: E402

#: The planted bugs, by the finding each is reported as.
PLANTED = ("one-to-one:lost", "one-to-one:lost [index-0]")


def slowed(delay: float) -> Any:
    def slow_convert(chunks: list[dict[str, Any]]) -> list[dict[str, Any]]:
        time.sleep(delay)
        return convert(chunks)

    return slow_convert


def campaign(seed: int, seconds: float, delay: float, served: bool) -> tuple[int, bool, int, float | None]:
    """One campaign: its distinct findings, whether it found both planted bugs, its examples."""
    threshold = _campaign.SLOW
    _campaign.SLOW = threshold if served else 0.0
    try:
        run = fuzz(
            slowed(delay),
            "openai-chat-stream",
            "openai-chat-response",
            seed=seed,
            time_limit=seconds,
            out=None,
        )
    finally:
        _campaign.SLOW = threshold
    found = {c.finding for c in run.counterexamples}
    return len(found), all(p in found for p in PLANTED), run.examples, run.slow


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--delay", type=float, default=0.4)
    args = parser.parse_args(argv)
    rates: dict[bool, list[float]] = {False: [], True: []}
    both: dict[bool, int] = {False: 0, True: 0}
    for seed in range(args.seeds):
        for served in (False, True):
            count, all_found, examples, slow = campaign(seed, args.time_limit, args.delay, served)
            rates[served].append(count * 60 / args.time_limit)
            both[served] += all_found
            label = "served slow" if served else "as before  "
            judged = f", judged slow at {slow:.1f}/s" if slow is not None else ""
            print(
                f"seed {seed} {label}: {count} findings, both planted bugs {'yes' if all_found else 'no'}, "
                f"{examples} examples{judged}",
                flush=True,
            )
    before, after = statistics.mean(rates[False]), statistics.mean(rates[True])
    print(
        f"findings a minute: before {before:.1f}, after {after:.1f} "
        f"(ratio {after / before if before else 0:.2f}); "
        f"campaigns finding both planted bugs: before {both[False]}/{args.seeds}, "
        f"after {both[True]}/{args.seeds}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
