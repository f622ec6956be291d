"""Bounded exhaustive exploration: every valid trace within bounds, through a converter.

Two walks over a protocol's :class:`~toolwire.properties.Space`:

- :func:`state_space`, a set-and-deque breadth-first search over its states,
  counts distinct states, moves, depth, the table transitions covered, and
  the exact number of valid traces (paths to an accepting state, counted on
  the state graph, which is acyclic within bounds);
- :func:`paths`, a breadth-first walk over trace prefixes, yields every
  valid trace shortest first, so the first one a target fails on is a
  shortest counterexample.

:func:`explore` runs a target on every trace and judges it with the fuzzer's
relations (:func:`~toolwire.engines.judge`); a run cut short by a limit says
so and never claims that the relations hold.
"""

from __future__ import annotations

import json
import os
import time
from collections import deque
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from toolwire.engines._core._events import EngineEvent, FindingFound, Finished, Handler, Progress, Started
from toolwire.engines.exploring._analysis import analyse, suite
from toolwire.engines.fuzzing import (
    MUTATIONS,
    Counterexample,
    ExploreOptions,
    Outcome,
    SaveCounterexamples,
    Target,
    deviated,
    judge,
    load_target,
    waiting,
)
from toolwire.errors import DefinitionError
from toolwire.properties import Bounds, Space
from toolwire.properties._spaces import Fired, Move
from toolwire.protocols import get_protocol, mutate, space_for

__all__ = [
    "Expansions",
    "Exploration",
    "StateSpace",
    "coverage_suite",
    "explore",
    "explore_with",
    "mutations",
    "paths",
    "state_space",
    "state_spaces",
]

Wire = list[dict[str, Any]]
Verdict = Literal["holds", "broken", "cut short"]


@dataclass(slots=True)
class StateSpace:
    """What a breadth-first search of a space found."""

    protocol: str
    bounds: dict[str, Any]
    states: int = 0
    moves: int = 0
    #: The longest valid trace, in events (while the search is cut short: breadth-first levels).
    depth: int = 0
    traces: int = 0
    fired: set[Fired] = field(default_factory=set)
    #: Every table transition reachable in the machines, and those no move fired.
    reachable: int = 0
    uncovered: list[str] = field(default_factory=list)
    seconds: float = 0.0
    #: Why the search stopped early (then ``states`` and ``traces`` are lower bounds).
    cut: str | None = None
    graph: dict[Hashable, list[tuple[Move, Hashable, tuple[Fired, ...]]]] | None = None

    @property
    def covered(self) -> int:
        """Reachable table transitions fired by some move."""
        return self.reachable - len(self.uncovered)

    def to_json(self) -> dict[str, Any]:
        """The counts, as ``--format json`` prints them."""
        return {
            "states": self.states,
            "moves": self.moves,
            "depth": self.depth,
            "traces": self.traces,
            "transitions": {
                "covered": self.covered,
                "reachable": self.reachable,
                "uncovered": self.uncovered,
            },
            "seconds": round(self.seconds, 3),
            "cut": self.cut,
        }


