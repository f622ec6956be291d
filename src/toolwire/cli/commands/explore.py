"""``toolwire explore``: a target run on every valid trace within bounds, or a protocol's space
measured; a coverage suite written."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

from toolwire.errors import UsageError

if TYPE_CHECKING:
    import argparse

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from toolwire.cli.handlers import PrintReport
    from toolwire.cli.handlers._explore import render_exploration, render_space
    from toolwire.engines._core._events import Handler
    from toolwire.engines._core._files import write_file
    from toolwire.engines.exploring import coverage_suite, explore_with, state_spaces
    from toolwire.engines.fuzzing import ExploreOptions, SaveCounterexamples
    from toolwire.properties import Bounds
    from toolwire.protocols import space_for

    options = ExploreOptions(
        max_traces=args.max_traces,
        time_limit=args.time_limit,
        timeout=args.timeout,
        mutate=args.mutate,
        strict=args.strict,
    )
    quirks = frozenset(q for q in (args.quirks or "").split(",") if q)
    bounds = Bounds(
        calls=args.calls,
        deltas=args.deltas,
        turns=args.turns,
        names=args.names,
        interleave=args.interleave,
        quirks=quirks,
        symmetry=not args.no_symmetry,
    )
    space = space_for(args.source, bounds)
    if args.suite:
        folder = Path(args.suite)
        folder.mkdir(parents=True, exist_ok=True)
        for number, trace in enumerate(coverage_suite(space)):
            path = folder / f"{args.source}-{number:03d}.jsonl"
            text = "".join(json.dumps(event, ensure_ascii=False) + "\n" for event in trace)
            write_file(path, text.encode("utf-8"))
            print(path, file=sys.stderr)
    if args.target is None:
        if args.destination:
            raise UsageError("--to needs a TARGET to convert into it")
        searched, unreduced = state_spaces(space, time_limit=options.seconds)
        print(render_space(searched, unreduced, args.format))
        return 2 if searched.cut else 0
    if not args.destination:
        raise UsageError("explore TARGET needs --to Q, the protocol the target writes")
    handlers: list[Handler] = [
        SaveCounterexamples(args.out, resolve=False),
        PrintReport(lambda run: render_exploration(run, args.format)),
    ]
    run = explore_with(args.target, args.source, args.destination, bounds, options, handlers)
    return run.exit_code
