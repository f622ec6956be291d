"""The live proxy's outputs: each finding as a line of text or JSON, the ``--report`` file (JSON
Lines), the summary, and :class:`ProxyOutputs`, which wires them (and the ``--record`` file) as
``toolwire proxy`` and the mitmproxy addon both use them.

Every string that leaves here went through redaction (``engines/_core/_redact.py``): a key that
a message, an id or a provider's error text happens to hold is not printed.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import IO, Any

import orjson

from toolwire.cli.handlers._record import Recorder
from toolwire.engines._core._events import EngineEvent, ExchangeChecked, LiveFinding
from toolwire.engines._core._json import dumps, redacted
from toolwire.engines._core._redact import redact_text, redact_url
from toolwire.engines.proxy import ProxyTotals, unreadable

__all__ = ["JsonLines", "ProxyOutputs", "render_summary", "render_told", "told_json"]


def told_json(told: LiveFinding) -> dict[str, Any]:
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
    elif told.change is not None:
        change = told.change.to_json()
        out.update(
            kind="repair",
            rule=change["rule"],
            path=change["path"],
            action=change["action"],
            before=redacted(change["before"]),
            after=redacted(change["after"]),
            reason=redact_text(change["reason"]),
        )
    elif told.problem is not None:
        kind = "unreadable" if unreadable(told.problem.message, told.problem.severity) else "note"
        out.update(
            kind="not-repaired" if told.problem.message.startswith(_NOT_REPAIRED) else kind,
            severity=told.problem.severity,
            message=redact_text(told.problem.message),
            line=told.problem.line,
        )
    return out


#: How a problem of ``--repair`` starts (the request was forwarded as sent: ``proxy._repairing.told``).
_NOT_REPAIRED = "not repaired:"


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else dumps(value).decode()
    return text if len(text) <= 60 else text[:57] + "..."


def render_told(told: LiveFinding, fmt: str) -> str:
    """One line for the terminal: text, or the JSON of :func:`told_json`."""
    data = told_json(told)
    if fmt == "json":
        return dumps(data).decode()
    where = f"#{told.exchange} {told.method} {data['endpoint']} {told.side}"
    if told.finding is not None:
        place = f" event {data['index']}" if data["index"] is not None and data["path"] is None else ""
        place = f" {data['path']}" if data["path"] else place
        ids = f" [{', '.join(data['ids'])}]" if data["ids"] else ""
        return f"{where}{place}: {data['rule']} {data['severity']}: {data['message']}{ids}"
    if told.change is not None:
        before, after = data["before"], data["after"]
        shown = "" if before is None and after is None else f" ({_short(before)} -> {_short(after)})"
        return f"{where} {data['path']}: {data['rule']} repaired, {data['action']}: {data['reason']}{shown}"
    return f"{where}: {data['kind']} ({data['severity']}): {data['message']}"


def render_summary(totals: ProxyTotals, fmt: str) -> str:
    """The summary printed when the proxy stops."""
    data = totals.to_json()
    if fmt == "json":
        return orjson.dumps({"summary": data}).decode()
    rules = ", ".join(f"{rule}: {count}" for rule, count in data["by_rule"].items())
    verdict = "violations" if data["exit_code"] else "clean" if not data["unreadable"] else "not all read"
    if totals.strict and totals.warnings:
        # The warnings fail the run: named so even beside errors, which fail it anyway.
        verdict = f"{'violations' if totals.errors else 'warnings'} (failing: --strict)"
    return (
        f"toolwire proxy: {data['exchanges']} exchanges, {data['findings']} findings"
        + (f" ({rules})" if rules else "")
        + f", {data['unreadable']} unreadable parts"
        + (f", {data['repaired']} repaired ({data['changes']} changes)" if totals.repair else "")
        + f": {verdict}"
    )


class JsonLines:
    """The ``--report`` file: one JSON line per finding or problem, flushed as each is told."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream
        self._lock = threading.Lock()

    def write(self, told: LiveFinding) -> None:
        line = dumps(told_json(told)) + b"\n"
        with self._lock:
            self._stream.write(line)
            self._stream.flush()

    def close(self) -> None:
        with self._lock:
            self._stream.close()


class ProxyOutputs:
    """The live proxy's outputs, wired once for ``toolwire proxy`` and the mitmproxy addon.

    A handler of the proxy's events: each :class:`~toolwire.engines.LiveFinding` printed one a line
    (``fmt``: text or JSON) and written to the ``--report`` file, each checked exchange's record
    added to the ``--record`` file; :meth:`close` prints the summary and closes the files.
    """

    def __init__(self, fmt: str = "text", stream: IO[str] | None = None) -> None:
        self.fmt = fmt
        self.stream = stream
        self.report: JsonLines | None = None
        self.recorder: Recorder | None = None
        self._lock = threading.Lock()

    def report_to(self, path: str) -> None:
        """Write the findings to ``path`` as JSON Lines (an ``OSError`` when it cannot be opened)."""
        self.report = JsonLines(open(path, "wb"))  # noqa: SIM115 - open while serving

    def record_to(self, path: str) -> None:
        """Record the exchanges in ``path``, a HAR file or a cassette."""
        self.recorder = Recorder(path)

    def say(self, line: str) -> None:
        """Print one line, whole, among the lines other threads print."""
        with self._lock:
            print(line, file=self.stream if self.stream is not None else sys.stdout, flush=True)

    def __call__(self, event: EngineEvent) -> None:
        """Print and write a finding as it is told; record an exchange once it is checked."""
        if isinstance(event, LiveFinding):
            if self.report is not None:
                self.report.write(event)
            if event.finding is not None or event.problem is not None or event.change is not None:
                self.say(render_told(event, self.fmt))
        elif isinstance(event, ExchangeChecked) and event.recording is not None and self.recorder is not None:
            self.recorder.add(event.recording)

    def listening(self, address: str, upstream: str) -> None:
        """Say where the proxy listens and where it forwards to."""
        if self.fmt == "json":
            self.say(orjson.dumps({"listening": address, "upstream": redact_url(upstream)}).decode())
        else:
            self.say(f"toolwire proxy: listening on {address}, forwarding to {redact_url(upstream)}")

    def close(self, totals: ProxyTotals) -> None:
        """Print the summary of ``totals``; close the report and the record."""
        self.say(render_summary(totals, self.fmt))
        if self.report is not None:
            self.report.close()
        if self.recorder is not None:
            self.recorder.close()
