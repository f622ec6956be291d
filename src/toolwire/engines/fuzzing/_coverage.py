"""What a fuzz campaign covered: shape features, and the states, transitions and transition pairs
of the machines that judged its inputs and outputs.

Machine coverage is taken from the monitors themselves, at no cost to ``check``: while a campaign
judges an example, every compiled table's rows are swapped for :class:`_Row` objects that note
each legal step.  A step's target state comes back as an ``int`` that remembers the step that
led to it, so the next step of the *same* item (a call, a block, a conversation) knows its
predecessor: transition pairs are exact even when a stream interleaves many items.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from toolwire.machines import ILLEGAL, Table, compile_machine
from toolwire.protocols._registry import machines

__all__ = ["Coverage", "MachineCoverage", "Watch"]

#: A transition of a table: (table name, source state, event).
Step = tuple[str, int, str]
#: Two transitions one item took one after the other: (table name, (source, event), (source, event)).
Pair = tuple[str, tuple[int, str], tuple[int, str]]


@dataclass(slots=True)
class MachineCoverage:
    """The states, transitions and transition pairs of some tables that were taken.

    ``tables`` are the machines seen running so far; what is reachable is counted over them
    (a table no example ran is not in the denominators, since the protocol's monitor never
    used it).
    """

    tables: dict[str, Table] = field(default_factory=dict)
    states: set[tuple[str, int]] = field(default_factory=set)
    transitions: set[Step] = field(default_factory=set)
    pairs: set[Pair] = field(default_factory=set)

    def merge(self, other: MachineCoverage) -> int:
        """Add ``other``'s coverage; how many states, transitions and pairs were new."""
        before = len(self.states) + len(self.transitions) + len(self.pairs)
        self.tables.update(other.tables)
        self.states |= other.states
        self.transitions |= other.transitions
        self.pairs |= other.pairs
        return len(self.states) + len(self.transitions) + len(self.pairs) - before

    def size(self) -> int:
        """States, transitions and pairs covered, together."""
        return len(self.states) + len(self.transitions) + len(self.pairs)

    def reachable(self) -> tuple[int, int, int]:
        """States, transitions and transition pairs reachable from each table's initial state."""
        states = transitions = pairs = 0
        for table in self.tables.values():
            seen, steps = _reachable(table)
            states += len(seen)
            transitions += len(steps)
            into: dict[int, int] = {}
            for _, _, target in steps:
                into[target] = into.get(target, 0) + 1
            pairs += sum(into.get(source, 0) for source, _, _ in steps)
        return states, transitions, pairs

    def missing(self) -> list[str]:
        """The reachable transitions no example took, as ``Machine: source --event--> target``."""
        lines = []
        for name, table in sorted(self.tables.items()):
            _, steps = _reachable(table)
            for source, event, target in sorted(steps, key=lambda s: (s[0], s[1])):
                if (name, source, event) not in self.transitions:
                    lines.append(f"{name}: {table.states[source]} --{event}--> {table.states[target]}")
        return lines

    def to_json(self) -> dict[str, Any]:
        """Covered and reachable counts ``[covered, reachable]``, the machines, what was missed."""
        states, transitions, pairs = self.reachable()
        return {
            "machines": sorted(self.tables),
            "states": [len(self.states), states],
            "transitions": [len(self.transitions), transitions],
            "transition_pairs": [len(self.pairs), pairs],
            "missing_transitions": self.missing(),
        }


def _reachable(table: Table) -> tuple[set[int], list[tuple[int, str, int]]]:
    """The states reachable from ``table``'s initial state and the legal steps out of them."""
    seen = {table.initial}
    frontier = [table.initial]
    steps = []
    while frontier:
        state = frontier.pop()
        for event in table.events:
            target = table.rows[event][state]
            if target == ILLEGAL:
                continue
            steps.append((state, event, target))
            if target not in seen:
                seen.add(target)
                frontier.append(target)
    return seen, steps


