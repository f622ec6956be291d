"""The registry: every protocol family toolwire knows, and what the engines look up in it.

This is the one place that lists the families.  Each family declares itself
in its own package (``protocols/<family>/__init__.py``, a :class:`Family`);
the engines and the CLI ask the registry for a protocol's descriptor, the
rules, the quirk profiles, the machines and the id shapes, and never name a
protocol.  :func:`register` adds a family at run time (a protocol defined
outside toolwire, as the toy protocol of the tests is).

The tables here (:data:`PROTOCOLS`, :data:`RULES`, :data:`QUIRKS`,
:data:`BREAKS`, :data:`GENERATED`, :data:`EXPLORED`) are updated in place, so
that names imported from them stay current.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from toolwire.errors import DefinitionError, UsageError
from toolwire.properties._protocol import PROFILE_SOURCES, SENDERS, Family, Protocol, Quirk
from toolwire.properties._roundtrip import round_trip_rules
from toolwire.properties._rule import Rule

if TYPE_CHECKING:
    from toolwire.properties._monitor import Monitor

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
    "protocol_names",
    "providers",
    "quirks_for",
    "register",
    "rules_for",
    "unregister",
]

#: toolwire's own families, in the order their protocols are listed: each family's package and its
#: protocol names.  ``check -p P`` imports P's family alone through this index; a test checks it
#: against the families' descriptors.
INDEX: Final[dict[str, tuple[str, ...]]] = {
    "toolwire.protocols.openai_chat": ("openai-chat", "openai-chat-stream", "openai-chat-response"),
    "toolwire.protocols.openai_responses": (
        "openai-responses",
        "openai-responses-stream",
        "open-responses-stream",
        "openai-responses-response",
    ),
    "toolwire.protocols.anthropic": (
        "anthropic-messages",
        "anthropic-stream",
        "anthropic-message-response",
    ),
    "toolwire.protocols.bedrock": (
        "bedrock-converse",
        "bedrock-converse-stream",
        "bedrock-converse-response",
    ),
    "toolwire.protocols.gemini": ("gemini-contents", "gemini-stream", "gemini-response"),
    "toolwire.protocols.mistral": ("mistral-chat", "mistral-chat-response", "mistral-chat-stream"),
    "toolwire.protocols.aisdk": (
        "aisdk-stream",
        "aisdk-ui-stream",
        "aisdk-full-stream",
        "aisdk-ui-messages",
        "aisdk-model-messages",
    ),
    "toolwire.protocols.mcp": ("mcp",),
    "toolwire.protocols.otel": ("otel-genai", "otel-genai-output"),
}
_HOME: Final = {name: module for module, names in INDEX.items() for name in names}

# The tables below load every family on first use (the module ``__getattr__`` at the end): reading
# ``PROTOCOLS`` imports all nine families, ``get_protocol(name)`` only the one of ``name``.
_FAMILIES: Final[list[Family]] = []
_PROTOCOLS: Final[dict[str, Protocol]] = {}
_RULES: Final[dict[str, Rule]] = {}
_QUIRKS: Final[dict[str, Quirk]] = {}
_BREAKS: Final[dict[str, dict[str, str]]] = {}
_GENERATED: Final[list[str]] = []
_EXPLORED: Final[list[str]] = []
_TABLES: Final[dict[str, Any]] = {
    "FAMILIES": _FAMILIES,
    "PROTOCOLS": _PROTOCOLS,
    "RULES": _RULES,
    "QUIRKS": _QUIRKS,
    "BREAKS": _BREAKS,
    "GENERATED": _GENERATED,
    "EXPLORED": _EXPLORED,
}
_loaded: list[bool] = [False]

if TYPE_CHECKING:
    #: The families, in the order their protocols are listed.
    FAMILIES: list[Family]
    #: Every protocol, by its stable name.
    PROTOCOLS: dict[str, Protocol]
    #: Every rule toolwire checks, by id, in catalogue order (the round-trip rules last).
    RULES: dict[str, Rule]
    #: The provider quirk profiles, by name.
    QUIRKS: dict[str, Quirk]
    #: Per protocol, the rule ``check`` reports for each mutation.
    BREAKS: dict[str, dict[str, str]]
    #: The protocols :func:`~toolwire.protocols.traces` generates.
    GENERATED: list[str]
    #: The protocols ``explore`` has a state space for.
    EXPLORED: list[str]


def __getattr__(name: str) -> Any:
    if name not in _TABLES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    _load_all()
    table = _TABLES[name]
    globals()[name] = table
    return table


def _family(module: str) -> Family:
    family: Family = importlib.import_module(module).FAMILY
    return family


def _load_all() -> None:
    """Register toolwire's own families, once, before any registered at run time."""
    if _loaded[0]:
        return
    _FAMILIES[:] = [_family(module) for module in INDEX]
    _rebuild()
    _loaded[0] = True


def register(family: Family) -> None:
    """Add ``family``; a :class:`DefinitionError` says what clashes with the families there are."""
    _load_all()
    clash = [p.name for p in family.protocols if p.name in _PROTOCOLS]
    if clash or any(f.name == family.name for f in _FAMILIES):
        raise DefinitionError(f"family {family.name!r} clashes with registered names: {clash or family.name}")
    _FAMILIES.append(family)
    try:
        _rebuild()
    except DefinitionError:
        _FAMILIES.remove(family)
        _rebuild()
        raise


