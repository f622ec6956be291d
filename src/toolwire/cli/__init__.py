"""The ``toolwire`` command: a thin layer over the library.

Exit codes: 0 clean, 1 violations found, 2 unusable input or usage.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from toolwire.errors import UsageError

if TYPE_CHECKING:
    import argparse

    from toolwire.engines._core._events import EngineEvent
    from toolwire.engines._core._results import Report

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
    table argparse is built from too (:data:`toolwire.cli._options.CHECK_OPTIONS`)."""
    from toolwire.cli._options import CHECK_OPTIONS

    spellings = {flag: (o.dest, o.choices) for o in CHECK_OPTIONS for flag in o.flags}
    # The log options (see _check_logs) take the parser's path; a plain line has none of them.
    logs = dict.fromkeys((*_LOG_OPTIONS, "jobs"))
    return spellings, {o.dest: o.default for o in CHECK_OPTIONS} | logs


def _plain_check(argv: Sequence[str]) -> SimpleNamespace | None:
    """The arguments of a plain ``check`` command line, read without building the parser.

    Files in one run and ``check``'s options, each as two words with a valid value: what argparse
    reads from it, exactly (``tests/unit/test_cli_fast.py``).  Anything else (help, ``--opt=value``,
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
        from toolwire.cli._arguments import parser

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
    from toolwire.cli.handlers._check import render_protocols
    from toolwire.protocols import PROTOCOLS

    print(render_protocols(list(PROTOCOLS.values()), args.format))
    return 0


def _diagram(args: argparse.Namespace) -> int:
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


def _ids(args: argparse.Namespace) -> int:
    from toolwire.engines.checking import check_id, render_ids

    chosen = [p.strip() for p in args.protocols.split(",") if p.strip()] if args.protocols else None
    verdicts = check_id(args.id, chosen)
    print(render_ids(args.id, verdicts, args.format))
    return 0 if all(v.valid for v in verdicts) else 1


def _fuzz(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from toolwire.cli.handlers._fuzz import render_fuzz
    from toolwire.engines._core._events import Handler
    from toolwire.engines.fuzzing import (
        FuzzOptions,
        PrintReport,
        SaveCounterexamples,
        ShowProgress,
        fuzz_with,
    )

    ignore = [*args.ignore, *(_ignore_file(args.ignore_file) if args.ignore_file else [])]
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
    with _target(args, args.source, args.destination) as target:
        run = fuzz_with(target, options, handlers)
    return 130 if run.interrupted and not run.counterexamples else run.exit_code


@contextlib.contextmanager
def _target(args: argparse.Namespace, source: str, destination: str) -> Iterator[Any]:
    """The target as spelled, or for an http(s):// URL a gateway behind the mock provider, closed after."""
    if not args.target.strip().lower().startswith(("http://", "https://")):
        if args.upstream or args.model or args.header:
            raise UsageError("--upstream, --model and --header are for a gateway target (an http(s):// URL)")
        yield args.target
        return
    from toolwire.engines.gateway import GatewayTarget, parse_headers

    if not args.upstream:
        raise UsageError(
            f"{args.target} is a gateway: say where toolwire's mock provider listens, "
            "--upstream 127.0.0.1:PORT, and point the gateway's upstream at it"
        )
    gateway = GatewayTarget(
        args.target,
        source,
        destination,
        upstream=args.upstream,
        model=args.model,
        headers=parse_headers(args.header),
    )
    try:
        yield gateway
    finally:
        gateway.close()


def _replay(args: argparse.Namespace) -> int:
    from toolwire.cli.handlers._fuzz import render_replay, reproduces
    from toolwire.engines.fuzzing import load_counterexample, replay

    saved = load_counterexample(args.file)
    with _target(args, saved.source, saved.destination) as target:
        saved, outcome = replay(args.file, target, timeout=args.timeout)
    print(render_replay(saved, outcome, args.format))
    return 1 if reproduces(saved, outcome) else 0


def _shapes(args: argparse.Namespace) -> int:
    from toolwire.engines.checking import render_shapes, shapes_file
    from toolwire.protocols import get_protocol

    get_protocol(args.protocol)
    print(render_shapes([shapes_file(path, args.protocol) for path in args.files], args.format))
    return 0


def _analyse(args: argparse.Namespace) -> int:
    from toolwire.cli.handlers._explore import render_analysis
    from toolwire.engines.exploring import analyse_machine
    from toolwire.protocols import machines

    print(render_analysis([analyse_machine(name) for name in args.machines or machines()], args.format))
    return 0


