"""Severity from evidence (issue 38): real consumers fed each stream rule's violating trace.

A stream rule is an error when a real consumer of the stream loses, duplicates or changes a call,
its arguments or its id on the rule's violating trace; otherwise a warning whose source names the
consumers run here.  Each test pins exactly what one consumer made of one hand-written trace
(tests/helpers/violating.py), beside the well-formed stream it was cut from, and that toolwire
flags the trace with the rule at the severity this evidence gives.  The consumers are pinned in
pyproject.toml's dev extra (openai, langchain-openai, pydantic-ai-slim) and tests/sdk/package.json
(@ai-sdk/openai); the node ones run only where ``npm ci --prefix tests/sdk`` was run.  This module
holds the OpenAI Responses stream; its siblings test_consumer_evidence_<family>.py (chat, aisdk,
anthropic, gemini, bedrock) the other protocols' streams.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import toolwire
from helpers import consumers, violating
from helpers.consumers import Seen
from toolwire.protocols import RULES

pytestmark = pytest.mark.slow

PARIS, LYON = '{"city":"Paris"}', '{"city":"Lyon"}'
#: What every consumer hands its user on the well-formed stream: the two calls, as sent.
CALLS = [("call_1", "get_weather", PARIS), ("call_2", "get_weather", LYON)]


def _flagged(tmp_path: Path, events: list[dict[str, Any]], protocol: str) -> dict[str, str]:
    path = tmp_path / "trace.sse"
    path.write_text(consumers.sse(events))
    report = toolwire.check_file(path, protocol)
    return {f.rule: f.severity for f in report.findings}


def _node() -> None:
    if reason := consumers.node_missing():
        pytest.skip(reason)


def _plain(seen: Seen) -> list[tuple[str, str, str]]:
    """The final calls, arguments as compact JSON (LangChain re-serialises parsed arguments)."""
    import json

    return [(i, n, json.dumps(json.loads(a), separators=(",", ":"))) for i, n, a in seen.calls]


# OpenAI Responses ------------------------------------------------------------------------------

GOOD = violating.responses_stream()


@pytest.mark.parametrize(
    ("rule", "trace", "severity"),
    [
        ("RS-1a", violating.rs1a_item_id_is_call_id, "warning"),
        ("RS-7e", violating.rs7e_done_differs_from_deltas, "error"),
        ("RS-8b", violating.rs8b_numbering_restarts, "error"),
        ("RS-7b", violating.rs7b_call_after_completed, "error"),
        ("RS-7c", violating.rs7c_call_added_twice, "error"),
        ("RS-7f", violating.rs7f_added_item_without_call_id_and_name, "error"),
        ("RS-8a", violating.rs8a_one_event_unnumbered, "error"),
        ("OR-8", violating.or8_deltas_without_output_index, "error"),
    ],
)
def test_each_responses_trace_breaks_its_rule_alone(
    tmp_path: Path, rule: str, trace: Any, severity: str
) -> None:
    assert _flagged(tmp_path, GOOD, "openai-responses-stream") == {}
    assert _flagged(tmp_path, trace(), "openai-responses-stream") == {rule: severity}
    assert RULES[rule].severity == severity


def test_openai_python_stream_state_keeps_calls_when_item_id_is_the_call_id() -> None:
    good = consumers.openai_responses_stream(consumers.sse(GOOD))
    seen = consumers.openai_responses_stream(consumers.sse(violating.rs1a_item_id_is_call_id()))
    # ResponseStreamState addresses argument events by output_index and never reads item_id.
    assert seen == good
    assert seen.calls == [(f"{k}:{i}", n, a) for k in ("done", "final") for i, n, a in CALLS]


def test_langchain_openai_keeps_calls_when_item_id_is_the_call_id() -> None:
    seen = consumers.langchain_openai_responses(consumers.sse(violating.rs1a_item_id_is_call_id()))
    assert seen == consumers.langchain_openai_responses(consumers.sse(GOOD))
    assert _plain(seen) == CALLS


def test_pydantic_ai_drops_the_deltas_when_item_id_is_the_call_id_but_keeps_the_call() -> None:
    good = consumers.pydantic_ai_responses(consumers.sse(GOOD))
    seen = consumers.pydantic_ai_responses(consumers.sse(violating.rs1a_item_id_is_call_id()))
    assert good.streamed == {
        "call_1": ["{}", '{"city":', '"Paris"}'],
        "call_2": ["{}", '{"city":', '"Lyon"}'],
    }
    # Deltas are keyed by item_id: under the call_id they are passed over, and output_item.done
    # then sends the whole arguments as one delta.  The call, its id and arguments are intact.
    assert seen.streamed == {"call_1": ["{}", PARIS], "call_2": ["{}", LYON]}
    assert seen.calls == good.calls == CALLS
    assert seen.error is None
    assert seen.warnings == []


def test_ai_sdk_openai_responses_keeps_calls_when_item_id_is_the_call_id() -> None:
    _node()
    good = consumers.ai_sdk("ai-sdk-openai-responses", consumers.sse(GOOD))
    seen = consumers.ai_sdk("ai-sdk-openai-responses", consumers.sse(violating.rs1a_item_id_is_call_id()))
    assert seen == good
    assert seen.calls == CALLS


NICE = violating.RS7E_ITEM_DONE
assert (violating.RS7E_DELTAS, violating.RS7E_ARGUMENTS_DONE) == (PARIS, LYON)


def test_openai_python_streams_one_argument_and_completes_another_when_done_differs() -> None:
    seen = consumers.openai_responses_stream(consumers.sse(violating.rs7e_done_differs_from_deltas()))
    assert seen.streamed["call_1"] == ['{"city":', '"Paris"}']
    assert seen.calls[0] == ("done:call_1", "get_weather", NICE)
    assert seen.calls[2] == ("final:call_1", "get_weather", NICE)


def test_ai_sdk_openai_responses_streams_the_deltas_but_calls_with_the_done_item() -> None:
    _node()
    seen = consumers.ai_sdk(
        "ai-sdk-openai-responses", consumers.sse(violating.rs7e_done_differs_from_deltas())
    )
    assert seen.streamed["call_1"] == ['{"city":', '"Paris"}']
    assert seen.calls == [("call_1", "get_weather", NICE), CALLS[1]]


def test_langchain_openai_calls_with_the_deltas_when_done_differs() -> None:
    seen = consumers.langchain_openai_responses(consumers.sse(violating.rs7e_done_differs_from_deltas()))
    assert _plain(seen) == CALLS


def test_pydantic_ai_calls_with_the_deltas_and_warns_when_done_differs() -> None:
    seen = consumers.pydantic_ai_responses(consumers.sse(violating.rs7e_done_differs_from_deltas()))
    assert seen.calls == CALLS
    assert len(seen.warnings) == 1
    assert "arguments differ from the streamed argument deltas" in seen.warnings[0]


def test_openai_python_resuming_after_a_restarted_sequence_number_loses_the_second_call() -> None:
    # The client saw the first call to its output_item.done (sequence_number 6) and resumes after it.
    good = consumers.openai_responses_resume(consumers.sse(GOOD), starting_after=6)
    seen = consumers.openai_responses_resume(
        consumers.sse(violating.rs8b_numbering_restarts()), starting_after=6
    )
    assert good.calls == [
        ("added:call_2", "get_weather", ""),
        ("done:call_2", "get_weather", LYON),
        ("final:call_1", "get_weather", PARIS),
        ("final:call_2", "get_weather", LYON),
    ]
    # Events numbered at or below starting_after are not yielded: the second call's, here.
    assert seen.calls == good.calls[2:]


def test_consumers_reading_a_whole_stream_ignore_sequence_numbers_going_back() -> None:
    body = consumers.sse(violating.rs8b_numbering_restarts())
    assert consumers.openai_responses_stream(body) == consumers.openai_responses_stream(consumers.sse(GOOD))
    assert consumers.pydantic_ai_responses(body).calls == CALLS
    assert _plain(consumers.langchain_openai_responses(body)) == CALLS


# RS-7d is two faults under one rule: a closing event sent twice duplicates the call in consumers
# that act on output_item.done, while a delta after arguments.done harms none of them.  Its
# severity waits for the rule to be split (issue 38); these pin the evidence for each half.


def test_a_repeated_output_item_done_duplicates_the_call_in_the_ai_sdk_and_openai_events() -> None:
    body = consumers.sse(violating.rs7d_item_done_twice())
    seen = consumers.openai_responses_stream(body)
    assert [c for c in seen.calls if c[0].startswith("done:")] == [
        ("done:call_1", "get_weather", PARIS),
        ("done:call_1", "get_weather", PARIS),
        ("done:call_2", "get_weather", LYON),
    ]
    assert seen.calls[3:] == [("final:call_1", "get_weather", PARIS), ("final:call_2", "get_weather", LYON)]
    assert _plain(consumers.langchain_openai_responses(body)) == CALLS
    assert consumers.pydantic_ai_responses(body).calls == CALLS
    _node()
    assert consumers.ai_sdk("ai-sdk-openai-responses", body).calls == [CALLS[0], CALLS[0], CALLS[1]]


def test_a_delta_after_arguments_done_changes_no_consumer_call() -> None:
    body = consumers.sse(violating.rs7d_delta_after_arguments_done())
    good = consumers.sse(GOOD)
    assert consumers.openai_responses_stream(body) == consumers.openai_responses_stream(good)
    assert _plain(consumers.langchain_openai_responses(body)) == CALLS
    assert consumers.pydantic_ai_responses(body).calls == CALLS
    _node()
    assert consumers.ai_sdk("ai-sdk-openai-responses", body).calls == CALLS


# RS-7b is an error for an item event after the terminal one and a warning for an envelope event.


def test_a_call_streamed_after_response_completed_is_lost_to_openai_python_final_response() -> None:
    seen = consumers.openai_responses_stream(consumers.sse(violating.rs7b_call_after_completed()))
    # The events still carry the second call; the final response is response.completed's, without it.
    assert seen.calls == [
        ("done:call_1", "get_weather", PARIS),
        ("done:call_2", "get_weather", LYON),
        ("final:call_1", "get_weather", PARIS),
    ]
    assert seen.error is None


def test_the_other_consumers_call_a_call_streamed_after_response_completed() -> None:
    body = consumers.sse(violating.rs7b_call_after_completed())
    assert _plain(consumers.langchain_openai_responses(body)) == CALLS
    assert consumers.pydantic_ai_responses(body).calls == CALLS
    _node()
    assert consumers.ai_sdk("ai-sdk-openai-responses", body).calls == CALLS


@pytest.mark.parametrize("kind", ["response.completed", "response.in_progress"])
def test_an_envelope_event_after_response_completed_changes_no_consumer_call(
    tmp_path: Path, kind: str
) -> None:
    events = violating.rs7b_envelope_after_completed(kind)
    assert _flagged(tmp_path, events, "openai-responses-stream") == {"RS-7b": "warning"}
    body, good = consumers.sse(events), consumers.sse(GOOD)
    assert consumers.openai_responses_stream(body) == consumers.openai_responses_stream(good)
    assert _plain(consumers.langchain_openai_responses(body)) == CALLS
    assert consumers.pydantic_ai_responses(body).calls == CALLS
    _node()
    ai_sdk = "ai-sdk-openai-responses"
    assert consumers.ai_sdk(ai_sdk, body) == consumers.ai_sdk(ai_sdk, good)


def test_a_call_added_twice_is_called_twice_or_ends_openai_python_final_response() -> None:
    body = consumers.sse(violating.rs7c_call_added_twice())
    twice = [*CALLS, CALLS[0]]
    seen = consumers.openai_responses_stream(body)
    assert seen.calls == [("done:call_1", "get_weather", PARIS), ("done:call_2", "get_weather", LYON)]
    assert seen.error == "RuntimeError: Response snapshot has conflicting output identities."
    assert _plain(consumers.langchain_openai_responses(body)) == twice
    assert consumers.pydantic_ai_responses(body).calls == twice
    _node()
    assert consumers.ai_sdk("ai-sdk-openai-responses", body).calls == twice


def test_an_added_item_without_call_id_and_name_loses_or_renames_the_call() -> None:
    body = consumers.sse(violating.rs7f_added_item_without_call_id_and_name())
    seen = consumers.openai_responses_stream(body)
    assert (seen.calls, seen.error) == ([], "RuntimeError: Completed output item identity changed.")
    assert consumers.langchain_openai_responses(body).calls[0] == (None, "", '{"city": "Paris"}')
    (first, second) = consumers.pydantic_ai_responses(body).calls
    assert first[0].startswith("pyd_ai_") and first[1:] == (None, PARIS)
    assert second == CALLS[1]
    _node()
    seen = consumers.ai_sdk("ai-sdk-openai-responses", body)
    # The added event fails the schema (an error part) and the call's deltas are not streamed;
    # output_item.done still carries the call.
    assert seen.error is not None and seen.error.startswith("Type validation failed")
    assert "call_1" not in seen.streamed
    assert seen.calls == CALLS


def test_an_unnumbered_event_ends_an_openai_python_resume_and_nothing_else() -> None:
    body = consumers.sse(violating.rs8a_one_event_unnumbered())
    seen = consumers.openai_responses_resume(body, starting_after=6)
    assert seen.calls == []
    assert seen.error == "TypeError: '>' not supported between instances of 'NoneType' and 'int'"
    assert consumers.openai_responses_stream(body) == consumers.openai_responses_stream(consumers.sse(GOOD))
    assert _plain(consumers.langchain_openai_responses(body)) == CALLS
    assert consumers.pydantic_ai_responses(body).calls == CALLS
    _node()
    assert consumers.ai_sdk("ai-sdk-openai-responses", body).calls == CALLS


def test_deltas_without_output_index_end_openai_python_and_are_not_streamed_by_the_ai_sdk() -> None:
    body = consumers.sse(violating.or8_deltas_without_output_index())
    seen = consumers.openai_responses_stream(body)
    assert seen.calls == []
    assert seen.error == (
        "RuntimeError: Received a content event for output index None before receiving its output item"
    )
    assert _plain(consumers.langchain_openai_responses(body)) == CALLS
    assert consumers.pydantic_ai_responses(body).calls == CALLS
    _node()
    seen = consumers.ai_sdk("ai-sdk-openai-responses", body)
    assert seen.error is not None and seen.error.startswith("Type validation failed")
    assert seen.streamed == {"call_1": [], "call_2": []}
    assert seen.calls == CALLS
