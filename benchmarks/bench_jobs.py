"""``check --jobs``: records per second at ``--jobs 1`` against ``json.loads``, and the ``--jobs 2``
speed-up on the same generated log of Chat request bodies (as wall time, and as CPU critical path:
the parent's CPU plus its busiest worker's; target >= 1.7x, findings identical; medians of
``--runs``), and the highest peak RSS of a ``--jobs 2`` worker on that log against one of a
tenth of its records (flat: a worker holds one record at a time).  The issue asks for 1M and 10M
records (1 GB and 10 GB of request bodies): ``--requests 1000000`` measures 1M against 100k.

    python benchmarks/bench_jobs.py [--requests 100000]      (or: benchmarks/run.py --only jobs)

The figures mean something on an idle machine with two cores or more: on a shared one, wall time
says how busy the others were.  Workers fork from a forkserver: the server's own start-up (its
imports, once, before any part) is in the wall time, not in the critical path.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def _check(log: Path, jobs: int, times: Path) -> tuple[float, float, bytes, int]:
    """Wall seconds, CPU critical path, stdout and the workers' highest peak RSS (bytes) of
    ``toolwire check LOG --jobs N``."""
    times.write_text("")
    env = os.environ | {"TOOLWIRE_JOBS_CPU_TIMES": str(times)}
    argv = [sys.executable, "-m", "toolwire", "check", str(log), "-p", "openai-chat", "--format", "json"]
    start = time.perf_counter()
    child = subprocess.Popen([*argv, "--jobs", str(jobs)], stdout=subprocess.PIPE, env=env)
    out = child.stdout.read() if child.stdout else b""
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"toolwire check --jobs {jobs} failed")
    workers = [(float(cpu), int(kib)) for cpu, kib in (x.split(":") for x in times.read_text().split())]
    busiest = max((cpu for cpu, _ in workers), default=0.0)
    return (
        wall,
        usage.ru_utime + usage.ru_stime + busiest,
        out,
        max((k for _, k in workers), default=0) * 1024,
    )


def _loads(log: Path) -> float:
    """CPU seconds of an in-process ``json.loads`` of each line of ``log``."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    before = usage.ru_utime + usage.ru_stime
    with log.open("rb") as handle:
        for line in handle:
            json.loads(line)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime - before


def bench_jobs(add: Callable[..., None], requests: int, runs: int = 1) -> None:
    """Add the ``--jobs`` figures to a benchmark table (``add(figure, value, target, met, detail)``)."""
    from run import chat_bodies, write

    import toolwire

    # Bytecode compiled, as an installed package has it (else each process, the parent and every
    # worker, compiles what it imports; PYTHONDONTWRITEBYTECODE keeps it from being cached).
    compileall.compile_dir(Path(toolwire.__file__).parent, quiet=1)
    with tempfile.TemporaryDirectory() as scratch:
        log = Path(scratch) / "requests.jsonl"
        count = write(log, chat_bodies(requests))
        times = Path(scratch) / "cpu"
        loads = statistics.median(_loads(log) for _ in range(runs))
        one = [_check(log, 1, times) for _ in range(runs)]
        two = [_check(log, 2, times) for _ in range(runs)]
        same = all(run[2] == one[0][2] for run in [*one, *two])
        wall1, cpu1 = statistics.median(r[0] for r in one), statistics.median(r[1] for r in one)
        wall2, cpu2 = statistics.median(r[0] for r in two), statistics.median(r[1] for r in two)
        size = log.stat().st_size / (1 << 20)
        add(
            "check --jobs 1 time / json.loads's",
            cpu1 / loads,
            "<= 1.0",
            cpu1 / loads <= 1.0,
            f"{count / cpu1:,.0f} vs {count / loads:,.0f} records/s, {size:.0f} MiB",
        )
        add(
            "check --jobs 2 wall speed-up",
            wall1 / wall2,
            "(reported)",
            same,
            f"{wall1:.2f} s / {wall2:.2f} s",
        )
        add(
            "check --jobs 2 CPU critical-path speed-up",
            cpu1 / cpu2,
            ">= 1.7",
            same and cpu1 / cpu2 >= 1.7,
            f"{cpu1:.2f} s / {cpu2:.2f} s" + ("" if same else "; findings DIFFER"),
        )
        # Memory per worker is bounded by its part, not the log: the same at a tenth of the records.
        small = Path(scratch) / "small.jsonl"
        tenth = write(small, chat_bodies(max(1, requests // 10)))
        rss, rss10 = max(r[3] for r in two), _check(small, 2, times)[3]
        add(
            f"worker peak RSS {count:,} / {tenth:,} records",
            rss / rss10,
            "<= 1.25",
            rss / rss10 <= 1.25,
            f"{rss / (1 << 20):.0f} MiB / {rss10 / (1 << 20):.0f} MiB, --jobs 2",
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()

    def show(figure: str, value: float, target: str, met: bool, detail: str = "") -> None:
        print(f"{figure:<44} {value:.2f}  ({detail})  {target}  {'met' if met else 'MISSED'}")

    bench_jobs(show, args.requests, args.runs)
