"""Write ``machines/_compiled.py``: every registered machine's table, compiled from its class.

    python -m toolwire.engines.checking._tables        (or: make tables)

``toolwire check`` reads these tables instead of importing python-statemachine;
tests/repo/test_tables.py fails when a class and its shipped table differ.
"""

from __future__ import annotations

import pprint
import sys
from pathlib import Path

import toolwire.machines
from toolwire.machines._handle import resolve
from toolwire.machines._table import Table, compile_class
from toolwire.protocols import machines

__all__ = ["COMMAND", "TARGET", "render", "shipped_machines"]

TARGET = Path(toolwire.machines.__file__).with_name("_compiled.py")
#: What a developer runs to regenerate the tables.
COMMAND = "make tables  (or: python -m toolwire.engines.checking._tables)"


def shipped_machines() -> dict[str, type]:
    """Every machine of toolwire's registry that lives in the machines package, by class name."""
    found = {name: resolve(machine) for name, machine in machines().items()}
    return {
        name: machine
        for name, machine in sorted(found.items())
        if machine.__module__.startswith("toolwire.machines.")
    }


def _row(table: Table) -> tuple[object, ...]:
    return (
        table.states,
        table.events,
        table.initial,
        tuple(sorted(table.finals)),
        tuple(sorted(table.accepting)),
        tuple(table.rows[event] for event in table.events),
    )


def render() -> str:
    """The text of ``_compiled.py`` for the machines as their classes define them now."""
    tables = {name: _row(compile_class(machine)) for name, machine in shipped_machines().items()}
    body = pprint.pformat(tables, width=108, sort_dicts=True)
    return (
        '"""Transition tables compiled from the machine classes.\n\n'
        f'Generated: do not edit; run {COMMAND}.\n"""\n\n'
        "from typing import Final\n\n"
        "#: name -> (states, events, initial, finals, accepting, rows in event order)\n"
        f"TABLES: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...], int, tuple[int, ...], "
        f"tuple[int, ...], tuple[tuple[int, ...], ...]]]] = {body}\n"
    )


def main() -> None:
    TARGET.write_text(render())
    print(f"wrote {TARGET.name}: {len(shipped_machines())} machines", file=sys.stderr)


if __name__ == "__main__":
    main()
