"""How explore runs and machine analyses print: text for people, JSON for machines."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from toolwire.cli.handlers._fuzz import counterexample_text
from toolwire.engines.exploring import Analysis, Exploration, StateSpace

__all__ = ["render_analysis", "render_exploration", "render_space"]


def _bounds(bounds: dict[str, Any]) -> str:
    return (
        "{"
        + ", ".join(f"{k}: {str(v).lower() if isinstance(v, bool) else v}" for k, v in bounds.items())
        + "}"
    )


def _space_lines(searched: StateSpace, label: str) -> list[str]:
    cut = f" (cut short: {searched.cut}; counts are lower bounds)" if searched.cut else ""
    traces = f"{searched.traces} valid traces" if not searched.cut else "traces not counted"
    return [
        f"  {label}: {searched.states} distinct states, {searched.moves} moves, depth {searched.depth}, "
        f"{traces}, {searched.seconds:.2f} s{cut}"
    ]


def _coverage_lines(searched: StateSpace) -> list[str]:
    lines = [f"  transition coverage: {searched.covered} of {searched.reachable} reachable table transitions"]
    lines.extend(f"    not fired within these bounds: {u}" for u in searched.uncovered)
    return lines


def render_space(searched: StateSpace, unreduced: StateSpace | None, fmt: str = "text") -> str:
    """A state space on its own (``explore --from P`` without a target)."""
    if fmt == "json":
        data: dict[str, Any] = {"protocol": searched.protocol, "bounds": searched.bounds} | searched.to_json()
        if unreduced is not None:
            data["without_symmetry"] = unreduced.to_json()
        return json.dumps(data, indent=2, ensure_ascii=False)
    lines = [f"toolwire explore {searched.protocol} within {_bounds(searched.bounds)}"]
    lines.extend(
        _space_lines(searched, "with symmetry reduction" if searched.bounds.get("symmetry") else "states")
    )
    if unreduced is not None:
        lines.extend(_space_lines(unreduced, "without symmetry reduction"))
    lines.extend(_coverage_lines(searched))
    return "\n".join(lines)


def render_exploration(run: Exploration, fmt: str = "text") -> str:
    """Render an :class:`Exploration` as ``text`` or ``json``."""
    if fmt == "json":
        data = {
            "target": run.target,
            "from": run.source,
            "to": run.destination,
            "bounds": run.bounds,
            "mutate": run.mutate,
            **({"strict": True} if run.strict else {}),  # absent without --strict
            "verdict": run.verdict,
            "exit_code": run.exit_code,
            "cut": run.cut,
            "traces_run": run.traces,
            "inputs_run": run.inputs,
            "prefixes_explored": run.prefixes,
            "seconds": round(run.seconds, 3),
            "space": run.space.to_json(),
            "without_symmetry": run.unreduced.to_json() if run.unreduced else None,
            "counterexample": run.counterexample.to_json() | {"saved": str(run.saved) if run.saved else None}
            if run.counterexample
            else None,
        }
        return json.dumps(data, indent=2, ensure_ascii=False)
    damaged = ", each also damaged by every mutator and pair of mutators" if run.mutate else ""
    damaged += ", warning rules failing (--strict)" if run.strict else ""
    route = f"{run.source} -> {run.destination}"
    lines = [f"toolwire explore {run.target}: {route} within {_bounds(run.bounds)}{damaged}"]
    lines.extend(
        _space_lines(run.space, "with symmetry reduction" if run.bounds.get("symmetry") else "states")
    )
    if run.unreduced is not None:
        lines.extend(_space_lines(run.unreduced, "without symmetry reduction"))
    lines.extend(_coverage_lines(run.space))
    lines.append(
        f"  ran {run.traces} of {run.space.traces} traces ({run.inputs} inputs, "
        f"{run.prefixes} trace prefixes explored) in {run.seconds:.2f} s"
    )
    if run.counterexample is not None:
        saved = str(run.saved) if run.saved else None
        how = "the shortest failing trace, damaged" if run.mutate else "shortest, found breadth first"
        lines.extend(counterexample_text(run.counterexample, saved, how))
        lines.append(f"BROKEN within {_bounds(run.bounds)}")
    elif run.cut is not None:
        lines.append(f"NOT PROVEN: {run.cut}; no counterexample among the inputs run")
    else:
        lines.append(f"HOLDS within {_bounds(run.bounds)}: every relation, on every valid trace")
    return "\n".join(lines)


def render_analysis(analyses: Sequence[Analysis], fmt: str = "text") -> str:
    """Machine analyses (``toolwire analyse``)."""
    if fmt == "json":
        return json.dumps([a.to_json() for a in analyses], indent=2)
    lines = []
    for a in analyses:
        lines.append(
            f"{a.machine}: {len(a.reachable)} of {len(a.states)} states reachable, "
            f"{len(a.transitions)} transitions reachable"
        )
        if a.unreachable:
            lines.append(f"  unreachable states: {', '.join(a.unreachable)}")
        lines.append(f"  states with no path to an accepting state: {', '.join(a.dead_ends) or 'none'}")
        lines.append(f"  events that never fire: {', '.join(a.dead_events) or 'none'}")
        lines.append(f"  transition-coverage suite ({len(a.suite)} paths, {sum(map(len, a.suite))} events):")
        lines.extend(f"    {' '.join(path)}" for path in a.suite)
    return "\n".join(lines)
