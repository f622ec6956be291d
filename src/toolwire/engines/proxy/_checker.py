"""Checking live exchanges, off the forwarding path: one checker thread per exchange.

The request is checked as soon as it is read whole, as ``check`` checks a
recording's request (:mod:`._exchanges`).  The response is read from a
:class:`~._pipe.Pipe` as it streams: an SSE or AWS event-stream response is
fed to its protocol's monitor event by event, and each finding is told the
moment the monitor makes it.  When the response ends, the exchange is checked
once more, whole, exactly as ``toolwire check`` checks it in a record
(:func:`._exchanges.exchange_reports`): what that adds (the end-of-stream
rules) is told then, so the record and the live report agree.

Across exchanges (:class:`LiveConversations`): a tool result in a request answers a call
whose id some response through the proxy emitted; one that answers none is a
finding of RT-1 (a warning while the proxy has not seen that conversation start).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, Literal

from toolwire.engines._core._detect import detect, endpoint_of
from toolwire.engines._core._events import LiveFinding
from toolwire.engines._core._results import Problem, Report
from toolwire.engines.checking import Conversations, choose, emitted_ids, exchange_reports
from toolwire.engines.proxy._pipe import Pipe
from toolwire.models import DONE, Exchange, Frame, read_frames
from toolwire.models._eventstream import CONTENT_TYPE
from toolwire.properties import Finding, Monitor, Protocol
from toolwire.protocols import get_protocol

__all__ = ["Checked", "ExchangeChecker", "LiveConversations"]

Side = Literal["request", "response", "exchange"]

#: Frames after which a live response's protocol is decided, when the endpoint and the frames so far
#: leave one; past the last, or at the end of the stream, whatever detection says then.
_DECIDE_AT: Final = (1, 2, 4, 8, 16, 32, 64, 128, 200)
#: How long a request's cross-exchange check waits for earlier responses' calls to be known.
_LEDGER_WAIT: Final = 10.0


@dataclass(slots=True)
class Checked:
    """What one exchange came to, once checked whole."""

    exchange: int
    method: str
    url: str
    status: int | None
    reports: list[Report] = field(default_factory=list)
    told: list[LiveFinding] = field(default_factory=list)


class LiveConversations(Conversations):
    """The rule across exchanges (:class:`~._across.Conversations`), and the exchanges whose
    responses are not known yet: a request's results wait for the responses of earlier ones."""

    def __init__(self) -> None:
        super().__init__()
        self._pending: dict[int, threading.Event] = {}

    def opened(self, number: int) -> None:
        with self._lock:
            self._pending[number] = threading.Event()

    def known(self, number: int, ids: set[str]) -> None:
        """Exchange ``number``'s response emitted ``ids`` (or nothing more will be known of it)."""
        self.add(ids)
        with self._lock:
            event = self._pending.pop(number, None)
        if event is not None:
            event.set()

    def wait_earlier(self, number: int) -> None:
        """Wait (up to :data:`_LEDGER_WAIT` seconds) until the exchanges before ``number`` are known."""
        with self._lock:
            events = [event for n, event in self._pending.items() if n < number]
        deadline = time.monotonic() + _LEDGER_WAIT
        for event in events:
            event.wait(max(0.0, deadline - time.monotonic()))