def unregister(name: str) -> None:
    """Remove the family called ``name`` (registered with :func:`register`)."""
    _load_all()
    _FAMILIES[:] = [f for f in _FAMILIES if f.name != name]
    _rebuild()


def _rebuild() -> None:
    protocols = {p.name: p for family in _FAMILIES for p in family.protocols}
    for spec in protocols.values():
        unknown = [name for name in spec.follows if name not in protocols]
        if unknown:
            raise DefinitionError(f"{spec.name} follows unknown protocols {unknown}")
    requests = tuple(p.name for p in protocols.values() if p.replays)
    groups = [f.rules for f in sorted(_FAMILIES, key=lambda f: f.catalogue)]
    book: dict[str, Rule] = {}
    for rule in (rule for group in (*groups, round_trip_rules(requests)) for rule in group):
        if rule.id in book:
            raise DefinitionError(f"rule {rule.id} is declared twice")
        strangers = sorted(set(rule.protocols) - set(protocols))
        if strangers:
            raise DefinitionError(f"{rule.id} names unknown protocols {strangers}")
        book[rule.id] = rule
    quirks: dict[str, Quirk] = {}
    for quirk in (q for family in _FAMILIES for q in family.quirks):
        if quirk.name in quirks:
            raise DefinitionError(f"quirk profile {quirk.name} is declared twice")
        strangers = sorted(set(quirk.providers) - set(SENDERS))
        if strangers:
            raise DefinitionError(f"quirk profile {quirk.name} names unknown providers {strangers}")
        quirks[quirk.name] = quirk
    _PROTOCOLS.clear()
    _PROTOCOLS.update(protocols)
    _RULES.clear()
    _RULES.update(book)
    _QUIRKS.clear()
    _QUIRKS.update(quirks)
    _BREAKS.clear()
    _BREAKS.update({name: dict(p.breaks) for name, p in protocols.items() if p.breaks})
    _GENERATED[:] = [name for name, p in protocols.items() if p.generator is not None]
    _EXPLORED[:] = [name for name, p in protocols.items() if p.space is not None]


def protocol_names() -> list[str]:
    """Every protocol name, in :data:`PROTOCOLS`' order, without importing a family."""
    return list(_PROTOCOLS) if _loaded[0] else list(_HOME)


def get_protocol(name: str) -> Protocol:
    """The protocol called ``name``; a :class:`UsageError` lists the names there are.

    Before the tables are read, a protocol of toolwire's own comes from its family alone.
    """
    if not _loaded[0] and name in _HOME:
        found = next((p for p in _family(_HOME[name]).protocols if p.name == name), None)
        if found is not None:
            return found
    _load_all()
    try:
        return _PROTOCOLS[name]
    except KeyError:
        raise UsageError(f"unknown protocol {name!r}; choose one of: {', '.join(_PROTOCOLS)}") from None


def rules_for(protocol: str | None = None) -> list[Rule]:
    """The rules of ``protocol`` (every rule when ``None``), in catalogue order."""
    if protocol is not None:
        get_protocol(protocol)
    _load_all()
    return [rule for rule in _RULES.values() if protocol is None or protocol in rule.protocols]


def quirks_for(protocol: str) -> list[str]:
    """The quirk profiles that apply to ``protocol``."""
    _load_all()
    return [name for name, quirk in _QUIRKS.items() if protocol in quirk.protocols]


def machines() -> dict[str, type]:
    """Every machine, by class name: the machines layer's, then those of registered families."""
    from toolwire.machines import MACHINES

    _load_all()
    found: dict[str, type] = dict(MACHINES)
    for machine in (m for family in _FAMILIES for m in family.machines):
        found.setdefault(machine.__name__, machine)
    return found


def id_shapes() -> list[tuple[re.Pattern[str], str]]:
    """Every family's id shapes seen in the wild, with what each is called."""
    _load_all()
    return [shape for family in _FAMILIES for shape in family.id_shapes]


def envelope_ids() -> tuple[str, ...]:
    """Prefixes of envelope ids (a response's, a message's): ids that name no call."""
    _load_all()
    return tuple(prefix for family in _FAMILIES for prefix in family.envelope_ids)


def _provider_profiles(spec: Protocol) -> dict[str, Callable[[], Monitor]]:
    """The provider profiles of ``spec``'s wire, as its ``check`` profiles (a history's protocols)."""
    if spec.shape != "conversation" or spec.repair is None:
        return {}
    from toolwire.properties._provider import provider_factory

    found = {n: p for n, p in providers().items() if spec.name in p.wire}
    return {name: provider_factory(spec.monitor, p) for name, p in found.items()}


PROFILE_SOURCES.append(_provider_profiles)


def providers() -> dict[str, Any]:
    """Every family's provider profiles (:class:`~toolwire.properties._repair.Provider`), by name."""
    _load_all()
    found: dict[str, Any] = {}
    for family in _FAMILIES:
        for profile in family.providers() if family.providers is not None else ():
            if profile.name in found:
                raise DefinitionError(f"provider profile {profile.name} is declared twice")
            found[profile.name] = profile
    return found
