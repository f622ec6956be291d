"""``check --profile PROVIDER``: a history judged by the wire's rules and a provider profile's own,
the same profiles ``repair --for`` mends to (issue 39, item 3)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolwire import check, check_file
from toolwire.cli import main
from toolwire.engines.repair import PROVIDERS, lint, repair
from toolwire.errors import UsageError
from toolwire.protocols import get_protocol, mutated

#: Every provider profile with each wire it is of.
PAIRS = [(name, wire) for name, p in PROVIDERS.items() for wire in p.wire]


def _call(ident: Any, **extra: Any) -> dict[str, Any]:
    return {"id": ident, "type": "function", "function": {"name": "get_weather", "arguments": "{}"}, **extra}


def _history(ident: Any) -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": None, "tool_calls": [_call(ident)]},
        {"role": "tool", "tool_call_id": ident, "content": "sunny"},
        {"role": "user", "content": "Thanks"},
    ]


#: Histories a wire finds clean, each breaking one provider's own rule: (provider, rule, history).
OWN: list[tuple[str, str, list[dict[str, Any]]]] = [
    (
        "deepseek",
        "DS-3",
        [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello", "tool_calls": []}],
    ),
    (
        "openai",
        "DS-3",
        [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hi", "tool_calls": []}],
    ),
    (
        "azure",
        "AZ-2",
        [
            {"role": "user", "content": "Weather?"},
            {
                "role": "assistant",
                "tool_calls": [{"id": "call_1", "function": {"name": "w", "arguments": "{}"}}],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
        ],
    ),
    ("mistral", "MS-1", _history("call_abc")),
]


@pytest.mark.parametrize(("provider", "rule", "history"), OWN)
def test_a_profile_reports_its_own_rule_the_wire_does_not_say(
    provider: str, rule: str, history: list[dict[str, Any]]
) -> None:
    assert check(history, "openai-chat").exit_code == 0
    report = check(history, "openai-chat", profile=provider)
    found = [f for f in report.findings if f.rule == rule]
    assert found, [f.rule for f in report.findings]
    own = next(r for r in PROVIDERS[provider].rules if r.id == rule)
    assert found[0].severity == own.severity
    assert report.exit_code == (1 if own.severity == "error" else 0)
    assert found[0].path is not None and found[0].path.startswith("messages[")
    assert f"--for {provider}" in found[0].fix
    if own.error is not None and "{" not in own.error:
        assert found[0].provider_error == own.error


def test_an_id_rule_fills_the_providers_error_text_with_the_id() -> None:
    report = check(_history("call_abc"), "openai-chat", profile="mistral")
    (finding,) = report.findings
    said = "Tool call id was call_abc but must be a-z, A-Z, 0-9, with a length of 9."
    assert finding.provider_error == said
    assert finding.ids == ("call_abc",) and finding.index == 1


def test_a_rule_the_wire_already_says_is_said_once() -> None:
    """Mistral's own wire says MI-1 for the id MS-1 narrows: the profile adds nothing there."""
    report = check(_history("call_abc"), "mistral-chat", profile="mistral")
    assert {f.rule for f in report.findings} == {"MI-1"}


def test_a_wire_rule_a_provider_enforces_is_not_said_twice() -> None:
    """DeepSeek's DS-1 is CC-4: an unanswered call is one CC-4 finding, under either reading."""
    history = [*_history("call_1")[:2], {"role": "user", "content": "Thanks"}]
    plain = [f.rule for f in check(history, "openai-chat").findings]
    assert [f.rule for f in check(history, "openai-chat", profile="deepseek").findings] == plain


