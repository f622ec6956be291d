"""``check --jobs``: records per second at ``--jobs 1`` against ``json.loads``, and the ``--jobs 2``
speed-up on the same generated log of Chat request bodies (as wall time, and as CPU critical path:
the parent's CPU plus its busiest worker's; target >= 1.7x, findings identical), beside what this
machine gives two processes doing half a ``json.loads`` each at once against one doing it all (its
own ceiling).  ``--runs`` rounds each measure every figure once, interleaved; the median of the
rounds' own ratios is printed, and each round's beside it.  Then the highest peak RSS of a
``--jobs 2`` worker on that log against one of 40% of its records (flat: a worker holds one record
at a time; both logs' parts are big enough to be read typed, as a part under 4 MiB is not, which alone
costs msgspec's few MiB).  The issue asks for 1M and 10M records (1 GB and 10 GB of request
bodies): ``--requests 1000000`` measures 1M against 400k.  Measured once by hand, a worker's peak:
20 MiB at 10k records, 24 at 100k, 25 at 1M, 25 at 10M.

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
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))


CHAT = ["-p", "openai-chat"]
#: A grouped log's: each record a turn of a conversation, its request and response bodies.
GROUPED = ["--request", "request", "--response", "response", "--group-by", "session", "--order-by", "turn"]


def _check(log: Path, jobs: int, times: Path, how: list[str] = CHAT) -> tuple[float, float, bytes, int]:
    """Wall seconds, CPU critical path, stdout and the workers' highest peak RSS (bytes) of
    ``toolwire check LOG --jobs N``: the critical path is the parent's CPU plus, for each round of
    the pool (a grouped log has two), its busiest worker's."""
    times.write_text("")
    env = os.environ | {"TOOLWIRE_JOBS_CPU_TIMES": str(times)}
    argv = [sys.executable, "-m", "toolwire", "check", str(log), *how, "--format", "json"]
    start = time.perf_counter()
    child = subprocess.Popen([*argv, "--jobs", str(jobs)], stdout=subprocess.PIPE, env=env)
    out = child.stdout.read() if child.stdout else b""
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"toolwire check --jobs {jobs} failed")
    rounds = [
        [(float(cpu), int(kib)) for cpu, kib in (x.split(":") for x in line.split())]
        for line in times.read_text().splitlines()
        if line.strip()
    ]
    workers = [worker for round_ in rounds for worker in round_]
    busiest = sum(max(cpu for cpu, _ in round_) for round_ in rounds)
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


_HALF = r"""
import json, sys
start, end = int(sys.argv[2]), int(sys.argv[3])
with open(sys.argv[1], "rb") as handle:
    handle.seek(start)
    for line in handle.read(end - start).splitlines():
        json.loads(line)
"""


def _middle(log: Path) -> int:
    """The offset of the first line end after the middle of ``log``."""
    with log.open("rb") as handle:
        handle.seek(log.stat().st_size // 2)
        handle.readline()
        return handle.tell()


def _ceiling(log: Path, middle: int) -> tuple[float, float]:
    """This machine's own ceiling for the critical-path speed-up, once: CPU seconds of one process
    doing ``json.loads`` over the whole log, and of the busier of two doing a half each at once (on
    a machine whose two CPUs share a core, or its caches, or a host, each of two runs slower than
    one alone)."""
    size = log.stat().st_size

    def cpu(*ranges: tuple[int, int]) -> list[float]:
        children = [
            subprocess.Popen([sys.executable, "-c", _HALF, str(log), str(a), str(b)]) for a, b in ranges
        ]
        out = []
        for child in children:
            _, _, usage = os.wait4(child.pid, 0)
            out.append(usage.ru_utime + usage.ru_stime)
        return out

    return cpu((0, size))[0], max(cpu((0, middle), (middle, size)))


def grouped_records(sessions: int, turns: int = 5, shuffled: bool = False) -> Iterator[dict[str, Any]]:
    """``sessions`` conversations of ``turns`` records each (a Chat Completions request and its
    response; each turn's request replays the calls of the turns before, with their results), as
    a gateway logs them: clustered (a conversation's records together), or shuffled over the log.
    One conversation in 100 changes a call's id between a response and the next request."""
    from run import ALNUM, _ids

    rng = random.Random(1)
    order = [(s, t) for s in range(sessions) for t in range(turns)]
    if shuffled:
        random.Random(2).shuffle(order)
    ids = {(s, t): "call_" + _ids(rng, ALNUM, 24) for s in range(sessions) for t in range(turns)}
    for s, t in order:
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": f"Plan a trip for me ({s})."},
        ]
        for before in range(t):
            call = ids[(s, before)]
            replayed = call[:-1] + "X" if s % 100 == 7 and before == t - 1 else call
            arguments = json.dumps({"location": f"city {before}"})
            function = {"name": "get_weather", "arguments": arguments}
            messages.append(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [{"id": replayed, "type": "function", "function": function}],
                }
            )
            messages.append({"role": "tool", "tool_call_id": replayed, "content": '{"celsius": 21}'})
        call = {
            "id": ids[(s, t)],
            "type": "function",
            "function": {"name": "get_weather", "arguments": json.dumps({"location": f"city {t}"})},
        }
        response = {
            "id": f"chatcmpl-{s}-{t}",
            "object": "chat.completion",
            "created": 1767225600 + t,
            "model": "gpt-4o-2024-08-06",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": None, "tool_calls": [call]},
                    "logprobs": None,
                    "finish_reason": "tool_calls",
                }
            ],
        }
        request = {"model": "gpt-4o-2024-08-06", "messages": messages}
        yield {"session": f"sess-{s:07d}", "turn": t, "request": request, "response": response}


