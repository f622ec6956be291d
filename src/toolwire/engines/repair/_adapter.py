"""What the repairer needs to know of one protocol's history: where calls and results sit, how to
rewrite them, and which rule each repair answers.

This table of adapters, keyed by protocol, is per-protocol knowledge kept here for now; each
adapter belongs with its protocol family (``protocols/<family>/``) once the families take it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Literal

__all__ = ["DROP", "Adapter", "Site"]

Message = dict[str, Any]
Block = int | None


@dataclass(frozen=True, slots=True)
class Site:
    """A call or a result: the message it is in, its block there (None: the whole message), its id."""

    msg: int
    block: Block
    id: Any
    name: str | None

    @property
    def key(self) -> tuple[int, Block]:
        return (self.msg, self.block)


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
        found = {b for b, _, _ in self.results(msg)}
        out: list[Any] = []
        for k, block in enumerate(msg.get(self.blocks_key) or []):
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