@dataclass(slots=True)
class Coverage:
    """What a campaign covered, of its input protocol and of its output protocol.

    ``input`` and ``output`` are the shape features (``toolwire shapes``) the inputs and outputs
    showed, of catalogues of ``input_total`` and ``output_total`` features; ``input_machines``
    and ``output_machines`` are the machine states, transitions and transition pairs their
    monitors took.  :attr:`fraction` (what ``--min-coverage`` compares) counts shape features and
    transitions together.
    """

    input: set[str] = field(default_factory=set)
    output: set[str] = field(default_factory=set)
    input_total: int = 0
    output_total: int = 0
    input_machines: MachineCoverage = field(default_factory=MachineCoverage)
    output_machines: MachineCoverage = field(default_factory=MachineCoverage)

    def add(self, given: set[str], made: set[str]) -> int:
        """Record one example's features; how many were new."""
        new = len(given - self.input) + len(made - self.output)
        self.input |= given
        self.output |= made
        return new

    def merge(self, other: Coverage) -> None:
        """Add another campaign's coverage (a worker's)."""
        self.add(other.input, other.output)
        self.input_machines.merge(other.input_machines)
        self.output_machines.merge(other.output_machines)

    @property
    def fraction(self) -> float:
        """Shape features shown and transitions taken, of those there are (1.0 when none)."""
        _, into, _ = self.input_machines.reachable()
        _, out, _ = self.output_machines.reachable()
        total = self.input_total + self.output_total + into + out
        covered = (
            len(self.input)
            + len(self.output)
            + len(self.input_machines.transitions)
            + len(self.output_machines.transitions)
        )
        return covered / total if total else 1.0

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of this coverage."""
        return {
            "input": sorted(self.input),
            "output": sorted(self.output),
            "input_total": self.input_total,
            "output_total": self.output_total,
            "input_machines": self.input_machines.to_json(),
            "output_machines": self.output_machines.to_json(),
            "fraction": round(self.fraction, 4),
        }


class _Via(int):
    """A state number that remembers the step that reached it (``(source, event)``)."""

    via: tuple[int, str]


class _Row(tuple[int, ...]):
    """A table row that notes each legal step into the :class:`Watch` watching, if any."""

    table: Table
    event: str
    watch: Watch

    def __getitem__(self, state: Any) -> Any:
        target = tuple.__getitem__(self, state)
        sink = self.watch.sink
        if sink is None or not isinstance(state, int) or target == ILLEGAL:
            return target
        name = self.table.name
        if name not in sink.tables:
            sink.tables[name] = self.table
            sink.states.add((name, self.table.initial))
        source = int(state)
        sink.states.add((name, target))
        sink.transitions.add((name, source, self.event))
        previous = getattr(state, "via", None)
        if previous is not None:
            sink.pairs.add((name, previous, (source, self.event)))
        reached = _Via(target)
        reached.via = (source, self.event)
        return reached


class Watch:
    """Machine coverage for a campaign: installed over every table while the campaign runs.

    ``with watch.input():`` (or ``output()``) sends the steps the monitors take in its body to
    the input's (or output's) machine coverage of :attr:`coverage`; outside such a block the
    rows only cost a check of :attr:`sink`.
    """

    def __init__(self, coverage: Coverage, tables: Iterable[Table] | None = None) -> None:
        self.coverage = coverage
        self.sink: MachineCoverage | None = None
        self.tables = list(tables) if tables is not None else _all_tables()

    @contextlib.contextmanager
    def installed(self) -> Iterator[Watch]:
        """Swap every table's rows for watching rows; restore them on the way out."""
        saved = [(table, dict(table.rows)) for table in self.tables]
        try:
            for table in self.tables:
                for event, row in list(table.rows.items()):
                    if isinstance(row, _Row):
                        continue
                    watched = _Row(row)
                    watched.table, watched.event, watched.watch = table, event, self
                    table.rows[event] = watched
            yield self
        finally:
            for table, rows in saved:
                table.rows.clear()
                table.rows.update(rows)

    def input(self) -> contextlib.AbstractContextManager[None]:
        """Note the steps taken in the body as the input's."""
        return self._into(self.coverage.input_machines)

    def output(self) -> contextlib.AbstractContextManager[None]:
        """Note the steps taken in the body as the output's."""
        return self._into(self.coverage.output_machines)

    @contextlib.contextmanager
    def _into(self, coverage: MachineCoverage) -> Iterator[None]:
        previous, self.sink = self.sink, coverage
        try:
            yield
        finally:
            self.sink = previous


def _all_tables() -> list[Table]:
    return [compile_machine(machine) for machine in machines().values()]
