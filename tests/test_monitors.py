"""Monitors: never crash on any JSON, and the hot path agrees with event-by-event feeding."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from corpus import DATA, corpus
from toolwire.models import read_frames
from toolwire.properties import Monitor
from toolwire.protocols import PROTOCOLS

STREAMS = [e for e in corpus() if PROTOCOLS[e["protocol"]].shape == "stream"]


def frames_of(entry: dict[str, Any]) -> list[tuple[int | None, Any, str | None]]:
    """A stream's events, or a request's messages / input items, as frames."""
    with (DATA / entry["file"]).open("rb") as handle:
        frames = list(read_frames(handle, lambda line, message: None))
    container = PROTOCOLS[entry["protocol"]].container
    if container is None:
        return frames
    return [(None, item, None) for item in frames[0][1][container]]


def one_by_one(monitor: Monitor, frames: list[tuple[int | None, Any, str | None]]) -> None:
    for index, (line, value, event) in enumerate(frames):
        monitor.feed(value, index, line, event)
    monitor.finish(len(frames), frames[-1][0] if frames else None)


def consumed(monitor: Monitor, frames: list[tuple[int | None, Any, str | None]]) -> None:
    index, line = monitor.consume(iter(frames))
    monitor.finish(index, line)


@pytest.mark.parametrize("entry", STREAMS, ids=[e["file"] for e in STREAMS])
def test_consume_reports_what_feeding_event_by_event_reports(entry: dict[str, Any]) -> None:
    frames = frames_of(entry)
    slow, fast = PROTOCOLS[entry["protocol"]].monitor(), PROTOCOLS[entry["protocol"]].monitor()
    one_by_one(slow, frames)
    consumed(fast, frames)
    assert fast.findings == slow.findings


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


@st.composite
def mutated_trace(draw: st.DrawFn) -> tuple[str, list[tuple[int | None, Any, str | None]]]:
    """A corpus trace with events (or messages) dropped, duplicated, swapped, or fields replaced by junk."""
    entry = draw(st.sampled_from(corpus()))
    frames = frames_of(entry)
    for _ in range(draw(st.integers(0, 4))):
        if not frames:
            break
        k = draw(st.integers(0, len(frames) - 1))
        action = draw(st.sampled_from(["drop", "dup", "swap", "junk-field", "junk-event"]))
        line, value, event = frames[k]
        if action == "drop":
            del frames[k]
        elif action == "dup":
            frames.insert(k, frames[k])
        elif action == "swap" and k + 1 < len(frames):
            frames[k], frames[k + 1] = frames[k + 1], frames[k]
        elif action == "junk-field" and isinstance(value, dict) and value:
            value = json.loads(json.dumps(value))
            value[draw(st.sampled_from(sorted(value)))] = draw(json_values)
            frames[k] = (line, value, event)
        elif action == "junk-event":
            frames[k] = (line, draw(json_values), event)
    return entry["protocol"], frames


@given(mutated_trace())
def test_monitors_never_raise_and_both_paths_agree_on_mutated_traces(
    case: tuple[str, list[tuple[int | None, Any, str | None]]],
) -> None:
    protocol, frames = case
    slow, fast = PROTOCOLS[protocol].monitor(), PROTOCOLS[protocol].monitor()
    one_by_one(slow, frames)
    consumed(fast, frames)
    assert fast.findings == slow.findings


@given(st.sampled_from(sorted(PROTOCOLS)), st.lists(json_values, max_size=6))
def test_monitors_never_raise_on_arbitrary_json(protocol: str, values: list[Any]) -> None:
    monitor = PROTOCOLS[protocol].monitor()
    for index, value in enumerate(values):
        monitor.feed(value, index, index + 1, None)
    monitor.finish(len(values), None)


@pytest.mark.parametrize("protocol", ["aisdk-model-messages", "aisdk-ui-messages"])
def test_a_role_or_output_type_of_any_json_shape_is_a_finding_not_a_crash(protocol: str) -> None:
    import toolwire

    for odd in ([], {}, 1, None):
        messages = [
            {"role": odd, "content": "Hi"},
            {
                "role": "tool",
                "content": [
                    {"type": "tool-result", "toolCallId": "c", "toolName": "f", "output": {"type": odd}}
                ],
            },
        ]
        toolwire.check(messages, protocol)  # reports what it reports; it never raises


def test_an_unknown_type_is_one_notice_but_every_event_of_it_counts_as_skipped() -> None:
    # One notice per type keeps the report short; detection still weighs every skipped event.
    monitor = PROTOCOLS["openai-responses-stream"].make(None)
    for index in range(3):
        event = {"type": "response.future.thing", "sequence_number": index}
        monitor.feed(event, index, index + 1, None)
    monitor.feed({"type": "response.other.thing", "sequence_number": 3}, 3, 4, None)
    assert [n.message.split(" is not")[0] for n in monitor.notices] == [
        "event type 'response.future.thing'",
        "event type 'response.other.thing'",
    ]
    assert "(toolwire models openai 3.54.0)" in monitor.notices[0].message
    assert monitor.noticed == 2
    assert monitor.skipped == 4
    assert [f.rule for f in monitor.findings] == ["RS-7a"]  # no response.created: not the type's fault
