"""Flat memory: a stream monitor that will not be asked for its calls forgets finished ones.

Forgetting changes no rule broken: the same traces break the same rules at the same events either
way (findings about a call already forgotten name its ids as forgotten).
"""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given

from test_monitors import STREAMS, consumed, frames_of, mutated_trace
from toolwire.properties import PROTOCOLS, Monitor


def forgetful(protocol: str) -> Monitor:
    monitor = PROTOCOLS[protocol].monitor()
    monitor.keep_calls = False
    return monitor


@pytest.mark.parametrize("entry", STREAMS, ids=[e["file"] for e in STREAMS])
def test_forgetting_changes_no_finding_on_the_corpus(entry: dict[str, Any]) -> None:
    frames = frames_of(entry)
    keeping, forgetting = PROTOCOLS[entry["protocol"]].monitor(), forgetful(entry["protocol"])
    consumed(keeping, frames)
    consumed(forgetting, frames)
    assert where(forgetting) == where(keeping)


@given(mutated_trace())
def test_forgetting_changes_no_finding_on_mutated_traces(
    case: tuple[str, list[tuple[int | None, Any, str | None]]],
) -> None:
    protocol, frames = case
    if PROTOCOLS[protocol].shape != "stream":
        return
    keeping, forgetting = PROTOCOLS[protocol].monitor(), forgetful(protocol)
    consumed(keeping, frames)
    consumed(forgetting, frames)
    assert where(forgetting) == where(keeping)


def where(monitor: Monitor) -> list[tuple[str, str, int | None, int | None]]:
    return [(f.rule, f.severity, f.index, f.line) for f in monitor.findings]


def responses_calls(first: int, count: int) -> Iterator[dict[str, Any]]:
    """``count`` complete function calls from ``output_index`` ``first`` on, 20 distinct deltas each."""
    for k in range(first, first + count):
        item = {"type": "function_call", "id": f"fc_{k:048x}", "call_id": f"call_{k:024d}", "name": "f"}
        deltas = [f"{k}:{j}," for j in range(20)]
        events: list[dict[str, Any]] = [
            {"type": "response.output_item.added", "output_index": k, "item": item}
        ]
        events += [
            {
                "type": "response.function_call_arguments.delta",
                "output_index": k,
                "item_id": item["id"],
                "delta": d,
            }
            for d in deltas
        ]
        events.append(
            {
                "type": "response.function_call_arguments.done",
                "output_index": k,
                "item_id": item["id"],
                "arguments": "".join(deltas),
            }
        )
        events.append({"type": "response.output_item.done", "output_index": k, "item": item})
        yield from events


def retained(monitor: Monitor, first: int, count: int, number: int) -> int:
    """Bytes the monitor holds on to after ``count`` more calls (made and dropped one by one)."""
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    for index, value in enumerate(responses_calls(first, count), number):
        value["sequence_number"] = index
        monitor.feed(value, index, None, None)
    gc.collect()
    return tracemalloc.get_traced_memory()[0] - before


def test_a_responses_monitor_keeps_little_of_a_finished_call() -> None:
    monitor = forgetful("openai-responses-stream")
    monitor.feed({"type": "response.created", "sequence_number": 0, "response": {}}, 0, 1, None)
    tracemalloc.start()
    try:
        retained(monitor, 0, 100, 1)
        per_call = retained(monitor, 100, 2000, 10**6) / 2000
    finally:
        tracemalloc.stop()
    # Hashes of its ids and a few numbers (a kept call holds its item and every delta: over 2 kB).
    assert per_call < 300, per_call
    assert not monitor.findings
