"""Where calls sit in a trace: the paths the mutators break, declared per protocol.

A protocol's :class:`Sites` find the event that opens a call (and the path of
its id there) and the event that answers one.  The helpers here build them
from the shape of the wire: the first entry of a list, an entry of a type,
a message of a role.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["Path", "Sites", "dig", "first", "intact_ids", "key", "role", "typed_ids"]

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


Ids = Callable[[Any], list[Any]]


def typed_ids(role_name: str, key_name: str, kind: str | None, id_path: Path) -> Ids:
    """The ids at ``id_path`` in the entries of ``msg[key_name]`` of type ``kind`` (any entry
    holding that path, when None), in messages of role ``role_name``."""

    def ids(msg: Any) -> list[Any]:
        if (
            not isinstance(msg, dict)
            or msg.get("role") != role_name
            or not isinstance(msg.get(key_name), list)
        ):
            return []
        return [
            dig(entry, id_path)
            for entry in msg[key_name]
            if (kind is None or (isinstance(entry, dict) and entry.get("type") == kind))
            and dig(entry, id_path) is not None
        ]

    return ids


def intact_ids(
    trace: list[Any], calls: Ids, results: Ids, *, one_message: bool, runs: bool = False
) -> set[str]:
    """Ids of the call/result pairs a damaged history still holds intact (``Protocol.intact``).

    A pair is intact when its id is called once and answered once, right after its call: by the
    message after the one that made it (``one_message``: results share one message), or by the
    run of result messages after it (a result a message).  ``runs``: consecutive call messages
    make one turn (Responses: an item a call).  ``calls`` and ``results`` read the ids a message
    calls and answers.  A sanitizer (``fuzz --mutate``, ``explore --mutate``) must keep these.

    >>> calls, results = typed_ids("assistant", "content", "tool_use", ("id",)), typed_ids(
    ...     "user", "content", "tool_result", ("tool_use_id",))
    >>> sorted(intact_ids([{"role": "assistant", "content": [{"type": "tool_use", "id": "a"},
    ...                                                       {"type": "tool_use", "id": "b"}]},
    ...                    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a"}]},
    ...                    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "b"}]}],
    ...                   calls, results, one_message=True))
    ['a']
    """
    called: Counter[str] = Counter()
    answered: Counter[str] = Counter()
    ok: set[str] = set()
    pending: set[str] = set()
    calling = False  # the message before made calls
    for msg in trace:
        made = [i for i in calls(msg) if isinstance(i, str)]
        said = [i for i in results(msg) if isinstance(i, str)]
        answered.update(said)
        ok.update(i for i in said if i in pending)
        if made:
            called.update(made)
            pending = (pending if runs and calling else set()) | set(made)
        elif not said or one_message:
            pending = set()
        calling = bool(made)
    return {i for i in ok if called[i] == 1 and answered[i] == 1}
