"""A request body fed whole (``Monitor.feed_document``) reports what feeding it message by message does."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from helpers.corpus import corpus
from toolwire import check
from toolwire.engines.checking import check_messages, first_error
from toolwire.properties import Monitor
from toolwire.protocols import PROTOCOLS
from unit.test_monitors import frames_of, mutated_trace, one_by_one

DOCUMENTS = [e for e in corpus() if PROTOCOLS[e["protocol"]].shape != "stream"]


def whole(monitor: Monitor, frames: list[tuple[int | None, Any, str | None]]) -> None:
    monitor.feed_document([value for _, value, _ in frames], None)
    monitor.finish(len(frames), None)


def by_item(monitor: Monitor, frames: list[tuple[int | None, Any, str | None]]) -> None:
    one_by_one(monitor, [(None, value, None) for _, value, _ in frames])  # and finish


@pytest.mark.parametrize("keep_calls", [True, False], ids=["calls-kept", "calls-forgotten"])
@pytest.mark.parametrize("entry", DOCUMENTS, ids=[e["file"] for e in DOCUMENTS])
def test_a_document_fed_whole_reports_what_feeding_it_item_by_item_reports(
    entry: dict[str, Any], keep_calls: bool
) -> None:
    # With calls forgotten (toolwire check without --after), more messages take the hot path.
    frames = frames_of(entry)
    slow, fast = PROTOCOLS[entry["protocol"]].monitor(), PROTOCOLS[entry["protocol"]].monitor()
    slow.keep_calls = fast.keep_calls = keep_calls
    by_item(slow, frames)
    whole(fast, frames)
    assert fast.findings == slow.findings


@given(mutated_trace(), st.booleans())
# A Responses input item whose type is a list (an unhashable type, once looked up in a set of types).
@example(
    case=("openai-responses", [(None, {"type": [], "call_id": "call_1", "name": "f"}, None)]),
    keep_calls=False,
)
def test_a_mutated_document_fed_whole_reports_the_same(
    case: tuple[str, list[tuple[int | None, Any, str | None]]], keep_calls: bool
) -> None:
    protocol, frames = case
    if PROTOCOLS[protocol].shape == "stream":
        return
    slow, fast = PROTOCOLS[protocol].monitor(), PROTOCOLS[protocol].monitor()
    slow.keep_calls = fast.keep_calls = keep_calls
    by_item(slow, frames)
    whole(fast, frames)
    assert fast.findings == slow.findings


CALL_IDS = st.sampled_from(["call_1", "call_2", "call_3", "", "c" * 41, None, 7])
CHAT_MESSAGES = st.one_of(
    st.fixed_dictionaries({"role": st.sampled_from(["user", "system", "assistant", "developer", None, 3])}),
    st.fixed_dictionaries(
        {
            "role": st.just("assistant"),
            "tool_calls": st.one_of(
                st.lists(
                    st.one_of(
                        st.fixed_dictionaries(
                            {"id": CALL_IDS, "function": st.just({"name": "f", "arguments": "{}"})}
                        ),
                        st.just("junk"),
                    ),
                    max_size=3,
                ),
                st.just("junk"),
            ),
        }
    ),
    st.fixed_dictionaries({"role": st.just("tool"), "tool_call_id": CALL_IDS}),
    st.just("junk"),
)


def _calls(*ids: Any) -> dict[str, Any]:
    return {
        "role": "assistant",
        "tool_calls": [{"id": i, "function": {"name": "f", "arguments": "{}"}} for i in ids],
    }


@given(st.lists(CHAT_MESSAGES, max_size=12), st.booleans())
@example([_calls("call_1", "call_1"), {"role": "tool", "tool_call_id": "call_1"}], False)
@example([_calls("c" * 41), {"role": "tool", "tool_call_id": "c" * 41}], False)
@example([_calls("call_1", ""), {"role": "tool", "tool_call_id": "call_1"}], False)
@example([_calls("call_1", "call_2"), {"role": "tool", "tool_call_id": "call_2"}, {"role": "user"}], False)
@example([_calls("call_1"), {"role": "tool", "tool_call_id": "call_1"}] * 2, False)
@example([_calls("call_1", "call_2"), *[{"role": "tool", "tool_call_id": "call_1"}] * 2], False)
@example([{"role": "tool", "tool_call_id": "call_1"}, _calls("call_1"), _calls("call_2")], False)
def test_chat_messages_fed_whole_report_what_they_report_one_by_one(
    messages: list[Any], keep_calls: bool
) -> None:
    # Calls opened and answered with ids repeated, too long, empty or not strings, in any order.
    frames: list[tuple[int | None, Any, str | None]] = [(None, m, None) for m in messages]
    slow, fast = PROTOCOLS["openai-chat"].monitor(), PROTOCOLS["openai-chat"].monitor()
    slow.keep_calls = fast.keep_calls = keep_calls
    by_item(slow, frames)
    whole(fast, frames)
    assert fast.findings == slow.findings
    assert fast.notices == slow.notices


@given(mutated_trace())
def test_check_messages_reports_what_check_reports(
    case: tuple[str, list[tuple[int | None, Any, str | None]]],
) -> None:
    # The repairer checks what it made with check_messages: the same report as check's.
    protocol, frames = case
    if PROTOCOLS[protocol].shape == "stream":
        return
    messages = [value for _, value, _ in frames]
    assert check_messages(messages, protocol) == check(messages, protocol)


@given(mutated_trace())
def test_first_error_stops_only_where_check_finds_an_error(
    case: tuple[str, list[tuple[int | None, Any, str | None]]],
) -> None:
    # Not stopped: the report check makes.  Stopped: the monitor recorded an error finding (a
    # whole check may still drop it, as foreign; the repairer then checks the input whole).
    protocol, frames = case
    if PROTOCOLS[protocol].shape == "stream":
        return
    messages = [value for _, value, _ in frames]
    probe, report = first_error(messages, protocol), check(messages, protocol)
    if probe is not None:
        assert probe == report
    else:
        assert report.findings or report.exit_code == 2
