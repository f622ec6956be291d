"""What the proxy tells, as text or JSON lines, the ``--report`` file and the summary.

Every string that leaves here went through :mod:`._redact`: a key that a
message, an id or a provider's error text happens to hold is not printed.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import IO, Any

import orjson

from toolwire.engines._core._redact import redact_text
from toolwire.engines.proxy._checker import Told

__all__ = ["JsonLines", "Tally", "render_summary", "render_told", "told_json", "unreadable"]


@dataclass(slots=True)
class Tally:
    """What a proxy run came to: exchanges, findings by rule, unreadable parts."""

    exchanges: int = 0
    findings: Counter[str] = field(default_factory=Counter)
    errors: int = 0
    warnings: int = 0
    unreadable: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, told: Told) -> None:
        with self.lock:
            if told.finding is not None:
                self.findings[told.finding.rule] += 1
                if told.finding.severity == "error":
                    self.errors += 1
                else:
                    self.warnings += 1
            elif told.problem is not None and unreadable(told.problem.message, told.problem.severity):
                self.unreadable += 1

    @property
    def exit_code(self) -> int:
        """1 when a rule was broken (an error finding), else 0."""
        return 1 if self.errors else 0

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of the summary."""
        return {
            "exchanges": self.exchanges,
            "findings": sum(self.findings.values()),
            "errors": self.errors,
            "warnings": self.warnings,
            "by_rule": dict(sorted(self.findings.items())),
            "unreadable": self.unreadable,
            "exit_code": self.exit_code,
        }


def unreadable(message: str, severity: str) -> bool:
    """Whether a problem is a part not judged because it could not be read (an error response,
    which is judged by its status, is not)."""
    return severity == "error" or (
        message.startswith("skipped:") and not message.startswith("skipped: HTTP ")
    )


def told_json(told: Told) -> dict[str, Any]:
    """One finding or problem as a JSON-ready dict: the exchange, when, where, the rule and its fix."""
    out: dict[str, Any] = {
        "exchange": told.exchange,
        "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(told.time))
        + f".{int(told.time % 1 * 1000):03d}Z",
        "method": told.method,
        "endpoint": redact_text(told.endpoint),
        "side": told.side,
        "protocol": told.protocol or None,
    }
    if told.finding is not None:
        finding = told.finding.to_json()
        out.update(
            kind="finding",
            rule=finding["rule"],
            severity=finding["severity"],
            ids=[redact_text(i) for i in finding["ids"]],
            message=redact_text(finding["message"]),
            provider_error=redact_text(finding["provider_error"]) if finding["provider_error"] else None,
            fix=finding["fix"],
            index=finding["index"],
            line=finding["line"],
            path=finding["path"],
            across_exchanges=told.across,
        )
    elif told.problem is not None:
        out.update(
            kind="unreadable" if unreadable(told.problem.message, told.problem.severity) else "note",
            severity=told.problem.severity,
            message=redact_text(told.problem.message),
            line=told.problem.line,
        )
    return out


def render_told(told: Told, fmt: str) -> str:
    """One line for the terminal: text, or the JSON of :func:`told_json`."""
    data = told_json(told)
    if fmt == "json":
        return orjson.dumps(data).decode()
    where = f"#{told.exchange} {told.method} {data['endpoint']} {told.side}"
    if told.finding is not None:
        place = f" event {data['index']}" if data["index"] is not None and data["path"] is None else ""
        place = f" {data['path']}" if data["path"] else place
        ids = f" [{', '.join(data['ids'])}]" if data["ids"] else ""
        return f"{where}{place}: {data['rule']} {data['severity']}: {data['message']}{ids}"
    return f"{where}: {data['kind']} ({data['severity']}): {data['message']}"


def render_summary(tally: Tally, fmt: str) -> str:
    """The summary printed when the proxy stops."""
    data = tally.to_json()
    if fmt == "json":
        return orjson.dumps({"summary": data}).decode()
    rules = ", ".join(f"{rule}: {count}" for rule, count in data["by_rule"].items())
    verdict = "violations" if data["exit_code"] else "clean" if not data["unreadable"] else "not all read"
    return (
        f"toolwire proxy: {data['exchanges']} exchanges, {data['findings']} findings"
        + (f" ({rules})" if rules else "")
        + f", {data['unreadable']} unreadable parts: {verdict}"
    )


class JsonLines:
    """The ``--report`` file: one JSON line per finding or problem, flushed as each is told."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream
        self._lock = threading.Lock()

    def write(self, told: Told) -> None:
        line = orjson.dumps(told_json(told)) + b"\n"
        with self._lock:
            self._stream.write(line)
            self._stream.flush()

    def close(self) -> None:
        with self._lock:
            self._stream.close()