def state_space(
    space: Space, *, max_states: int | None = None, time_limit: float | None = None, keep: bool = False
) -> StateSpace:
    """Search ``space`` breadth first with a set and a queue; count its traces on the state graph.

    States get numbers in the order they are found, so the graph is kept as
    lists of numbers and no state tuple is hashed twice.  ``keep`` keeps the
    moves too (``StateSpace.graph``) for :func:`coverage_suite`.
    """
    started = time.monotonic()
    deadline = started + time_limit if time_limit is not None else None
    result = StateSpace(space.protocol, space.bounds.describe(space))
    start = space.start()
    number: dict[Hashable, int] = {start: 0}
    found: list[Hashable] = [start]
    level = [0]
    successors: list[list[int]] = []
    kept: dict[Hashable, list[tuple[Move, Hashable, tuple[Fired, ...]]]] = {}
    fired_sets: set[tuple[Fired, ...]] = set()
    steps = space.steps
    moves = 0
    position = 0
    forward = True  # every move so far goes to a state found later: the numbering is topological
    while position < len(found):
        if position & 1023 == 0 and (
            (max_states is not None and len(found) > max_states)
            or (deadline is not None and time.monotonic() > deadline)
        ):
            result.cut = (
                f"stopped after {len(found)} states (limit {max_states})"
                if max_states is not None and len(found) > max_states
                else f"stopped after {time_limit} s"
            )
            break
        state = found[position]
        out: list[int] = []
        depth = level[position] + 1
        for move, target, transitions in steps(state):
            n = number.get(target)
            if n is None:
                n = number[target] = len(found)
                found.append(target)
                level.append(depth)
            elif n <= position:
                forward = False
            out.append(n)
            fired_sets.add(transitions)
            if keep:
                kept.setdefault(state, []).append((move, target, transitions))
        moves += len(out)
        successors.append(out)
        position += 1
    result.states = len(found)
    result.moves = moves
    result.depth = max(level)
    result.fired = {f for transitions in fired_sets for f in transitions}
    if result.cut is None:
        accepting = [space.accepting(state) for state in found]
        result.traces, result.depth = _count(space, successors, accepting, forward)
    result.reachable, result.uncovered = _coverage(space, result.fired)
    result.seconds = time.monotonic() - started
    result.graph = kept if keep else None
    return result


def state_spaces(
    space: Space, *, time_limit: float | None = None, compare: bool = True
) -> tuple[StateSpace, StateSpace | None]:
    """``space`` searched, and (when ``compare`` and ``space`` reduces symmetry) the same bounds without."""
    started = time.monotonic()
    searched = state_space(space, time_limit=time_limit)
    if not (compare and space.bounds.symmetry):
        return searched, None
    remaining = None if time_limit is None else max(0.0, time_limit - (time.monotonic() - started))
    unreduced = space_for(space.protocol, replace(space.bounds, symmetry=False))
    return searched, state_space(unreduced, time_limit=remaining)


def _count(
    space: Space, successors: list[list[int]], accepting: list[bool], forward: bool = False
) -> tuple[int, int]:
    """Paths from state 0 to accepting states, and the longest, in reverse topological order.

    ``forward`` says every move goes to a higher number: then the numbering is that order.
    """
    if forward:
        return _paths(successors, accepting, range(len(successors)))
    indegree = [0] * len(successors)
    for out in successors:
        for target in out:
            indegree[target] += 1
    order = [0]
    for state in order:
        for target in successors[state]:
            indegree[target] -= 1
            if indegree[target] == 0:
                order.append(target)
    if len(order) != len(successors):
        raise DefinitionError(f"the {space.protocol} space has a cycle within bounds; bound every loop")
    return _paths(successors, accepting, order)


def _paths(successors: list[list[int]], accepting: list[bool], order: Sequence[int]) -> tuple[int, int]:
    ways = [0] * len(successors)
    longest = [0] * len(successors)
    way, length = ways.__getitem__, longest.__getitem__
    for state in reversed(order):
        out = successors[state]
        counts = list(map(way, out))
        ways[state] = accepting[state] + sum(counts)
        if all(counts):
            longest[state] = max(map(length, out), default=-1) + 1
        else:
            longest[state] = max([longest[t] + 1 for t in out if ways[t]], default=0)
    return ways[0], longest[0]


def _coverage(space: Space, fired: set[Fired]) -> tuple[int, list[str]]:
    reachable = 0
    uncovered = []
    for number, table in enumerate(space.tables):
        for source, event, target in analyse(table).transitions:
            reachable += 1
            if (number, table.state(source), event) not in fired:
                uncovered.append(f"{table.name}: {source} --{event}--> {target}")
    return reachable, uncovered


@dataclass(slots=True)
class Expansions:
    """How many trace prefixes a :func:`paths` walk has expanded so far."""

    expanded: int = 0


