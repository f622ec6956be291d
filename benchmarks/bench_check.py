"""Benchmark: `toolwire check` on a 1,000,000-event Responses stream against `json.loads`.

Prints (a) a plain `json.loads` loop over the lines (in process: no start-up cost),
(b) `toolwire check` on the file as a subprocess (start-up included), (c) the ratio
b/a (target: at most 0.6), (d) events per second, (e) 20,000 of the events pushed
through the python-statemachine classes directly, against the same events through
the compiled-table monitor, and the speed-up.  Runs interleave and the medians are
reported, because these machines are noisy.  Usage: python benchmarks/bench_check.py
[--events N] [--runs K] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

EVENTS_PER_CALL = 100  # added + 97 deltas + arguments.done + item done


def generate(path: Path, events: int) -> int:
    """Write a valid Responses stream of about ``events`` events; returns its length."""
    rng = random.Random(0)
    hexdigits = "0123456789abcdef"
    alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    calls = max(1, (events - 3) // EVENTS_PER_CALL)
    seq = 0
    dumps = json.dumps
    response = {
        "id": "resp_" + "".join(rng.choice(hexdigits) for _ in range(48)),
        "object": "response",
        "status": "in_progress",
        "model": "gpt-4.1-2025-04-14",
        "output": [],
    }
    with path.open("w") as out:

        def emit(event: dict[str, Any]) -> None:
            nonlocal seq
            event["sequence_number"] = seq
            seq += 1
            out.write(dumps(event, separators=(",", ":")) + "\n")

        emit({"type": "response.created", "response": response})
        emit({"type": "response.in_progress", "response": response})
        for index in range(calls):
            item_id = "fc_" + "".join(rng.choice(hexdigits) for _ in range(48))
            call_id = "call_" + "".join(rng.choice(alnum) for _ in range(24))
            item = {
                "id": item_id,
                "type": "function_call",
                "status": "in_progress",
                "arguments": "",
                "call_id": call_id,
                "name": "get_weather",
            }
            emit({"type": "response.output_item.added", "output_index": index, "item": item})
            pieces = [
                rng.choice(['{"lo', "cation", '":"', "Par", "is, ", "Fr", "ance", '"}']) for _ in range(97)
            ]
            for piece in pieces:
                emit(
                    {
                        "type": "response.function_call_arguments.delta",
                        "item_id": item_id,
                        "output_index": index,
                        "delta": piece,
                        "obfuscation": "Qm9xZXM",
                    }
                )
            arguments = "".join(pieces)
            emit(
                {
                    "type": "response.function_call_arguments.done",
                    "item_id": item_id,
                    "output_index": index,
                    "arguments": arguments,
                    "name": "get_weather",
                }
            )
            emit(
                {
                    "type": "response.output_item.done",
                    "output_index": index,
                    "item": dict(item, status="completed", arguments=arguments),
                }
            )
        emit({"type": "response.completed", "response": dict(response, status="completed")})
    return seq


def time_json_loads(path: Path) -> float:
    start = time.perf_counter()
    with path.open("rb") as handle:
        for line in handle:
            json.loads(line)
    return time.perf_counter() - start


def time_check(path: Path, protocol: str = "openai-responses-stream") -> float:
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "toolwire", "check", str(path), "-p", protocol],
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"toolwire check did not pass the generated stream:\n{result.stdout}{result.stderr}")
    return elapsed


def time_classes_and_tables(path: Path, count: int) -> tuple[float, float]:
    """``count`` events through python-statemachine ``send``, and through the monitor."""
    from toolwire.machines import FunctionCallItem, ResponseStream
    from toolwire.properties import OPENAI_RESPONSES, ResponsesStreamMonitor

    with path.open("rb") as handle:
        events = [json.loads(next(handle)) for _ in range(count)]
    envelope_events = {
        "response.created": "response_created",
        "response.in_progress": "response_in_progress",
        "response.completed": "completed",
    }
    item_events = {
        "response.output_item.added": "item_added",
        "response.function_call_arguments.delta": "delta",
        "response.function_call_arguments.done": "arguments_complete",
        "response.output_item.done": "item_done",
    }
    start = time.perf_counter()
    envelope = ResponseStream()
    items: dict[int, FunctionCallItem] = {}
    for event in events:
        kind = event["type"]
        envelope.send(envelope_events.get(kind, "item"))
        if kind in item_events:
            machine = items.get(event["output_index"])
            if machine is None:
                machine = items[event["output_index"]] = FunctionCallItem()
            machine.send(item_events[kind])
    classes = time.perf_counter() - start
    start = time.perf_counter()
    monitor = ResponsesStreamMonitor(OPENAI_RESPONSES)
    for index, event in enumerate(events):
        monitor.feed(event, index, index + 1, None)
    tables = time.perf_counter() - start
    assert not monitor.findings, monitor.findings[:3]
    return classes, tables


def measure(
    path: Path,
    protocol: str,
    events: int,
    events_per_call: int,
    runs: int,
    classes_and_tables: Callable[[Path, int], tuple[float, float]],
) -> None:
    """Print (a) to (e) for the stream at ``path``; shared by every stream benchmark."""
    size = path.stat().st_size
    print(f"stream: {events:,} events, {events // events_per_call:,} tool calls, {size / 1e6:.0f} MB")
    loads, checks = [], []
    for _ in range(runs):
        loads.append(time_json_loads(path))
        checks.append(time_check(path, protocol))
    a, b = statistics.median(loads), statistics.median(checks)
    print(f"(a) json.loads loop, in process:        {a:.3f} s (median of {runs})")
    print(f"(b) toolwire check, start-up included:  {b:.3f} s (median of {runs})")
    ratio = b / a
    verdict = "met" if ratio <= 0.6 else "MISSED"
    print(f"(c) b/a:                                {ratio:.3f} (target <= 0.6: {verdict})")
    print(f"(d) events per second:                  {events / b:,.0f}")
    classes, tables = classes_and_tables(path, 20_000)
    print(
        f"(e) 20,000 events via python-statemachine send: {classes:.3f} s; via the table "
        f"monitor (all checks): {tables:.4f} s; speed-up {classes / tables:.0f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="write the stream into this folder and keep it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "responses-stream.jsonl"
        events = generate(path, args.events)
        measure(path, "openai-responses-stream", events, EVENTS_PER_CALL, args.runs, time_classes_and_tables)


if __name__ == "__main__":
    main()
