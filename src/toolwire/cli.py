"""The ``toolwire`` command: a thin layer over the library.

Exit codes: 0 clean, 1 violations found, 2 unusable input or usage.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from toolwire.errors import UsageError

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    from toolwire.properties._registry import protocol_names

    names = ", ".join(protocol_names())
    parser = argparse.ArgumentParser(
        prog="toolwire",
        description="Check LLM tool-call traffic against explicit lifecycle machines.",
    )
    parser.add_argument("--version", action="version", version=f"toolwire {_version()}")
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB", parser_class=_Verb)

    check = verbs.add_parser("check", help="check recorded traffic against a protocol's rules")
    check.add_argument(
        "files", nargs="+", metavar="FILE", help="trace file(s), VCR cassettes or HAR files; - reads stdin"
    )
    check.add_argument(
        "--protocol",
        "-p",
        metavar="P",
        help=f"one of: {names} (default: detected from the content, or a recording's endpoints)",
    )
    check.add_argument(
        "--after", metavar="STREAM", help="the stream this request followed (round-trip rules RT-1, RT-2)"
    )
    check.add_argument(
        "--input-format",
        choices=("auto", "sse", "jsonl", "json", "eventstream"),
        default="auto",
        help="how FILE is encoded (default: detected from its first bytes)",
    )
    check.add_argument(
        "--profile", metavar="NAME", help="a variant of the protocol (`toolwire protocols` lists them)"
    )
    check.add_argument("--format", choices=("text", "json"), default="text")

    rules = verbs.add_parser("rules", help="list the rules toolwire checks")
    rules.add_argument("--protocol", "-p", metavar="P", help=f"only this protocol's: {names}")
    rules.add_argument("--format", choices=("text", "json"), default="text")

    diagram = verbs.add_parser("diagram", help="render lifecycle diagrams of the machines")
    diagram.add_argument("machines", nargs="*", metavar="MACHINE", help="machine class names (default: all)")
    diagram.add_argument(
        "--format",
        action="append",
        choices=("svg", "png", "dot", "mermaid"),
        help="repeat for several (default: svg, dot and mermaid)",
    )
    diagram.add_argument("--out", default="diagrams", help="folder to write into (default: diagrams)")
    diagram.add_argument(
        "--counterexample",
        metavar="FILE",
        help="draw a saved counterexample instead: input and output events, the bad ones highlighted",
    )

    ids = verbs.add_parser(
        "ids", help="say whether a call id is valid in each protocol, and which rule it breaks"
    )
    ids.add_argument("id", metavar="ID")
    ids.add_argument(
        "--for", dest="protocols", metavar="P,...", help="only these protocols (comma-separated)"
    )
    ids.add_argument("--format", choices=("text", "json"), default="text")

    fuzz = verbs.add_parser(
        "fuzz", help="drive a converter with generated traffic; shrink and save what breaks it"
    )
    fuzz.add_argument("target", metavar="TARGET", help="module:function, path/file.py:function, or a command")
    fuzz.add_argument(
        "--from", dest="source", required=True, metavar="P", help="the protocol the target reads"
    )
    fuzz.add_argument("--to", dest="destination", required=True, metavar="Q", help="the protocol it writes")
    fuzz.add_argument(
        "--max-examples",
        type=int,
        metavar="N",
        help="runs of the target at most (default 200; no limit when only --time-limit is given)",
    )
    fuzz.add_argument(
        "--time-limit",
        type=_duration,
        metavar="DURATION",
        help="stop after this long: 90s, 10m, 1h (a number alone is seconds); with --max-examples, "
        "whichever comes first",
    )
    fuzz.add_argument(
        "--ignore",
        action="append",
        default=[],
        metavar="ID",
        help="set a known finding aside (repeatable): a property (identity), a rule id (CC-1), "
        "or property:kind as a FAIL line prints it",
    )
    fuzz.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="run N campaigns in parallel processes with different seeds, sharing one example database "
        "(default 1)",
    )
    fuzz.add_argument(
        "--database",
        metavar="DIR|URL",
        help="keep failing examples in this folder or redis://HOST:PORT/N; a campaign replays them first",
    )
    fuzz.add_argument(
        "--min-coverage",
        type=float,
        metavar="FRACTION",
        help="fail the campaign (exit 1) when it covered less than this fraction of the shape features "
        "and machine transitions of its protocols (for CI)",
    )
    fuzz.add_argument(
        "--ignore-file",
        metavar="FILE",
        help="ids to set aside, one a line; '#' starts a comment saying why",
    )
    fuzz.add_argument("--seed", type=int, default=0, help="the same seed gives the same run")
    fuzz.add_argument("--quirks", metavar="PROFILE", help="provider quirk profile(s), comma-separated")
    fuzz.add_argument("--timeout", type=float, default=5.0, metavar="S", help="per example (default 5 s)")
    fuzz.add_argument(
        "--mutate",
        action="store_true",
        help="feed damaged history (for sanitizers): intact pairs must survive",
    )
    fuzz.add_argument(
        "--like",
        action="append",
        metavar="FILE",
        help="generate traffic shaped like this recording of --from (repeatable): its shape features "
        "and the quirk profiles they match (toolwire shapes shows them)",
    )
    fuzz.add_argument("--out", default="counterexamples", help="folder for counterexamples")
    fuzz.add_argument("--format", choices=("text", "json", "junit"), default="text")

    replay = verbs.add_parser("replay", help="re-run a saved counterexample through a target")
    replay.add_argument("file", metavar="FILE")
    replay.add_argument("target", metavar="TARGET")
    replay.add_argument("--timeout", type=float, default=5.0, metavar="S")
    replay.add_argument("--format", choices=("text", "json"), default="text")

    explore = verbs.add_parser(
        "explore",
        help="run a converter on every valid trace within bounds: a proof within bounds or the shortest "
        "counterexample",
    )
    explore.add_argument(
        "target",
        nargs="?",
        metavar="TARGET",
        help="as for fuzz; without it, explore the protocol's space only",
    )
    explore.add_argument(
        "--from", dest="source", required=True, metavar="P", help="the protocol the target reads"
    )
    explore.add_argument("--to", dest="destination", metavar="Q", help="the protocol it writes (with TARGET)")
    explore.add_argument(
        "--calls", type=int, default=2, metavar="N", help="calls per stream or turn (default 2)"
    )
    explore.add_argument(
        "--deltas", type=int, default=2, metavar="N", help="argument fragments per call (default 2)"
    )
    explore.add_argument(
        "--turns", type=int, default=1, metavar="N", help="user turns of a conversation (default 1)"
    )
    explore.add_argument("--names", type=int, default=1, metavar="N", help="distinct tool names (default 1)")
    explore.add_argument(
        "--interleave",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="calls may be open at once (default: as the protocol's providers do)",
    )
    explore.add_argument("--quirks", metavar="PROFILE", help="provider quirk profile(s), comma-separated")
    explore.add_argument(
        "--no-symmetry", action="store_true", help="explore every renaming of ids, not one per renaming"
    )
    explore.add_argument(
        "--mutate", action="store_true", help="also feed each trace damaged by every mutator (for sanitizers)"
    )
    explore.add_argument("--max-traces", type=int, metavar="N", help="stop after N traces (the run says so)")
    explore.add_argument(
        "--time-limit", type=float, metavar="S", help="stop after S seconds (the run says so)"
    )
    explore.add_argument("--timeout", type=float, default=5.0, metavar="S", help="per input (default 5 s)")
    explore.add_argument("--out", default="counterexamples", help="folder for the counterexample")
    explore.add_argument(
        "--suite", metavar="DIR", help="write a transition-coverage suite of traces (JSON Lines)"
    )
    explore.add_argument("--format", choices=("text", "json"), default="text")

    analyse = verbs.add_parser(
        "analyse",
        help="prove facts about the machines: reachability, dead ends, dead events, a coverage suite",
    )
    analyse.add_argument("machines", nargs="*", metavar="MACHINE", help="machine class names (default: all)")
    analyse.add_argument("--format", choices=("text", "json"), default="text")

    shapes = verbs.add_parser(
        "shapes", help="name the shape features a recording shows, and the quirk profiles they match"
    )
    shapes.add_argument("files", nargs="+", metavar="FILE", help="recording(s); - reads stdin")
    shapes.add_argument("--protocol", "-p", required=True, metavar="P", help=f"one of: {names}")
    shapes.add_argument("--format", choices=("text", "json"), default="text")

    protocols = verbs.add_parser("protocols", help="list the protocol names (stable)")
    protocols.add_argument("--format", choices=("text", "json"), default="text")
    _explain(verbs.choices)
    return parser


class _Help(argparse.RawDescriptionHelpFormatter):
    """Each option's default in its help (unless the help names it already); the epilog as written."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        shown = action.default not in (None, False, [], argparse.SUPPRESS) and action.option_strings
        if shown and "default" not in text:
            text += " (default: %(default)s)"
        return text


