"""Keyed lifecycles: one compiled item machine per key, for streams that interleave items.

Anthropic content blocks (by ``index``), Bedrock blocks (by
``contentBlockIndex``), AI SDK tool calls (by ``id`` / ``toolCallId``), UI
tool parts and MCP requests (by JSON-RPC ``id``) all share this mechanism: a
protocol declares its machine, which rule each illegal step breaks, and which
rule an item left in a state at the end of the trace breaks; its monitor only
classifies wire events into ``(key, event)`` steps and checks the data.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolwire.errors import DefinitionError
from toolwire.machines import Table, compile_machine
from toolwire.properties._monitor import Monitor, Violations
from toolwire.properties._rule import Rule
from toolwire.properties._text import clip

if TYPE_CHECKING:
    from statemachine import StateMachine

__all__ = ["Item", "KeyedMonitor", "Lifecycle"]


@dataclass(frozen=True, slots=True)
class Lifecycle:
    """An item machine's table, the rule of each illegal step, and of each unfinished end."""

    table: Table
    violations: Violations
    at_end: Mapping[int, str]

    @classmethod
    def declare(
        cls,
        machine: type[StateMachine],
        violations: Mapping[tuple[str, str], str | tuple[str, str]],
        at_end: Mapping[str, str],
    ) -> Lifecycle:
        """Compile ``machine`` and check that every non-accepting state names its end rule."""
        table = compile_machine(machine)
        ends = {table.state(state): rule for state, rule in at_end.items()}
        missing = [
            name
            for number, name in enumerate(table.states)
            if number not in table.accepting and number != table.initial and number not in ends
        ]
        if missing:
            raise DefinitionError(f"{table.name}: no end rule for states {missing}")
        wrong = [table.states[n] for n in ends if n in table.accepting]
        if wrong:
            raise DefinitionError(f"{table.name}: states {wrong} are accepting; drop their end rule")
        return cls(table, Violations.declare(table, violations), ends)


class Item:
    """One keyed instance of a lifecycle: its state and what the wire said of it."""

    __slots__ = ("data", "id", "index", "key", "lifecycle", "line", "name", "parts", "state")

    def __init__(self, key: Hashable, lifecycle: Lifecycle, index: int, line: int | None) -> None:
        self.key = key
        self.lifecycle = lifecycle
        self.state = lifecycle.table.initial
        self.index = index
        self.line = line
        self.id: Any = None
        self.name: Any = None
        self.parts: list[str] = []
        self.data: dict[str, Any] = {}

    def text(self) -> str:
        """The item's fragments joined (streamed arguments or input)."""
        return "".join(self.parts)


class KeyedMonitor(Monitor):
    """A stream monitor that runs one :class:`Lifecycle` instance per key.

    Subclasses set ``lifecycle``, call :meth:`step` from ``feed`` and
    :meth:`finish_items` from ``finish``, and may override :meth:`describe`
    (what a key is called) for their messages.  A stream envelope is one more
    item, stepped with its own lifecycle under a key of its own.
    """

    lifecycle: Lifecycle

    def __init__(self, rules: Mapping[str, Rule]) -> None:
        super().__init__(rules)
        self.items: dict[Hashable, Item] = {}
        self.order: list[Item] = []

    def describe(self, item: Item) -> str:
        """How findings name ``item``."""
        named = f" ({clip(str(item.id))})" if item.id is not None else ""
        return f"{item.key}{named}"

    def step(
        self,
        key: Hashable,
        event: str,
        index: int,
        line: int | None,
        *,
        what: str,
        ids: Iterable[Any] = (),
        lifecycle: Lifecycle | None = None,
        **values: Any,
    ) -> Item:
        """Run ``event`` on the item at ``key`` (created on first sight); report an illegal step.

        ``values`` fill the provider's error text of the rule broken.
        """
        item = self.items.get(key)
        if item is None:
            item = Item(key, lifecycle or self.lifecycle, index, line)
            self.items[key] = item
            self.order.append(item)
        table = item.lifecycle.table
        target = table.rows[event][item.state]
        if target < 0:
            rule, target = item.lifecycle.violations.by_pair[item.state, event]
            state = table.states[item.state]
            where = "" if item.state == table.initial else f" (opened at event {item.index})"
            self.report(
                rule,
                f"{what}: {self.describe(item)} is {state}{where}",
                index=index,
                line=line,
                ids=(item.id, *ids),
                **values,
            )
        item.state = target
        return item

    def finish_items(self, index: int, line: int | None) -> None:
        """Report every item the trace left in a state that has an end rule."""
        for item in self.order:
            rule = item.lifecycle.at_end.get(item.state)
            table = item.lifecycle.table
            if rule is not None:
                self.report(
                    rule,
                    f"the trace ends while {self.describe(item)} (from event {item.index}) is "
                    f"{table.states[item.state]}",
                    index=index,
                    line=line,
                    ids=(item.id,),
                )
