"""Real recorded traffic is the ground truth: every trace in ``data/traffic`` is judged right.

A ``clean`` trace (real provider output, or a request the provider accepted) draws no error; a
``rejected`` one (a request the provider answered with 4xx) is flagged.  The manifest records each
trace's provenance, licence and what is notable about it.
"""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from helpers import layout
from toolwire.engines import check_file

TRAFFIC = layout.DATA / "traffic"
MANIFEST: list[dict[str, Any]] = tomllib.loads((TRAFFIC / "manifest.toml").read_text())["trace"]
CHECKED = [trace for trace in MANIFEST if trace["protocol"]]


def test_the_corpus_is_whole() -> None:
    files = {p.relative_to(TRAFFIC).as_posix() for p in TRAFFIC.rglob("*") if p.is_file()}
    assert {t["file"] for t in MANIFEST} == files - {"manifest.toml", "README.md"}
    assert len(CHECKED) == 793


@pytest.mark.parametrize("trace", CHECKED, ids=lambda t: t["file"])
def test_real_traffic_is_judged_right(trace: dict[str, Any]) -> None:
    report = check_file(TRAFFIC / trace["file"], trace["protocol"], input_format=trace["input_format"])
    errors = [(f.rule, f.message) for f in report.errors]
    problems = [p.message for p in report.problems if p.severity == "error"]
    if trace["expected"] == "clean":
        assert (errors, problems) == ([], []), trace["note"]
    else:
        assert errors, trace["note"]


#: The response bodies: the manifest leaves their protocol blank, and their folder names it.
RESPONSES = [t | {"protocol": t["file"].split("/")[1]} for t in MANIFEST if t.get("body") == "response"]


def test_every_response_body_has_a_protocol_named_by_its_folder() -> None:
    assert len(RESPONSES) == 442
    assert {t["protocol"] for t in RESPONSES} == {
        "openai-chat-response", "openai-responses-response", "anthropic-message-response",
        "gemini-response", "bedrock-converse-response",
    }  # fmt: skip


@pytest.mark.parametrize("trace", RESPONSES, ids=lambda t: t["file"])
def test_real_response_bodies_check_clean(trace: dict[str, Any]) -> None:
    report = check_file(TRAFFIC / trace["file"], trace["protocol"], input_format=trace["input_format"])
    assert trace["expected"] == "clean"
    assert report.events == 1
    assert ([(f.rule, f.message) for f in report.errors], list(report.problems)) == ([], [])