def paths(space: Space, tally: Expansions | None = None) -> Iterator[tuple[Move, ...]]:
    """Every complete path of ``space``, shortest first (breadth first over prefixes)."""
    Node = tuple[Move, Any] | None
    frontier: deque[tuple[Hashable, Node]] = deque([(space.start(), None)])
    steps = space.steps
    accepting = space.accepting
    tally = tally if tally is not None else Expansions()
    while frontier:
        state, node = frontier.popleft()
        tally.expanded += 1
        if accepting(state):
            path: list[Move] = []
            back = node
            while back is not None:
                path.append(back[0])
                back = back[1]
            yield tuple(reversed(path))
        for move, target, _ in steps(state):
            frontier.append((target, (move, node)))


def mutations(trace: Wire, protocol: str) -> Iterator[Wire]:
    """``trace`` broken by every mutator and every ordered pair of mutators, each once."""
    seen = {json.dumps(trace, sort_keys=True)}
    for first in MUTATIONS:
        once = mutate(trace, protocol, first)
        if once is None:
            continue
        for broken in (once, *(mutate(once, protocol, second) for second in MUTATIONS)):
            if broken is None:
                continue
            key = json.dumps(broken, sort_keys=True)
            if key not in seen:
                seen.add(key)
                yield broken


@dataclass(slots=True)
class Exploration:
    """What an ``explore`` run did, and its verdict."""

    target: str
    source: str
    destination: str
    bounds: dict[str, Any]
    space: StateSpace
    #: The same bounds without symmetry reduction (None when not measured).
    unreduced: StateSpace | None = None
    traces: int = 0
    inputs: int = 0
    prefixes: int = 0
    seconds: float = 0.0
    cut: str | None = None
    counterexample: Counterexample | None = None
    #: Where the counterexample is saved (filled by the saving handler).
    saved: Path | None = None
    mutate: bool = False
    #: ``--strict``: an output that broke a warning rule was a counterexample too.
    strict: bool = False

    @property
    def verdict(self) -> Verdict:
        """``broken`` with a counterexample, ``cut short`` when a limit stopped the run, else ``holds``."""
        if self.counterexample is not None:
            return "broken"
        return "cut short" if self.cut is not None else "holds"

    @property
    def exit_code(self) -> int:
        """0 holds, 1 broken, 2 cut short (the run cannot vouch for the bounds)."""
        return {"holds": 0, "broken": 1, "cut short": 2}[self.verdict]

    def record_saved(self, saved: Mapping[str, Path]) -> None:
        """Note where the counterexample is saved (the saving handler calls this)."""
        if self.counterexample is not None:
            self.saved = saved.get(self.counterexample.finding)


def explore(
    target: str | Callable[..., Any] | Target,
    source: str,
    destination: str,
    bounds: Bounds,
    *,
    max_traces: int | None = None,
    time_limit: float | str | None = None,
    timeout: float = 5.0,
    mutate: bool = False,
    compare: bool = True,
    strict: bool = False,
    out: str | os.PathLike[str] | None = "counterexamples",
    handlers: Sequence[Handler] = (),
) -> Exploration:
    """Run ``target`` on every valid ``source`` trace within ``bounds``; judge each by the relations.

    Stops at the first failing input, which is a shortest one (inputs come
    breadth first), and saves it under ``out`` (``out=None`` saves nothing).
    ``mutate`` also feeds each trace broken by every mutator and pair of
    mutators (for sanitizers).  ``compare`` measures the state space without
    symmetry reduction too.  ``strict`` makes an output that breaks a warning
    rule a counterexample too (``--strict``).  ``time_limit`` reads as for :func:`fuzz`
    (``"90s"``, ``"10m"`` or seconds).  ``handlers`` get every event after the
    saving.  Bad options are a :class:`~toolwire.errors.UsageError`, as from
    the CLI.
    """
    options = ExploreOptions(
        max_traces=max_traces,
        time_limit=time_limit,
        timeout=timeout,
        mutate=mutate,
        compare=compare,
        strict=strict,
    )
    wired: list[Handler] = [SaveCounterexamples(out, resolve=False)] if out is not None else []
    return explore_with(target, source, destination, bounds, options, [*wired, *handlers])


