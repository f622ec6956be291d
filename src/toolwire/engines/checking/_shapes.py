"""``toolwire shapes``: the shape features a recording shows, and the quirk profiles they match."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from toolwire.engines._core._results import Problem
from toolwire.engines.checking._check import _open, _peek_format, _sink
from toolwire.models import InputFormat, read_frames
from toolwire.protocols import get_protocol
from toolwire.protocols._shapes import matching_quirks, shapes_of

__all__ = ["ShapeReport", "learned", "read_traces", "render_shapes", "shapes_file"]


@dataclass(frozen=True, slots=True)
class ShapeReport:
    """The features one recording shows (over all its request bodies), with what each means."""

    source: str
    protocol: str
    traces: int
    features: tuple[tuple[str, str], ...]
    quirks: tuple[str, ...]
    problems: tuple[Problem, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of this report."""
        return {
            "source": self.source,
            "protocol": self.protocol,
            "traces": self.traces,
            "features": [{"name": name, "summary": summary} for name, summary in self.features],
            "quirks": list(self.quirks),
            "problems": [p.to_json() for p in self.problems],
        }


def read_traces(
    path: str | os.PathLike[str],
    protocol: str,
    problems: list[Problem],
    input_format: InputFormat | None = None,
) -> list[list[Any]]:
    """The traces a file holds: one stream, or one list per request body (bare messages form one)."""
    container = get_protocol(protocol).container
    with _open(path) as stream:
        fmt = input_format or _peek_format(stream)
        values = [value for _, value, _ in read_frames(stream, _sink(problems), fmt)]
    if container is None:
        return [values]
    bodies = [v[container] for v in values if isinstance(v, dict) and isinstance(v.get(container), list)]
    loose = [v for v in values if not (isinstance(v, dict) and container in v)]
    return [*bodies, *([loose] if loose else [])]


def shapes_file(path: str | os.PathLike[str], protocol: str) -> ShapeReport:
    """The shape features of the recording at ``path`` under ``protocol``."""
    problems: list[Problem] = []
    traces = read_traces(path, protocol, problems)
    found: set[str] = set()
    for trace in traces:
        found |= shapes_of(trace, protocol)
    shapes = get_protocol(protocol).shapes
    catalogue = shapes.catalogue() if shapes is not None else {}
    features = tuple((name, catalogue[name].summary) for name in catalogue if name in found)
    return ShapeReport(
        str(path), protocol, len(traces), features, tuple(matching_quirks(found, protocol)), tuple(problems)
    )


def learned(paths: Iterable[str | os.PathLike[str]], protocol: str) -> tuple[frozenset[str], list[str]]:
    """What ``fuzz --like`` learns from recordings: the features they show, and the quirk profiles matched."""
    found: set[str] = set()
    for path in paths:
        for trace in read_traces(path, protocol, []):
            found |= shapes_of(trace, protocol)
    return frozenset(found), matching_quirks(found, protocol)


def render_shapes(reports: Sequence[ShapeReport], fmt: str) -> str:
    """The reports as text or JSON."""
    if fmt == "json":
        return json.dumps({"reports": [r.to_json() for r in reports]}, indent=2, ensure_ascii=False)
    out: list[str] = []
    for report in reports:
        traces = f"{report.traces} trace{'s' if report.traces != 1 else ''}"
        out.append(f"{report.source}: {report.protocol}, {traces}, {len(report.features)} shape features")
        width = max((len(name) for name, _ in report.features), default=0)
        out.extend(f"  {name:<{width}}  {summary}" for name, summary in report.features)
        if report.quirks:
            out.append(f"  matches quirk profiles: {', '.join(report.quirks)}")
        for problem in report.problems:
            line = f":{problem.line}" if problem.line is not None else ""
            out.append(f"{report.source}{line}: input {problem.severity}: {problem.message}")
    return "\n".join(out)
