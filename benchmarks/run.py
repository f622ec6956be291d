"""toolwire's benchmark: every performance figure as a ratio against its baseline in the same run.

    python benchmarks/run.py [--events N] [--runs K] [--quick] [--keep DIR]   (or: make bench)

Generates its inputs (Responses, Anthropic and Chat streams of ``--events`` events as JSON Lines and
the same events as SSE; 100,000 Chat request bodies of 10 messages each) and prints, each with its
target:

* ``toolwire check`` as a whole process (start-up included) / an in-process ``json.loads`` loop over
  the same JSON Lines, for each stream (target <= 0.4);
* peak RSS of ``toolwire check`` at 0.3M, 1M and 3M Responses events (3M <= 1.25x 0.3M, < 100 MiB),
  and at 3M events whose last event carries every output item / the same with a small last one (<= 2);
* start-up (``toolwire check`` on a one-event file) / ``python -c pass``, bytecode compiled (<= 3x);
* ``toolwire check`` on SSE / on the same events as JSON Lines, for each stream (<= 1.2x);
* ``toolwire check`` of the request logs / ``json.loads`` of them (<= 1.0x);
* fuzz examples per second / plain Hypothesis drawing the same structures (>= 1.0x): as many
  examples (``--fuzz-seconds`` x 100) of JSON shaped exactly like the campaign's own inputs (the
  same events, keys and string lengths); the campaign's CPU time includes its target worker's;
* explorer / a bare ``set`` + ``deque`` BFS over the same state space (<= 1.33x);
* ``toolwire check --jobs`` (``bench_jobs.py``): ``--jobs 1`` / ``json.loads`` of the same request
  log (<= 1.0), the ``--jobs 2`` speed-up as wall time and as CPU critical path (>= 1.7, findings
  identical), a worker's peak RSS on the log / on a tenth of it (<= 1.25);
* ``toolwire proxy``: added latency per chunk (median < 1 ms, p99 < 5 ms) on a ``--proxy-chunks``
  stream, throughput with 100 concurrent streams / direct (>= 0.8), peak RSS with 200 streams
  (``bench_proxy.py``: the upstream and the proxy run as processes of their own);
* PySpark local mode (session start plus job) / ``check --jobs 2`` on one grouped log (``bench_spark.py``);
* ``repair`` / ``check`` of one 1,000-message Chat history (``bench_repair.py``): clean (<= 1.1), damaged
  every tenth turn (<= 2).

Times are CPU seconds (user + system; of the child process for ``toolwire check``), medians of
``--runs`` interleaved runs: on a shared machine they vary far less than wall-clock time, which
``--wall`` measures instead.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
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

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

MIB = 1024 * 1024
ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
HEX = "0123456789abcdef"
EVENTS_PER_CALL = 100


def _ids(rng: random.Random, alphabet: str, size: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(size))


# --- inputs -------------------------------------------------------------------------------------


def responses_events(events: int, full: bool = False) -> Iterator[dict[str, Any]]:
    """A valid OpenAI Responses stream of about ``events`` events (100 per function call); with
    ``full``, its ``response.completed`` carries every output item (as the API sends it)."""
    rng = random.Random(0)
    calls = max(1, (events - 3) // EVENTS_PER_CALL)
    response = {
        "id": "resp_" + _ids(rng, HEX, 48),
        "object": "response",
        "status": "in_progress",
        "model": "gpt-4.1-2025-04-14",
        "output": [],
    }
    seq = iter(range(1 << 62))
    yield {"type": "response.created", "sequence_number": next(seq), "response": response}
    yield {"type": "response.in_progress", "sequence_number": next(seq), "response": response}
    pieces = ['{"lo', "cation", '":"', "Par", "is, ", "Fr", "ance", '"}']
    done: list[dict[str, Any]] = []
    for index in range(calls):
        item_id = "fc_" + _ids(rng, HEX, 48)
        item = {
            "id": item_id,
            "type": "function_call",
            "status": "in_progress",
            "arguments": "",
            "call_id": "call_" + _ids(rng, ALNUM, 24),
            "name": "get_weather",
        }
        yield {
            "type": "response.output_item.added",
            "sequence_number": next(seq),
            "output_index": index,
            "item": item,
        }
        deltas = [rng.choice(pieces) for _ in range(EVENTS_PER_CALL - 3)]
        for delta in deltas:
            yield {
                "type": "response.function_call_arguments.delta",
                "sequence_number": next(seq),
                "item_id": item_id,
                "output_index": index,
                "delta": delta,
                "obfuscation": "Qm9xZXM",
            }
        arguments = "".join(deltas)
        yield {
            "type": "response.function_call_arguments.done",
            "sequence_number": next(seq),
            "item_id": item_id,
            "output_index": index,
            "arguments": arguments,
            "name": "get_weather",
        }
        finished = dict(item, status="completed", arguments=arguments)
        if full:
            done.append(finished)
        yield {
            "type": "response.output_item.done",
            "sequence_number": next(seq),
            "output_index": index,
            "item": finished,
        }
    yield {
        "type": "response.completed",
        "sequence_number": next(seq),
        "response": dict(response, status="completed", output=done),
    }


def anthropic_events(events: int) -> Iterator[dict[str, Any]]:
    """A valid Anthropic message stream of about ``events`` events (100 per tool_use block)."""
    rng = random.Random(0)
    calls = max(1, (events - 4) // EVENTS_PER_CALL)
    yield {
        "type": "message_start",
        "message": {
            "id": "msg_014p7gG3wDgGV9EUtLvnow3U",
            "type": "message",
            "role": "assistant",
            "content": [],
            "model": "claude-opus-4-6",
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 472, "output_tokens": 2},
        },
    }
    yield {"type": "ping"}
    for index in range(calls):
        yield {
            "type": "content_block_start",
            "index": index,
            "content_block": {
                "type": "tool_use",
                "id": "toolu_01" + _ids(rng, ALNUM, 22),
                "name": "get_weather",
                "input": {},
            },
        }
        body = json.dumps({"location": _ids(rng, ALNUM, 300)})
        size = -(-len(body) // (EVENTS_PER_CALL - 2))
        for start in range(0, len(body), size):
            yield {
                "type": "content_block_delta",
                "index": index,
                "delta": {"type": "input_json_delta", "partial_json": body[start : start + size]},
            }
        yield {"type": "content_block_stop", "index": index}
    yield {
        "type": "message_delta",
        "delta": {"stop_reason": "tool_use", "stop_sequence": None},
        "usage": {"output_tokens": 89},
    }
    yield {"type": "message_stop"}


def chat_events(events: int) -> Iterator[dict[str, Any]]:
    """A valid OpenAI Chat Completions stream of about ``events`` chunks (100 per tool call)."""
    rng = random.Random(0)
    calls = max(1, (events - 1) // EVENTS_PER_CALL)
    head = {
        "id": "chatcmpl-" + _ids(rng, ALNUM, 29),
        "object": "chat.completion.chunk",
        "created": 1767225600,
    }
    head |= {"model": "gpt-4o-2024-08-06", "system_fingerprint": "fp_f33640a400"}
    pieces = ['{"lo', "cation", '":"', "Par", "is, ", "Fr", "ance", '"}']

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return head | {"choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}

    for index in range(calls):
        opening: dict[str, Any] = {
            "index": index,
            "id": "call_" + _ids(rng, ALNUM, 24),
            "type": "function",
            "function": {"name": "get_weather", "arguments": ""},
        }
        delta: dict[str, Any] = {"tool_calls": [opening]}
        if index == 0:
            delta = {"role": "assistant", "content": None, **delta}
        yield chunk(delta)
        for _ in range(EVENTS_PER_CALL - 1):
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": rng.choice(pieces)}}]})
    yield chunk({}, "tool_calls")


def chat_bodies(count: int) -> Iterator[dict[str, Any]]:
    """``count`` Chat Completions request bodies of 10 messages each (two tool rounds)."""
    rng = random.Random(0)
    tools = [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Current weather in a city.",
                "parameters": {"type": "object", "properties": {"location": {"type": "string"}}},
            },
        }
    ]
    for number in range(count):
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": f"What is the weather in Paris? ({number})"},
        ]
        for city in ("Paris", "Lyon"):
            call_id = "call_" + _ids(rng, ALNUM, 24)
            messages.append(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": call_id,
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": json.dumps({"location": city})},
                        }
                    ],
                }
            )
            messages.append({"role": "tool", "tool_call_id": call_id, "content": '{"celsius": 21}'})
            messages.append({"role": "assistant", "content": f"It is 21 C in {city}."})
        messages.append({"role": "user", "content": "Thanks."})
        messages.append({"role": "assistant", "content": "You are welcome."})
        yield {"model": "gpt-4o-2024-08-06", "messages": messages, "tools": tools}


def write(path: Path, values: Iterator[dict[str, Any]], sse: Path | None = None) -> int:
    """Write ``values`` as JSON Lines to ``path`` (and as SSE to ``sse``); returns their count."""
    dumps = json.JSONEncoder(separators=(",", ":")).encode
    count = 0
    with path.open("w") as out, (sse or Path(os.devnull)).open("w") as events:
        for value in values:
            text = dumps(value)
            out.write(text + "\n")
            if sse is not None:
                kind = value.get("type")
                if isinstance(kind, str) and kind.startswith(("response.", "message_", "content_", "ping")):
                    events.write(f"event: {kind}\ndata: {text}\n\n")
                else:
                    events.write(f"data: {text}\n\n")
            count += 1
        if sse is not None and not path.name.startswith(("responses", "anthropic")):
            events.write("data: [DONE]\n\n")
    return count


# --- measuring ----------------------------------------------------------------------------------


#: ``--wall``: measure wall-clock time instead of CPU time.
OPTIONS = {"wall": False}


def clock() -> float:
    """Seconds of this process: wall-clock with ``--wall``, else CPU (user + system)."""
    if OPTIONS["wall"]:
        return time.perf_counter()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def loads_loop(path: Path) -> float:
    """Seconds of an in-process ``json.loads`` loop over the lines of ``path``."""
    loads = json.loads
    start = clock()
    with path.open("rb") as handle:
        for line in handle:
            loads(line)
    return clock() - start


def check_argv(path: Path, protocol: str) -> list[str]:
    return [sys.executable, "-m", "toolwire", "check", str(path), "-p", protocol]


def timed(argv: list[str]) -> tuple[float, int]:
    """Seconds (see :func:`clock`) and peak RSS in bytes of one child process, which must exit 0."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start if OPTIONS["wall"] else usage.ru_utime + usage.ru_stime
    out = child.stdout.read() if child.stdout else b""
    err = child.stderr.read() if child.stderr else b""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{out.decode()[:2000]}{err.decode()[:2000]}")
    return elapsed, usage.ru_maxrss * 1024


