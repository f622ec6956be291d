"""``toolwire fuzz``: a campaign of generated traffic through a target; its events saved, shown and
printed by the handlers."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from toolwire.cli.commands._target import ignore_file, target

if TYPE_CHECKING:
    import argparse

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from toolwire.cli.handlers import PrintReport, ShowProgress
    from toolwire.cli.handlers._fuzz import render_fuzz
    from toolwire.engines._core._events import Handler
    from toolwire.engines.fuzzing import FuzzOptions, SaveCounterexamples, fuzz_with

    ignore = [*args.ignore, *(ignore_file(args.ignore_file) if args.ignore_file else [])]
    options = FuzzOptions(
        source=args.source,
        destination=args.destination,
        max_examples=args.max_examples,
        seed=args.seed,
        quirks=args.quirks,
        timeout=args.timeout,
        mutate=args.mutate,
        time_limit=args.time_limit,
        ignore=tuple(ignore),
        database=args.database,
        workers=args.workers,
        min_coverage=args.min_coverage,
        providers=args.providers,
        strict=args.strict,
    )
    if args.like:
        from toolwire.engines.checking import learned

        like, matched = learned(args.like, args.source)
        given = [q for q in (args.quirks or "").split(",") if q]
        quirks = ",".join(dict.fromkeys([*given, *matched])) or None
        print(
            f"toolwire: shaped like {len(args.like)} recording(s): {len(like)} shape features, "
            f"quirk profiles: {', '.join(matched) or 'none'}",
            file=sys.stderr,
        )
        options = replace(options, like=tuple(like), quirks=quirks)
    handlers: list[Handler] = [
        SaveCounterexamples(args.out),
        ShowProgress(sys.stderr),
        PrintReport(lambda run: render_fuzz(run, args.format)),
    ]
    with target(args, args.source, args.destination) as chosen:
        run = fuzz_with(chosen, options, handlers)
    return 130 if run.interrupted and not run.counterexamples else run.exit_code