class ExchangeChecker:
    """Checks one exchange in a thread of its own; ``tell`` is called from that thread."""

    def __init__(
        self,
        number: int,
        method: str,
        url: str,
        request: bytes,
        request_type: str,
        protocol: str | tuple[str, ...] | None,
        ledger: LiveConversations,
        tell: Callable[[LiveFinding], None],
        done: Callable[[Checked], None],
        *,
        unread: str | None = None,
    ) -> None:
        self.number = number
        #: Why the request was not kept to be checked (it is over the bound; it was forwarded whole).
        self.unread = unread
        self.method = method
        self.url = url
        self.endpoint = endpoint_of(url)
        self.request = request
        self.request_type = request_type
        self.protocol = protocol
        self.ledger = ledger
        self._tell = tell
        self._done = done
        self.status: int | None = None
        self.response_type = ""
        self.response: Pipe | None = None
        #: The headers as forwarded (for the record, redacted there).
        self.request_headers: list[tuple[str, str]] = []
        self.response_headers: list[tuple[str, str]] = []
        #: Why the response was not seen whole (the client left, the upstream broke or was unreachable).
        self.cut: str | None = None
        self.left = False
        self._told: set[tuple[str, Finding]] = set()
        self._headers = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"toolwire-check-{number}", daemon=True)
        ledger.opened(number)
        self._started = time.time()
        self._thread.start()

    # -- the forwarder's side (the event loop): never blocks -----------------------------------------

    def responded(self, status: int, content_type: str, encoding: str) -> Pipe:
        """The upstream answered: the pipe the body's chunks go to."""
        self.status = status
        self.response_type = content_type
        self.response = Pipe(encoding)
        self._headers.set()
        return self.response

    def failed(self, reason: str, *, client: bool = False) -> None:
        """No response came (the upstream could not be reached), or it broke: ``reason`` says how.

        ``client``: the client left; the rest of the response was never seen, so what its end
        would show is not judged (the upstream did not cut it).
        """
        self.cut = reason
        self.left = client
        if self.response is not None:
            self.response.close()
        self._headers.set()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the check to end."""
        self._thread.join(timeout)

    # -- the checker's side --------------------------------------------------------------------------

    def _run(self) -> None:
        checked = Checked(self.number, self.method, self.url, None)
        try:
            self._check(checked)
        except Exception as exc:  # a failing check must never pass for clean: say it failed
            self._problem(
                "exchange", "", Problem(None, None, f"toolwire could not check this exchange: {exc!r}")
            )
        finally:
            self.ledger.known(self.number, set())
            checked.status = self.status
            self._done(checked)

    def _check(self, checked: Checked) -> None:
        request_only = Exchange(
            self.number, self.method, self.url, self.request or None, None, None, self.request_type
        )
        first = list(exchange_reports(self.url, request_only, self.protocol))
        request_report = next((r for r in first if r.source.endswith(" request")), None)
        if self.unread is not None:
            self._problem("request", "", Problem(None, None, self.unread))
        elif request_report is not None:
            self._report("request", request_report)
            self._across(request_report)
        self._headers.wait()
        pipe = self.response
        if pipe is None:
            self._problem("response", "", Problem(None, None, f"no response: {self.cut}"))
            return
        live = self._live_format(pipe)
        if live is not None and not (request_report and _session(request_report.protocol)):
            self._stream(pipe, live)
        else:
            while pipe.read(1 << 16):  # the whole body (kept within the bound), then the final pass
                pass
        pipe.close()
        if self.cut is not None:
            self._problem("response", "", Problem(None, None, self.cut, "warning"))
        if pipe.overflow is not None:
            self._problem("response", "", Problem(None, None, pipe.overflow))
            return
        if self.left:
            return
        whole = Exchange(
            self.number,
            self.method,
            self.url,
            self.request or None,
            bytes(pipe.captured) or None,
            self.status,
            self.request_type,
            self.response_type,
        )
        read: dict[str, list[Frame]] = {}
        checked.reports = list(exchange_reports(self.url, whole, self.protocol, None, read))
        for report in checked.reports:
            side: Side = "request" if report.source.endswith(" request") else "response"
            if side == "response" or report.source.endswith(" exchange"):
                self._report("response", report)
        self.ledger.known(self.number, emitted_ids(whole.response, checked.reports, read.get("response")))

    def _live_format(self, pipe: Pipe) -> str | None:
        """``sse`` or ``eventstream`` when the response is a stream read as it arrives, else None."""
        if self.status is None or self.status >= 400:
            return None
        kind = self.response_type.split(";")[0].strip().lower()
        if kind == "text/event-stream":
            return "sse"
        if kind == CONTENT_TYPE:
            return "eventstream"
        return None

    def _stream(self, pipe: Pipe, fmt: str) -> None:
        """Feed the response to its monitor as it arrives; tell each finding at once."""
        frames = read_frames(pipe, lambda *_: None, fmt)  # type: ignore[arg-type]
        held: list[Frame] = []
        spec: Protocol | None = None
        monitor: Monitor | None = None
        index, told = 0, 0
        line: int | None = None
        for frame in frames:
            if monitor is None:
                held.append(frame)
                spec = self._decide(held, final=False)
                if spec is None:
                    if len(held) >= _DECIDE_AT[-1]:
                        # No protocol reads it: the final pass says so; nothing more is held.
                        for _ in frames:
                            pass
                        return
                    continue
                monitor = _fresh(spec, fmt)
                pending, held = held, []
            else:
                pending = [frame]
            for line, value, event in pending:
                monitor.feed(value, index, line, event)
                index += 1
            if len(monitor.findings) > told:
                self._new(monitor.protocol, monitor.findings[told:])
                told = len(monitor.findings)
        if monitor is None and held and (spec := self._decide(held, final=True)) is not None:
            monitor = _fresh(spec, fmt)
            index, line = monitor.consume(held)
        if monitor is None:
            return
        if pipe.overflow is not None and not pipe.gave_up and not self.left:
            # No final pass will judge the end, which was seen: the end-of-stream rules run here.
            monitor.finish(index, line)
        self._new(monitor.protocol, monitor.findings[told:])

    def _decide(self, held: list[Frame], *, final: bool) -> Protocol | None:
        events = [f for f in held if f[1] is not DONE]
        if not final and len(events) not in _DECIDE_AT:
            return None
        name = choose(detect(held, self.endpoint, "response", False), self.protocol)
        if name is None and not final and len(events) < _DECIDE_AT[-1]:
            return None
        return None if name is None else get_protocol(name)

    def _new(self, protocol: str, findings: list[Finding]) -> None:
        for finding in findings:
            if ("response", finding) not in self._told:
                self._told.add(("response", finding))
                self._emit(self._told_now("response", protocol, finding))

    def _report(self, side: Side, report: Report) -> None:
        for finding in report.findings:
            if (side, finding) not in self._told:
                self._told.add((side, finding))
                self._emit(self._told_now(side, report.protocol, finding))
        for problem in report.problems:
            self._problem(side, report.protocol, problem)

    def _problem(self, side: Side, protocol: str, problem: Problem) -> None:
        self._emit(self._told_now(side, protocol, problem=problem))

    def _told_now(
        self,
        side: Side,
        protocol: str,
        finding: Finding | None = None,
        *,
        problem: Problem | None = None,
        across: bool = False,
    ) -> LiveFinding:
        """A finding or a problem of this exchange, told now."""
        return LiveFinding(
            engine="proxy",
            exchange=self.number,
            time=time.time(),
            method=self.method,
            endpoint=self.endpoint,
            side=side,
            protocol=protocol,
            finding=finding,
            problem=problem,
            across=across,
        )

    def _emit(self, told: LiveFinding) -> None:
        # A consumer that fails must not stop the check of the rest.
        with contextlib.suppress(Exception):
            self._tell(told)

    def _across(self, report: Report) -> None:
        """Each tool result of the request answers a call some response through the proxy emitted."""
        wait = lambda: self.ledger.wait_earlier(self.number)  # noqa: E731
        for finding in self.ledger.unanswered(self.request, report, wait):
            self._emit(self._told_now("request", report.protocol, finding, across=True))


def _fresh(spec: Protocol, fmt: str) -> Monitor:
    """A monitor set as ``check`` sets one for a stream, so that its findings read the same."""
    monitor = spec.make()
    monitor.input_format = fmt
    monitor.keep_calls = False
    return monitor


def _session(protocol: str) -> bool:
    return bool(protocol) and get_protocol(protocol).shape == "stream"
