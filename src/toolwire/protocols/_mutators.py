"""Mutators: break valid traffic in named ways, for negative tests.

Each mutator finds the first call of a trace through the protocol's
:class:`Sites` (where a call opens, where its id sits, where it is answered)
and breaks it.  :data:`BREAKS` names, per protocol, the rule ``check``
reports for each mutation (each protocol's descriptor declares it); a test
proves it on generated traffic.  A pair missing there is a mutation the
protocol's own rules allow: the relations of a converter catch those,
``check`` cannot.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Final

from hypothesis import assume
from hypothesis import strategies as st

from toolwire.errors import UsageError
from toolwire.properties._sites import Path, Sites, dig
from toolwire.protocols._registry import BREAKS, PROTOCOLS
from toolwire.protocols._traces import traces

__all__ = ["BREAKS", "MUTATORS", "mutate", "mutated"]

Wire = list[dict[str, Any]]


def _where(trace: Wire, find: Callable[[Any], Path | None]) -> list[tuple[int, Path]]:
    return [(n, path) for n, event in enumerate(trace) if (path := find(event)) is not None]


def _set(event: Any, path: Path, value: Any) -> None:
    parent = dig(event, path[:-1])
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
    first, second = dig(trace[a], pa), dig(trace[b], pb)
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
    spec = PROTOCOLS.get(protocol)
    sites = spec.sites if spec is not None else None
    change = MUTATORS.get(mutator)
    if sites is None or change is None:
        raise UsageError(f"no mutator {mutator!r} for {protocol!r}; mutators: {', '.join(MUTATORS)}")
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
