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

from toolwire.properties import Monitor
from toolwire.protocols import PROTOCOLS
from unit.test_monitors import STREAMS, consumed, frames_of, mutated_trace


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


def _fed(monitor: Monitor, events: list[dict[str, Any]]) -> list[tuple[str, int | None]]:
    for index, value in enumerate(events):
        monitor.feed({**value, "sequence_number": index}, index, None, None)
    return [(f.rule, f.index) for f in monitor.findings]


def test_a_forgotten_call_keeps_each_hash_whole() -> None:
    # Its text's, arguments.done's and name's hashes each take 65 bits (one says there was one):
    # packed 64 apart, one's flag bit overwrote the next one's lowest bit, half of the time.
    created = {"type": "response.created", "response": {}}
    for k in range(64):
        arguments = f'{{"n":{k}}}'
        calls = list(responses_calls(0, 1))
        for event in calls:
            if event["type"] == "response.function_call_arguments.delta":
                event["delta"] = arguments if event is calls[1] else ""
            elif event["type"] == "response.function_call_arguments.done":
                event["arguments"] = arguments
        done = {**calls[-1], "item": {**calls[-1]["item"], "arguments": arguments}}
        # A second output_item.done comes back for the forgotten call: RS-7d, and no RS-7e.
        events = [created, *calls[:-1], done, done]
        assert _fed(forgetful("openai-responses-stream"), events) == _fed(
            PROTOCOLS["openai-responses-stream"].monitor(), events
        )


def test_a_forgotten_call_brought_back_still_owns_its_call_id() -> None:
    created = {"type": "response.created", "response": {}}
    first, second = list(responses_calls(0, 1)), list(responses_calls(1, 1))
    second[0]["item"] = {**second[0]["item"], "call_id": first[0]["item"]["call_id"]}
    # The first call is done (and forgotten), then addressed again, then its call_id reused.
    events = [created, *first, first[-1], *second]
    found = _fed(forgetful("openai-responses-stream"), events)
    assert ("RS-7c", 2 + len(first)) in found
    assert found == _fed(PROTOCOLS["openai-responses-stream"].monitor(), events)
