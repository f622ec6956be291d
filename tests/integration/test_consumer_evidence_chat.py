"""Severity from evidence (issue 38), Chat Completions streams: real consumers fed each CC-6 trace.

The sibling of test_consumer_evidence.py for ``openai-chat-stream``: each test pins what one
consumer made of one hand-written trace (tests/helpers/violating.py, cut from ``chat_stream``),
and that toolwire flags the trace with the rule at the severity this evidence gives.  The
consumers: openai-python's ``chat.completions.stream`` (ChatCompletionStreamState: its
``arguments.done`` events, then its final completion), langchain-openai's ChatOpenAI,
pydantic-ai's OpenAIChatModel and, where ``npm ci --prefix tests/sdk`` was run, @ai-sdk/openai's
chat model.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import toolwire
from helpers import consumers, violating
from helpers.consumers import Seen
from toolwire.protocols import RULES

pytestmark = pytest.mark.slow

PARIS, LYON = '{"city":"Paris"}', '{"city":"Lyon"}'
CALLS = [("call_1", "get_weather", PARIS), ("call_2", "get_weather", LYON)]
#: What openai-python hands its user on the well-formed stream: each call's arguments.done event
#: (by index), then the final completion's calls.
OPENAI = [
    ("done:0", "get_weather", PARIS),
    ("done:1", "get_weather", LYON),
    ("final:call_1", "get_weather", PARIS),
    ("final:call_2", "get_weather", LYON),
]
AI_SDK = "ai-sdk-openai-chat"


def _body(events: list[dict[str, Any]], *, done: bool = True) -> str:
    return consumers.sse(events, named=False, done=done)


def _flagged(tmp_path: Path, body: str) -> dict[str, str]:
    path = tmp_path / "trace.sse"
    path.write_text(body)
    return {f.rule: f.severity for f in toolwire.check_file(path, "openai-chat-stream").findings}


def _plain(seen: Seen) -> list[tuple[str, str, str]]:
    """The final calls, arguments as compact JSON (LangChain re-serialises parsed arguments)."""
    return [
        (i, n, a if a.startswith("invalid:") else json.dumps(json.loads(a), separators=(",", ":")))
        for i, n, a in seen.calls
    ]


def _ai_sdk(body: str) -> Seen:
    if reason := consumers.node_missing():
        pytest.skip(reason)
    return consumers.ai_sdk(AI_SDK, body)


GOOD = _body(violating.chat_stream())


def test_every_consumer_hands_over_both_calls_of_the_well_formed_stream(tmp_path: Path) -> None:
    assert _flagged(tmp_path, GOOD) == {}
    assert consumers.openai_chat_stream(GOOD).calls == OPENAI
    assert _plain(consumers.langchain_openai_chat(GOOD)) == CALLS
    assert consumers.pydantic_ai_chat(GOOD).calls == CALLS
    assert _ai_sdk(GOOD).calls == CALLS


@pytest.mark.parametrize(
    ("trace", "flagged"),
    [
        (violating.cc6a_first_fragment_without_id, {"CC-6a": "error"}),
        (violating.cc6b_null_string_ids, {"CC-6b": "error"}),
        (violating.cc6b_id_repeated, {"CC-6b": "warning"}),
        (violating.cc6c_calls_share_an_index, {"CC-6c": "error"}),
        # The last fragment comes too late to count: the call's arguments are cut (CC-6e).
        (violating.cc6d_fragment_after_finish, {"CC-6d": "error", "CC-6e": "warning"}),
    ],
)
def test_each_chat_trace_breaks_its_rule(tmp_path: Path, trace: Any, flagged: dict[str, str]) -> None:
    assert _flagged(tmp_path, _body(trace())) == flagged
    rule = next(iter(flagged))
    assert RULES[rule].severity == "error"


def test_cc6d_without_finish_reason_is_an_error_and_a_warning_when_done_closes_it(tmp_path: Path) -> None:
    events = violating.cc6d_no_finish_reason()
    assert _flagged(tmp_path, _body(events, done=False)) == {"CC-6d": "error"}
    assert _flagged(tmp_path, _body(events)) == {"CC-6d": "warning"}


def test_a_first_fragment_without_id_leaves_the_call_without_one_or_with_a_made_up_one() -> None:
    body = _body(violating.cc6a_first_fragment_without_id())
    assert consumers.openai_chat_stream(body).calls[2] == ("final:None", "get_weather", PARIS)
    assert _plain(consumers.langchain_openai_chat(body))[0] == (None, "get_weather", PARIS)
    made_up = consumers.pydantic_ai_chat(body).calls
    assert made_up[0][0].startswith("pyd_ai_") and made_up[1:] == CALLS[1:]
    seen = _ai_sdk(body)
    # A generated id, which the tool's result then answers: not the provider's call.
    assert seen.calls[0][0] not in ("call_1", None) and seen.calls[0][1:] == CALLS[0][1:]
    assert seen.calls[1] == CALLS[1]


def test_the_string_null_as_continuation_id_changes_or_splits_the_calls() -> None:
    body = _body(violating.cc6b_null_string_ids())
    # ChatCompletionStreamState concatenates every string of a fragment, the id too.
    assert consumers.openai_chat_stream(body).calls[2:] == [
        ("final:call_1nullnull", "get_weather", PARIS),
        ("final:call_2nullnull", "get_weather", LYON),
    ]
    assert _plain(consumers.langchain_openai_chat(body)) == [
        ("call_1", "get_weather", "{}"),
        ("null", "", PARIS),
        ("call_2", "get_weather", "{}"),
        ("null", "", LYON),
    ]
    assert consumers.pydantic_ai_chat(body).calls == [("null", n, a) for _, n, a in CALLS]
    seen = _ai_sdk(body)
    assert seen.calls == [CALLS[0], ("call_2", "get_weather", "")]


def test_a_repeated_continuation_id_is_concatenated_by_openai_python_alone() -> None:
    body = _body(violating.cc6b_id_repeated())
    assert consumers.openai_chat_stream(body).calls[2:] == [
        ("final:call_1call_1call_1", "get_weather", PARIS),
        ("final:call_2call_2call_2", "get_weather", LYON),
    ]
    assert _plain(consumers.langchain_openai_chat(body)) == CALLS
    assert consumers.pydantic_ai_chat(body).calls == CALLS
    assert _ai_sdk(body).calls == CALLS


def test_two_calls_at_one_index_are_merged_or_lose_their_arguments() -> None:
    body = _body(violating.cc6c_calls_share_an_index())
    merged = ("get_weatherget_weather", PARIS + LYON)
    assert consumers.openai_chat_stream(body).calls == [("done:0", *merged), ("final:call_1call_2", *merged)]
    assert _plain(consumers.langchain_openai_chat(body)) == [CALLS[0], ("call_2", "get_weather", "{}")]
    assert consumers.pydantic_ai_chat(body).calls == [
        (
            "call_2",
            "get_weatherget_weather",
            json.dumps({"INVALID_JSON": PARIS + LYON}, separators=(",", ":")),
        )
    ]
    # The AI SDK's tracker opens a new call for a new id at a used index.
    assert _ai_sdk(body).calls == CALLS


def test_a_fragment_after_finish_cuts_the_arguments_of_openai_python_done_event() -> None:
    body = _body(violating.cc6d_fragment_after_finish())
    seen = consumers.openai_chat_stream(body)
    assert seen.calls == [OPENAI[0], ("done:1", "get_weather", '{"city":'), *OPENAI[2:]]
    assert _plain(consumers.langchain_openai_chat(body)) == CALLS
    assert consumers.pydantic_ai_chat(body).calls == CALLS
    assert _ai_sdk(body).calls == CALLS


@pytest.mark.parametrize("done", [False, True], ids=["cut-off", "done-marker"])
def test_without_finish_reason_openai_python_never_closes_the_last_call(done: bool) -> None:
    body = _body(violating.cc6d_no_finish_reason(), done=done)
    # arguments.done fires for a call when the next one opens or the choice finishes: never here.
    assert consumers.openai_chat_stream(body).calls == [OPENAI[0], *OPENAI[2:]]
    assert _plain(consumers.langchain_openai_chat(body)) == CALLS
    assert consumers.pydantic_ai_chat(body).calls == CALLS
    assert _ai_sdk(body).calls == CALLS


def test_finish_reason_stop_changes_no_consumer_call(tmp_path: Path) -> None:
    body = _body(violating.cc6d_finish_reason_stop())
    assert _flagged(tmp_path, body) == {"CC-6d": "warning"}
    assert consumers.openai_chat_stream(body).calls == OPENAI
    assert _plain(consumers.langchain_openai_chat(body)) == CALLS
    assert consumers.pydantic_ai_chat(body).calls == CALLS
    assert _ai_sdk(body).calls == CALLS
