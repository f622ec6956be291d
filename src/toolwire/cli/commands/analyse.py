"""``toolwire analyse``: facts proved about the machines (reachability, dead ends, dead events)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    from toolwire.cli.handlers._explore import render_analysis
    from toolwire.engines.exploring import analyse_machine
    from toolwire.protocols import machines

    print(render_analysis([analyse_machine(name) for name in args.machines or machines()], args.format))
    return 0
