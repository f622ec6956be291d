"""Mutators: break valid traffic in named ways, for negative tests.

Each mutator finds the first call of a trace through the protocol's
:class:`Sites` (where a call opens, where its id sits, where it is answered)
and breaks it.  :data:`BREAKS` names, per protocol, the rule ``check``
reports for each mutation; a test proves it on generated traffic.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from hypothesis import assume
from hypothesis import strategies as st

from toolwire.errors import UsageError
from toolwire.properties._strategies import traces

__all__ = ["BREAKS", "MUTATORS", "Sites", "mutate", "mutated"]

Wire = list[dict[str, Any]]
Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Sites:
    """Where calls live in one protocol's trace.

    ``opens`` finds the event that opens a call and the path of the id in it;
    ``answers`` finds an event that answers a call (conversations, MCP).
    """

    opens: Callable[[Any], Path | None]
    answers: Callable[[Any], Path | None] = lambda event: None


def _dig(value: Any, path: Path) -> Any:
    for key in path:
        if isinstance(key, int):
            if not isinstance(value, list) or len(value) <= key:
                return None
        elif not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value


def _first(event: Any, lists: Path, test: Callable[[Any], Path | None]) -> Path | None:
    """The path of the first entry of the list at ``lists`` for which ``test`` finds a path."""
    entries = _dig(event, lists)
    for k, entry in enumerate(entries if isinstance(entries, list) else []):
        found = test(entry)
        if found is not None:
            return (*lists, k, *found)
    return None


def _key(kind: str | None, key: str, *inner: str | int) -> Callable[[Any], Path | None]:
    """An entry of ``type`` ``kind`` (any, when None) whose id sits at ``inner + key``."""

    def test(entry: Any) -> Path | None:
        if kind is not None and (not isinstance(entry, dict) or entry.get("type") != kind):
            return None
        return (*inner, key) if _dig(entry, (*inner, key)) is not None else None

    return test


def _role(role: str, then: Callable[[Any], Path | None]) -> Callable[[Any], Path | None]:
    return lambda event: then(event) if isinstance(event, dict) and event.get("role") == role else None


SITES: Final = {
    "openai-chat-stream": Sites(lambda e: _first(e, ("choices", 0, "delta", "tool_calls"), _key(None, "id"))),
    "openai-responses-stream": Sites(
        lambda e: (
            ("item", "call_id")
            if _dig(e, ("type",)) == "response.output_item.added"
            and _dig(e, ("item", "type")) == "function_call"
            else None
        )
    ),
    "anthropic-stream": Sites(_key("content_block_start", "id", "content_block")),
    "bedrock-converse-stream": Sites(_key(None, "toolUseId", "contentBlockStart", "start", "toolUse")),
    "gemini-stream": Sites(
        lambda e: _first(e, ("candidates", 0, "content", "parts"), _key(None, "id", "functionCall"))
    ),
    "aisdk-stream": Sites(_key("tool-input-start", "id")),
    "aisdk-ui-stream": Sites(_key("tool-input-start", "toolCallId")),
    "mcp": Sites(
        lambda e: ("id",) if _dig(e, ("method",)) == "tools/call" else None,
        lambda e: ("id",) if isinstance(e, dict) and "result" in e and _dig(e, ("id",)) != 0 else None,
    ),
    "openai-chat": Sites(
        _role("assistant", lambda e: _first(e, ("tool_calls",), _key(None, "id"))),
        _role("tool", _key(None, "tool_call_id")),
    ),
    "openai-responses": Sites(_key("function_call", "call_id"), _key("function_call_output", "call_id")),
    "anthropic-messages": Sites(
        _role("assistant", lambda e: _first(e, ("content",), _key("tool_use", "id"))),
        _role("user", lambda e: _first(e, ("content",), _key("tool_result", "tool_use_id"))),
    ),
    "bedrock-converse": Sites(
        _role("assistant", lambda e: _first(e, ("content",), _key(None, "toolUseId", "toolUse"))),
        _role("user", lambda e: _first(e, ("content",), _key(None, "toolUseId", "toolResult"))),
    ),
    "gemini-contents": Sites(
        _role("model", lambda e: _first(e, ("parts",), _key(None, "id", "functionCall"))),
        _role("user", lambda e: _first(e, ("parts",), _key(None, "id", "functionResponse"))),
    ),
}
SITES["open-responses-stream"] = SITES["openai-responses-stream"]
SITES["mistral-chat"] = SITES["openai-chat"]


def _where(trace: Wire, find: Callable[[Any], Path | None]) -> list[tuple[int, Path]]:
    return [(n, path) for n, event in enumerate(trace) if (path := find(event)) is not None]


def _set(event: Any, path: Path, value: Any) -> None:
    parent = _dig(event, path[:-1])
    if value is _DELETE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value


_DELETE: Final = object()


def _drop_id(trace: Wire, sites: Sites) -> Wire | None:
    opened = _where(trace, sites.opens)
    if not opened:
        return None
    n, path = opened[0]
    _set(trace[n], path, _DELETE)
    return trace


def _duplicate(trace: Wire, sites: Sites) -> Wire | None:
    opened = _where(trace, sites.opens)
    if not opened:
        return None
    n, _ = opened[0]
    trace.insert(n + 1, copy.deepcopy(trace[n]))
    return trace


def _reorder(trace: Wire, sites: Sites) -> Wire | None:
    """Move the first answer before its call; in a stream, the first call's opening event to the end."""
    opened = _where(trace, sites.opens)
    answered = _where(trace, sites.answers)
    if answered and opened:
        n, _ = answered[0]
        event = trace.pop(n)
        trace.insert(opened[0][0], event)
        return trace
    if not opened:
        return None
    trace.append(trace.pop(opened[0][0]))
    return trace


