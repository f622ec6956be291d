"""The recorded-traffic corpus: each trace is flagged with exactly the rules it names."""

from __future__ import annotations

from typing import Any

import pytest

import toolwire
from helpers.corpus import DATA, corpus
from toolwire.protocols import RULES

ENTRIES = corpus()


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"] for e in ENTRIES])
def test_trace_is_flagged_with_exactly_its_rules(entry: dict[str, Any]) -> None:
    after = DATA / entry["after"] if "after" in entry else None
    report = toolwire.check_file(
        DATA / entry["file"], entry["protocol"], after=after, profile=entry.get("profile")
    )
    assert sorted({f.rule for f in report.findings}) == entry["expect"], report.findings
    # `opaque`: types no SDK release models, put in on purpose: each is one notice, nothing else is.
    opaque = entry.get("opaque", [])
    notices = [p.message for p in report.problems]
    assert [m for m in notices if not any(f"type {t!r} is not modelled" in m for t in opaque)] == []
    for name in opaque:
        assert sum(f"type {name!r} is not modelled (toolwire models " in m for m in notices) == 1, notices
    assert report.exit_code == (1 if report.errors else 0)


def test_every_rule_has_a_trace_that_breaks_it() -> None:
    flagged = {rule for entry in ENTRIES for rule in entry["expect"]}
    assert set(RULES) - flagged == set()


def test_every_protocol_has_a_clean_trace() -> None:
    clean = {entry["protocol"] for entry in ENTRIES if not entry["expect"]}
    assert clean == set(toolwire.PROTOCOLS)


@pytest.mark.parametrize("entry", [e for e in ENTRIES if e["expect"]], ids=lambda e: e["file"])
def test_each_finding_names_its_place_and_fix(entry: dict[str, Any]) -> None:
    after = DATA / entry["after"] if "after" in entry else None
    report = toolwire.check_file(
        DATA / entry["file"], entry["protocol"], after=after, profile=entry.get("profile")
    )
    for finding in report.findings:
        assert finding.fix
        assert finding.index is not None or finding.path is not None or finding.rule == "RT-1"
