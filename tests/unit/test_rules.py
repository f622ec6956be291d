"""Rules: named, sourced, validated at definition time, and listed by the CLI."""

from __future__ import annotations

import ast
import importlib
import json
import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

import toolwire
from toolwire.errors import DefinitionError
from toolwire.machines import ChatConversation, compile_machine
from toolwire.properties import Rule, Violations
from toolwire.protocols import PROTOCOLS, RULES, rules_for
from toolwire.protocols._registry import INDEX


def test_every_rule_names_its_source_and_fix() -> None:
    for rule in RULES.values():
        assert rule.source and rule.fix and rule.statement, rule.id


#: What a citation with its document cut out leaves: a separator first, a separator or a stop
#: with nothing before it, a space doubled where a name was.
CUT: re.Pattern[str] = re.compile(r"^[\s,;.:]|[,;:]\s*[,;.]|\s\s|\(\s*[,;]|\(\s+\)")


def test_no_rule_source_has_a_citation_cut_out() -> None:
    cut = {rule.id: rule.source for rule in RULES.values() if CUT.search(rule.source)}
    assert cut == {}


def test_the_rules_catalogue_is_cited_by_its_path_in_the_repo() -> None:
    root = Path(toolwire.__file__).parents[2]
    assert (root / "docs" / "protocol-rules.md").is_file()
    cited = [
        f"{path.relative_to(root)}: {line.strip()}"
        for path in sorted((root / "src").rglob("*.py"))
        for line in path.read_text().splitlines()
        if re.search(r"(?<![/\w])protocol-rules", line)
    ]
    assert cited == []
    sources = [rule.id for rule in RULES.values() if "protocol-rules" in rule.source]
    assert all("docs/protocol-rules.md" in RULES[rule].source for rule in sources)


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


@pytest.mark.slow
def test_the_rules_verb_lists_every_rule_as_json() -> None:
    result = cli("rules", "--format", "json")
    assert result.returncode == 0
    assert [rule["id"] for rule in json.loads(result.stdout)] == list(RULES)


@pytest.mark.slow
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


@pytest.mark.slow
def test_an_unknown_profile_is_a_usage_error_naming_the_profiles() -> None:
    from helpers.corpus import DATA

    result = cli(
        "check", str(DATA / "mistral-chat" / "good-parallel.json"), "-p", "mistral-chat", "--profile", "v9"
    )
    assert result.returncode == 2
    assert "v11, v3, v13" in result.stderr


@pytest.mark.slow
def test_check_prints_json_with_every_finding() -> None:
    from helpers.corpus import DATA

    result = cli("check", str(DATA / "openai-chat" / "seed004-tc4-out-of-sequence.json"), "-p", "openai-chat",
                 "--format", "json")  # fmt: skip
    assert result.returncode == 1
    document = json.loads(result.stdout)
    assert [f["rule"] for f in document["reports"][0]["findings"]] == ["CC-4", "CC-2"]
    assert document["exit_code"] == 1


# Rule ids in the source ---------------------------------------------------------------------------

_RULE_ID = re.compile(r"[A-Z]{2,4}-\d+[a-z]?")
_SRC = Path(toolwire.__file__).parent


def _named_rule_ids(paths: Iterable[Path]) -> set[str]:
    """The rule-id string literals of ``paths`` that do not define a rule (``Rule("RS-7c", ...)``):
    a report, a violation table, a body's rule names."""
    named: set[str] = set()
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call) and node.args]
        definitions = {id(c.args[0]) for c in calls if isinstance(c.func, ast.Name) and c.func.id == "Rule"}
        named |= {
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and _RULE_ID.fullmatch(node.value)
            and id(node) not in definitions
        }
    return named


def _families() -> dict[Path, set[str]]:
    """Each family's folder, and the rule book of its protocols: the wire's rules and those of the
    stricter providers on it (its provider profiles, which ``repair --for`` applies)."""
    from toolwire.protocols import _registry

    _registry._load_all()
    profiles = {
        name: {r.id for profile in (f.providers() if f.providers else ()) for r in profile.rules}
        for f in _registry._FAMILIES
        for name in (p.name for p in f.protocols)
    }
    books = {
        module: {r.id for p in names for r in rules_for(p)} | {i for p in names for i in profiles.get(p, ())}
        for module, names in INDEX.items()
    }
    return {
        Path(str(importlib.import_module(module).__file__)).parent: book for module, book in books.items()
    }


def test_every_rule_id_a_family_names_is_in_its_protocols_book() -> None:
    for folder, book in _families().items():
        named = _named_rule_ids(folder.rglob("*.py"))
        assert named <= book, f"{folder.name} reports rules its book lacks: {sorted(named - book)}"


def test_every_rule_in_a_book_is_reported_by_its_family_or_the_shared_code() -> None:
    families = _families()
    shared = [p for p in _SRC.rglob("*.py") if not any(folder in p.parents for folder in families)]
    named_anywhere = _named_rule_ids(shared)
    for folder, book in families.items():
        unreported = book - _named_rule_ids(folder.rglob("*.py")) - named_anywhere
        assert not unreported, f"{folder.name}: rules nothing reports: {sorted(unreported)}"
