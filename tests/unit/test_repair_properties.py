"""Properties of the repairer over generated histories and histories the mutators damaged."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolwire import check
from toolwire.engines.repair import REPAIRABLE, repair
from toolwire.protocols import GENERATED, MUTATORS, intact, mutated, traces

GENERATED_HISTORIES = [p for p in REPAIRABLE if p in GENERATED]
#: The protocols whose descriptors say which pairs of a damaged history are intact.
WITH_INTACT = ("openai-chat", "mistral-chat")


def _plain(messages: list[Any], protocol: str) -> list[Any]:
    """The messages that are neither a call nor a result (openai-chat shape)."""
    return [m for m in messages if m.get("role") != "tool" and not m.get("tool_calls")]


@pytest.mark.parametrize("protocol", GENERATED_HISTORIES)
@given(data=st.data())
def test_a_clean_history_is_left_byte_identical(protocol: str, data: st.DataObject) -> None:
    history = data.draw(traces(protocol))
    before = json.dumps(history)
    fixed = repair(history, protocol)
    assert fixed.history is history and fixed.changes == ()
    assert json.dumps(fixed.history) == before


@pytest.mark.parametrize("mutator", list(MUTATORS))
@pytest.mark.parametrize("protocol", GENERATED_HISTORIES)
@given(data=st.data())
def test_a_damaged_history_comes_out_clean_and_repairing_it_again_changes_nothing(
    protocol: str, mutator: str, data: st.DataObject
) -> None:
    history = data.draw(mutated(protocol, mutator))
    fixed = repair(history, protocol)
    after = check(fixed.history, protocol)
    assert after.exit_code == 0, (
        [(c.rule, c.action) for c in fixed.changes],
        [(f.rule, f.path) for f in after.errors],
    )
    again = repair(fixed.history, protocol)
    assert again.history == fixed.history and again.changes == ()
    # No orphan's content is lost under the defaults: each note says what the result said.
    for change in fixed.changes:
        if change.action == "note":
            text = (
                change.before
                if isinstance(change.before, str)
                else json.dumps(change.before, ensure_ascii=False, separators=(",", ":"))
            )
            assert text in change.after


@pytest.mark.parametrize("policies", [{}, {"orphan_results": "drop", "unanswered_calls": "drop"}])
@pytest.mark.parametrize("mutator", list(MUTATORS))
@pytest.mark.parametrize("protocol", WITH_INTACT)
@given(data=st.data())
def test_every_intact_pair_and_every_plain_message_is_kept_in_order(
    protocol: str, mutator: str, policies: dict[str, str], data: st.DataObject
) -> None:
    history = data.draw(mutated(protocol, mutator))
    kept = intact(history, protocol)
    fixed = repair(history, protocol, **policies)  # type: ignore[arg-type]
    out = fixed.history
    for ident in kept:
        ident = fixed.ids.get(ident, ident)
        turns = [n for n, m in enumerate(out) if any(c.get("id") == ident for c in m.get("tool_calls") or [])]
        assert len(turns) == 1
        run = []
        for m in out[turns[0] + 1 :]:
            if m.get("role") != "tool":
                break
            run.append(m.get("tool_call_id"))
        assert run.count(ident) == 1
    plain_in = _plain(history, protocol)
    plain_out = iter(_plain(out, protocol))
    assert all(any(m == o for o in plain_out) for m in plain_in)  # a subsequence: kept, in order


@pytest.mark.slow
@pytest.mark.parametrize("mutator", list(MUTATORS))
@pytest.mark.parametrize("protocol", GENERATED_HISTORIES)
@settings(max_examples=1000)
@given(data=st.data())
def test_a_thousand_damaged_histories_each_come_out_clean(
    protocol: str, mutator: str, data: st.DataObject
) -> None:
    history = data.draw(mutated(protocol, mutator))
    assert check(repair(history, protocol).history, protocol).exit_code == 0
