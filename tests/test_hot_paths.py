"""A request body fed whole (``Monitor.feed_document``) reports what feeding it message by message does."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given

from corpus import corpus
from test_monitors import frames_of, mutated_trace, one_by_one
from toolwire.properties import PROTOCOLS, Monitor

DOCUMENTS = [e for e in corpus() if PROTOCOLS[e["protocol"]].shape != "stream"]


def whole(monitor: Monitor, frames: list[tuple[int | None, Any, str | None]]) -> None:
    monitor.feed_document([value for _, value, _ in frames], None)
    monitor.finish(len(frames), None)


def by_item(monitor: Monitor, frames: list[tuple[int | None, Any, str | None]]) -> None:
    one_by_one(monitor, [(None, value, None) for _, value, _ in frames])  # and finish


@pytest.mark.parametrize("entry", DOCUMENTS, ids=[e["file"] for e in DOCUMENTS])
def test_a_document_fed_whole_reports_what_feeding_it_item_by_item_reports(entry: dict[str, Any]) -> None:
    frames = frames_of(entry)
    slow, fast = PROTOCOLS[entry["protocol"]].monitor(), PROTOCOLS[entry["protocol"]].monitor()
    by_item(slow, frames)
    whole(fast, frames)
    assert fast.findings == slow.findings


@given(mutated_trace())
def test_a_mutated_document_fed_whole_reports_the_same(
    case: tuple[str, list[tuple[int | None, Any, str | None]]],
) -> None:
    protocol, frames = case
    if PROTOCOLS[protocol].shape == "stream":
        return
    slow, fast = PROTOCOLS[protocol].monitor(), PROTOCOLS[protocol].monitor()
    by_item(slow, frames)
    whole(fast, frames)
    assert fast.findings == slow.findings