#: An example per verb, for its ``--help``: ``{stream}`` is a stream protocol and ``{request}`` a request
#: protocol that follows it, ``{other}`` another request protocol (from the registry).
_EXAMPLES = {
    "check": "toolwire check stream.sse -p {stream}\n"
    "  toolwire check request.json -p {request} --after stream.sse --format json",
    "rules": "toolwire rules -p {stream}",
    "diagram": "toolwire diagram --format svg --out diagrams\n"
    "  toolwire diagram --counterexample counterexamples/FILE.json",
    "ids": "toolwire ids call_abc123 --for {request},{other}",
    "fuzz": "toolwire fuzz conv.py:convert --from {stream} --to {request} --time-limit 60s\n"
    "  toolwire fuzz 'node conv.js' --from {stream} --to {other} --quirks PROFILE",
    "replay": "toolwire replay counterexamples/FILE.json conv.py:convert",
    "explore": "toolwire explore conv.py:convert --from {stream} --to {request} --calls 3",
    "analyse": "toolwire analyse --format json",
    "shapes": "toolwire shapes recording.sse -p {stream}",
    "protocols": "toolwire protocols --format json",
}

#: What each verb's exit codes mean.
_EXITS = {
    "check": "0 events were read and none broke a rule; 1 rule violations; "
    "2 unreadable, unrecognised or empty input, or bad usage",
    "ids": "0 the id is valid everywhere asked; 1 some protocol rejects it; 2 bad usage",
    "fuzz": "0 no counterexample (and --min-coverage met); 1 counterexamples found or coverage "
    "short; 2 bad usage or a target that cannot be loaded; 130 interrupted",
    "replay": "0 the saved case no longer fails; 1 it still fails; 2 bad usage or file",
    "explore": "0 holds within the bounds; 1 a counterexample; 2 bad usage",
}


