"""``toolwire diagram``: the machines' lifecycle diagrams, or a saved counterexample drawn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolwire.errors import UsageError

if TYPE_CHECKING:
    import argparse

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from toolwire.engines.exploring import render_diagrams
    from toolwire.protocols import machines

    formats = args.format or ["svg", "dot", "mermaid"]
    if args.counterexample:
        from toolwire.engines.exploring import render_counterexample
        from toolwire.engines.fuzzing import load_counterexample

        if args.machines:
            raise UsageError("give machines or --counterexample, not both")
        found = load_counterexample(args.counterexample)
        stem = Path(args.counterexample).stem
        written = render_counterexample(found, formats, Path(args.out), stem)
    else:
        written = render_diagrams(args.machines or list(machines()), formats, Path(args.out))
    for path in written:
        print(path)
    return 0
