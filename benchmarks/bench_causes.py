"""Cause benchmark: how often a default campaign reports both bugs of a converter with two bugs of
one symptom (one on the strict wire, one that needs a provider's shape), findings keyed by cause
against findings keyed by symptom (as toolwire counted them before), in the same run.

The converters are ``examples/multibug_same_symptom.py``'s two pairs (a lost call: text first,
and calls keyed by index; changed arguments: a first fragment's arguments dropped, and an id
restarting the arguments).  Each campaign runs ``--max-examples`` examples (a budget of examples,
not seconds, so that the machine's load does not change what is measured) on each of
``--seeds`` seeds.  A planted bug counts as reported when a counterexample the campaign saved,
replayed on a converter with that bug alone, shows the pair's symptom: the report led a reader
to that bug.  Keyed by symptom, each symptom has one counterexample, so at most one bug of a pair
is reported; keyed by cause, both can be.

    python benchmarks/bench_causes.py [--seeds 5] [--max-examples 1500]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from toolwire.engines import fuzz
from toolwire.engines.fuzzing import _cause, judge, load_target
from toolwire.engines.fuzzing._options import deviated

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
sys.path.insert(0, str(EXAMPLES))

import multibug_same_symptom as planted  # noqa: E402

PAIR = ("openai-chat-stream", "openai-chat-response")


def by_symptom(self: _cause.Causes, *args: object, **kwargs: object) -> frozenset[str]:
    """What toolwire did before findings had causes: no cause at all."""
    return frozenset()


def reported(bug: str, symptom: str, counterexamples: list[object]) -> bool:
    """Some counterexample, replayed on a converter with ``bug`` alone, shows ``symptom``."""
    target = load_target(planted.planted(bug))
    try:
        for found in counterexamples:
            quirks = (found.quirks or "").split(",")  # type: ignore[attr-defined]
            outcome = judge(target, found.input, *PAIR, deviates=deviated(quirks))  # type: ignore[attr-defined]
            if any(fault.finding == symptom for fault in outcome.faults()):
                return True
        return False
    finally:
        target.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--max-examples", type=int, default=1500)
    args = parser.parse_args(argv)
    keyed = _cause.Causes.of
    for pair, ((strict, shaped), symptom) in planted.BUGS.items():
        target = planted.planted(strict, shaped)
        for mode in ("symptom", "cause"):
            _cause.Causes.of = keyed if mode == "cause" else by_symptom  # type: ignore[method-assign]
            both = strict_seen = shaped_seen = 0
            started = time.perf_counter()
            try:
                for seed in range(args.seeds):
                    run = fuzz(target, *PAIR, seed=seed, max_examples=args.max_examples, out=None)
                    found = [c for c in run.counterexamples if c.symptom == symptom]
                    one = reported(strict, symptom, found)
                    other = reported(shaped, symptom, found)
                    strict_seen, shaped_seen, both = (
                        strict_seen + one,
                        shaped_seen + other,
                        both + (one and other),
                    )
            finally:
                _cause.Causes.of = keyed  # type: ignore[method-assign]
            print(
                f"{pair:9} keyed by {mode:7}: both bugs reported in {both}/{args.seeds} campaigns "
                f"(the strict wire's {strict!r} in {strict_seen}, the provider shape's {shaped!r} in "
                f"{shaped_seen}); {time.perf_counter() - started:.0f} s",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
