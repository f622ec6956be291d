"""The repairer's kit: what it needs to know of one protocol's history (an :class:`Adapter`: where
calls and results sit, how to rewrite them, and which rule each repair answers), and a provider's
profile (:class:`Provider`).

Each protocol family builds its adapter in its own package (``protocols/<family>/repair.py``) and
names it in its descriptor (``Protocol.repair``); provider profiles live with the wire they are of
(``Family.providers``).  The repair engine asks the registry, and never names a protocol.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Literal, NamedTuple

from toolwire.properties._change import Change

__all__ = [
    "DROP",
    "NOT_RUN",
    "Adapter",
    "OrphanPolicy",
    "Provider",
    "ProviderRule",
    "Rebuilt",
    "Site",
    "UnansweredPolicy",
    "text_of",
]

#: What an error result says of a call that was never run.
NOT_RUN: Final = "Error: this tool call was not run (toolwire repair: no result was recorded for it)."

OrphanPolicy = Literal["text", "drop"]
UnansweredPolicy = Literal["error-result", "drop"]

Message = dict[str, Any]
Block = int | None


class Site(NamedTuple):
    """A call or a result: the message it is in, its block there (None: the whole message), its id."""

    # A named tuple, not a frozen dataclass, and its key made with it: the repairer makes one per
    # call and result and reads their keys thousands of times (benchmarks/bench_repair.py).
    msg: int
    block: Block
    id: Any
    name: str | None
    #: ``(msg, block)``: where it is, what the repairer files it under.
    key: tuple[int, Block]

    @classmethod
    def at(cls, msg: int, block: Block, ident: Any, name: str | None) -> Site:
        """The site in message ``msg``, block ``block``."""
        return cls(msg, block, ident, name, (msg, block))


#: In :meth:`Adapter.with_calls`: this call is dropped.
DROP: Final = object()

Rules = dict[str, str]


def _has_text(value: Any) -> bool:
    if isinstance(value, str):
        return bool(value.strip())
    return isinstance(value, list) and bool(value)


@dataclass(frozen=True)
class Adapter:
    """One protocol's history as the repairer sees it.

    ``layout`` ``message``: each result is a message (an item) of its own; ``block``: results are
    blocks of a carrier message (``carrier_role``).  ``rules`` names the rule each action answers:
    ``unanswered``, ``orphan``, ``move``, ``first`` (results first in their message), ``duplicate``,
    ``id`` (an id the protocol will not take), ``missing`` (no id), ``second`` (a call answered twice).
    """

    protocol: str
    container: str
    layout: Literal["message", "block"]
    rules: Rules
    calls: Callable[[Any], list[tuple[Block, Any, str | None]]]
    results: Callable[[Any], list[tuple[Block, Any, str | None]]]
    call_path: Callable[[int, Block], str]
    result_path: Callable[[int, Block], str]
    #: The message with each call's id replaced (``DROP``: dropped); None when nothing is left.
    with_calls: Callable[[Message, dict[Block, Any]], Message | None]
    #: A result (message or block) carried with a new id, or a fresh one saying the call was not run.
    answer: Callable[[Message | None, Block, Any, str | None], Any]
    #: What a result said (for the note kept in its place).
    said: Callable[[Message, Block], Any]
    #: A note in the conversation, as a message (``layout`` message) or as a block.
    note: Callable[[str], Any]
    accepts: Callable[[str], bool]
    fresh: Callable[[int], str]
    #: Block layout: the role of the message carrying results, and how blocks sit in it.
    carrier_role: str = "user"
    blocks_key: str = "content"
    #: Block layout: whether a note is a block of the carrier (else a message of its own).
    note_in_place: bool = True
    note_message: Callable[[str], Message] | None = None
    #: Calls without an id are allowed (results pair by name and position in the turn before).
    ids_optional: bool = False
    #: Consecutive call messages form one turn (Responses: one item per call).
    run_calls: bool = False
    #: A repeated call's copy, renamed: what else must change in it (Responses: its item id).
    renamed: Callable[[Message], Message] = field(default=lambda m: m)
    #: A pass of the protocol's own over the rebuilt history (each change it makes appended).
    after: Callable[[list[Any], list[Change]], list[Any]] | None = None

    def is_carrier(self, msg: Any) -> bool:
        return isinstance(msg, dict) and msg.get("role") == self.carrier_role and not self.calls(msg)

    def blocks(self, msg: Message) -> list[Any]:
        """The blocks of a message (a string content is one text block)."""
        value = msg.get(self.blocks_key)
        if isinstance(value, list):
            return list(value)
        if isinstance(value, str) and value.strip():
            return [self.note(value)]
        return []

    def carrier(self, blocks: list[Any], base: Message | None) -> Message:
        """Results first, then what ``base`` (the message right after the call turn) held."""
        if base is None:
            return {"role": self.carrier_role, self.blocks_key: blocks}
        out = dict(base)
        out[self.blocks_key] = blocks + self.blocks(base)
        return out

    def strip(self, msg: Message, keep: dict[int, Any]) -> Message | None:
        """``msg`` with its result blocks gone, but those in ``keep`` (a block, or a note for it)."""
        value = msg.get(self.blocks_key)
        if not isinstance(value, list):
            return msg  # a string content holds no result (its text is a block of the carrier)
        found = {b for b, _, _ in self.results(msg)}
        out: list[Any] = []
        for k, block in enumerate(value):
            if k not in found:
                out.append(block)
            elif k in keep:
                out.append(keep[k])
        if not out:
            return None
        stripped = dict(msg)
        stripped[self.blocks_key] = out
        return stripped


def replaced(
    msg: Message, list_key: str, edit: dict[Block, Any], put: Callable[[Any, Any], Any]
) -> Message | None:
    """``msg`` with entries of ``msg[list_key]`` given a new id (``put``) or dropped (``DROP``)."""
    entries = []
    for k, entry in enumerate(msg.get(list_key) or []):
        if k not in edit:
            entries.append(entry)
        elif edit[k] is not DROP:
            entries.append(put(copy.deepcopy(entry), edit[k]))
    out = dict(msg)
    out[list_key] = entries
    return out


def had_text(msg: Message, key: str) -> bool:
    """Whether ``msg[key]`` holds anything worth keeping."""
    return _has_text(msg.get(key))


@dataclass(slots=True)
class Rebuilt:
    """The repaired messages, the changes made, and the ids remapped."""

    messages: list[Any]
    changes: list[Change] = field(default_factory=list)
    ids: dict[str, str] = field(default_factory=dict)


def text_of(value: Any) -> str:
    """A result's content as plain text."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def role_is(msg: Any, role: str) -> bool:
    return isinstance(msg, dict) and msg.get("role") == role


