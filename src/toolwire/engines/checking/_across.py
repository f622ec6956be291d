"""The rule across exchanges: a tool result in a request answers a call an earlier response emitted.

No single exchange shows it: the call was emitted by one response, and answered in a later request.
The live proxy (:mod:`._live`) and ``toolwire check`` of the proxy's record (:mod:`._exchanges`)
both judge it here, in exchange order, so that the record checks to the findings the proxy told.

A result whose id no earlier response emitted is a finding of the protocol's round-trip rule
(RT-1): an error when the conversation's start (its first message, in a request that answers no
call) was seen, a warning when it was not (it may predate what was seen).
"""

from __future__ import annotations

import hashlib
import io
import threading
from collections.abc import Callable
from typing import Any, Final, Literal

import orjson

from toolwire.engines._core._results import Report
from toolwire.models import DONE, read_frames
from toolwire.properties import Finding
from toolwire.properties._roundtrip import round_trip_rules
from toolwire.protocols import get_protocol

__all__ = ["PROXY_RECORD", "Conversations", "emitted_ids"]

#: How the proxy names itself in a record (a HAR's ``log.creator.name``, a cassette's
#: ``recorded_by``): a record so named holds every exchange through the proxy, so the rule across
#: exchanges applies to it (another recording may hold some exchanges of a conversation only).
PROXY_RECORD: Final = "toolwire proxy"


class Conversations:
    """The call ids responses emitted so far, and the conversations whose start was seen."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.emitted: set[str] = set()
        self._starts: set[str] = set()

    def add(self, ids: set[str]) -> None:
        """A response emitted ``ids``."""
        with self._lock:
            self.emitted |= ids

    def unanswered(
        self, request: bytes | None, report: Report, wait: Callable[[], None] = lambda: None
    ) -> list[Finding]:
        """The findings of ``request`` (checked as ``report`` says): each tool result in it whose id
        no response emitted.  ``wait`` is called before the ids are looked up, once the request is
        known to carry results (the proxy waits for the exchanges before it there)."""
        spec = get_protocol(report.protocol) if report.protocol else None
        if spec is None or spec.results is None or spec.container is None or not request:
            return []
        try:
            body = orjson.loads(request)
        except orjson.JSONDecodeError:
            return []
        items = body.get(spec.container) if isinstance(body, dict) else None
        if not isinstance(items, list) or not items:
            return []
        results = [r for r in spec.results(items) if r.id]
        key = hashlib.sha256(orjson.dumps(items[0], option=orjson.OPT_SORT_KEYS)).hexdigest()
        if not results:
            with self._lock:
                self._starts.add(key)
            return []
        wait()  # the exchanges before have told their starts (and their calls) once it returns
        with self._lock:
            started = key in self._starts
        rule = round_trip_rules((report.protocol,))[0]
        severity: Literal["error", "warning"] = "error" if started else "warning"
        why = "" if started else " (the proxy has not seen this conversation start: it may predate it)"
        with self._lock:
            emitted = set(self.emitted)
        return [
            Finding(
                rule=rule.id,
                severity=severity,
                message=f"the tool result for {result.id} answers a call no response through the proxy "
                f"emitted{why}",
                index=None,
                line=None,
                fix=rule.fix,
                ids=(str(result.id),),
                path=None,
            )
            for result in results
            if str(result.id) not in emitted
        ]


def emitted_ids(response: bytes | None, reports: list[Report], frames: list[Any] | None = None) -> set[str]:
    """The call ids a response emitted, read by its protocol's monitor (a body, a stream);
    ``reports``: its exchange's, as checked whole; ``frames``: the response as that check read it
    (else it is read again)."""
    protocol = next((r.protocol for r in reports if r.source.endswith(" response")), "")
    if not protocol or response is None:
        return set()
    spec = get_protocol(protocol)
    if frames is None:
        frames = list(read_frames(io.BytesIO(response), lambda *_: None))
    if spec.calls is not None:
        return {c.id for c in spec.calls([v for _, v, _ in frames if v is not DONE]) if c.id}
    monitor = spec.make()
    for position, (line, value, event) in enumerate(frames):
        monitor.feed(value, position, line, event)
    monitor.finish(len(frames), None)
    return {c.id for turn in monitor.calls() for c in turn.calls if c.id}
