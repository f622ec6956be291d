"""Severity from evidence (issue 38), Gemini streams: real consumers fed each GM-7 trace.

The sibling of test_consumer_evidence.py for ``gemini-stream``: each test pins what one consumer
made of one hand-written trace (tests/helpers/violating.py, cut from ``gemini_stream``), and that
toolwire flags it with GM-7 at the severity this evidence gives.  The consumers: google-genai's
``models.generate_content_stream`` (its chunks' function calls) and pydantic-ai's GoogleModel.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import toolwire
from helpers import consumers, violating
from helpers import consumers_native as native

pytestmark = pytest.mark.slow

PARIS, LYON = '{"city":"Paris"}', '{"city":"Lyon"}'
CALLS = [("get_weather", PARIS), ("get_weather", LYON)]


def _body(trace: list[dict[str, object]]) -> str:
    return consumers.sse(trace, named=False)


def _flagged(tmp_path: Path, body: str) -> dict[str, str]:
    path = tmp_path / "trace.sse"
    path.write_text(body)
    return {f.rule: f.severity for f in toolwire.check_file(path, "gemini-stream").findings}


def _without_ids(calls: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    """The calls without their ids: Gemini sends none, and pydantic-ai makes one up per call."""
    return [(name, arguments) for _, name, arguments in calls]


def test_both_consumers_hand_over_both_calls_of_the_well_formed_stream(tmp_path: Path) -> None:
    body = _body(violating.gemini_stream())
    assert _flagged(tmp_path, body) == {}
    assert native.google_genai_stream(body).calls == [(None, *call) for call in CALLS]
    assert _without_ids(native.pydantic_ai_google(body).calls) == CALLS


def test_args_as_a_string_fail_the_sdk_type_before_any_call(tmp_path: Path) -> None:
    body = _body(violating.gm7_args_as_string())
    assert _flagged(tmp_path, body) == {"GM-7": "error"}
    for seen in (native.google_genai_stream(body), native.pydantic_ai_google(body)):
        assert seen.calls == []
        assert seen.error is not None
        assert seen.error.startswith("ValidationError: 1 validation error for GenerateContentResponse")


def test_whole_args_without_a_name_are_dropped_by_pydantic_ai(tmp_path: Path) -> None:
    body = _body(violating.gm7_call_without_name())
    assert _flagged(tmp_path, body) == {"GM-7": "error"}
    assert native.google_genai_stream(body).calls == [(None, None, PARIS), (None, *CALLS[1])]
    assert _without_ids(native.pydantic_ai_google(body).calls) == CALLS[1:]
