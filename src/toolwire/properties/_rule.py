"""Named rules and the findings that cite them."""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from typing import Any, Final, Literal

from toolwire.errors import DefinitionError

__all__ = ["Finding", "Kind", "Rule", "Severity"]

Kind = Literal["always", "eventually", "sometimes"]
Severity = Literal["error", "warning"]

_RULE_ID: Final = re.compile(r"^[A-Z]+-\d+[a-z]?$")


@dataclass(frozen=True, slots=True)
class Rule:
    """One checkable invariant, as the catalogue states it.

    ``kind`` says when it can fail: ``always`` at the event that breaks it,
    ``eventually`` at the end of the trace.  ``error`` is the provider's answer
    (verbatim; ``{name}`` marks a value filled in per finding).  A rule the
    catalogue marks unconfirmed is a warning, never an error.
    """

    id: str
    kind: Kind
    protocols: tuple[str, ...]
    statement: str
    source: str
    fix: str
    error: str | None = None
    severity: Severity = "error"
    unconfirmed: bool = False

    def __post_init__(self) -> None:
        if not _RULE_ID.match(self.id):
            raise DefinitionError(f"rule id {self.id!r} must look like 'RS-9' or 'RS-9a'")
        if self.unconfirmed and self.severity != "warning":
            raise DefinitionError(f"{self.id} is unconfirmed and so may only be a warning")
        if not self.protocols:
            raise DefinitionError(f"{self.id} names no protocol")

    def provider_error(self, values: dict[str, Any]) -> str | None:
        """The provider's error text with this finding's values filled in."""
        if self.error is None:
            return None
        return string.Formatter().vformat(self.error, (), _Keep(values))


class _Keep(dict[str, Any]):
    """Leave ``{name}`` in place when a finding has no value for it."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


@dataclass(frozen=True, slots=True)
class Finding:
    """One violation of one rule at one place in a trace.

    ``index`` is the 0-based event (or message) number, ``line`` the 1-based
    line of the input where that event starts (``None`` inside a JSON
    document, where ``path`` says where instead).
    """

    rule: str
    severity: Severity
    message: str
    index: int | None
    line: int | None
    fix: str
    ids: tuple[str, ...] = ()
    provider_error: str | None = None
    path: str | None = None
    #: In a log checked with ``--group-by``: the conversation (group) of the record it is in.
    group: str | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of this finding (``group`` only when it has one)."""
        out: dict[str, Any] = {
            "rule": self.rule,
            "severity": self.severity,
            "message": self.message,
            "index": self.index,
            "line": self.line,
            "path": self.path,
            "ids": list(self.ids),
            "provider_error": self.provider_error,
            "fix": self.fix,
        }
        if self.group is not None:
            out["group"] = self.group
        return out
