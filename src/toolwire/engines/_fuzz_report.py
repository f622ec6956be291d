"""How fuzz runs and replays print: text for people, JSON and JUnit XML for machines."""

from __future__ import annotations

import json
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from toolwire.engines._fuzz import PROPERTIES, Counterexample, FuzzRun, Outcome

__all__ = ["counterexample_text", "render_fuzz", "render_replay"]


def _line(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def counterexample_text(found: Counterexample, saved: str | None, how: str = "minimal") -> list[str]:
    """A counterexample as report lines: the input, the output events that show it, where it is saved."""
    lines = [f"FAIL {found.property}: {found.message}", f"  input ({len(found.input)} events, {how}):"]
    lines.extend(f"    {_line(event)}" for event in found.input)
    if found.output is not None:
        shown = [n for n in found.showing if n < len(found.output)] or list(range(min(3, len(found.output))))
        lines.append(f"  output events that show it ({len(shown)} of {len(found.output)}):")
        lines.extend(f"    [{n}] {_line(found.output[n])}" for n in shown)
    if saved:
        lines.append(f"  saved: {saved}")
        lines.append(f"  replay: toolwire replay {saved} {found.target}")
    return lines


def _header(run: FuzzRun) -> str:
    bounds = f"seed {run.seed}, max-examples {run.max_examples}, quirks {run.quirks or 'none'}"
    if run.like:
        bounds += f", like a recording: {len(run.like)} shape features"
    if run.damaged:
        bounds += ", damaged input (--mutate)"
    return f"toolwire fuzz {run.target}: {run.source} -> {run.destination} ({bounds})"


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
                "like": list(run.like),
                "mutate": run.damaged,
                "examples": run.examples,
                "seconds": round(run.seconds, 3),
                "interrupted": run.interrupted,
                "note": run.note,
                "exit_code": run.exit_code,
                "counterexamples": [
                    c.to_json() | {"saved": str(run.saved[c.property]) if c.property in run.saved else None}
                    for c in run.counterexamples
                ],
            },
            indent=2,
            ensure_ascii=False,
        )
    if fmt == "junit":
        return _junit(run)
    lines = [_header(run)]
    for found in run.counterexamples:
        saved = run.saved.get(found.property)
        lines.extend(counterexample_text(found, str(saved) if saved else None))
    status = "interrupted after" if run.interrupted else "ran"
    summary = f"{status} {run.examples} examples in {run.seconds:.1f} s: "
    if run.counterexamples:
        summary += (
            f"{len(run.counterexamples)} propert{'y' if len(run.counterexamples) == 1 else 'ies'} broken"
        )
    else:
        summary += (
            "no counterexample; every property held on these examples "
            "(a bounded run: raise --max-examples or try --quirks for more)"
        )
    lines.append(summary)
    if run.note:
        lines.append(f"note: {run.note}")
    return "\n".join(lines)


def _junit(run: FuzzRun) -> str:
    broken = {c.property: c for c in run.counterexamples}
    cases = []
    for prop in PROPERTIES:
        name = quoteattr(prop)
        if prop in broken:
            found = broken[prop]
            body = escape("\n".join(counterexample_text(found, str(run.saved.get(prop) or "") or None)))
            cases.append(
                f'  <testcase classname="toolwire.fuzz" name={name}>'
                f"<failure message={quoteattr(found.message)}>{body}</failure></testcase>"
            )
        else:
            cases.append(f'  <testcase classname="toolwire.fuzz" name={name}/>')
    suite = quoteattr(f"{run.target} {run.source}->{run.destination}")
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        f'<testsuite name={suite} tests="{len(PROPERTIES)}" failures="{len(broken)}" '
        f'time="{run.seconds:.3f}">\n' + "\n".join(cases) + "\n</testsuite>"
    )


def render_replay(saved: Counterexample, outcome: Outcome, fmt: str = "text") -> str:
    """Render a replay: the saved case and what the target does with it now."""
    if fmt == "json":
        return json.dumps(
            {
                "saved_property": saved.property,
                "property": outcome.verdict,
                "message": outcome.message,
                "broken": [{"relation": b.relation, "message": b.message} for b in outcome.broken],
                "output": outcome.output,
            },
            indent=2,
            ensure_ascii=False,
        )
    head = f"replay {saved.source} -> {saved.destination}, saved as {saved.property or 'unknown'}"
    if outcome.verdict is None:
        return f"{head}\nPASS: every property holds on this input"
    lines = [head, f"FAIL {outcome.verdict}: {outcome.message}"]
    lines.extend(f"  also {b.relation}: {b.message}" for b in outcome.broken[1:])
    if outcome.output is not None:
        lines.extend(
            f"    [{n}] {_line(outcome.output[n])}" for n in outcome.showing() if n < len(outcome.output)
        )
    return "\n".join(lines)
