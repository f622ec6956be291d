"""Severity from evidence (issue 38): LiteLLM's stream wrappers as a consumer of Chat Completions streams.

The sibling of tests/integration/test_consumer_evidence_chat.py and test_consumer_evidence_streams.py
for LiteLLM (the version ``.ci/run`` pins in ``.ci/litellm-venv``; ``TOOLWIRE_LITELLM`` names its
``litellm``, whose ``python`` runs the consumer).  Each hand-written trace (tests/helpers/violating.py,
violating_streams.py) is served on a free loopback port by uvicorn and Starlette; LiteLLM's python
runs ``litellm.completion(model="openai/gpt-test", api_base=..., tools=[get_weather], stream=True)``
(``mistral/...`` for Mistral's stream) in a subprocess (tests/helpers/litellm_stream.py) and reports
what it hands over: the tool-call fragments its ``CustomStreamWrapper`` yields, the calls of
``litellm.stream_chunk_builder`` on those chunks, any exception.  A subprocess that outlives its
timeout is a finding (``Handed.error`` says so), not a stuck test.  Each test pins that, and the
severity toolwire gives the trace's rule, so the test documents the evidence.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

import toolwire
from helpers import consumers, violating
from helpers import violating_streams as streams
from helpers.layout import TESTS
from helpers.proxy_support import chunks_of, serving
from toolwire.protocols import RULES

LITELLM = os.environ.get("TOOLWIRE_LITELLM")
#: The python of LiteLLM's venv: the one beside its ``litellm``.
PYTHON = Path(LITELLM).with_name("python") if LITELLM else None
FOUND = PYTHON is not None and os.access(PYTHON, os.X_OK) and os.access(LITELLM or "", os.X_OK)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not FOUND and not os.environ.get("CI"),
        reason="TOOLWIRE_LITELLM names no litellm executable with a python beside it (.ci/run installs "
        "litellm[proxy] in .ci/litellm-venv and sets it)",
    ),
]

SCRIPT = TESTS / "helpers" / "litellm_stream.py"
#: Seconds LiteLLM has to consume one trace (importing litellm takes a few); past them, it hangs.
TIMEOUT = 120.0
PARIS, LYON = '{"city":"Paris"}', '{"city":"Lyon"}'


@dataclass
class Handed:
    """What LiteLLM handed over: the stream's fragments and finishes, the built message's calls."""

    #: (id, index, name, arguments) per tool-call fragment; ("finish", reason) per finish_reason.
    streamed: list[tuple[Any, ...]] = field(default_factory=list)
    #: stream_chunk_builder's tool_calls: (id, name, arguments); None when nothing was built.
    calls: list[tuple[str | None, str | None, str | None]] | None = None
    finish: str | None = None
    error: str | None = None
    #: The path and JSON body of each request the server answered.
    requests: list[tuple[str, Any]] = field(default_factory=list)


def _run(python: Path, model: str, api_base: str) -> dict[str, Any]:
    environment = os.environ | {
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "LITELLM_LOG": "ERROR",
        "NO_PROXY": "127.0.0.1,localhost",
        "no_proxy": "127.0.0.1,localhost",
    }
    process = subprocess.Popen(
        [str(python), str(SCRIPT), model, api_base],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
        start_new_session=True,
    )
    try:
        out, err = process.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return {"error": f"hang: no answer within {TIMEOUT:.0f} s"}
    lines = [line for line in out.splitlines() if line.startswith("{")]
    assert process.returncode == 0 and lines, (process.returncode, out[-2000:], err[-2000:])
    report: dict[str, Any] = json.loads(lines[-1])
    return report


def litellm_chat(body: str, model: str = "openai/gpt-test") -> Handed:
    """LiteLLM fed ``body`` (SSE text) event by event from a server on loopback."""
    if not FOUND:
        pytest.fail(
            f"CI must set TOOLWIRE_LITELLM to the litellm of LiteLLM's venv, a python beside it (it is "
            f"{LITELLM!r}; .ci/run installs LiteLLM's proxy)"
        )
    assert PYTHON is not None
    handed = Handed()

    async def answer(request: Request) -> Response:
        handed.requests.append((request.url.path, await request.json()))

        async def pieces() -> AsyncIterator[bytes]:
            for piece in chunks_of(body.encode()):
                yield piece

        return StreamingResponse(pieces(), media_type="text/event-stream")

    app = Starlette(routes=[Route("/{path:path}", answer, methods=["POST"])])
    with serving(app) as url:
        report = _run(PYTHON, model, url + "/v1")
    handed.streamed = [tuple(entry) for entry in report.get("streamed", [])]
    handed.calls = [tuple(call) for call in report["calls"]] if report.get("calls") is not None else None
    handed.finish, handed.error = report.get("finish"), report.get("error")
    return handed


def _body(events: list[dict[str, Any]], *, done: bool = True) -> str:
    return consumers.sse(events, named=False, done=done)


def _flagged(tmp_path: Path, body: str, protocol: str = "openai-chat-stream") -> dict[str, str]:
    path = tmp_path / "trace.sse"
    path.write_text(body)
    return {f.rule: f.severity for f in toolwire.check_file(path, protocol).findings}


# OpenAI Chat Completions ----------------------------------------------------------------------------

CALLS = [("call_1", "get_weather", PARIS), ("call_2", "get_weather", LYON)]
#: What LiteLLM streams of the well-formed trace: each fragment as it came, the finish last.
STREAMED = [
    ("call_1", 0, "get_weather", ""),
    (None, 0, None, '{"city":'),
    (None, 0, None, '"Paris"}'),
    ("call_2", 1, "get_weather", ""),
    (None, 1, None, '{"city":'),
    (None, 1, None, '"Lyon"}'),
    ("finish", "tool_calls"),
]


def _with_ids(*ids: str) -> list[tuple[Any, ...]]:
    """STREAMED with these ids on its six fragments."""
    return [(ids[n], *f[1:]) for n, f in enumerate(STREAMED[:-1])] + STREAMED[-1:]


def test_litellm_hands_over_both_calls_of_the_well_formed_stream(tmp_path: Path) -> None:
    body = _body(violating.chat_stream())
    assert _flagged(tmp_path, body) == {}
    handed = litellm_chat(body)
    assert (handed.streamed, handed.calls, handed.finish, handed.error) == (
        STREAMED,
        CALLS,
        "tool_calls",
        None,
    )
    # It is LiteLLM's openai provider that read the body: one request, with the tool, streaming.
    ((path, request),) = handed.requests
    assert path == "/v1/chat/completions" and request["stream"] is True
    assert [t["function"]["name"] for t in request["tools"]] == ["get_weather"]


def test_a_first_fragment_without_id_loses_the_call(tmp_path: Path) -> None:
    body = _body(violating.cc6a_first_fragment_without_id())
    assert _flagged(tmp_path, body) == {"CC-6a": "error"}
    assert RULES["CC-6a"].severity == "error"
    handed = litellm_chat(body)
    assert handed.streamed == [(None, 0, "get_weather", ""), *STREAMED[1:]]
    # Loses a call: stream_chunk_builder drops the call without an id, Paris is never called.
    assert (handed.calls, handed.finish, handed.error) == (CALLS[1:], "tool_calls", None)


def test_the_string_null_as_continuation_id_changes_both_ids(tmp_path: Path) -> None:
    body = _body(violating.cc6b_null_string_ids())
    assert _flagged(tmp_path, body) == {"CC-6b": "error"}
    assert RULES["CC-6b"].severity == "error"
    handed = litellm_chat(body)
    assert handed.streamed == _with_ids("call_1", "null", "null", "call_2", "null", "null")
    # Changes both ids: the last id streamed wins, so both calls come out with the id "null".
    assert (handed.calls, handed.error) == ([("null", n, a) for _, n, a in CALLS], None)


def test_a_repeated_continuation_id_changes_no_call(tmp_path: Path) -> None:
    body = _body(violating.cc6b_id_repeated())
    assert _flagged(tmp_path, body) == {"CC-6b": "warning"}
    assert RULES["CC-6b"].severity == "error"
    handed = litellm_chat(body)
    assert handed.streamed == _with_ids(*["call_1"] * 3, *["call_2"] * 3)
    # Changes nothing: the calls, their arguments and ids are the well-formed stream's.
    assert (handed.calls, handed.finish, handed.error) == (CALLS, "tool_calls", None)


def test_two_calls_at_one_index_are_merged_into_one(tmp_path: Path) -> None:
    body = _body(violating.cc6c_calls_share_an_index())
    assert _flagged(tmp_path, body) == {"CC-6c": "error"}
    assert RULES["CC-6c"].severity == "error"
    handed = litellm_chat(body)
    assert handed.streamed == [(f[0], 0, *f[2:]) if f[0] != "finish" else f for f in STREAMED]
    # Loses a call and changes the other: one call, the second's id, both arguments concatenated.
    assert (handed.calls, handed.error) == ([("call_2", "get_weather", PARIS + LYON)], None)


def test_a_fragment_after_finish_is_streamed_after_it_and_kept(tmp_path: Path) -> None:
    body = _body(violating.cc6d_fragment_after_finish())
    assert _flagged(tmp_path, body) == {"CC-6d": "error", "CC-6e": "warning"}
    assert RULES["CC-6d"].severity == "error"
    handed = litellm_chat(body)
    assert handed.streamed == [*STREAMED[:5], STREAMED[6], STREAMED[5]]
    # Changes nothing in the built message (a user reading the stream sees the finish before Lyon's end).
    assert (handed.calls, handed.finish, handed.error) == (CALLS, "tool_calls", None)


@pytest.mark.parametrize("done", [False, True], ids=["cut-off", "done-marker"])
def test_without_finish_reason_litellm_finishes_stop_and_keeps_the_calls(tmp_path: Path, done: bool) -> None:
    body = _body(violating.cc6d_no_finish_reason(), done=done)
    assert _flagged(tmp_path, body) == {"CC-6d": "error" if not done else "warning"}
    assert RULES["CC-6d"].severity == "error"
    handed = litellm_chat(body)
    assert handed.streamed == [*STREAMED[:-1], ("finish", "stop")]
    # Changes no call: both kept whole; LiteLLM makes up the finish_reason "stop".
    assert (handed.calls, handed.finish, handed.error) == (CALLS, "stop", None)


def test_finish_reason_stop_changes_no_call(tmp_path: Path) -> None:
    body = _body(violating.cc6d_finish_reason_stop())
    assert _flagged(tmp_path, body) == {"CC-6d": "warning"}
    assert RULES["CC-6d"].severity == "error"
    handed = litellm_chat(body)
    assert handed.streamed == [*STREAMED[:-1], ("finish", "stop")]
    # Changes no call: both kept whole, the finish_reason passed on as it came.
    assert (handed.calls, handed.finish, handed.error) == (CALLS, "stop", None)


# Mistral's chat stream, read by LiteLLM's mistral provider ----------------------------------------

MISTRAL_MODEL = "mistral/mistral-test"
MISTRAL = [(i, "get_weather", a) for i, a in streams.MISTRAL]
MISTRAL_STREAMED = [
    *((i, n, "get_weather", a) for n, (i, a) in enumerate(streams.MISTRAL)),
    ("finish", "tool_calls"),
]


def test_litellm_hands_over_both_calls_of_the_well_formed_mistral_stream(tmp_path: Path) -> None:
    body = _body(streams.mistral_stream())
    assert _flagged(tmp_path, body, "mistral-chat-stream") == {}
    handed = litellm_chat(body, MISTRAL_MODEL)
    assert (handed.streamed, handed.calls, handed.finish, handed.error) == (
        MISTRAL_STREAMED,
        MISTRAL,
        "tool_calls",
        None,
    )
    ((path, request),) = handed.requests
    assert path == "/v1/chat/completions" and request["model"] == "mistral-test"


def test_mistral_calls_without_index_are_merged_into_one(tmp_path: Path) -> None:
    body = _body(streams.mi6a_calls_without_index())
    assert _flagged(tmp_path, body, "mistral-chat-stream") == {"MI-6a": "error"}
    assert RULES["MI-6a"].severity == "error"
    handed = litellm_chat(body, MISTRAL_MODEL)
    assert handed.streamed == [(i, 0, n, a) for i, _, n, a in MISTRAL_STREAMED[:2]] + MISTRAL_STREAMED[2:]
    # Loses a call and changes the other: LiteLLM gives both index 0, then merges them.
    assert (handed.calls, handed.error) == ([(MISTRAL[1][0], "get_weather", PARIS + LYON)], None)


@pytest.mark.parametrize(
    ("trace", "done", "finish"),
    [
        (streams.mi6d_call_after_finish, True, "tool_calls"),
        (streams.mi6d_no_finish_reason, True, "stop"),
        (streams.mi6d_no_finish_reason, False, "stop"),
    ],
)
def test_a_mistral_choice_finished_early_or_never_changes_no_call(
    tmp_path: Path, trace: Any, done: bool, finish: str
) -> None:
    body = _body(trace(), done=done)
    assert _flagged(tmp_path, body, "mistral-chat-stream") == {"MI-6d": "warning"}
    assert RULES["MI-6d"].severity == "warning"
    handed = litellm_chat(body, MISTRAL_MODEL)
    # Changes no call: both kept whole (the early finish is held back to the end of the stream).
    assert handed.streamed == [*MISTRAL_STREAMED[:2], ("finish", finish)]
    assert (handed.calls, handed.finish, handed.error) == (MISTRAL, finish, None)


def test_mistral_arguments_that_are_not_json_are_handed_over_as_they_came(tmp_path: Path) -> None:
    body = _body(streams.mi6e_arguments_not_json())
    assert _flagged(tmp_path, body, "mistral-chat-stream") == {"MI-6e": "error"}
    assert RULES["MI-6e"].severity == "error"
    handed = litellm_chat(body, MISTRAL_MODEL)
    bad = '{"city": Paris}'
    assert handed.streamed[0] == (MISTRAL[0][0], 0, "get_weather", bad)
    # Changes nothing but hands over arguments that are not JSON: the user's json.loads fails on them.
    assert (handed.calls, handed.error) == ([(MISTRAL[0][0], "get_weather", bad), MISTRAL[1]], None)
