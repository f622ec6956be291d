"""The ``toolwire`` command: a thin layer over the library.

Exit codes: 0 clean, 1 violations found, 2 unusable input or usage.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from toolwire.errors import UsageError

if TYPE_CHECKING:
    import argparse

__all__ = ["main"]


#: ``--max-examples`` when only ``--time-limit`` bounds a campaign.
_UNLIMITED = 10**9


def _ignore_file(path: str) -> list[str]:
    from pathlib import Path

    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise UsageError(f"cannot read --ignore-file {path}: {exc.strerror}") from None
    return [line.split("#", 1)[0].strip() for line in lines if line.split("#", 1)[0].strip()]


def _check_options() -> tuple[dict[str, tuple[str, tuple[str, ...]]], dict[str, Any]]:
    """``check``'s options by spelling (destination, choices), and their defaults: from the one
    table argparse is built from too (:data:`toolwire._options.CHECK_OPTIONS`)."""
    from toolwire._options import CHECK_OPTIONS

    spellings = {flag: (o.dest, o.choices) for o in CHECK_OPTIONS for flag in o.flags}
    return spellings, {o.dest: o.default for o in CHECK_OPTIONS}


def _plain_check(argv: Sequence[str]) -> SimpleNamespace | None:
    """The arguments of a plain ``check`` command line, read without building the parser.

    Files in one run and ``check``'s options, each as two words with a valid value: what argparse
    reads from it, exactly (``tests/test_cli_fast.py``).  Anything else (help, ``--opt=value``,
    an abbreviation, an error) is None: argparse reads it, and says what is wrong.
    """
    if len(argv) < 2 or argv[0] != "check":
        return None
    spellings, defaults = _check_options()
    values: dict[str, Any] = {"verb": "check", **defaults}
    files: list[str] = []
    runs = 0
    words = iter(argv[1:])
    last_was_file = False
    for word in words:
        if word[:1] != "-" or word == "-":
            files.append(word)
            runs += not last_was_file
            last_was_file = True
            continue
        last_was_file = False
        option = spellings.get(word)
        value = next(words, None)
        if option is None or value is None or (value[:1] == "-" and value != "-"):
            return None
        destination, choices = option
        if choices and value not in choices:
            return None
        values[destination] = value
    if runs != 1:
        return None
    return SimpleNamespace(files=files, **values)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code."""
    words = sys.argv[1:] if argv is None else list(argv)
    args: Any = _plain_check(words)
    if args is None:
        from toolwire._arguments import parser

        args = parser().parse_args(words)
    if args.verb in ("fuzz", "explore", "replay"):
        _keep_hypothesis_out_of_the_working_folder()
    try:
        return _run(args)
    except UsageError as exc:
        print(f"toolwire: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("toolwire: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def _keep_hypothesis_out_of_the_working_folder() -> None:
    """Hypothesis's own files (its caches) go to the user's cache folder, not ``./.hypothesis``.

    ``HYPOTHESIS_STORAGE_DIRECTORY``, when set, still wins; ``--database`` is where findings go.
    """
    import os
    from pathlib import Path

    if os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        return
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = str(base / "toolwire" / "hypothesis")


def _run(args: argparse.Namespace) -> int:
    return _VERBS[args.verb](args)


def _protocols(args: argparse.Namespace) -> int:
    from toolwire.engines._report import render_protocols
    from toolwire.properties import PROTOCOLS

    print(render_protocols(list(PROTOCOLS.values()), args.format))
    return 0


def _diagram(args: argparse.Namespace) -> int:
    from pathlib import Path

    from toolwire.engines._diagram import render_diagrams
    from toolwire.properties import machines

    formats = args.format or ["svg", "dot", "mermaid"]
    if args.counterexample:
        from toolwire.engines._diagram import render_counterexample
        from toolwire.engines._fuzz import load_counterexample

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


def _ids(args: argparse.Namespace) -> int:
    from toolwire.engines._ids import check_id, render_ids

    chosen = [p.strip() for p in args.protocols.split(",") if p.strip()] if args.protocols else None
    verdicts = check_id(args.id, chosen)
    print(render_ids(args.id, verdicts, args.format))
    return 0 if all(v.valid for v in verdicts) else 1


def _fuzz(args: argparse.Namespace) -> int:
    from toolwire.engines._fuzz import fuzz
    from toolwire.engines._fuzz_report import render_fuzz

    max_examples = (
        args.max_examples if args.max_examples is not None else (_UNLIMITED if args.time_limit else 200)
    )
    if max_examples < 1 or args.timeout <= 0 or args.workers < 1:
        raise UsageError("--max-examples and --workers must be at least 1 and --timeout above 0")
    like, quirks = None, args.quirks
    if args.like:
        from toolwire.engines._shapes import learned

        like, matched = learned(args.like, args.source)
        given = [q for q in (args.quirks or "").split(",") if q]
        quirks = ",".join(dict.fromkeys([*given, *matched])) or None
        print(
            f"toolwire: shaped like {len(args.like)} recording(s): {len(like)} shape features, "
            f"quirk profiles: {', '.join(matched) or 'none'}",
            file=sys.stderr,
        )
    ignore = [*args.ignore, *(_ignore_file(args.ignore_file) if args.ignore_file else [])]
    run = fuzz(
        args.target,
        args.source,
        args.destination,
        max_examples=max_examples,
        seed_value=args.seed,
        quirks=quirks,
        timeout=args.timeout,
        damaged=args.mutate,
        save_to=args.out,
        progress=sys.stderr,
        like=like,
        time_limit=args.time_limit,
        ignore=ignore,
        database=args.database,
        workers=args.workers,
        min_coverage=args.min_coverage,
    )
    print(render_fuzz(run, args.format))
    return 130 if run.interrupted and not run.counterexamples else run.exit_code


def _replay(args: argparse.Namespace) -> int:
    from toolwire.engines._fuzz import replay
    from toolwire.engines._fuzz_report import render_replay, reproduces

    saved, outcome = replay(args.file, args.target, timeout=args.timeout)
    print(render_replay(saved, outcome, args.format))
    return 1 if reproduces(saved, outcome) else 0


def _shapes(args: argparse.Namespace) -> int:
    from toolwire.engines._shapes import render_shapes, shapes_file
    from toolwire.properties import get_protocol

    get_protocol(args.protocol)
    print(render_shapes([shapes_file(path, args.protocol) for path in args.files], args.format))
    return 0


def _analyse(args: argparse.Namespace) -> int:
    from toolwire.engines._analysis import analyse_machine
    from toolwire.engines._explore_report import render_analysis
    from toolwire.properties import machines

    print(render_analysis([analyse_machine(name) for name in args.machines or machines()], args.format))
    return 0


def _rules(args: argparse.Namespace) -> int:
    from toolwire.engines._report import render_rules
    from toolwire.properties import rules_for

    print(render_rules(rules_for(args.protocol), args.format))
    return 0


def _check(args: argparse.Namespace) -> int:
    from toolwire.engines._check import _STDIN_TWICE, check_path, check_usage
    from toolwire.engines._report import render_json, render_text

    check_usage(args.protocol, args.profile, args.after)
    if [*args.files, args.after].count("-") > 1:
        raise UsageError(_STDIN_TWICE)
    fmt = None if args.input_format == "auto" else args.input_format
    reports = []
    for path in args.files:
        found = check_path(path, args.protocol, input_format=fmt, after=args.after, profile=args.profile)
        for report in found:
            if report.unreadable is not None:
                print(f"toolwire: {report.unreadable}", file=sys.stderr)
            elif report.detected:
                where = sys.stderr if args.format == "json" else sys.stdout
                print(f"{path}: detected {report.protocol}", file=where)
        reports.extend(found)
    render = render_json if args.format == "json" else render_text
    print(render(reports))
    return max(report.exit_code for report in reports)


def _explore(args: argparse.Namespace) -> int:
    from pathlib import Path

    from toolwire.engines._explore import coverage_suite, explore, state_spaces
    from toolwire.engines._explore_report import render_exploration, render_space
    from toolwire.engines._files import write_file
    from toolwire.properties import Bounds, space_for

    if args.timeout <= 0 or (args.max_traces is not None and args.max_traces < 1):
        raise UsageError("--timeout must be above 0 and --max-traces at least 1")
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
        searched, unreduced = state_spaces(space, time_limit=args.time_limit)
        print(render_space(searched, unreduced, args.format))
        return 2 if searched.cut else 0
    if not args.destination:
        raise UsageError("explore TARGET needs --to Q, the protocol the target writes")
    run = explore(
        args.target,
        args.source,
        args.destination,
        bounds,
        max_traces=args.max_traces,
        time_limit=args.time_limit,
        timeout=args.timeout,
        damage=args.mutate,
        save_to=args.out,
    )
    print(render_exploration(run, args.format))
    return run.exit_code


#: Each verb's handler.
_VERBS: dict[str, Callable[[argparse.Namespace], int]] = {
    "check": _check,
    "rules": _rules,
    "diagram": _diagram,
    "ids": _ids,
    "fuzz": _fuzz,
    "replay": _replay,
    "explore": _explore,
    "analyse": _analyse,
    "shapes": _shapes,
    "protocols": _protocols,
}
