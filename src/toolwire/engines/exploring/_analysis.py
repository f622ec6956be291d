"""Machine analysis with networkx: reachability, dead ends, dead events, a transition-coverage suite.

Works on the compiled :class:`~toolwire.machines.Table`; the graph is built
only here, where graph algorithms are needed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

import networkx as nx

from toolwire.errors import UsageError
from toolwire.machines import Table, compile_machine
from toolwire.protocols import machines

__all__ = ["Analysis", "analyse", "analyse_machine", "suite"]

Edge = tuple[str, str, str]
K = TypeVar("K", bound=Hashable)
S = TypeVar("S", bound=Hashable)
L = TypeVar("L")


@dataclass(frozen=True, slots=True)
class Analysis:
    """What graph analysis proves about one machine.

    ``transitions`` are the reachable ones, as ``(source, event, target)``;
    ``dead_ends`` are reachable states with no path to an accepting state;
    ``dead_events`` are events with no transition from any reachable state;
    ``suite`` is a short set of event paths from the initial state, each
    ending in an accepting state, that together fire every reachable
    transition.
    """

    machine: str
    states: tuple[str, ...]
    reachable: tuple[str, ...]
    unreachable: tuple[str, ...]
    transitions: tuple[Edge, ...]
    dead_ends: tuple[str, ...]
    dead_events: tuple[str, ...]
    suite: tuple[tuple[str, ...], ...]

    def to_json(self) -> dict[str, Any]:
        """The analysis as ``--format json`` prints it."""
        return {
            "machine": self.machine,
            "states": len(self.states),
            "reachable": list(self.reachable),
            "unreachable": list(self.unreachable),
            "transitions": [list(t) for t in self.transitions],
            "dead_ends": list(self.dead_ends),
            "dead_events": list(self.dead_events),
            "suite": [list(p) for p in self.suite],
        }


def _graph(table: Table) -> nx.MultiDiGraph[str]:
    graph: nx.MultiDiGraph[str] = nx.MultiDiGraph()
    graph.add_nodes_from(table.states)
    for source, event, target in table.transitions():
        graph.add_edge(source, target, key=event)
    return graph


_CACHE: dict[int, tuple[Table, Analysis]] = {}


def analyse(table: Table) -> Analysis:
    """Analyse a compiled table (cached per table: tables are immutable)."""
    cached = _CACHE.get(id(table))
    if cached is not None and cached[0] is table:
        return cached[1]
    result = _analyse(table)
    _CACHE[id(table)] = (table, result)
    return result


def _analyse(table: Table) -> Analysis:
    graph = _graph(table)
    initial = table.states[table.initial]
    reachable = {initial} | nx.descendants(graph, initial)
    accepting = {table.states[n] for n in table.accepting}
    finishing = set(accepting)
    for state in accepting:
        finishing |= nx.ancestors(graph, state)
    transitions = tuple(t for t in table.transitions() if t[0] in reachable)
    fired = {event for _, event, _ in transitions}
    rows = table.rows

    def successors(state: str) -> list[tuple[str, str, frozenset[Edge]]]:
        number = table.state(state)
        out = []
        for event in table.events:
            target = rows[event][number]
            if target >= 0:
                edge = (state, event, table.states[target])
                out.append((event, edge[2], frozenset({edge})))
        return out

    return Analysis(
        machine=table.name,
        states=table.states,
        reachable=tuple(s for s in table.states if s in reachable),
        unreachable=tuple(s for s in table.states if s not in reachable),
        transitions=transitions,
        dead_ends=tuple(s for s in table.states if s in reachable and s not in finishing),
        dead_events=tuple(e for e in table.events if e not in fired),
        suite=tuple(tuple(p) for p in suite(initial, successors, accepting.__contains__, set(transitions))),
    )


def suite(
    start: S,
    successors: Callable[[S], Iterable[tuple[L, S, Iterable[K]]]],
    accepting: Callable[[S], bool],
    keys: set[K],
) -> list[list[L]]:
    """Few paths from ``start`` to accepting states that together fire every key in ``keys``.

    ``successors(state)`` lists ``(label, target, keys fired)``.  Each path
    goes breadth first to the nearest move that fires an uncovered key (and
    can still reach an accepting state), again and again, then takes the
    shortest way to an accepting state; a new path starts when nothing
    uncovered is reachable.  Keys that no complete path fires are left out.
    """
    succ: dict[S, list[tuple[L, S, frozenset[K]]]] = {}

    def out(state: S) -> list[tuple[L, S, frozenset[K]]]:
        if state not in succ:
            succ[state] = [(label, target, frozenset(fired)) for label, target, fired in successors(state)]
        return succ[state]

    # States that can still finish: reverse reachability from accepting states.
    order = [start]
    seen = {start}
    for state in order:
        for _, target, _ in out(state):
            if target not in seen:
                seen.add(target)
                order.append(target)
    finishing = {s for s in order if accepting(s)}
    changed = True
    while changed:
        changed = False
        for state in order:
            if state not in finishing and any(t in finishing for _, t, _ in out(state)):
                finishing.add(state)
                changed = True
    left = {k for k in keys if any(k in f and t in finishing for s in order for _, t, f in out(s))}
    paths: list[list[L]] = []

    def uncovered(fired: frozenset[K], target: S) -> bool:
        return bool(fired & left) and target in finishing

    while left:
        state, path = start, []
        while True:
            step = _nearest(state, out, uncovered)
            if step is None:
                break
            labels, state, fired = step
            path.extend(labels)
            left -= fired
        if not accepting(state):
            step = _nearest(state, out, lambda f, t: accepting(t))
            if step is None:
                break
            labels, state, fired = step
            path.extend(labels)
            left -= fired
        paths.append(path)
    return paths


def _nearest(
    start: S,
    out: Callable[[S], list[tuple[L, S, frozenset[K]]]],
    wanted: Callable[[frozenset[K], S], bool],
) -> tuple[list[L], S, set[K]] | None:
    """Breadth first from ``start`` to the first move that is ``wanted``: its labels, end, keys fired."""
    parent: dict[S, tuple[S, L, frozenset[K]] | None] = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        for label, target, fired in out(state):
            if wanted(fired, target):
                labels, keys = [label], set(fired)
                back = state
                while parent[back] is not None:
                    before, moved, also = parent[back]  # type: ignore[misc]
                    labels.append(moved)
                    keys |= also
                    back = before
                return list(reversed(labels)), target, keys
            if target not in parent:
                parent[target] = (state, label, fired)
                queue.append(target)
    return None


def analyse_machine(name: str) -> Analysis:
    """The analysis of machine ``name`` (a class name that ``machines()`` lists)."""
    try:
        machine = machines()[name]
    except KeyError:
        raise UsageError(f"unknown machine {name!r}; choose from: {', '.join(machines())}") from None
    return analyse(compile_machine(machine))
