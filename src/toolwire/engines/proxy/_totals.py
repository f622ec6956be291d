"""What a proxy run came to: exchanges, findings by rule, unreadable parts, and its exit code."""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from toolwire.engines._core._events import LiveFinding

__all__ = ["ProxyTotals", "unreadable"]


@dataclass(slots=True)
class ProxyTotals:
    """What a proxy run came to: exchanges, findings by rule, unreadable parts.

    ``strict`` (``--strict``): a warning fails the run as an error does.  ``repair``
    (``--repair``): it counts the requests forwarded repaired and the changes made to them.
    """

    exchanges: int = 0
    findings: Counter[str] = field(default_factory=Counter)
    errors: int = 0
    warnings: int = 0
    unreadable: int = 0
    strict: bool = False
    repair: bool = False
    repaired: int = 0
    changes: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, told: LiveFinding) -> None:
        with self.lock:
            if told.finding is not None:
                self.findings[told.finding.rule] += 1
                if told.finding.severity == "error":
                    self.errors += 1
                else:
                    self.warnings += 1
            elif told.change is not None:
                self.changes += 1
            elif told.problem is not None and unreadable(told.problem.message, told.problem.severity):
                self.unreadable += 1

    @property
    def exit_code(self) -> int:
        """1 when a rule was broken (an error finding, or under ``strict`` any finding), else 0."""
        return 1 if self.errors or (self.strict and self.warnings) else 0

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of the summary."""
        out: dict[str, Any] = {
            "exchanges": self.exchanges,
            "findings": sum(self.findings.values()),
            "errors": self.errors,
            "warnings": self.warnings,
            "by_rule": dict(sorted(self.findings.items())),
            "unreadable": self.unreadable,
            "exit_code": self.exit_code,
        }
        if self.strict:  # absent without --strict
            out["strict"] = True
        if self.repair:  # absent without --repair
            out.update(repaired=self.repaired, changes=self.changes)
        return out


def unreadable(message: str, severity: str) -> bool:
    """Whether a problem is a part not judged because it could not be read (an error response,
    which is judged by its status, is not)."""
    return severity == "error" or (
        message.startswith("skipped:") and not message.startswith("skipped: HTTP ")
    )
