"""Where calls sit in a trace: the paths the mutators break, declared per protocol.

A protocol's :class:`Sites` find the event that opens a call (and the path of
its id there) and the event that answers one.  The helpers here build them
from the shape of the wire: the first entry of a list, an entry of a type,
a message of a role.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["Path", "Sites", "dig", "first", "key", "role"]

Path = tuple[str | int, ...]
Finder = Callable[[Any], Path | None]


def _none(event: Any) -> Path | None:
    return None


@dataclass(frozen=True, slots=True)
class Sites:
    """Where calls live in one protocol's trace.

    ``opens`` finds the event that opens a call and the path of the id in it;
    ``answers`` finds an event that answers a call (conversations, MCP).
    """

    opens: Finder
    answers: Finder = _none


def dig(value: Any, path: Path) -> Any:
    """The value at ``path`` inside ``value``, or None where the path does not exist."""
    for step in path:
        if isinstance(step, int):
            if not isinstance(value, list) or len(value) <= step:
                return None
        elif not isinstance(value, dict) or step not in value:
            return None
        value = value[step]
    return value


def first(event: Any, lists: Path, test: Finder) -> Path | None:
    """The path of the first entry of the list at ``lists`` for which ``test`` finds a path."""
    entries = dig(event, lists)
    for k, entry in enumerate(entries if isinstance(entries, list) else []):
        found = test(entry)
        if found is not None:
            return (*lists, k, *found)
    return None


def key(kind: str | None, name: str, *inner: str | int) -> Finder:
    """An entry of ``type`` ``kind`` (any, when None) whose id sits at ``inner + name``."""

    def test(entry: Any) -> Path | None:
        if kind is not None and (not isinstance(entry, dict) or entry.get("type") != kind):
            return None
        return (*inner, name) if dig(entry, (*inner, name)) is not None else None

    return test


def role(name: str, then: Finder) -> Finder:
    """``then``, on messages of role ``name`` only."""
    return lambda event: then(event) if isinstance(event, dict) and event.get("role") == name else None
