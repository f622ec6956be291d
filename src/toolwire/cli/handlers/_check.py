"""Rendering reports and rules as text or JSON."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

import orjson

from toolwire.engines._core._results import Report, unreadable_parts
from toolwire.properties import Protocol, Rule
from toolwire.protocols import get_protocol
from toolwire.protocols._registry import protocol_names

if TYPE_CHECKING:
    from toolwire.engines._core._events import EngineEvent

__all__ = ["print_part_failures", "render_json", "render_protocols", "render_rules", "render_text"]

#: Text output shows at most this many findings per rule and says how many it left out.
PER_RULE: Final = 20
#: Text output cuts a finding's message (and the provider's answer) past this many characters, and
#: its ids past this many (a turn of 60,000 calls left unanswered is one finding): ``--format json``
#: has them whole.
LONGEST: Final = 2000
IDS: Final = 20


def render_text(reports: Sequence[Report]) -> str:
    """Every finding with its rule, place, ids, provider answer and fix; then a summary."""
    out: list[str] = []
    for report in reports:
        shown: Counter[str] = Counter()
        for finding in report.findings:
            shown[finding.rule] += 1
            if shown[finding.rule] > PER_RULE:
                continue
            place = [report.source + (f":{finding.line}" if finding.line is not None else "")]
            if finding.index is not None:
                place.append(f"event {finding.index}" if finding.path is None else finding.path)
            elif finding.path is not None:
                place.append(finding.path)
            out.append(f"{' '.join(place)}: {finding.rule} {finding.severity}: {_cut(finding.message)}")
            if finding.ids:
                ids = list(dict.fromkeys(finding.ids))
                more = f", ... and {len(ids) - IDS} more" if len(ids) > IDS else ""
                out.append(f"    ids: {', '.join(ids[:IDS])}{more}")
            if finding.provider_error:
                out.append(f"    provider: {_cut(finding.provider_error)}")
            out.append(f"    fix: {finding.fix}")
        for rule, count in sorted(shown.items()):
            if count > PER_RULE:
                out.append(
                    f"{report.source}: ... and {count - PER_RULE} more {rule} findings "
                    "(--format json lists them all)"
                )
        for problem in report.problems:
            line = f":{problem.line}" if problem.line is not None else ""
            out.append(f"{report.source}{line}: input {problem.severity}: {problem.message}")
        if report.protocol not in protocol_names():
            # A part of a recording that no protocol reads: its problems say why.
            out.append(f"{report.source}: skipped")
            continue
        errors = len(report.errors)
        warnings = len(report.findings) - errors
        unread = unreadable_parts(report.problems)
        verdict = "clean" if report.exit_code == 0 else "violations" if errors else "input errors"
        if report.strict and warnings:
            # The warnings fail the check: named so even beside errors, which fail it anyway.
            verdict = verdict if errors else "warnings"
            failing = "; failing: --strict"
        else:
            failing = ""
        unit = {"messages": "messages", "input": "input items"}.get(
            get_protocol(report.protocol).container or "", "events"
        )
        calls, results = report.checked
        out.append(
            f"{report.source}: {report.protocol}, {report.events} {unit}, {calls} call{'s' * (calls != 1)} "
            f"and {results} result{'s' * (results != 1)} checked: {verdict} "
            f"({errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}, "
            f"{unread} unreadable part{'s' * (unread != 1)}{failing})"
        )
    return "\n".join(out)


def _cut(message: str) -> str:
    if len(message) <= LONGEST:
        return message
    return f"{message[:LONGEST]}... ({len(message) - LONGEST:,} more characters: --format json has it whole)"


def render_json(reports: Sequence[Report]) -> str:
    """``{"reports": [...], "exit_code": n}``, one report per checked file; ``"strict": true`` too when
    they were judged under ``--strict`` (warnings counted in the exit codes)."""
    exit_code = max((r.exit_code for r in reports), default=0)
    document: dict[str, object] = {"reports": [r.to_json() for r in reports], "exit_code": exit_code}
    if any(r.strict for r in reports):
        document["strict"] = True
    return orjson.dumps(document, option=orjson.OPT_INDENT_2).decode()


def render_rules(rules: Sequence[Rule], fmt: str) -> str:
    """One rule per block: id, kind, severity, protocols, statement, source, provider error."""
    if fmt == "json":
        return orjson.dumps(
            [
                {
                    "id": r.id,
                    "kind": r.kind,
                    "severity": r.severity,
                    "protocols": r.protocols,
                    "statement": r.statement,
                    "source": r.source,
                    "error": r.error,
                    "fix": r.fix,
                    "unconfirmed": r.unconfirmed,
                }
                for r in rules
            ],
            option=orjson.OPT_INDENT_2,
        ).decode()
    out = []
    for r in rules:
        flag = " (unconfirmed)" if r.unconfirmed else ""
        out.append(f"{r.id}  {r.kind}, {r.severity}{flag}  [{', '.join(r.protocols)}]")
        out.append(f"    {r.statement}")
        out.append(f"    source: {r.source}")
        if r.error:
            out.append(f"    provider: {r.error}")
    return "\n".join(out)


def render_protocols(protocols: Sequence[Protocol], fmt: str) -> str:
    """One protocol per line: its stable name, what it covers and the provider profiles of its wire
    (``check --profile``, ``repair --for``)."""
    providers = {p.name: [n for n in p.profile_names() if n not in p.profiles] for p in protocols}
    if fmt == "json":
        return orjson.dumps(
            [
                {
                    "name": p.name,
                    "shape": p.shape,
                    "summary": p.summary,
                    "profiles": p.profile_names(),
                    "provider_profiles": providers[p.name],
                }
                for p in protocols
            ],
            option=orjson.OPT_INDENT_2,
        ).decode()
    width = max(len(p.name) for p in protocols)
    return "\n".join(
        f"{p.name:<{width}}  {p.summary}"
        + (f"; provider profiles: {', '.join(providers[p.name])}" if providers[p.name] else "")
        for p in protocols
    )


def print_part_failures(event: EngineEvent) -> None:
    """The traceback of a pool part whose check raised, to standard error (its report says the part
    was not checked)."""
    from toolwire.engines._core._events import PartFailed

    if isinstance(event, PartFailed):
        print(event.traceback, file=sys.stderr)