def _wrapped(text: str) -> str:
    import textwrap

    return textwrap.fill(text, 79, subsequent_indent="  ", break_on_hyphens=False)


def _explain(verbs: Mapping[str, argparse.ArgumentParser]) -> None:
    """Give every verb's help its defaults, the choices it accepts, an example and its exit codes."""
    for name, verb in verbs.items():
        verb.formatter_class = _Help
        for action in verb._actions:
            if action.help is None and "--format" in action.option_strings:
                action.help = "how to print the result"
        if isinstance(verb, _Verb):
            verb.verb = name


def _epilog(name: str) -> str:
    """A verb's epilog: the choices it accepts, an example and its exit codes (this reads every family)."""
    from toolwire.properties import PROTOCOLS, QUIRKS

    requests = [p for p in PROTOCOLS.values() if p.follows]
    names = {
        "request": requests[0].name,
        "stream": requests[0].follows[0],
        "other": next(p.name for p in requests if p.name != requests[0].name),
    }
    parts = []
    if name in ("fuzz", "explore"):
        parts.append(_wrapped("protocols: " + ", ".join(PROTOCOLS)))
        parts.append(_wrapped("quirk profiles: " + ", ".join(sorted(QUIRKS))))
    if name in ("diagram", "analyse"):
        parts.append("machines: `toolwire analyse` lists every machine with its states")
    parts.append("example:\n  " + _EXAMPLES[name].format(**names))
    parts.append(_wrapped("exit codes: " + _EXITS.get(name, "0 done; 2 bad usage")))
    return "\n\n".join(parts)


class _Verb(argparse.ArgumentParser):
    """A verb's parser, whose epilog is written when its help is shown (``check`` loads one family)."""

    verb = ""

    def format_help(self) -> str:
        if self.verb and self.epilog is None:
            self.epilog = _epilog(self.verb)
        return super().format_help()


def _version() -> str:
    from toolwire import __version__

    return __version__


#: ``--max-examples`` when only ``--time-limit`` bounds a campaign.
_UNLIMITED = 10**9


def _duration(text: str) -> float:
    """``90s``, ``10m``, ``1h`` or plain seconds, as seconds."""
    units = {"s": 1, "m": 60, "h": 3600}
    number, unit = (text[:-1], text[-1]) if text and text[-1] in units else (text, "s")
    try:
        seconds = float(number) * units[unit]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a duration: {text!r} (say 90s, 10m or 1h)") from None
    if seconds <= 0:
        raise argparse.ArgumentTypeError(f"a duration must be above 0, not {text!r}")
    return seconds


