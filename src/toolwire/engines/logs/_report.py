"""The report stage: one :class:`Report` per file and protocol, from what the checker found and
the files' input problems."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from toolwire.engines._core._results import MAX_PROBLEMS, Problem, Report, unreadable_parts
from toolwire.engines.logs._checker import Checked

__all__ = ["reports"]


def reports(names: Sequence[str], checked: Checked) -> list[Report]:
    """The reports of the files ``names``, in their order: one per protocol a file's bodies were
    checked as (in the order ``checked`` met them), the file's problems (by line) with the first; a
    file none of whose records held a body to check is one report of its problems."""
    out: list[Report] = []
    for name in names:
        own = sorted(checked.problems.get(name, ()), key=lambda p: (p.line is None, p.line or 0))
        if len(own) > MAX_PROBLEMS:
            left = own[MAX_PROBLEMS:]
            errors = unreadable_parts(left)
            worst: Literal["error", "warning"] = "error" if errors else "warning"
            own = [
                *own[:MAX_PROBLEMS],
                Problem(
                    None, None, f"{len(left)} more input problems, not listed", worst, unlisted_errors=errors
                ),
            ]
        mine = [(protocol, bucket) for (source, protocol), bucket in checked.found.items() if source == name]
        if not mine:
            if not any(p.severity == "error" for p in own):
                own.append(Problem(None, None, "no record held a body to check"))
            out.append(Report(name, "", 0, problems=tuple(own)))
            continue
        for k, (protocol, bucket) in enumerate(mine):
            findings = sorted(bucket.findings, key=lambda f: (f.line is None, f.line or 0, f.index or 0))
            problems = tuple(own) if k == 0 else ()
            out.append(
                Report(
                    name,
                    protocol,
                    bucket.events,
                    tuple(findings),
                    problems,
                    calls=bucket.calls,
                    results=bucket.results,
                )
            )
    return out