def explore_with(
    target: str | Callable[..., Any] | Target,
    source: str,
    destination: str,
    bounds: Bounds,
    options: ExploreOptions,
    handlers: Sequence[Handler] = (),
) -> Exploration:
    """Explore as ``options`` say, calling each handler with every event."""

    def emit(event: EngineEvent) -> None:
        for handler in handlers:
            handler(event)

    get_protocol(destination)
    space = space_for(source, bounds)
    loaded = load_target(target)
    started = time.monotonic()
    deadline = started + options.seconds if options.seconds is not None else None
    try:
        searched, unreduced = state_spaces(space, time_limit=options.seconds, compare=options.compare)
        run = Exploration(
            loaded.name,
            source,
            destination,
            searched.bounds,
            searched,
            unreduced,
            mutate=options.mutate,
            strict=options.strict,
        )
        emit(Started(engine="explore", target=loaded.name, source=source, destination=destination))
        if searched.cut is not None:
            run.cut = f"the state space was {searched.cut}"
        else:
            _run_all(run, space, loaded, options, deadline, emit, started)
    finally:
        if loaded is not target:
            loaded.close()
    run.seconds = time.monotonic() - started
    emit(Finished(engine="explore", run=run))
    return run


def _run_all(
    run: Exploration,
    space: Space,
    target: Target,
    options: ExploreOptions,
    deadline: float | None,
    emit: Handler,
    started: float,
) -> None:
    quirks = ",".join(sorted(space.bounds.quirks)) or None
    deviates, unanswered_optional = deviated(space.bounds.quirks), waiting(space.bounds.quirks)
    tally = Expansions()
    reported = 0.0
    max_traces = options.max_traces
    try:
        for path in paths(space, tally):
            if max_traces is not None and run.traces >= max_traces:
                run.cut = f"stopped after {run.traces} of {run.space.traces} traces (--max-traces)"
                return
            now = time.monotonic()
            if deadline is not None and now > deadline:
                run.cut = f"stopped after {run.traces} of {run.space.traces} traces (--time-limit)"
                return
            if now - reported >= 0.25:
                reported = now
                left = deadline - now if deadline is not None else None
                emit(
                    Progress(engine="explore", done=run.traces, findings=0, elapsed=now - started, left=left)
                )
            run.traces += 1
            trace = space.render(path)
            for given in (trace, *mutations(trace, run.source)) if run.mutate else (trace,):
                run.inputs += 1
                outcome = judge(
                    target,
                    given,
                    run.source,
                    run.destination,
                    timeout=options.timeout,
                    mutate=run.mutate,
                    deviates=deviates,
                    unanswered_optional=unanswered_optional,
                    strict=run.strict,
                )
                if outcome.verdict is not None:
                    judged = outcome.judged if outcome.judged is not None else given
                    run.counterexample = _counterexample(run, target, judged, outcome, quirks)
                    emit(FindingFound(engine="explore", counterexample=run.counterexample))
                    return
    finally:
        run.prefixes = tally.expanded


def _counterexample(
    run: Exploration, target: Target, given: Wire, outcome: Outcome, quirks: str | None
) -> Counterexample:
    first = outcome.faults()[0]
    bounds = ", ".join(f"{k} {str(v).lower() if isinstance(v, bool) else v}" for k, v in run.bounds.items())
    return Counterexample(
        target=target.name,
        source=run.source,
        destination=run.destination,
        property=first.property,
        message=f"{first.message} (explore, shortest within {bounds}; trace {run.traces})",
        input=given,
        output=outcome.output,
        showing=tuple(outcome.showing(first)),
        quirks=quirks,
        mutate=run.mutate,
        seed=0,
        kind=first.kind,
        strict=run.strict,
    )


def coverage_suite(space: Space) -> list[Wire]:
    """Few valid traces of ``space`` that together fire every table transition its moves can fire.

    Each trace is a complete path, rendered; ``toolwire check`` accepts them.
    """
    searched = state_space(space, keep=True)
    graph = searched.graph or {}
    found = suite(space.start(), lambda state: graph.get(state, ()), space.accepting, set(searched.fired))
    return [space.render(path) for path in found]
