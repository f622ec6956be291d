"""The result nouns of a repair: one :class:`Change`, and the :class:`Repair` of a history."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

__all__ = ["ACTIONS", "Action", "Change", "Repair"]

Action = Literal[
    "answer",  # an unanswered call got an error result saying it was not run
    "drop-call",  # an unanswered call was dropped (its assistant text kept)
    "note",  # an orphaned result became a plain text note naming its call
    "drop-result",  # an orphaned result was dropped (--orphan-results drop)
    "move",  # a result was moved next to its call
    "rename",  # a repeated call id was renamed, in the call and in its result
    "fill-id",  # a call without an id got one, and so did its result
    "remap",  # an id the protocol or provider will not take was remapped (see Repair.ids)
    "drop-item-id",  # an optional item id that broke a rule was removed
    "restate",  # a UI tool part's state was set to the one its fields fit
    "merge",  # a turn left with text alone was merged into the call turn right after it
    "unrepaired",  # a rule still broken after repair: no repair is right (exit 2)
]

#: Every action, in the order a report lists them.
ACTIONS: Final[tuple[str, ...]] = Action.__args__  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class Change:
    """One change made to a history, with the rule it answers.

    ``path`` points into the history as it was given (``messages[3].tool_calls[0].id``);
    ``before`` and ``after`` are the values there before and after (``None`` where there was none).
    """

    rule: str
    path: str
    action: Action
    before: Any = None
    after: Any = None
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of this change."""
        return {
            "rule": self.rule,
            "path": self.path,
            "action": self.action,
            "before": self.before,
            "after": self.after,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class Repair:
    """A repaired history, the changes made, and the id map applied.

    ``history`` has the shape it was given in (a request body stays a body).  ``ids`` maps each
    id the protocol or provider would not take to the id that replaced it (injective: a gateway
    inverts it to map ids back); renamed repeats and filled-in ids are in ``changes`` only.
    ``exit_code`` is what ``toolwire repair`` exits with: 0 nothing to repair (``history`` is the
    input object itself), 1 repaired, 2 a rule no repair is right for is still broken.
    """

    history: Any
    protocol: str
    changes: tuple[Change, ...] = ()
    ids: Mapping[str, str] = field(default_factory=dict)
    provider: str | None = None

    @property
    def changed(self) -> bool:
        """Whether anything was changed."""
        return any(c.action != "unrepaired" for c in self.changes)

    @property
    def unrepaired(self) -> tuple[Change, ...]:
        """The broken rules no repair is right for."""
        return tuple(c for c in self.changes if c.action == "unrepaired")

    @property
    def exit_code(self) -> int:
        """0: nothing to repair; 1: repaired; 2: something is left that no repair is right for."""
        if self.unrepaired:
            return 2
        return 1 if self.changes else 0

    def to_json(self) -> dict[str, Any]:
        """``{"history", "changes", "exit_code"}`` (and ``ids``, ``protocol``, ``provider``)."""
        return {
            "history": self.history,
            "changes": [c.to_json() for c in self.changes],
            "exit_code": self.exit_code,
            "ids": dict(self.ids),
            "protocol": self.protocol,
            "provider": self.provider,
        }
