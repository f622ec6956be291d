"""What checking reports: a :class:`Report` per trace, with its findings and the :class:`Problem` s of
its input (parts that could not be read, or were skipped unjudged).  Every job that checks
traffic (``check``, the log check, the proxy) makes these."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from toolwire.properties import Finding

__all__ = ["MAX_PROBLEMS", "Problem", "Report", "strictly", "unreadable_parts"]

#: Input problems reported one by one; past this many, only their count.
MAX_PROBLEMS: Final = 50


def unreadable_parts(problems: Iterable[Problem]) -> int:
    """The parts of an input that could not be read: its error problems, and those one stands for."""
    return sum(p.unlisted_errors or (p.severity == "error") for p in problems)


@dataclass(frozen=True, slots=True)
class Problem:
    """Input that could not be read (``error``) or was skipped unjudged (``warning``)."""

    line: int | None
    index: int | None
    message: str
    severity: Literal["error", "warning"] = "error"
    #: For a problem that stands for others not listed: how many of them are errors.
    unlisted_errors: int = 0
    #: In a log checked with ``--group-by``: the conversation (group) of the record it is about.
    group: str | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of this problem."""
        out: dict[str, Any] = {
            "line": self.line,
            "index": self.index,
            "message": self.message,
            "severity": self.severity,
        }
        if self.unlisted_errors:
            out["unlisted_errors"] = self.unlisted_errors  # the errors it stands for, past those listed
        if self.group is not None:
            out["group"] = self.group
        return out


@dataclass(frozen=True, slots=True)
class Report:
    """What checking one trace found.

    ``exit_code`` is what ``toolwire check`` exits with for it: 1 when a rule
    was broken (an error finding, or with ``strict`` any finding: ``--strict``
    fails on warnings too), else 2 when part of the input could not be read,
    else 0.
    """

    source: str
    protocol: str
    events: int
    findings: tuple[Finding, ...] = ()
    problems: tuple[Problem, ...] = field(default=())
    #: Whether ``protocol`` was detected from the content (no protocol was named).
    detected: bool = field(default=False, compare=False)
    #: Why the file could not be read at all (it cannot be opened, or a recording cannot be
    #: parsed): the report's one problem says the same.  None when it was read.
    unreadable: str | None = field(default=None, compare=False)
    #: A recording's reports, one per request and response (see :func:`check_file`).
    parts: tuple[Report, ...] = field(default=(), compare=False)
    #: The tool calls and tool results the monitors judged (a recording: its parts').
    calls: int = field(default=0, compare=False)
    results: int = field(default=0, compare=False)
    #: When ``protocol`` was detected: the protocol whose reading came next, if any read it.
    runner_up: str | None = field(default=None, compare=False)
    #: Judged under ``--strict``: a warning fails the check as an error does (:func:`strictly`).
    strict: bool = field(default=False, compare=False)

    @property
    def errors(self) -> list[Finding]:
        """The findings that break a rule (not warnings)."""
        return [f for f in self.findings if f.severity == "error"]

    @property
    def ok(self) -> bool:
        """True when no rule was broken and the whole input was read."""
        return self.exit_code == 0

    @property
    def exit_code(self) -> int:
        """1: rules broken (under ``strict``, warnings too); 2: input partly unreadable; 0: clean (a
        recording: its worst part's)."""
        return self._exit_code(self.strict)

    def _exit_code(self, strict: bool) -> int:
        if self.parts:
            return max(part._exit_code(strict or part.strict) for part in self.parts)
        if self.errors or (strict and self.findings):
            return 1
        if any(p.severity == "error" for p in self.problems):
            return 2
        return 0

    @property
    def checked(self) -> tuple[int, int]:
        """The tool calls and results judged, a recording's summed over its parts."""
        if self.parts:
            return sum(p.calls for p in self.parts), sum(p.results for p in self.parts)
        return self.calls, self.results

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of this report."""
        calls, results = self.checked
        out: dict[str, Any] = {
            "source": self.source,
            "protocol": self.protocol,
            "events": self.events,
            "exit_code": self.exit_code,
            "calls": calls,
            "results": results,
            "findings": [f.to_json() for f in self.findings],
            "problems": [p.to_json() for p in self.problems],
        }
        if self.strict:
            out["strict"] = True  # warnings counted in exit_code (absent without --strict)
        if self.detected:
            # What detection chose (no -p) and the reading it was preferred to.
            out["detection"] = {"protocol": self.protocol, "runner_up": self.runner_up}
        return out


def strictly(reports: Iterable[Report], strict: bool = True) -> list[Report]:
    """``reports`` judged under ``--strict`` (a warning fails as an error does), or as they are."""
    if not strict:
        return list(reports)
    return [replace(report, strict=True) for report in reports]
