"""Every error rule names its evidence, and a test proves it (issue 38, item 5).

A rule is an error when what breaks it is rejected or mishandled, and this shows which:

- **a recorded rejection**: the rule quotes the provider's error text (``Rule.error``, its source
  saying where it was recorded), and a trace of ``tests/data`` breaks the rule and has ``check``
  quote that text;
- **a documented rejection**: the provider's documentation says such a request is refused
  (:data:`DOCUMENTED`: the rule's source carries the words);
- **a consumer's misbehaviour**: a real consumer of the stream or body (an SDK's accumulator, the
  AI SDK, LangChain, pydantic-ai) loses, duplicates or changes a call, its arguments or its id when
  fed the rule's violating trace: a function of ``tests/helpers/violating*.py`` named after the
  rule (``rs7b_call_after_completed`` for RS-7b) that a test of
  ``tests/integration/test_consumer_evidence*.py`` feeds to the consumers, and the rule's source
  names that test file.

The round-trip rules (:data:`RELATIONS`) are toolwire's own relations between a stream and the
request replaying it, call identity itself.  A new error rule without evidence fails here: give it
its evidence, or make it a warning whose source says what was looked for.
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

from helpers.corpus import DATA
from helpers.layout import TESTS
from toolwire import check_file
from toolwire.protocols import RULES

#: Error rules whose rejection the provider documents, or a recording shows, in words the rule's
#: source quotes (not as its one error text: the rule covers several fields, each refused in its own
#: words).
DOCUMENTED = {
    "AN-5": "tool_result blocks must come FIRST",
    "BR-1": "Member must satisfy regular expression pattern: [a-zA-Z0-9_.:-]+",
}
#: toolwire's round-trip relations between a stream and the request that replays it (a call lost,
#: added or replaced, its id, name or arguments changed on the way back): call identity itself, the
#: class of bug the seed reports show, judged on every protocol that replays a stream.
RELATIONS: frozenset[str] = frozenset({"RT-1", "RT-2"})

_NAMED = re.compile(r"^([a-z]+)(\d+)([a-z]?)_")


def _rule_of(function: str) -> str | None:
    found = _NAMED.match(function)
    return f"{found[1].upper()}-{found[2]}{found[3]}" if found else None


def _violating() -> dict[str, set[str]]:
    """Each rule's violating traces (function names) that a consumer-evidence test feeds."""
    fed = "\n".join(p.read_text() for p in (TESTS / "integration").glob("test_consumer_evidence*.py"))
    traces: dict[str, set[str]] = {}
    for module in (TESTS / "helpers").glob("violating*.py"):
        for node in ast.parse(module.read_text()).body:
            rule = _rule_of(node.name) if isinstance(node, ast.FunctionDef) else None
            # Fed by name, through whatever the test module calls its violating module.
            if rule and re.search(rf"\.{node.name}\b", fed):
                traces.setdefault(rule, set()).add(node.name)
    return traces


def _quoted() -> dict[str, set[str]]:
    """Each rule's provider error texts as ``check`` quotes them on the corpus traces breaking it."""
    with (DATA / "corpus.toml").open("rb") as handle:
        entries = tomllib.load(handle)["trace"]
    quoted: dict[str, set[str]] = {}
    wanted = {r.id for r in RULES.values() if r.severity == "error" and r.error}
    for entry in entries:
        if not wanted & {str(e) for e in entry.get("expect", [])}:
            continue
        report = check_file(DATA / entry["file"], entry["protocol"], profile=entry.get("profile"))
        for finding in report.findings:
            if finding.provider_error:
                quoted.setdefault(finding.rule, set()).add(finding.provider_error)
    return quoted


CONSUMED = _violating()
ERRORS = [r for r in RULES.values() if r.severity == "error"]


def _kind(rule_id: str) -> str:
    rule = RULES[rule_id]
    if rule.error is not None:
        return "recorded"
    if rule_id in DOCUMENTED:
        return "documented"
    if rule_id in CONSUMED:
        return "consumer"
    return "relation" if rule_id in RELATIONS else "none"


@pytest.mark.parametrize("rule_id", [r.id for r in ERRORS])
def test_every_error_rule_has_evidence(rule_id: str) -> None:
    assert _kind(rule_id) != "none", (
        f"{rule_id} is an error with no recorded or documented rejection and no consumer test: "
        "give it its evidence, or make it a warning whose source says what was looked for"
    )


def test_each_recorded_rejection_is_quoted_by_check_on_a_trace_breaking_it() -> None:
    quoted = _quoted()
    for rule in (r for r in ERRORS if r.error is not None):
        texts = quoted.get(rule.id, set())
        fixed = re.split(r"\{[A-Za-z_]+\}", rule.error or "")
        assert any(all(part in text for part in fixed) for text in texts), (rule.id, texts)


@pytest.mark.parametrize("rule_id", sorted(DOCUMENTED))
def test_each_documented_rejection_is_quoted_in_the_rules_source(rule_id: str) -> None:
    rule = RULES[rule_id]
    assert rule.severity == "error" and DOCUMENTED[rule_id] in rule.source
    assert re.search(r"https://\S+", rule.source), "the documentation is named"


@pytest.mark.parametrize("rule_id", sorted(r.id for r in ERRORS if r.id in CONSUMED and r.error is None))
def test_each_consumer_evidenced_rule_names_its_test(rule_id: str) -> None:
    assert "test_consumer_evidence" in RULES[rule_id].source


def test_the_relations_are_the_round_trip_rules() -> None:
    from toolwire.properties._roundtrip import round_trip_rules

    assert {rule.id for rule in round_trip_rules(("openai-chat",))} == RELATIONS
    assert all(RULES[r].error is None and r not in CONSUMED for r in RELATIONS)


def test_the_function_names_read_as_rule_ids() -> None:
    assert _rule_of("rs7b_call_after_completed") == "RS-7b"
    assert _rule_of("or8_deltas_without_output_index") == "OR-8"
    assert _rule_of("gm7_args_as_string") == "GM-7"
    assert _rule_of("responses_stream") is None
    assert Path(__file__).name in __file__
