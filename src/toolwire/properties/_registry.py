"""The registry: every protocol family toolwire knows, and what the engines look up in it.

This is the one place that lists the families.  Each family declares itself
in its own package (``properties/_<family>/__init__.py``, a :class:`Family`);
the engines and the CLI ask the registry for a protocol's descriptor, the
rules, the quirk profiles, the machines and the id shapes, and never name a
protocol.  :func:`register` adds a family at run time (a protocol defined
outside toolwire, as the toy protocol of the tests is).

The tables here (:data:`PROTOCOLS`, :data:`RULES`, :data:`QUIRKS`,
:data:`BREAKS`, :data:`GENERATED`, :data:`EXPLORED`) are updated in place, so
that names imported from them stay current.
"""

from __future__ import annotations

import re
from typing import Final

from toolwire.errors import DefinitionError, UsageError
from toolwire.properties import (
    _aisdk,
    _anthropic,
    _bedrock,
    _gemini,
    _mcp,
    _mistral,
    _openai_chat,
    _openai_responses,
)
from toolwire.properties._protocol import Family, Protocol, Quirk
from toolwire.properties._roundtrip import round_trip_rules
from toolwire.properties._rule import Rule

__all__ = [
    "BREAKS",
    "EXPLORED",
    "FAMILIES",
    "GENERATED",
    "PROTOCOLS",
    "QUIRKS",
    "RULES",
    "envelope_ids",
    "get_protocol",
    "id_shapes",
    "machines",
    "quirks_for",
    "register",
    "rules_for",
    "unregister",
]

#: The families, in the order their protocols are listed.
FAMILIES: Final[list[Family]] = []
#: Every protocol, by its stable name.
PROTOCOLS: Final[dict[str, Protocol]] = {}
#: Every rule toolwire checks, by id, in catalogue order (the round-trip rules last).
RULES: Final[dict[str, Rule]] = {}
#: The provider quirk profiles, by name.
QUIRKS: Final[dict[str, Quirk]] = {}
#: Per protocol, the rule ``check`` reports for each mutation.
BREAKS: Final[dict[str, dict[str, str]]] = {}
#: The protocols :func:`~toolwire.properties.traces` generates.
GENERATED: Final[list[str]] = []
#: The protocols ``explore`` has a state space for.
EXPLORED: Final[list[str]] = []


def register(family: Family) -> None:
    """Add ``family``; a :class:`DefinitionError` says what clashes with the families there are."""
    clash = [p.name for p in family.protocols if p.name in PROTOCOLS]
    if clash or any(f.name == family.name for f in FAMILIES):
        raise DefinitionError(f"family {family.name!r} clashes with registered names: {clash or family.name}")
    FAMILIES.append(family)
    try:
        _rebuild()
    except DefinitionError:
        FAMILIES.remove(family)
        _rebuild()
        raise


def unregister(name: str) -> None:
    """Remove the family called ``name`` (registered with :func:`register`)."""
    FAMILIES[:] = [f for f in FAMILIES if f.name != name]
    _rebuild()


def _rebuild() -> None:
    protocols = {p.name: p for family in FAMILIES for p in family.protocols}
    for spec in protocols.values():
        unknown = [name for name in spec.follows if name not in protocols]
        if unknown:
            raise DefinitionError(f"{spec.name} follows unknown protocols {unknown}")
    requests = tuple(p.name for p in protocols.values() if p.replays)
    groups = [f.rules for f in sorted(FAMILIES, key=lambda f: f.catalogue)]
    book: dict[str, Rule] = {}
    for rule in (rule for group in (*groups, round_trip_rules(requests)) for rule in group):
        if rule.id in book:
            raise DefinitionError(f"rule {rule.id} is declared twice")
        strangers = sorted(set(rule.protocols) - set(protocols))
        if strangers:
            raise DefinitionError(f"{rule.id} names unknown protocols {strangers}")
        book[rule.id] = rule
    quirks: dict[str, Quirk] = {}
    for quirk in (q for family in FAMILIES for q in family.quirks):
        if quirk.name in quirks:
            raise DefinitionError(f"quirk profile {quirk.name} is declared twice")
        quirks[quirk.name] = quirk
    PROTOCOLS.clear()
    PROTOCOLS.update(protocols)
    RULES.clear()
    RULES.update(book)
    QUIRKS.clear()
    QUIRKS.update(quirks)
    BREAKS.clear()
    BREAKS.update({name: dict(p.breaks) for name, p in protocols.items() if p.breaks})
    GENERATED[:] = [name for name, p in protocols.items() if p.generator is not None]
    EXPLORED[:] = [name for name, p in protocols.items() if p.space is not None]


def get_protocol(name: str) -> Protocol:
    """The protocol called ``name``; a :class:`UsageError` lists the names there are."""
    try:
        return PROTOCOLS[name]
    except KeyError:
        raise UsageError(f"unknown protocol {name!r}; choose one of: {', '.join(PROTOCOLS)}") from None


def rules_for(protocol: str | None = None) -> list[Rule]:
    """The rules of ``protocol`` (every rule when ``None``), in catalogue order."""
    if protocol is not None:
        get_protocol(protocol)
    return [rule for rule in RULES.values() if protocol is None or protocol in rule.protocols]


def quirks_for(protocol: str) -> list[str]:
    """The quirk profiles that apply to ``protocol``."""
    return [name for name, quirk in QUIRKS.items() if protocol in quirk.protocols]


def machines() -> dict[str, type]:
    """Every machine, by class name: the machines layer's, then those of registered families."""
    from toolwire.machines import MACHINES

    found: dict[str, type] = dict(MACHINES)
    for machine in (m for family in FAMILIES for m in family.machines):
        found.setdefault(machine.__name__, machine)
    return found


def id_shapes() -> list[tuple[re.Pattern[str], str]]:
    """Every family's id shapes seen in the wild, with what each is called."""
    return [shape for family in FAMILIES for shape in family.id_shapes]


def envelope_ids() -> tuple[str, ...]:
    """Prefixes of envelope ids (a response's, a message's): ids that name no call."""
    return tuple(prefix for family in FAMILIES for prefix in family.envelope_ids)


for _family in (
    _openai_chat.FAMILY,
    _openai_responses.FAMILY,
    _anthropic.FAMILY,
    _bedrock.FAMILY,
    _gemini.FAMILY,
    _mistral.FAMILY,
    _aisdk.FAMILY,
    _mcp.FAMILY,
):
    register(_family)