def _rules(args: argparse.Namespace) -> int:
    from toolwire.cli.handlers._check import render_rules
    from toolwire.protocols import rules_for

    print(render_rules(rules_for(args.protocol), args.format))
    return 0


def _check(args: argparse.Namespace) -> int:
    from toolwire.cli.handlers._check import render_json, render_text
    from toolwire.engines.checking import STDIN_TWICE, check_path, check_usage

    if any(getattr(args, name) for name in _LOG_OPTIONS):
        return _check_logs(args)
    check_usage(args.protocol, args.profile, args.after)
    if [*args.files, args.after].count("-") > 1:
        raise UsageError(STDIN_TWICE)
    fmt = None if args.input_format == "auto" else args.input_format
    options = {"input_format": fmt, "after": args.after, "profile": args.profile}
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if args.jobs == 1 or not _worth_a_pool(args.files):
        results: Iterator[list[Report]] = (check_path(path, args.protocol, **options) for path in args.files)
    else:
        from toolwire.engines.checking import check_paths

        results = iter(
            check_paths(args.files, args.protocol, jobs=args.jobs, handlers=[_failures], **options)
        )
    reports = []
    for path, found in zip(args.files, results, strict=True):
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


def _failures(event: EngineEvent) -> None:
    """The traceback of a part of a pool whose check raised, to standard error (its report says
    the part was not checked)."""
    from toolwire.engines._core._events import PartFailed

    if isinstance(event, PartFailed):
        print(event.traceback, file=sys.stderr)


#: :data:`toolwire.engines._core._pool.BIG`, without importing it.
_BIG = 8 << 20


def _worth_a_pool(files: Sequence[str]) -> bool:
    """Whether checking ``files`` may pay for starting worker processes: several files, or a big one."""
    if len(files) > 1:
        return True
    import os

    try:
        return os.path.getsize(files[0]) > _BIG
    except OSError:
        return False


#: ``check``'s options that say FILE is a log of records (see :func:`toolwire.engines.logs.check_log`).
_LOG_OPTIONS = ("request", "response", "body", "log", "group_by", "order_by")


def _check_logs(args: argparse.Namespace) -> int:
    from toolwire.cli.handlers._check import render_json, render_text
    from toolwire.engines import check_log

    if args.after is not None:
        raise UsageError("--after checks one request after one stream; in a log, use --group-by")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    reports = check_log(
        args.files,
        request=args.request,
        response=args.response,
        body=args.body,
        presets=args.log or (),
        group_by=args.group_by,
        order_by=args.order_by,
        protocol=args.protocol,
        profile=args.profile,
        jobs=args.jobs,
        handlers=[_failures],
    )
    render = render_json if args.format == "json" else render_text
    print(render(reports))
    return max(report.exit_code for report in reports)


def _proxy(args: argparse.Namespace) -> int:
    """``toolwire proxy``: serve until SIGINT or SIGTERM, print each finding, then the summary."""
    if args.mitmproxy_addon_path:
        from toolwire import mitmproxy_addon

        print(mitmproxy_addon.__file__)
        return 0
    if not args.upstream:
        raise UsageError("name the upstream: toolwire proxy --upstream https://api.openai.com")
    try:
        from toolwire.engines.proxy import run_proxy
    except ImportError as exc:
        raise UsageError(
            f"toolwire proxy needs uvicorn, Starlette and httpx ({exc.name} is missing): "
            "pip install 'toolwire[proxy]'"
        ) from None
    return run_proxy(
        args.upstream,
        args.listen,
        protocols=tuple(args.protocol),
        report=args.report,
        record=args.record,
        fmt=args.format,
    )


def _explore(args: argparse.Namespace) -> int:
    from pathlib import Path

    from toolwire.cli.handlers._explore import render_exploration, render_space
    from toolwire.engines._core._events import Handler
    from toolwire.engines._core._files import write_file
    from toolwire.engines.exploring import coverage_suite, explore_with, state_spaces
    from toolwire.engines.fuzzing import ExploreOptions, PrintReport, SaveCounterexamples
    from toolwire.properties import Bounds
    from toolwire.protocols import space_for

    options = ExploreOptions(
        max_traces=args.max_traces, time_limit=args.time_limit, timeout=args.timeout, mutate=args.mutate
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
    "proxy": _proxy,
}
