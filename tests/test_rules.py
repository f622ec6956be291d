"""Rules: named, sourced, validated at definition time, and listed by the CLI."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from toolwire.errors import DefinitionError
from toolwire.machines import ChatConversation, compile_machine
from toolwire.properties import Rule, Violations
from toolwire.protocols import PROTOCOLS, RULES, rules_for


def test_every_rule_names_its_source_and_fix() -> None:
    for rule in RULES.values():
        assert rule.source and rule.fix and rule.statement, rule.id


def test_unconfirmed_rules_are_never_errors() -> None:
    with pytest.raises(DefinitionError, match="unconfirmed"):
        Rule("CC-5", "always", ("openai-chat",), "s", source="x", fix="y", unconfirmed=True)
    assert all(rule.severity == "warning" for rule in RULES.values() if rule.unconfirmed)


def test_a_rule_id_must_look_like_the_catalogue() -> None:
    with pytest.raises(DefinitionError, match="must look like"):
        Rule("cc1", "always", ("openai-chat",), "s", source="x", fix="y")


def test_the_provider_error_keeps_unfilled_fields_visible() -> None:
    rule = RULES["CC-1"]
    text = rule.provider_error({"m": 2, "k": 0})
    assert text is not None
    assert text.startswith("Invalid 'messages[2].tool_calls[0].id'")
    assert "{length}" in text


def test_a_violation_table_must_cover_every_illegal_step() -> None:
    table = compile_machine(ChatConversation)
    with pytest.raises(DefinitionError, match="no rule for illegal steps"):
        Violations.declare(table, {("idle", "stray"): "CC-2"})


def test_a_violation_table_must_not_name_a_legal_step() -> None:
    table = compile_machine(ChatConversation)
    with pytest.raises(DefinitionError, match="is legal"):
        Violations.declare(table, {("idle", "calls"): "CC-2", ("*", "*"): "CC-2"})


def test_rules_are_listed_per_protocol() -> None:
    ids = [rule.id for rule in rules_for("openai-chat-stream")]
    assert ids == ["CC-6a", "CC-6b", "CC-6c", "CC-6d", "CC-6e"]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolwire", *args], capture_output=True, text=True, check=False
    )


def test_the_rules_verb_lists_every_rule_as_json() -> None:
    result = cli("rules", "--format", "json")
    assert result.returncode == 0
    assert [rule["id"] for rule in json.loads(result.stdout)] == list(RULES)


def test_the_protocols_verb_lists_the_stable_names() -> None:
    result = cli("protocols")
    assert [line.split()[0] for line in result.stdout.splitlines()] == [
        "openai-chat",
        "openai-chat-stream",
        "openai-chat-response",
        "openai-responses",
        "openai-responses-stream",
        "open-responses-stream",
        "openai-responses-response",
        "anthropic-messages",
        "anthropic-stream",
        "anthropic-message-response",
        "bedrock-converse",
        "bedrock-converse-stream",
        "bedrock-converse-response",
        "gemini-contents",
        "gemini-stream",
        "gemini-response",
        "mistral-chat",
        "mistral-chat-response",
        "mistral-chat-stream",
        "aisdk-stream",
        "aisdk-ui-stream",
        "aisdk-full-stream",
        "aisdk-ui-messages",
        "aisdk-model-messages",
        "mcp",
        "otel-genai",
        "otel-genai-output",
    ]
    assert list(PROTOCOLS) == [line.split()[0] for line in result.stdout.splitlines()]


def test_an_unknown_profile_is_a_usage_error_naming_the_profiles() -> None:
    from corpus import DATA

    result = cli(
        "check", str(DATA / "mistral-chat" / "good-parallel.json"), "-p", "mistral-chat", "--profile", "v9"
    )
    assert result.returncode == 2
    assert "v11, v3, v13" in result.stderr


def test_check_prints_json_with_every_finding() -> None:
    from corpus import DATA

    result = cli("check", str(DATA / "openai-chat" / "seed004-tc4-out-of-sequence.json"), "-p", "openai-chat",
                 "--format", "json")  # fmt: skip
    assert result.returncode == 1
    document = json.loads(result.stdout)
    assert [f["rule"] for f in document["reports"][0]["findings"]] == ["CC-4", "CC-2"]
    assert document["exit_code"] == 1