def _swap_ids(trace: Wire, sites: Sites) -> Wire | None:
    """Swap the ids of the first two calls where they open, and nowhere else."""
    opened = _where(trace, sites.opens)
    if len(opened) < 2:
        return None
    (a, pa), (b, pb) = opened[:2]
    first, second = _dig(trace[a], pa), _dig(trace[b], pb)
    if first == second:
        return None
    _set(trace[a], pa, second)
    _set(trace[b], pb, first)
    return trace


def _truncate(trace: Wire, sites: Sites) -> Wire | None:
    """Cut the trace just after the first call opens."""
    opened = _where(trace, sites.opens)
    if not opened:
        return None
    return trace[: opened[0][0] + 1]


MUTATORS: Final[dict[str, Callable[[Wire, Sites], Wire | None]]] = {
    "drop-id": _drop_id,
    "duplicate": _duplicate,
    "reorder": _reorder,
    "swap-ids": _swap_ids,
    "truncate": _truncate,
}


def mutate(trace: Wire, protocol: str, mutator: str) -> Wire | None:
    """A broken copy of ``trace``, or None when it has nothing to break (no call, or one call to swap)."""
    try:
        sites = SITES[protocol]
        change = MUTATORS[mutator]
    except KeyError:
        raise UsageError(
            f"no mutator {mutator!r} for {protocol!r}; mutators: {', '.join(MUTATORS)}"
        ) from None
    return change(copy.deepcopy(trace), sites)


def mutated(protocol: str, mutator: str, quirks: str | None = None) -> st.SearchStrategy[Wire]:
    """A strategy of traces of ``protocol`` broken by ``mutator``."""

    @st.composite
    def broken(draw: st.DrawFn) -> Wire:
        trace = draw(traces(protocol, quirks).map(lambda trace: mutate(trace, protocol, mutator)))
        assume(trace is not None)
        assert trace is not None
        return trace

    return broken()


#: The rule ``check`` reports for each mutation, per protocol.  A pair missing here is a
#: mutation the protocol's own rules allow (Gemini's ids are optional; Chat Completions
#: ids appear on first fragments only, and AI SDK calls announced by tool-input-start may
#: complete in any order, so swapping two of them is legal): the relations
#: of a converter catch those, ``check`` cannot.
BREAKS: Final[dict[str, dict[str, str]]] = {
    "openai-chat-stream": {"drop-id": "CC-6a", "reorder": "CC-6d", "truncate": "CC-6d"},
    "openai-responses-stream": {
        "drop-id": "RS-7f",
        "duplicate": "RS-9a",
        "reorder": "RS-9b",
        "truncate": "RS-9e",
    },
    "open-responses-stream": {
        "drop-id": "OR-1",
        "duplicate": "RS-9a",
        "reorder": "OR-3",
        "truncate": "RS-9e",
    },
    "anthropic-stream": {"drop-id": "AN-1", "duplicate": "AN-10b", "reorder": "AN-10a", "truncate": "AN-10a"},
    "bedrock-converse-stream": {
        "drop-id": "BR-1",
        "duplicate": "BR-9b",
        "reorder": "BR-9a",
        "truncate": "BR-9a",
    },
    "aisdk-stream": {
        "drop-id": "VS-5",
        "duplicate": "VS-1",
        "reorder": "VS-1",
        "truncate": "VS-2",
    },
    "aisdk-ui-stream": {
        "drop-id": "VU-1",
        "duplicate": "VU-3",
        "reorder": "VU-1",
        "swap-ids": "VU-1",
        "truncate": "VU-4",
    },
    "mcp": {"drop-id": "MCP-2a", "duplicate": "MCP-1", "reorder": "MCP-2a"},
    "openai-chat": {
        "drop-id": "CC-3",
        "duplicate": "CC-4",
        "reorder": "CC-2",
        "swap-ids": "CC-3",
        "truncate": "CC-4",
    },
    "openai-responses": {"drop-id": "RS-2", "duplicate": "RS-5", "truncate": "RS-4"},
    "anthropic-messages": {
        "drop-id": "AN-1",
        "duplicate": "AN-2",
        "reorder": "AN-4",
        "swap-ids": "AN-3",
        "truncate": "AN-3",
    },
    "bedrock-converse": {
        "drop-id": "BR-1",
        "duplicate": "BR-2",
        "reorder": "BR-2",
        "swap-ids": "BR-2",
        "truncate": "BR-2",
    },
    "gemini-contents": {"drop-id": "GM-1", "duplicate": "GM-7", "reorder": "GM-3", "swap-ids": "GM-1"},
    "mistral-chat": {
        "drop-id": "MI-3",
        "duplicate": "MI-4",
        "reorder": "MI-4",
        "swap-ids": "MI-4",
        "truncate": "MI-4",
    },
}
