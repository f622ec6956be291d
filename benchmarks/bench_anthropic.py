"""Benchmark: `toolwire check` on a 1,000,000-event Anthropic message stream against `json.loads`.

The foundation's compiled-table target, for the Anthropic stream: (a) a plain
`json.loads` loop over the lines, in process; (b) `toolwire check -p
anthropic-stream` as a subprocess, start-up included; (c) b/a (target: at most
0.6); (d) events per second; (e) 20,000 events through the python-statemachine
classes (`MessageStream`, `ContentBlock`) against the table monitor.  Runs
interleave; medians are reported.  Usage: python benchmarks/bench_anthropic.py
[--events N] [--runs K]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_check import measure

EVENTS_PER_CALL = 100  # content_block_start + 98 input_json_delta + content_block_stop


def generate(path: Path, events: int) -> int:
    """Write a valid Anthropic stream of about ``events`` events (JSON Lines); returns its length."""
    rng = random.Random(0)
    alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    calls = max(1, (events - 4) // EVENTS_PER_CALL)
    dumps = json.dumps
    count = 0
    with path.open("w") as out:

        def emit(event: dict[str, object]) -> None:
            nonlocal count
            count += 1
            out.write(dumps(event, separators=(",", ":")) + "\n")

        emit(
            {
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
        )
        emit({"type": "ping"})
        for index in range(calls):
            call_id = "toolu_01" + "".join(rng.choice(alnum) for _ in range(22))
            emit(
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {"type": "tool_use", "id": call_id, "name": "get_weather", "input": {}},
                }
            )
            body = json.dumps({"location": "".join(rng.choice(alnum) for _ in range(300))})
            size = -(-len(body) // (EVENTS_PER_CALL - 2))
            for start in range(0, len(body), size):
                emit(
                    {
                        "type": "content_block_delta",
                        "index": index,
                        "delta": {"type": "input_json_delta", "partial_json": body[start : start + size]},
                    }
                )
            emit({"type": "content_block_stop", "index": index})
        emit(
            {
                "type": "message_delta",
                "delta": {"stop_reason": "tool_use", "stop_sequence": None},
                "usage": {"output_tokens": 89},
            }
        )
        emit({"type": "message_stop"})
    return count


def time_classes_and_tables(path: Path, count: int) -> tuple[float, float]:
    """``count`` events through python-statemachine ``send``, and through the monitor."""
    from toolwire.machines import ContentBlock, MessageStream
    from toolwire.properties import PROTOCOLS

    with path.open("rb") as handle:
        events = [json.loads(next(handle)) for _ in range(count)]
    envelope_events = {"message_start": "start", "message_delta": "delta", "message_stop": "stop"}
    block_events = {
        "content_block_start": "start",
        "content_block_delta": "delta",
        "content_block_stop": "stop",
    }
    start = time.perf_counter()
    envelope = MessageStream()
    blocks: dict[int, ContentBlock] = {}
    for event in events:
        kind = event["type"]
        if kind in block_events:
            envelope.send("block")
            machine = blocks.get(event["index"])
            if machine is None:
                machine = blocks[event["index"]] = ContentBlock()
            machine.send(block_events[kind])
        elif kind in envelope_events:
            envelope.send(envelope_events[kind])
    classes = time.perf_counter() - start
    start = time.perf_counter()
    monitor = PROTOCOLS["anthropic-stream"].make()
    for index, event in enumerate(events):
        monitor.feed(event, index, index + 1, None)
    tables = time.perf_counter() - start
    assert not monitor.findings, monitor.findings[:3]
    return classes, tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "anthropic-stream.jsonl"
        events = generate(path, args.events)
        measure(path, "anthropic-stream", events, EVENTS_PER_CALL, args.runs, time_classes_and_tables)


if __name__ == "__main__":
    main()
