"""Every quirk profile names its senders from SENDERS, with the evidence for each in its source."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from helpers import toy_protocol as toy
from toolwire.errors import DefinitionError
from toolwire.properties import Quirk
from toolwire.properties._protocol import SENDERS
from toolwire.protocols import QUIRKS, register, unregister
from toolwire.protocols._registry import providers

DOC = Path(__file__).resolve().parents[2] / "docs" / "quirk-profiles.md"
#: Where a source starts giving its senders' evidence: a stream's senders, or a request's acceptors.
MARKER = re.compile(r"\b(?:sent|accepted) by: ")


def senders_clause(source: str) -> str | None:
    """The part of ``source`` that gives the senders' evidence (None when it gives none)."""
    found = list(MARKER.finditer(source))
    return source[found[-1].end() :] if found else None


def named_in(text: str) -> set[str]:
    """The SENDERS keys whose display names ``text`` spells, longest name first ("Azure OpenAI" is
    not also "OpenAI")."""
    named: set[str] = set()
    for key, display in sorted(SENDERS.items(), key=lambda item: -len(item[1])):
        pattern = re.compile(rf"(?<!\w){re.escape(display)}(?!\w)")
        if pattern.search(text):
            named.add(key)
            text = pattern.sub(" ", text)
    return named


def test_every_provider_named_is_a_key_of_senders() -> None:
    for quirk in QUIRKS.values():
        assert set(quirk.providers) <= set(SENDERS), quirk.name
        assert len(set(quirk.providers)) == len(quirk.providers), f"{quirk.name} names a provider twice"


def test_the_registry_refuses_a_quirk_naming_an_unknown_provider() -> None:
    stranger = Quirk("toy-stranger", "a toy quirk", (toy.TOY,), "nowhere", providers=("nobody",))
    family = dataclasses.replace(toy.FAMILY, quirks=(stranger,))
    with pytest.raises(DefinitionError, match=r"toy-stranger names unknown providers \['nobody'\]"):
        register(family)
    # The refused family is not left behind.
    assert "toy-stranger" not in QUIRKS
    assert toy.TOY not in {p for q in QUIRKS.values() for p in q.protocols}


def test_the_registry_takes_a_quirk_naming_known_providers() -> None:
    known = Quirk("toy-known", "a toy quirk", (toy.TOY,), "sent by: OpenAI", providers=("openai",))
    register(dataclasses.replace(toy.FAMILY, quirks=(known,)))
    try:
        assert QUIRKS["toy-known"].providers == ("openai",)
    finally:
        unregister(toy.FAMILY.name)


def test_every_sender_is_named_by_a_quirk_or_a_repair_profile() -> None:
    by_quirks = {p for quirk in QUIRKS.values() for p in quirk.providers}
    unused = set(SENDERS) - by_quirks - set(providers())
    assert not unused, f"SENDERS keys nothing names: {sorted(unused)}"


@pytest.mark.parametrize("name", sorted(QUIRKS))
def test_the_source_gives_evidence_for_exactly_the_providers_named(name: str) -> None:
    quirk = QUIRKS[name]
    clause = senders_clause(quirk.source)
    if not quirk.providers:
        assert clause is None, f"{name}'s source gives senders but it names none"
        return
    assert clause is not None, f'{name} names providers but its source has no "sent by:" clause'
    # Each provider named is spelled in the clause, and the clause spells no provider not named.
    assert named_in(clause) == set(quirk.providers), clause


def test_the_clause_check_is_not_fooled_by_a_provider_added_alone() -> None:
    quirk = QUIRKS["repeated-ids"]
    added = dataclasses.replace(quirk, providers=(*quirk.providers, "ollama"))
    clause = senders_clause(added.source)
    assert clause is not None
    assert named_in(clause) != set(added.providers)
    # "Azure OpenAI" names Azure alone, and a path such as openai-chat-stream names nobody.
    assert named_in("Azure OpenAI (openai-chat-stream)") == {"azure"}


def _documented() -> dict[str, tuple[str, set[str]]]:
    rows: dict[str, tuple[str, set[str]]] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 4 or not re.fullmatch(r"`[\w-]+`", cells[0]):
            continue
        senders = set() if cells[2] == "none known" else named_in(cells[2])
        rows[cells[0].strip("`")] = (cells[1], senders)
    return rows


def test_the_docs_table_lists_every_profile_with_its_senders() -> None:
    rows = _documented()
    assert set(rows) == set(QUIRKS)
    for name, (protocols, senders) in rows.items():
        assert protocols == ", ".join(QUIRKS[name].protocols), name
        assert senders == set(QUIRKS[name].providers), name
