"""``toolwire replay``: a saved counterexample re-run through a target."""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolwire.cli.commands._target import target

if TYPE_CHECKING:
    import argparse

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    from toolwire.cli.handlers._fuzz import render_replay, reproduces
    from toolwire.engines.fuzzing import load_counterexample, replay

    saved = load_counterexample(args.file)
    with target(args, saved.source, saved.destination) as chosen:
        saved, outcome = replay(args.file, chosen, timeout=args.timeout)
    print(render_replay(saved, outcome, args.format))
    return 1 if reproduces(saved, outcome) else 0
