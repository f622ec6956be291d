"""Repair benchmark: ``repair`` of a 1,000-message Chat history against ``check`` of it, in one run.

(a) A clean history: ``repair`` finds nothing to do after one check and returns the history as it
    was, so it costs a check (target <= 1.1x).
(b) The same history damaged every few turns (an unanswered call, an orphaned result, a result out
    of place, a repeated id): ``repair`` reads it up to its first broken rule, rebuilds it and
    checks the result once, whole (target <= 2x ``check`` of the damaged history).  Damage only
    near the end costs a whole check more (the first read finds nothing until then).

Times are CPU seconds of this process, medians of interleaved rounds.

    python benchmarks/bench_repair.py [--messages 1000] [--runs 7]
"""

from __future__ import annotations

import argparse
import copy
import resource
import statistics
from collections.abc import Callable
from typing import Any

from toolwire import check
from toolwire.engines.repair import repair

PROTOCOL = "openai-chat"
#: Each timing repeats its call this often, so one timing is well above the clock's resolution.
_REPEAT = 20


def _call(ident: str, name: str) -> dict[str, Any]:
    return {"id": ident, "type": "function", "function": {"name": name, "arguments": '{"city":"Paris"}'}}


def clean_history(messages: int = 1_000) -> list[dict[str, Any]]:
    """A valid Chat history of ``messages`` messages: turns of a question, two calls, their two
    results and an answer."""
    out: list[dict[str, Any]] = [{"role": "system", "content": "You are a weather assistant."}]
    turn = 0
    while len(out) < messages:
        a, b = f"call_{turn:05d}a", f"call_{turn:05d}b"
        out += [
            {"role": "user", "content": f"Weather in Paris and Rome, take {turn}?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [_call(a, "get_weather"), _call(b, "get_time")],
            },
            {"role": "tool", "tool_call_id": a, "content": "18 degrees, sunny"},
            {"role": "tool", "tool_call_id": b, "content": "14:05"},
            {"role": "assistant", "content": f"Paris is 18 degrees at 14:05 (take {turn})."},
        ]
        turn += 1
    return out[:messages]


def damaged_history(messages: int = 1_000, every: int = 10) -> list[dict[str, Any]]:
    """:func:`clean_history` with one turn in ``every`` damaged, cycling through four kinds."""
    out = copy.deepcopy(clean_history(messages))
    starts = [i for i, m in enumerate(out) if m.get("tool_calls")]
    for n, i in enumerate(starts[::every]):
        kind = n % 4
        if i + 3 >= len(out):
            break
        if kind == 0:  # the second result lost: an unanswered call
            out[i + 2 + 1] = {"role": "user", "content": "(interrupted)"}
        elif kind == 1:  # the first result answers a call evicted from the history: an orphan
            out[i + 1]["tool_call_id"] = f"call_evicted{n}"
        elif kind == 2:  # the results after the next user message: out of place
            out[i + 1], out[i + 2], out[i + 3] = out[i + 3], out[i + 1], out[i + 2]
            out[i + 1] = {"role": "user", "content": "Hurry up."}
        else:  # the second call copies the first's id
            out[i]["tool_calls"][1]["id"] = out[i]["tool_calls"][0]["id"]
    return out


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _timed(work: Callable[[], Any]) -> float:
    start = _cpu()
    for _ in range(_REPEAT):
        work()
    return (_cpu() - start) / _REPEAT


def measure(history: list[dict[str, Any]], runs: int) -> tuple[float, float]:
    """Median seconds of ``repair`` and of ``check`` of ``history``, in interleaved rounds."""
    rounds = [
        (_timed(lambda: repair(history, PROTOCOL)), _timed(lambda: check(history, PROTOCOL)))
        for _ in range(runs)
    ]
    ours, baseline = (statistics.median(times) for times in zip(*rounds, strict=True))
    return ours, baseline


def bench_repair(add: Callable[..., None], runs: int, messages: int = 1_000) -> None:
    """Add the two ratios to the benchmark's table (``add(figure, value, target, met, detail)``)."""
    clean = clean_history(messages)
    damaged = damaged_history(messages)
    if check(clean, PROTOCOL).exit_code != 0 or repair(clean, PROTOCOL).changes:
        raise SystemExit("the clean history is not clean")
    fixed = repair(damaged, PROTOCOL)
    if fixed.exit_code != 1 or check(fixed.history, PROTOCOL).exit_code != 0:
        raise SystemExit("the damaged history did not come out clean")
    for name, history, target in (("clean", clean, 1.1), ("damaged", damaged, 2.0)):
        ours, baseline = measure(history, runs)
        ratio = ours / baseline
        add(
            f"repair / check, {name} {len(history):,} messages",
            ratio,
            f"<= {target}",
            ratio <= target,
            f"{ours * 1000:.2f} ms / {baseline * 1000:.2f} ms"
            + (f", {len(fixed.changes)} changes" if name == "damaged" else ""),
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=1_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()

    def add(figure: str, value: float, target: str, met: bool, detail: str = "") -> None:
        print(f"{figure:<44} {value:.2f}  ({detail})  {target}  {'met' if met else 'MISSED'}")

    bench_repair(add, args.runs, args.messages)


if __name__ == "__main__":
    main()
