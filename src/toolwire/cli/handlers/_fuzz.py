"""How fuzz runs and replays print: text for people, JSON and JUnit XML for machines."""

from __future__ import annotations

import json
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from toolwire.engines.fuzzing import PROPERTIES, Counterexample, FuzzRun, Outcome
from toolwire.properties import SENDERS
from toolwire.protocols import QUIRKS

__all__ = ["counterexample_text", "render_fuzz", "render_replay", "reproduces"]


def _line(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def counterexample_text(found: Counterexample, saved: str | None, how: str = "minimal") -> list[str]:
    """A counterexample as report lines: the input, the output events that show it, where it is saved."""
    lines = [f"FAIL {_name(found)}: {found.message}"]
    if found.quirks:  # the profiles the input was drawn with and shows; its cause is among them
        lines.append(f"  quirk profiles: {found.quirks}")
    if found.cause:
        lines.append(f"  finding: {found.finding} (without {' or '.join(found.cause)} the same input passes)")
    lines.append(f"  input ({len(found.input)} events, {how}):")
    lines.extend(f"    {_line(event)}" for event in found.input)
    if found.output is not None:
        shown = [n for n in found.showing if n < len(found.output)] or list(range(min(3, len(found.output))))
        lines.append(f"  output events that show it ({len(shown)} of {len(found.output)}):")
        lines.extend(f"    [{n}] {_line(found.output[n])}" for n in shown)
    if saved:
        lines.append(f"  saved: {saved}")
        upstream = (
            f" --upstream {found.exchange['upstream']}"
            if found.exchange and "upstream" in found.exchange
            else ""
        )
        lines.append(f"  replay: toolwire replay {saved} {found.target}{upstream}")
    return lines


def _name(found: Counterexample) -> str:
    """How a FAIL line names a finding: its property, how it broke, and what it needs (each usable
    with --ignore)."""
    name = f"{found.property} [{found.kind}]" if found.kind else found.property
    return f"{name}, needs {' + '.join(found.cause)}" if found.cause else name


def senders(cause: tuple[str, ...]) -> list[str]:
    """The providers known to send every quirk profile of ``cause``, as a report names them."""
    named = [set(QUIRKS[q].providers) if q in QUIRKS else set() for q in cause]
    common = set.intersection(*named) if named else set()
    return [SENDERS[p] for p in SENDERS if p in common]


def _audience(cause: tuple[str, ...]) -> str:
    """The heading of the findings that need ``cause``: the profiles and who sends them."""
    sent = senders(cause)
    who = f"sent by {_joined(sent)}" if sent else "no provider is recorded sending it"
    return f"needs {' + '.join(cause)}: {who}"


def _joined(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _header(run: FuzzRun) -> str:
    bounds = f"seed {run.seed}" + (f", max-examples {run.max_examples}" if run.max_examples < 10**9 else "")
    if run.time_limit is not None:
        bounds += f", time-limit {run.time_limit:g} s"
    bounds += f", quirks {_quirks(run)}"
    if run.like:
        bounds += f", like a recording: {len(run.like)} shape features"
    if run.mutate:
        bounds += ", damaged input (--mutate)"
    if run.ignoring:
        bounds += f", ignoring {', '.join(run.ignoring)}"
    if run.strict:
        bounds += ", warning rules fail (--strict)"
    return f"toolwire fuzz {run.target}: {run.source} -> {run.destination} ({bounds})"


def _quirks(run: FuzzRun) -> str:
    if run.swarm:
        return f"a swarm of {', '.join(run.swarm)}"
    return run.quirks or "none"


def render_fuzz(run: FuzzRun, fmt: str = "text") -> str:
    """Render a :class:`FuzzRun` as ``text``, ``json`` or ``junit``."""
    if fmt == "json":
        return json.dumps(
            {
                "target": run.target,
                "from": run.source,
                "to": run.destination,
                "seed": run.seed,
                "max_examples": run.max_examples,
                "quirks": run.quirks,
                "swarm": list(run.swarm),
                "like": list(run.like),
                "mutate": run.mutate,
                "time_limit": run.time_limit,
                "ignore": list(run.ignoring),
                "examples": run.examples,
                "shrink_runs": run.shrinks,
                "seconds": round(run.seconds, 3),
                "stopped": run.stopped,
                "interrupted": run.interrupted,
                "note": run.note,
                "problems": list(run.problems),
                "exit_code": run.exit_code,
                "findings": len(run.counterexamples),
                "strict_wire": sum(1 for c in run.counterexamples if not c.cause),
                "provider_shapes": sum(1 for c in run.counterexamples if c.cause),
                "providers": list(run.providers) if run.providers is not None else None,
                "cause_runs": run.cause_tests,
                "slow": round(run.slow, 2) if run.slow is not None else None,
                "ignored": run.ignored,
                "coverage": run.coverage.to_json(),
                "min_coverage": run.min_coverage,
                **({"strict": True} if run.strict else {}),  # absent without --strict
                "counterexamples": [
                    c.to_json()
                    | {
                        "saved": str(run.saved[c.finding]) if c.finding in run.saved else None,
                        "examples": run.hits.get(c.finding, 0),
                        "sent_by": senders(c.cause) if c.cause else None,
                    }
                    for c in run.counterexamples
                ],
            },
            indent=2,
            ensure_ascii=False,
        )
    if fmt == "junit":
        return _junit(run)
    lines = [_header(run)]
    strict = [c for c in run.counterexamples if not c.cause]
    shaped = [c for c in run.counterexamples if c.cause]
    if strict and shaped:
        lines.append("== on the strict wire (no provider deviation needed: every user hits these)")
    for found in strict:
        saved = run.saved.get(found.finding)
        lines.extend(counterexample_text(found, str(saved) if saved else None))
    for cause in sorted({c.cause for c in shaped}):
        lines.append(f"== {_audience(cause)}")
        for found in (c for c in shaped if c.cause == cause):
            saved = run.saved.get(found.finding)
            lines.extend(counterexample_text(found, str(saved) if saved else None))
    rate = run.examples / run.seconds if run.seconds else 0.0
    shrinking = f" (+{run.shrinks} shrinking)" if run.shrinks else ""
    summary = (
        f"ran {run.examples} examples{shrinking} in {run.seconds:.1f} s ({rate:.0f}/s), "
        f"stopped by {run.stopped}: "
    )
    count = len(run.counterexamples)
    if count:
        summary += f"{count} distinct finding{'s' if count != 1 else ''}"
        causes = sorted({c.cause for c in run.counterexamples if c.cause})
        plain = sum(1 for c in run.counterexamples if not c.cause)
        summary += f": {plain} on the strict wire, {count - plain} needing a provider's shapes"
        if causes:
            summary += f" ({'; '.join(_audience(cause) for cause in causes)})"
    elif run.problems:
        summary += "no counterexample on the examples that finished, but part of the campaign was lost"
    else:
        summary += (
            "no counterexample; every property held on these examples "
            "(a bounded run: raise --max-examples or --time-limit for more)"
        )
    if run.ignored:
        summary += f"; ignored {', '.join(f'{k} ({n} examples)' for k, n in sorted(run.ignored.items()))}"
    lines.append(summary)
    if run.slow is not None:
        lines.append(
            f"slow target ({run.slow:.1f} examples/s): its examples went to breadth: shorter traces, no "
            "shrinking while searching, each finding shrunk once at the end, in the time kept for it"
        )
    lines.extend(_coverage_lines(run))
    if not run.covered_enough:
        lines.append(
            f"FAIL coverage: the campaign covered {run.coverage.fraction:.0%} of the shape features and "
            f"machine transitions, below --min-coverage {run.min_coverage:g}"
        )
    if run.note:
        lines.append(f"note: {run.note}")
    lines.extend(f"problem: {problem}" for problem in run.problems)
    return "\n".join(lines)


def _coverage_lines(run: FuzzRun) -> list[str]:
    cover = run.coverage
    parts = []
    if cover.input_total:
        parts.append(f"input {len(cover.input)}/{cover.input_total} ({run.source})")
    if cover.output_total:
        parts.append(f"output {len(cover.output)}/{cover.output_total} ({run.destination})")
    lines = ["shape coverage: " + (", ".join(parts) if parts else "no shape catalogue for these protocols")]
    for side, protocol, machines in (
        ("input", run.source, cover.input_machines),
        ("output", run.destination, cover.output_machines),
    ):
        if not machines.tables:
            continue
        states, transitions, pairs = machines.reachable()
        lines.append(
            f"machine coverage, {side} ({protocol}: {', '.join(sorted(machines.tables))}): "
            f"states {len(machines.states)}/{states}, transitions {len(machines.transitions)}/{transitions}, "
            f"transition pairs {len(machines.pairs)}/{pairs}"
        )
    return lines


def _junit(run: FuzzRun) -> str:
    """One test case per property that held and one per distinct finding."""
    cases = []
    broken = {c.property for c in run.counterexamples}
    for prop in PROPERTIES:
        if prop not in broken:
            cases.append(f'  <testcase classname="toolwire.fuzz" name={quoteattr(prop)}/>')
    for found in run.counterexamples:
        saved = run.saved.get(found.finding)
        body = escape("\n".join(counterexample_text(found, str(saved) if saved else None)))
        group = "toolwire.fuzz" + (f".needs.{'+'.join(found.cause)}" if found.cause else "")
        cases.append(
            f"  <testcase classname={quoteattr(group)} name={quoteattr(found.finding)}>"
            f"<failure message={quoteattr(found.message)}>{body}</failure></testcase>"
        )
    suite = quoteattr(f"{run.target} {run.source}->{run.destination}")
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        f'<testsuite name={suite} tests="{len(cases)}" failures="{len(run.counterexamples)}" '
        f'time="{run.seconds:.3f}">\n' + "\n".join(cases) + "\n</testsuite>"
    )


def reproduces(saved: Counterexample, outcome: Outcome) -> bool:
    """The saved finding's symptom still occurs on its input (an older file without a kind: its
    property); its cause is in the input, which is replayed as saved."""
    faults = outcome.faults()
    if saved.kind:
        return any(f.finding == saved.symptom for f in faults)
    return any(f.property == saved.property for f in faults) if saved.property else bool(faults)


def render_replay(saved: Counterexample, outcome: Outcome, fmt: str = "text") -> str:
    """Render a replay: the saved case and what the target does with it now."""
    faults = outcome.faults()
    if fmt == "json":
        return json.dumps(
            {
                "saved_property": saved.property,
                "saved_finding": saved.finding,
                "reproduced": reproduces(saved, outcome),
                "property": outcome.verdict,
                "message": outcome.message,
                "findings": [{"finding": f.finding, "message": f.message} for f in faults],
                "broken": [{"relation": b.relation, "message": b.message} for b in outcome.broken],
                "output": outcome.output,
            },
            indent=2,
            ensure_ascii=False,
        )
    head = f"replay {saved.source} -> {saved.destination}, saved as {saved.finding or 'unknown'}"
    if not faults:
        return f"{head}\nPASS: every property holds on this input"
    lines = [head]
    for fault in faults:
        name = f"{fault.property} [{fault.kind}]" if fault.kind else fault.property
        lines.append(f"FAIL {name}: {fault.message}")
        if outcome.output is not None:
            lines.extend(
                f"    [{n}] {_line(outcome.output[n])}"
                for n in outcome.showing(fault)
                if n < len(outcome.output)
            )
    if not reproduces(saved, outcome):
        lines.append(f"the saved finding {saved.finding} no longer occurs")
    return "\n".join(lines)