def _ignore_file(path: str) -> list[str]:
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise UsageError(f"cannot read --ignore-file {path}: {exc.strerror}") from None
    return [line.split("#", 1)[0].strip() for line in lines if line.split("#", 1)[0].strip()]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code."""
    args = _parser().parse_args(argv)
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

    if os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        return
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = str(base / "toolwire" / "hypothesis")


def _run(args: argparse.Namespace) -> int:
    from toolwire import engines
    from toolwire.properties import get_protocol, rules_for

    if args.verb == "protocols":
        from toolwire.properties import PROTOCOLS

        print(engines.render_protocols(list(PROTOCOLS.values()), args.format))
        return 0
    if args.verb == "diagram":
        from pathlib import Path

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
            written = engines.render_diagrams(args.machines or list(machines()), formats, Path(args.out))
        for path in written:
            print(path)
        return 0
    if args.verb == "ids":
        chosen = [p.strip() for p in args.protocols.split(",") if p.strip()] if args.protocols else None
        verdicts = engines.check_id(args.id, chosen)
        print(engines.render_ids(args.id, verdicts, args.format))
        return 0 if all(v.valid for v in verdicts) else 1
    if args.verb == "fuzz":
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
    if args.verb == "replay":
        from toolwire.engines._fuzz import replay
        from toolwire.engines._fuzz_report import render_replay, reproduces

        saved, outcome = replay(args.file, args.target, timeout=args.timeout)
        print(render_replay(saved, outcome, args.format))
        return 1 if reproduces(saved, outcome) else 0
    if args.verb == "explore":
        return _explore(args)
    if args.verb == "shapes":
        from toolwire.engines._shapes import render_shapes, shapes_file

        get_protocol(args.protocol)
        print(render_shapes([shapes_file(path, args.protocol) for path in args.files], args.format))
        return 0
    if args.verb == "analyse":
        from toolwire.engines._analysis import analyse_machine
        from toolwire.engines._explore_report import render_analysis
        from toolwire.properties import machines

        print(render_analysis([analyse_machine(name) for name in args.machines or machines()], args.format))
        return 0
    if args.verb == "rules":
        print(engines.render_rules(rules_for(args.protocol), args.format))
        return 0
    return _check(args)


def _check(args: argparse.Namespace) -> int:
    from toolwire import engines
    from toolwire.engines._exchanges import check_recording, is_recording
    from toolwire.properties import get_protocol

    fmt = None if args.input_format == "auto" else args.input_format
    if args.protocol is not None:
        get_protocol(args.protocol).make(args.profile)  # a wrong profile is wrong for every file
    elif args.after is not None:
        raise UsageError("--after needs -p: name the request's protocol")
    if [*args.files, args.after].count("-") > 1:
        raise UsageError("standard input (-) can be read once; name it once among FILE and --after")
    if "-" in args.files and args.protocol is None:
        # Detection reads the start of the input, then the check reads all of it.
        sys.stdin = io.TextIOWrapper(io.BytesIO(sys.stdin.buffer.read()))
    reports = []
    for path in args.files:
        try:
            raw = _recording(path, is_recording)
            if raw is not None:
                reports.extend(check_recording(path, raw, args.protocol, args.profile))
                continue
            protocol = args.protocol or _detected(path, fmt, args.format)
            if protocol is None:
                reports.append(engines.Report(str(path), "", 0, problems=(_undetected(path, fmt),)))
                continue
            reports.append(
                engines.check_file(path, protocol, input_format=fmt, after=args.after, profile=args.profile)
            )
        except UsageError as exc:
            # One unreadable file: say so, and still check the others.
            print(f"toolwire: {exc}", file=sys.stderr)
            problem = engines.Problem(None, None, str(exc))
            reports.append(engines.Report(str(path), args.protocol or "", 0, problems=(problem,)))
    render = engines.render_json if args.format == "json" else engines.render_text
    print(render(reports))
    return max(report.exit_code for report in reports)


def _recording(path: str, is_recording: Callable[[bytes], bool]) -> bytes | None:
    """The bytes of ``path`` when it is a cassette or HAR file (read whole: YAML and HAR are documents)."""
    if path == "-":
        stdin = sys.stdin.buffer
        if not stdin.seekable():
            return None
        head = stdin.read(65536)
        raw = head + stdin.read() if is_recording(head) else None
        stdin.seek(0)
        return raw
    try:
        with open(path, "rb") as handle:
            head = handle.read(65536)
            return head + handle.read() if is_recording(head) else None
    except OSError:
        return None  # check_file says why it cannot be read


def _detected(path: str, fmt: Any, output: str) -> str | None:
    """The protocol detected for the trace at ``path``; says which on stdout (stderr for JSON output)."""
    from toolwire.engines._detect import detect_file

    detection = detect_file(path, fmt)
    if detection.protocol is not None:
        print(f"{path}: {detection.explain()}", file=sys.stderr if output == "json" else sys.stdout)
    return detection.protocol


def _undetected(path: str, fmt: Any) -> Any:
    from toolwire.engines import Problem
    from toolwire.engines._detect import detect_file

    return Problem(None, None, f"{detect_file(path, fmt).explain()}")


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
