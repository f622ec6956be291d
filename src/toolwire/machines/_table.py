"""Compile python-statemachine classes into transition tables.

Machines are *authored* with python-statemachine and *run* as tables: one tuple
per event, indexed by state number, holding the target state number or
:data:`ILLEGAL`.  A step is then one dict lookup and one tuple index, against
about 90 us for ``StateMachine.send``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from toolwire.errors import DefinitionError
from toolwire.machines._handle import resolve

if TYPE_CHECKING:
    from statemachine import StateMachine

__all__ = ["ILLEGAL", "Table", "compile_class", "compile_machine", "generated"]

#: Target of an event that has no transition from a state.
ILLEGAL: Final = -1


@dataclass(frozen=True, slots=True)
class Table:
    """A deterministic machine as plain data.

    ``rows[event][state]`` is the target state number, or :data:`ILLEGAL`.
    ``accepting`` holds the states a trace may end in: the machine's final
    states and those it lists in its ``accepting`` class attribute.
    """

    name: str
    states: tuple[str, ...]
    events: tuple[str, ...]
    initial: int
    finals: frozenset[int]
    accepting: frozenset[int]
    rows: dict[str, tuple[int, ...]]

    def state(self, name: str) -> int:
        """The number of state ``name``; a :class:`DefinitionError` names the choices."""
        try:
            return self.states.index(name)
        except ValueError:
            raise DefinitionError(
                f"{self.name} has no state {name!r}; its states are {', '.join(self.states)}"
            ) from None

    def step(self, state: int, event: str) -> int:
        """The target of ``event`` from ``state`` (:data:`ILLEGAL` when there is none)."""
        return self.rows[event][state]

    def transitions(self) -> Iterator[tuple[str, str, str]]:
        """Every legal transition as ``(source, event, target)``, in a stable order."""
        for event in self.events:
            for source, target in enumerate(self.rows[event]):
                if target != ILLEGAL:
                    yield self.states[source], event, self.states[target]

    def run(self, events: list[str]) -> int:
        """Run ``events`` from the initial state; the state reached, or ``ILLEGAL``."""
        state = self.initial
        for event in events:
            state = self.rows[event][state]
            if state == ILLEGAL:
                return ILLEGAL
        return state


@functools.cache
def compile_machine(machine: type[StateMachine]) -> Table:
    """The table of ``machine``: generated data for toolwire's own machines, else compiled.

    Reading the shipped table keeps python-statemachine off ``toolwire check``; a machine
    without one (a protocol defined elsewhere, or one added since ``make tables``) is
    compiled from its class.
    """
    if machine.__module__.startswith("toolwire.machines."):
        table = generated(machine.__name__)
        if table is not None:
            return table
    return compile_class(resolve(machine))


@functools.cache
def generated(name: str) -> Table | None:
    """The table of machine ``name`` as ``_compiled.py`` ships it, or None.

    One object per machine, however it is asked for (by class or by handle): monitors and a
    campaign's coverage watch must share it.
    """
    from toolwire.machines._compiled import TABLES

    data = TABLES.get(name)
    if data is None:
        return None
    states, events, initial, finals, accepting, rows = data
    return Table(
        name,
        states,
        events,
        initial,
        frozenset(finals),
        frozenset(accepting),
        dict(zip(events, rows, strict=True)),
    )


@functools.cache
def compile_class(machine: type[StateMachine]) -> Table:
    """Compile ``machine`` once; refuse what a table cannot express.

    Guards (``cond``/``unless``) and two transitions for one event from one
    state make a machine nondeterministic for a table, so they are rejected:
    toolwire's classifiers pick the event from the data instead.
    """
    states = tuple(machine.states_map)
    index = {name: i for i, name in enumerate(states)}
    declared: Any = machine.events
    events = tuple(event.id for event in declared)
    rows = {event: [ILLEGAL] * len(states) for event in events}
    initial = [i for i, name in enumerate(states) if machine.states_map[name].initial]
    if len(initial) != 1:
        raise DefinitionError(f"{machine.__name__} needs exactly one initial state")
    for name, state in machine.states_map.items():
        for transition in state.transitions:
            guards: Any = transition.cond
            if list(guards):
                raise DefinitionError(
                    f"{machine.__name__}: transition {name} -> {transition.target.id} has a "
                    "guard; choose the event from the data instead"
                )
            for event in transition.events:
                row = rows[event.id]
                if row[index[name]] != ILLEGAL:
                    raise DefinitionError(
                        f"{machine.__name__}: event {event.id!r} has two transitions from {name!r}"
                    )
                row[index[name]] = index[transition.target.id]
    finals = frozenset(i for i, name in enumerate(states) if machine.states_map[name].final)
    extra: tuple[str, ...] = getattr(machine, "accepting", ())
    unknown = [name for name in extra if name not in index]
    if unknown:
        raise DefinitionError(f"{machine.__name__}.accepting names unknown states {unknown}")
    return Table(
        name=machine.__name__,
        states=states,
        events=events,
        initial=initial[0],
        finals=finals,
        accepting=finals | {index[name] for name in extra},
        rows={event: tuple(row) for event, row in rows.items()},
    )
