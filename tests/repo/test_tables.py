"""The shipped transition tables match the machine classes, and ``toolwire check`` runs on them alone."""

from __future__ import annotations

import subprocess
import sys

from toolwire.engines.checking._tables import COMMAND, TARGET, render, shipped_machines
from toolwire.machines import MACHINES, compile_machine
from toolwire.machines._table import compile_class, generated
from toolwire.protocols import machines


def test_the_shipped_tables_are_the_classes_compiled() -> None:
    # A machine changed, added or removed without regenerating: say how to regenerate.
    assert TARGET.read_text() == render(), f"the machines changed: run {COMMAND} and commit _compiled.py"


def test_every_machine_of_the_registry_is_shipped() -> None:
    shipped = shipped_machines()
    assert set(MACHINES) <= set(shipped)
    for name, machine in machines().items():
        if machine.__module__.startswith("toolwire.machines."):
            assert generated(name) == compile_class(shipped[name]), f"run {COMMAND}"


def test_compile_machine_reads_the_shipped_table_of_a_handle() -> None:
    from toolwire.machines import MessageStream

    assert compile_machine(MessageStream) == compile_class(MACHINES["MessageStream"])


def test_check_imports_no_heavy_library() -> None:
    code = (
        "import sys\n"
        "from toolwire.cli import main\n"
        "from toolwire.protocols import PROTOCOLS\n"
        "for spec in PROTOCOLS.values(): spec.make(None)\n"
        "heavy = ('statemachine', 'hypothesis', 'networkx', 'graphviz', 'rich')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