def bench_grouped(add: Callable[..., None], scratch: Path, sessions: int, runs: int) -> None:
    """A grouped log on two processes against one (critical path), and shuffled against clustered."""
    from run import write

    clustered, shuffled = scratch / "clustered.jsonl", scratch / "shuffled.jsonl"
    count = write(clustered, grouped_records(sessions))
    write(shuffled, grouped_records(sessions, shuffled=True))
    times = scratch / "cpu"
    # Interleaved rounds, each ratio a round's own (see bench_jobs).
    rounds = [
        (
            _check(clustered, 1, times, GROUPED),
            _check(clustered, 2, times, GROUPED),
            _check(shuffled, 2, times, GROUPED),
        )
        for _ in range(runs)
    ]
    mixed_one = _check(shuffled, 1, times, GROUPED)
    found = json.loads(rounds[0][0][2])["reports"]
    planted = sum(len(r["findings"]) for r in found)
    same = all(one[2] == two[2] == rounds[0][0][2] and mixed[2] == mixed_one[2] for one, two, mixed in rounds)
    cpu1, cpu2 = statistics.median(r[0][1] for r in rounds), statistics.median(r[1][1] for r in rounds)
    add(
        "grouped check --jobs 2 CPU critical path",
        statistics.median(r[0][1] / r[1][1] for r in rounds),
        "(reported)",
        same and planted > 0,
        f"{cpu1:.2f} s / {cpu2:.2f} s, {count:,} records, {planted} findings"
        + ("" if same else "; findings DIFFER"),
    )
    wall_c, wall_s = statistics.median(r[1][0] for r in rounds), statistics.median(r[2][0] for r in rounds)
    rss = max(r[k][3] for r in rounds for k in (1, 2))
    add(
        "grouped check shuffled / clustered, --jobs 2",
        statistics.median(r[2][0] / r[1][0] for r in rounds),
        "(reported)",
        same,
        f"{wall_s:.2f} s / {wall_c:.2f} s wall; a worker's peak RSS {rss / (1 << 20):.0f} MiB",
    )


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
        middle = _middle(log)
        # Interleaved: each round measures json.loads, --jobs 1, --jobs 2 and the machine's
        # ceiling one after the other, and each ratio is a round's own (the machine's speed swings
        # by a quarter between minutes); the medians of the rounds' ratios are printed.
        rounds = []
        for _ in range(runs):
            loads, one, two = _loads(log), _check(log, 1, times), _check(log, 2, times)
            rounds.append((loads, one, two, _ceiling(log, middle)))
        same = all(one[2] == two[2] == rounds[0][1][2] for _, one, two, _ in rounds)
        size = log.stat().st_size / (1 << 20)

        def median(f: Callable[[Any], float]) -> float:
            return statistics.median(f(r) for r in rounds)

        loads, cpu1, cpu2 = median(lambda r: r[0]), median(lambda r: r[1][1]), median(lambda r: r[2][1])
        wall1, wall2 = median(lambda r: r[1][0]), median(lambda r: r[2][0])
        speed_up = median(lambda r: r[1][1] / r[2][1])
        spread = ", ".join(f"{r[1][1] / r[2][1]:.2f}" for r in rounds)
        add(
            "check --jobs 1 time / json.loads's",
            median(lambda r: r[1][1] / r[0]),
            "<= 1.0",
            median(lambda r: r[1][1] / r[0]) <= 1.0,
            f"{count / cpu1:,.0f} vs {count / loads:,.0f} records/s, {size:.0f} MiB",
        )
        add(
            "check --jobs 2 wall speed-up",
            median(lambda r: r[1][0] / r[2][0]),
            "(reported)",
            same,
            f"{wall1:.2f} s / {wall2:.2f} s",
        )
        add(
            "check --jobs 2 CPU critical-path speed-up",
            speed_up,
            ">= 1.7",
            same and speed_up >= 1.7,
            f"{cpu1:.2f} s / {cpu2:.2f} s; rounds {spread}" + ("" if same else "; findings DIFFER"),
        )
        alone, halves = median(lambda r: r[3][0]), median(lambda r: r[3][1])
        add(
            "this machine's 2-process ceiling (json.loads)",
            median(lambda r: r[3][0] / r[3][1]),
            "(reported)",
            True,
            f"{alone:.2f} s alone / {halves:.2f} s the busier of two halves at once; rounds "
            + ", ".join(f"{r[3][0] / r[3][1]:.2f}" for r in rounds),
        )
        # Memory per worker is bounded by its part, not the log: the same at 40% of the records (a
        # tenth would cut parts under 4 MiB, read without msgspec: a few MiB less for that alone).
        small = Path(scratch) / "small.jsonl"
        tenth = write(small, chat_bodies(max(1, requests * 4 // 10)))
        rss, rss10 = max(r[2][3] for r in rounds), _check(small, 2, times)[3]
        add(
            f"worker peak RSS {count:,} / {tenth:,} records",
            rss / rss10,
            "<= 1.25",
            rss / rss10 <= 1.25,
            f"{rss / (1 << 20):.0f} MiB / {rss10 / (1 << 20):.0f} MiB, --jobs 2",
        )
        bench_grouped(add, Path(scratch), max(100, requests // 10), runs)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()

    def show(figure: str, value: float, target: str, met: bool, detail: str = "") -> None:
        print(f"{figure:<44} {value:.2f}  ({detail})  {target}  {'met' if met else 'MISSED'}")

    bench_jobs(show, args.requests, args.runs)