def blocks_left(out: Message | None, key: str = "content") -> Message | None:
    """``out`` when it still holds blocks under ``key``, else None."""
    return out if out is not None and out.get(key) else None


def nonempty(value: str) -> bool:
    return bool(value)


def numbered(prefix: str, width: int = 0) -> Callable[[int], str]:
    """Fresh ids: ``prefix`` and a counter (zero-padded to ``width``)."""
    return lambda n: f"{prefix}{n:0{width}d}"


def parts_of(
    msg: Any, role: str, key: str, read: Callable[[Any], tuple[Any, str | None] | None]
) -> list[tuple[Block, Any, str | None]]:
    """The calls (or the results) among the entries of ``msg[key]`` of a ``role`` message:
    (index, id, name) of each entry ``read`` finds one in (it gives its id and name, else None).

    What every block protocol's readers share; ``read`` says what a call or a result is there.
    """
    if not role_is(msg, role) or not isinstance(msg.get(key), list):
        return []
    out: list[tuple[Block, Any, str | None]] = []
    for k, entry in enumerate(msg[key]):
        found = read(entry)
        if found is not None:
            out.append((k, *found))
    return out


def typed_parts(
    msg: Any, role: str, key: str, kind: str, id_key: str, name_key: str
) -> list[tuple[Block, Any, str | None]]:
    """The parts of type ``kind`` under ``msg[key]`` of a ``role`` message: (index, id, name)."""

    def read(p: Any) -> tuple[Any, str | None] | None:
        if isinstance(p, dict) and p.get("type") == kind and not p.get("providerExecuted"):
            return p.get(id_key), p.get(name_key)
        return None

    return parts_of(msg, role, key, read)


@dataclass(frozen=True, slots=True)
class ProviderRule:
    """One provider's rule: its id, statement, source and the error text recorded for it."""

    id: str
    statement: str
    source: str
    error: str | None
    severity: Literal["error", "warning"]
    #: The wire's rule this one coincides with (``check`` reports it), or None.
    same_as: str | None = None
    #: For id rules: whether the provider takes an id.
    accepts: Callable[[str], bool] | None = None


Broken = list[tuple[ProviderRule, str, str]]


@dataclass(frozen=True, slots=True)
class Provider:
    """A provider reached over ``wire``, with the rules it adds to the wire's.

    ``lint`` says which of its own rules a history breaks (those ``check`` does not say):
    (rule, path, what); ``fixes`` mends them where a repair is right, each change appended.
    """

    name: str
    wire: tuple[str, ...]
    rules: tuple[ProviderRule, ...]
    lint: Callable[[list[Any], Provider], Broken] = field(default=lambda messages, provider: [])
    fixes: Callable[[list[Any], Provider, list[Change]], list[Any]] = field(
        default=lambda messages, provider, changes: messages
    )

    def accepts(self, value: str) -> bool:
        """Whether every id rule of this provider takes ``value``."""
        return all(r.accepts(value) for r in self.rules if r.accepts is not None)