#: Starts a command (argv[2:]) and writes its CPU seconds and peak RSS (KiB) to the file argv[1]:
#: started from this small process, the command's peak is its own.  (A child started straight from
#: the benchmark reports the benchmark's own peak when that is higher: Linux hands an exec'ed
#: process the peak RSS of the process it replaced, which a vfork child shares.)
_LAUNCH = """
import os, sys
pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ)
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as out:
    out.write(f"{usage.ru_utime + usage.ru_stime} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}")
"""


def peak_rss(argv: list[str]) -> int:
    """Peak RSS in bytes of one child process running ``argv``, which must exit 0."""
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "usage"
        child = subprocess.run(
            [sys.executable, "-c", _LAUNCH, str(report), *argv], capture_output=True, check=False
        )
        _, kib, code = report.read_text().split()
    if int(code) != 0:
        raise SystemExit(
            f"{' '.join(argv)} failed:\n{child.stdout.decode()[:2000]}{child.stderr.decode()[:2000]}"
        )
    return int(kib) * 1024


class Table:
    """The lines printed: figure, measured ratio, target, verdict."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str, bool]] = []

    def add(self, figure: str, value: float, target: str, met: bool, detail: str = "") -> None:
        text = f"{value:.2f}" + (f"  ({detail})" if detail else "")
        self.rows.append((figure, text, target, met))
        print(f"{figure:<44} {text:<52} {target:<14} {'met' if met else 'MISSED'}", flush=True)


def bench_check(folder: Path, events: int, runs: int, table: Table) -> None:
    streams = [
        ("responses", "openai-responses-stream", responses_events),
        ("anthropic", "anthropic-stream", anthropic_events),
        ("chat", "openai-chat-stream", chat_events),
    ]
    for name, protocol, make in streams:
        jsonl, sse = folder / f"{name}.jsonl", folder / f"{name}.sse"
        count = write(jsonl, make(events), sse)
        loads, checks, sses = [], [], []
        for _ in range(runs):
            loads.append(loads_loop(jsonl))
            checks.append(timed(check_argv(jsonl, protocol))[0])
            sses.append(timed(check_argv(sse, protocol))[0])
        a, b, c = statistics.median(loads), statistics.median(checks), statistics.median(sses)
        table.add(
            f"check / json.loads, {name} {count:,} events", b / a, "<= 0.4", b / a <= 0.4,
            f"{b:.2f} s / {a:.2f} s",
        )  # fmt: skip
        table.add(f"SSE / JSON Lines, {name}", c / b, "<= 1.2", c / b <= 1.2, f"{c:.2f} s / {b:.2f} s")
        sse.unlink()
        if name != "responses":
            jsonl.unlink()


def bench_memory(folder: Path, events: int, table: Table) -> None:
    peaks = {}
    for scale in (0.3, 1, 3):
        count = int(events * scale)
        path = folder / f"memory-{scale}.jsonl"
        write(path, responses_events(count))
        peaks[scale] = peak_rss(check_argv(path, "openai-responses-stream"))
        path.unlink()
    detail = ", ".join(f"{int(events * scale):,}: {peak / MIB:.0f} MiB" for scale, peak in peaks.items())
    growth = peaks[3] / peaks[0.3]
    table.add(
        f"peak RSS {3 * events:,} / {int(0.3 * events):,} events", growth, "<= 1.25", growth <= 1.25, detail
    )
    table.add(f"peak RSS at {3 * events:,} events, MiB", peaks[3] / MIB, "< 100", peaks[3] < 100 * MIB)
    # The same stream whose response.completed carries every output item (as the API sends it):
    # one line of some 17 MB at 3M events.
    path, sse = folder / "responses-full.jsonl", folder / "responses-full.sse"
    write(path, responses_events(3 * events, full=True), sse)
    with path.open("rb") as handle:
        handle.seek(-min(path.stat().st_size, 64 * MIB), os.SEEK_END)
        last = len(handle.read().rstrip(b"\n").rsplit(b"\n", 1)[-1])
    full = peak_rss(check_argv(path, "openai-responses-stream"))
    full_sse = peak_rss(check_argv(sse, "openai-responses-stream"))
    path.unlink()
    sse.unlink()
    table.add(
        "peak RSS, last event carrying every item / not", full / peaks[3], "<= 2", full / peaks[3] <= 2,
        f"{full / MIB:.0f} MiB / {peaks[3] / MIB:.0f} MiB; last line {last / MIB:.1f} MiB",
    )  # fmt: skip
    # The same as the provider sends it, as SSE, against the small-last-event stream as SSE.
    path, sse = folder / "responses-small.jsonl", folder / "responses-small.sse"
    write(path, responses_events(3 * events), sse)
    small_sse = peak_rss(check_argv(sse, "openai-responses-stream"))
    path.unlink()
    sse.unlink()
    table.add(
        "peak RSS as SSE, last event every item / not", full_sse / small_sse, "<= 2",
        full_sse / small_sse <= 2, f"{full_sse / MIB:.0f} MiB / {small_sse / MIB:.0f} MiB",
    )  # fmt: skip


def bench_startup(folder: Path, runs: int, table: Table) -> None:
    import toolwire

    compileall.compile_dir(Path(toolwire.__file__).parent, quiet=1)
    tiny = folder / "tiny.jsonl"
    write(tiny, responses_events(3))
    argv = check_argv(tiny, "openai-responses-stream")
    timed(argv)
    # Interleaved, so that a slow spell of the machine weighs on both alike.
    pairs = [(timed([sys.executable, "-c", "pass"])[0], timed(argv)[0]) for _ in range(runs * 5)]
    bare = statistics.median(b for b, _ in pairs)
    ours = statistics.median(o for _, o in pairs)
    table.add(
        "start-up / python -c pass", ours / bare, "<= 3", ours / bare <= 3, f"{ours:.3f} s / {bare:.3f} s"
    )


def bench_requests(folder: Path, runs: int, table: Table, count: int) -> None:
    path = folder / "chat-requests.jsonl"
    write(path, chat_bodies(count))
    loads, checks = [], []
    for _ in range(runs):
        loads.append(loads_loop(path))
        # One process: a big log's pool would leave its workers' CPU out of this figure (they are
        # the forkserver's children); bench_jobs measures --jobs 2.
        checks.append(timed([*check_argv(path, "openai-chat"), "--jobs", "1"])[0])
    a, b = statistics.median(loads), statistics.median(checks)
    table.add(
        f"request logs / json.loads, {count:,} bodies",
        b / a,
        "<= 1.0",
        b / a <= 1.0,
        f"{b:.2f} s / {a:.2f} s",
    )


def clock_all() -> float:
    """:func:`clock`, with the CPU time of the child processes this process has waited for."""
    if OPTIONS["wall"]:
        return time.perf_counter()
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return clock() + usage.ru_utime + usage.ru_stime


def shaped(value: Any) -> Any:
    """A plain Hypothesis strategy of JSON values shaped exactly like ``value``.

    The same keys, list lengths and string lengths; every scalar drawn anew: what a
    hand-written ``fixed_dictionaries``/``lists``/``text`` strategy for this trace draws.
    """
    from hypothesis import strategies as st

    if isinstance(value, dict):
        return st.fixed_dictionaries({key: shaped(item) for key, item in value.items()})
    if isinstance(value, list):
        return st.tuples(*map(shaped, value)).map(list)
    if isinstance(value, bool):
        return st.booleans()
    if isinstance(value, int):
        return st.integers()
    if isinstance(value, float):
        return st.floats()
    if isinstance(value, str):
        return st.text(min_size=len(value), max_size=len(value))
    return st.none()


def bench_fuzz(seconds: float, runs: int, table: Table) -> None:
    """A campaign (its target worker's CPU included) against plain Hypothesis drawing the same structures.

    The campaign's inputs are drawn first (seeded, untimed); plain Hypothesis then draws,
    as many times, JSON shaped exactly like one of them (:func:`shaped`): the same
    events, keys and string lengths.  A correct converter: nothing to shrink.  The
    campaign's cost over drawing toolwire's own strategy alone is printed beside it.
    """
    from bench_campaign import EXAMPLES, PLANTED
    from hypothesis import HealthCheck, Phase, given, seed, settings
    from hypothesis import strategies as st

    from toolwire.engines import fuzz
    from toolwire.protocols import traces

    name, source, destination, _ = PLANTED[0]
    count = max(200, int(seconds * 100))
    budget = settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=(Phase.generate,),
        suppress_health_check=list(HealthCheck),
    )

    def campaign() -> float:
        start = clock_all()
        run = fuzz(f"{EXAMPLES / name}:fixed", source, destination, max_examples=count, seed=0, out=None)
        elapsed = clock_all() - start
        if run.examples != count:
            raise SystemExit(f"the campaign ran {run.examples} examples, not {count}")
        return elapsed

    def draws(strategy: Any, keep: list[Any]) -> Callable[[], float]:
        @seed(0)
        @budget
        @given(strategy)
        def draw(value: Any) -> None:
            keep.append(value)

        def timed_draw() -> float:
            keep.clear()
            start = clock()
            draw()
            elapsed = clock() - start
            if len(keep) != count:
                raise SystemExit(f"plain Hypothesis drew {len(keep)} examples, not {count}")
            return elapsed

        return timed_draw

    inputs: list[Any] = []
    own = draws(traces(source, swarm=True), inputs)
    own()
    alike = st.sampled_from([shaped(trace) for trace in inputs]).flatmap(lambda strategy: strategy)
    plain = draws(alike, [])
    # Interleaved, so that a slow spell of the machine weighs on all three alike.
    rounds = [(campaign(), plain(), own()) for _ in range(runs)]
    a, b, c = (statistics.median(times) for times in zip(*rounds, strict=True))
    table.add(
        "fuzz ex/s / plain Hypothesis", b / a, ">= 1.0", b / a >= 1.0,
        f"{count / a:.0f}/s / {count / b:.0f}/s, {count:,} inputs of the same shapes",
    )  # fmt: skip
    print(
        f"{'':<44} (drawing toolwire's own strategy alone: {count / c:.0f}/s; the campaign runs at"
        f" {c / a:.2f} of that, judging and the target included)",
        flush=True,
    )


def bench_explore(runs: int, table: Table) -> None:
    from bench_explore import PROTOCOL, plain_bfs

    from toolwire.engines import state_space
    from toolwire.properties import Bounds
    from toolwire.protocols import space_for

    calls, deltas = 5, 3
    space = space_for(PROTOCOL, Bounds(calls=calls, deltas=deltas, interleave=True))
    states = state_space(space).states
    if states != plain_bfs(calls, deltas, True):
        raise SystemExit("the explorer and the bare BFS disagree on the state space")

    def ours() -> float:
        start = clock()
        state_space(space)
        return clock() - start

    def bare() -> float:
        start = clock()
        plain_bfs(calls, deltas, True)
        return clock() - start

    rounds = [(ours(), bare()) for _ in range(runs)]  # interleaved
    a, b = (statistics.median(times) for times in zip(*rounds, strict=True))
    table.add(
        f"explorer / bare BFS, {states:,} states", a / b, "<= 1.33", a / b <= 1.33, f"{a:.2f} s / {b:.2f} s"
    )


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} CPUs ({model}), Python {platform.python_version()}, {platform.system()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000, help="events per stream (default 1M)")
    parser.add_argument("--requests", type=int, default=100_000, help="request bodies (default 100,000)")
    parser.add_argument("--runs", type=int, default=3, help="runs per timing; medians are printed")
    parser.add_argument("--fuzz-seconds", type=float, default=10.0, help="fuzz: x 100 examples")
    parser.add_argument("--keep", type=Path, help="write the inputs into this folder and keep them")
    parser.add_argument("--wall", action="store_true", help="wall-clock time instead of CPU time")
    parser.add_argument("--proxy-chunks", type=int, default=1000, help="chunks per proxied stream")
    parser.add_argument("--proxy-streams", type=int, default=100, help="concurrent proxied streams")
    parser.add_argument("--gateway-examples", type=int, default=200, help="examples per gateway campaign")
    parser.add_argument(
        "--only",
        help="comma-separated: check,memory,startup,requests,fuzz,explore,proxy,gateway,jobs,spark,repair",
    )
    args = parser.parse_args()
    OPTIONS["wall"] = args.wall
    every = {"check", "memory", "startup", "requests", "fuzz", "explore", "proxy", "gateway", "jobs", "spark"}
    every.add("repair")
    only = set(args.only.split(",")) if args.only else every
    print(f"machine: {machine()}; times: {'wall-clock' if OPTIONS['wall'] else 'CPU'} seconds")
    print(f"{'figure':<44} {'ratio (measured / baseline)':<52} {'target':<14} verdict")
    table = Table()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        if "startup" in only:
            bench_startup(folder, args.runs, table)
        if "check" in only:
            bench_check(folder, args.events, args.runs, table)
        if "memory" in only:
            bench_memory(folder, args.events, table)
        if "requests" in only:
            bench_requests(folder, args.runs, table, args.requests)
        if "fuzz" in only:
            bench_fuzz(args.fuzz_seconds, args.runs, table)
        if "explore" in only:
            bench_explore(args.runs * 2, table)
        if "proxy" in only:
            from bench_proxy import bench_proxy

            streams = args.proxy_streams
            bench_proxy(table.add, args.proxy_chunks, streams, streams * 2)
        if "gateway" in only:
            from bench_gateway import bench_gateway

            bench_gateway(table.add, args.gateway_examples)
        if "jobs" in only:
            from bench_jobs import bench_jobs

            bench_jobs(table.add, args.requests, args.runs)
        if "spark" in only:
            from bench_spark import bench_spark

            bench_spark(table.add, args.requests)
        if "repair" in only:
            from bench_repair import bench_repair

            bench_repair(table.add, args.runs * 3)
    missed = [figure for figure, _, _, met in table.rows if not met]
    print(
        f"{len(table.rows) - len(missed)} of {len(table.rows)} targets met"
        + (f"; missed: {'; '.join(missed)}" if missed else "")
    )


if __name__ == "__main__":
    main()