@pytest.mark.parametrize(("provider", "wire"), PAIRS)
def test_every_profile_judges_what_repair_for_it_lints(provider: str, wire: str) -> None:
    """``check --profile`` and ``repair --for`` read one profile: the rules lint says are reported."""
    histories = [_history(i) for i in ("call_abc", "", "toolu_01", "abcdefghi", "x" * 41)]
    histories += [h for _, _, h in OWN]
    profile = PROVIDERS[provider]
    spec = get_protocol(wire)
    for history in histories:
        said = {
            r.id
            for r, _, _ in lint(history, profile)
            if r.same_as is None or r.same_as not in {x.id for x in _wire_rules(wire)}
        }
        found = {f.rule for f in check(history, wire, profile=provider).findings}
        assert said <= found, (provider, wire, history)
        assert found - said <= {r.id for r in _wire_rules(wire)}
    assert provider in spec.profile_names()


def _wire_rules(wire: str) -> list[Any]:
    from toolwire.protocols import rules_for

    return rules_for(wire)


@pytest.mark.parametrize(("provider", "wire"), PAIRS)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_what_repair_for_a_provider_makes_its_profile_finds_no_error_in(
    provider: str, wire: str, data: st.DataObject
) -> None:
    mutator = data.draw(st.sampled_from(["drop-id", "duplicate", "reorder", "swap-ids"]))
    history = data.draw(mutated(wire, mutator))
    fixed = repair(history, wire, provider=provider)
    if any(c.action == "unrepaired" for c in fixed.changes):
        return
    report = check(fixed.history, wire, profile=provider)
    assert not report.errors, [(f.rule, f.path, f.message) for f in report.errors]


def test_a_body_file_and_each_body_of_a_log_are_judged_on_their_own(tmp_path: Path) -> None:
    empty = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello", "tool_calls": []}]
    body = tmp_path / "body.json"
    body.write_text(json.dumps({"model": "deepseek-chat", "messages": empty}))
    assert [f.rule for f in check_file(body, "openai-chat", profile="deepseek").findings] == ["DS-3"]
    log = tmp_path / "bodies.jsonl"
    clean = [{"role": "user", "content": "Hi"}]
    log.write_text("\n".join(json.dumps({"model": "m", "messages": m}) for m in (empty, clean, empty)) + "\n")
    reports = check_file(log, "openai-chat", profile="deepseek")
    assert [f.rule for f in reports.findings] == ["DS-3", "DS-3"]


def test_an_unknown_profile_names_the_provider_profiles_too() -> None:
    with pytest.raises(UsageError, match="deepseek"):
        check(_history("call_1"), "openai-chat", profile="nope")
    with pytest.raises(UsageError):
        check([], "openai-responses", profile="deepseek")


def test_the_cli_takes_a_provider_profile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "h.json"
    path.write_text(json.dumps(OWN[0][2]))
    assert main(["check", str(path), "-p", "openai-chat"]) == 0
    assert main(["check", str(path), "-p", "openai-chat", "--profile", "deepseek"]) == 1
    out = capsys.readouterr().out
    assert "DS-3 error" in out and "empty array" in out
    assert main(["check", str(path), "-p", "openai-chat", "--profile", "nope"]) == 2
    assert "deepseek" in capsys.readouterr().err
    assert main(["protocols", "--format", "json"]) == 0
    listed = {p["name"]: p for p in json.loads(capsys.readouterr().out)}
    assert "deepseek" in listed["openai-chat"]["provider_profiles"]
    assert listed["openai-responses"]["provider_profiles"] == []


def test_the_docs_table_lists_every_profile_rule_as_declared() -> None:
    from helpers.layout import ROOT

    text = (ROOT / "docs" / "repair.md").read_text()
    rows = [line for line in text.split("## Provider profiles")[1].splitlines() if line.startswith("| `")]
    expected = []
    for name, profile in PROVIDERS.items():
        for rule in profile.rules:
            same = f" (= {rule.same_as})" if rule.same_as else ""
            statement, source = rule.statement.replace("|", "/"), rule.source.replace("|", "/")
            expected.append(
                f"| `{name}` | {', '.join(profile.wire)} | {rule.id}{same} | {statement} | "
                f"{rule.severity} | {source} |"
            )
    assert rows == expected
