"""The ``toolwire`` command line's parser: its verbs, options, help texts and exit codes.

Built only when :func:`toolwire.cli.main` needs it: a plain ``check`` line is read without it.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from toolwire.cli._options import CHECK_OPTIONS

__all__ = ["parser"]


def parser() -> argparse.ArgumentParser:
    from toolwire.protocols._registry import protocol_names

    names = ", ".join(protocol_names())
    parser = argparse.ArgumentParser(
        prog="toolwire",
        description="Check LLM tool-call traffic against explicit lifecycle machines.",
    )
    parser.add_argument("--version", action="version", version=f"toolwire {_version()}")
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB", parser_class=_Verb)

    check = verbs.add_parser("check", help="check recorded traffic against a protocol's rules")
    check.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="trace file(s), VCR cassettes, HAR files or OTLP JSON; with the log options below, logs of "
        "JSON records (a folder: every file under it); - reads stdin",
    )
    presets = ", ".join(_presets())
    for option in CHECK_OPTIONS:
        # A flag takes no value: argparse refuses choices and a metavar for it.
        values: dict[str, Any] = {"choices": option.choices or None, "metavar": option.metavar}
        if option.kind == "flag":
            values = {}
        check.add_argument(
            *option.flags,
            dest=option.dest,
            default=option.default,
            help=None if option.help is None else option.help.format(names=names, presets=presets),
            **values,
            **_KINDS[option.kind],
        )

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
    fuzz.add_argument(
        "target",
        metavar="TARGET",
        help="module:function, path/file.py:function, a command, or a gateway's http(s):// URL",
    )
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
        "(default 1); a gateway's upstream requests go to their campaign by the marker in the user message",
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
    fuzz.add_argument(
        "--quirks",
        metavar="PROFILE",
        help="by default each example switches a random few of the input protocol's quirk profiles on "
        "(what real providers send: ids on every fragment, every call at index 0, ...), so one campaign "
        "covers them all; 'none' keeps the strictest wire; PROFILE,... pins those on every example",
    )
    fuzz.add_argument(
        "--providers",
        metavar="NAME,...",
        type=lambda text: tuple(name.strip() for name in text.split(",") if name.strip()),
        help="the swarm draws only the quirk profiles of the providers you route (mistral, ollama, vllm, "
        "deepseek, qwen, azure, gemini-openai, ...; the list below says who sends which profile); "
        "the strict wire is always drawn",
    )
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
    fuzz.add_argument(
        "--strict",
        action="store_true",
        help="fail on warnings too: an output that breaks a warning rule is a validity finding (exit 1); "
        "without it, validity counts error rules only",
    )
    fuzz.add_argument("--out", default="counterexamples", help="folder for counterexamples")
    fuzz.add_argument("--format", choices=("text", "json", "junit"), default="text")
    _gateway_options(fuzz)

    replay = verbs.add_parser("replay", help="re-run a saved counterexample through a target")
    replay.add_argument("file", metavar="FILE")
    replay.add_argument("target", metavar="TARGET")
    replay.add_argument("--timeout", type=float, default=5.0, metavar="S")
    replay.add_argument("--format", choices=("text", "json"), default="text")
    _gateway_options(replay)

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
        "--time-limit",
        type=_duration,
        metavar="DURATION",
        help="stop after this long: 90s, 10m, 1h (a number alone is seconds); the run says so",
    )
    explore.add_argument("--timeout", type=float, default=5.0, metavar="S", help="per input (default 5 s)")
    explore.add_argument(
        "--strict",
        action="store_true",
        help="fail on warnings too: an output that breaks a warning rule is a counterexample (exit 1); "
        "without it, validity counts error rules only",
    )
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

    repair = verbs.add_parser(
        "repair",
        help="repair a tool-call history so its protocol (and a stricter provider) accepts it",
        description="Repair a request body or conversation: every call answered, every result next to "
        "its call, ids unique and of a shape the provider takes; nothing silently lost (an orphaned "
        "result is kept as a note). The repaired body goes to --out or standard output, each change to "
        "standard error. Exit 0: nothing to repair (the output is the input, byte for byte); 1: "
        "repaired; 2: unusable input, or a rule no repair is right for.",
    )
    repair.add_argument("file", metavar="FILE", help="a request body or conversation; - reads stdin")
    repair.add_argument(
        "--protocol", "-p", metavar="P", help="the protocol (default: detected as check does)"
    )
    repair.add_argument(
        "--for",
        dest="provider",
        metavar="PROVIDER",
        help="the stricter provider it is sent to, on a shared wire (openai, azure, deepseek, moonshot, "
        "mistral, groq, openrouter, ...)",
    )
    repair.add_argument(
        "--orphan-results",
        choices=("text", "drop"),
        default="text",
        help="a result whose call is gone: kept as a text note naming its call (default), or dropped",
    )
    repair.add_argument(
        "--unanswered-calls",
        choices=("error-result", "drop"),
        default="error-result",
        help="a call no result answers: answered with an error result saying it was not run (default), "
        "or dropped (its assistant text kept)",
    )
    repair.add_argument(
        "--out", metavar="FILE", help="write the repaired body here (default: standard output)"
    )
    repair.add_argument("--format", choices=("text", "json"), default="text")

    protocols = verbs.add_parser("protocols", help="list the protocol names (stable)")
    protocols.add_argument("--format", choices=("text", "json"), default="text")

    proxy = verbs.add_parser(
        "proxy",
        help="forward traffic to a provider or gateway unchanged (or, with --repair, its requests "
        "repaired), checking it live",
    )
    proxy.add_argument(
        "--upstream", metavar="URL", help="where requests go: a provider's or a gateway's base URL"
    )
    proxy.add_argument(
        "--listen",
        metavar="HOST:PORT",
        default="127.0.0.1:8787",
        help="where to listen (loopback unless another address is named)",
    )
    proxy.add_argument(
        "--protocol",
        "-p",
        action="append",
        default=[],
        metavar="P",
        help=f"check parts as P where they can be (repeat for request and response): {names}",
    )
    proxy.add_argument("--report", metavar="FILE", help="write findings as JSON Lines, as they happen")
    proxy.add_argument(
        "--record", metavar="FILE", help="record the exchanges as a HAR file (.har) or a cassette (.yaml)"
    )
    proxy.add_argument(
        "--strict",
        action="store_true",
        help="fail on warnings too: a rule warning seen makes the exit 1, as an error does (the summary "
        "says it fails under --strict)",
    )
    repairing = proxy.add_argument_group("repairing requests on their way upstream (opt-in)")
    repairing.add_argument(
        "--repair",
        action="store_true",
        help="repair each request's tool-call history before it is forwarded, as toolwire repair does "
        "(a request it leaves alone, or cannot repair, is forwarded as sent); each change is printed and "
        "reported, and --record keeps the request as sent and as forwarded",
    )
    repairing.add_argument(
        "--for",
        dest="provider",
        metavar="PROVIDER",
        help="with --repair: the stricter provider behind the upstream, for requests of its wire "
        "(openai, azure, deepseek, moonshot, mistral, groq, openrouter, ...)",
    )
    repairing.add_argument(
        "--orphan-results",
        choices=("text", "drop"),
        help="with --repair: a result whose call is gone is kept as a text note (default: text) or dropped",
    )
    repairing.add_argument(
        "--unanswered-calls",
        choices=("error-result", "drop"),
        help="with --repair: a call no result answers gets an error result (default: error-result) or is "
        "dropped",
    )
    proxy.add_argument(
        "--mitmproxy-addon-path",
        action="store_true",
        help="print the path of toolwire's mitmproxy addon (mitmdump -s PATH) and exit",
    )
    proxy.add_argument("--format", choices=("text", "json"), default="text")
    _explain(verbs.choices)
    return parser


#: How argparse reads each kind of :class:`~toolwire.cli._options.Option`.
_KINDS: dict[str, dict[str, Any]] = {
    "store": {},
    "append": {"action": "append"},
    "int": {"type": int},
    "flag": {"action": "store_true"},
}


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
    "  toolwire check request.json -p {request} --after stream.sse --format json\n"
    "  toolwire check gateway.jsonl --log litellm --group-by trace_id --order-by startTime\n"
    "  toolwire check traces.otlp.jsonl",
    "rules": "toolwire rules -p {stream}",
    "diagram": "toolwire diagram --format svg --out diagrams\n"
    "  toolwire diagram --counterexample counterexamples/FILE.json",
    "ids": "toolwire ids call_abc123 --for {request},{other}",
    "fuzz": "toolwire fuzz conv.py:convert --from {stream} --to {request} --time-limit 60s\n"
    "  toolwire fuzz 'node conv.js' --from {stream} --to {other} --quirks PROFILE\n"
    "  toolwire fuzz http://127.0.0.1:4000/v1/chat/completions --from {stream} "
    "--to {answer} --upstream 127.0.0.1:8788",
    "replay": "toolwire replay counterexamples/FILE.json conv.py:convert\n"
    "  toolwire replay counterexamples/FILE.json http://127.0.0.1:4000/v1/chat/completions "
    "--upstream 127.0.0.1:8788",
    "explore": "toolwire explore conv.py:convert --from {stream} --to {request} --calls 3",
    "analyse": "toolwire analyse --format json",
    "shapes": "toolwire shapes recording.sse -p {stream}",
    "protocols": "toolwire protocols --format json",
    "proxy": "toolwire proxy --upstream https://api.openai.com --report findings.jsonl --record run.har\n"
    "  toolwire proxy --upstream https://api.deepseek.com --repair --for deepseek --record run.har",
    "repair": "toolwire repair history.json -p {request} --out repaired.json\n"
    "  toolwire repair history.json --for deepseek --format json",
}

#: What each verb's exit codes mean.
_EXITS = {
    "check": "0 events were read and none broke a rule; 1 rule violations (with --strict, rule warnings "
    "too); 2 unreadable, unrecognised or empty input, or bad usage",
    "ids": "0 the id is valid everywhere asked; 1 some protocol rejects it; 2 bad usage",
    "fuzz": "0 no counterexample (and --min-coverage met); 1 counterexamples found (with --strict, an "
    "output that breaks a warning rule is one) or coverage short; "
    "2 bad usage, a target that cannot be loaded, or a --workers process lost (and nothing found); "
    "130 interrupted",
    "replay": "0 the saved case no longer fails; 1 it still fails; 2 bad usage or file",
    "explore": "0 holds within the bounds; 1 a counterexample (with --strict, an output that breaks a "
    "warning rule is one); 2 cut short by a limit, or bad usage",
    "proxy": "0 nothing broke a rule; 1 rule violations seen (with --strict, rule warnings too); 2 bad usage",
    "repair": "0 nothing to repair (the output is the input, byte for byte); 1 repaired; 2 unusable input, "
    "a break no repair is right for, or bad usage",
}


def _gateway_options(verb: argparse.ArgumentParser) -> None:
    """The options of an http(s):// target: a gateway between toolwire's client and its mock provider."""
    group = verb.add_argument_group("a gateway target (an http:// or https:// URL)")
    group.add_argument(
        "--upstream",
        metavar="HOST:PORT",
        help="where toolwire's mock provider listens (loopback); point the gateway's upstream at it",
    )
    group.add_argument("--model", metavar="NAME", help="the model the client asks the gateway for")
    group.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="'NAME: VALUE'",
        help="a header on every client request (repeatable): a routing header, a fake key",
    )


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
    from toolwire.properties import SENDERS
    from toolwire.protocols import EXPLORED, GENERATED, PROTOCOLS, QUIRKS

    requests = [p for p in PROTOCOLS.values() if p.follows]
    names = {
        "request": requests[0].name,
        "stream": requests[0].follows[0],
        "other": next(p.name for p in requests if p.name != requests[0].name),
        # A gateway's other side: a stream that another request follows.
        "answer": next(p.follows[0] for p in requests if p.name != requests[0].name),
    }
    parts = []
    if name in ("fuzz", "explore"):
        sources = GENERATED if name == "fuzz" else EXPLORED
        parts.append(_wrapped("--from: " + ", ".join(p for p in PROTOCOLS if p in sources)))
        parts.append(_wrapped("--to: " + ", ".join(PROTOCOLS)))
        parts.append(_wrapped("quirk profiles: " + ", ".join(sorted(QUIRKS))))
        if name == "fuzz":
            sent = {p: sorted(q.name for q in QUIRKS.values() if p in q.providers) for p in SENDERS}
            who = [f"{p} ({', '.join(names)})" for p, names in sent.items() if names]
            parts.append(
                _wrapped(
                    "--providers, and the profiles each is recorded sending: " + (", ".join(who) or "none")
                )
            )
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


def _presets() -> list[str]:
    from toolwire.engines.logs import PRESETS

    return list(PRESETS)


def _version() -> str:
    from toolwire import __version__

    return __version__


def _duration(text: str) -> float:
    """``90s``, ``10m``, ``1h`` or plain seconds, as seconds (as the engines read a time limit)."""
    from toolwire.engines.fuzzing import duration
    from toolwire.errors import UsageError

    try:
        seconds = duration(text)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    assert seconds is not None
    return seconds
