"""toolwire's checks inside mitmproxy: ``mitmdump -s $(toolwire proxy --mitmproxy-addon-path)``.

For users who already run mitmproxy, including its HTTPS interception of an
application that cannot change its base URL.  Every flow is checked as
``toolwire proxy`` checks an exchange (:mod:`toolwire.engines.proxy._checker`): the
request when it is read, the response as it streams (the addon turns
mitmproxy's streaming on for event streams and passes each chunk on
unchanged), the whole exchange when it ends.  Findings print one a line as
they happen; ``--set toolwire_report=FILE`` writes them as JSON Lines,
``--set toolwire_record=FILE.har`` (or ``.yaml``) records the exchanges, and
credentials are redacted from all of it.  The summary prints when mitmproxy stops.

Options (``--set NAME=VALUE``): ``toolwire_report``, ``toolwire_record``,
``toolwire_protocol`` (comma-separated, as ``-p``), ``toolwire_format`` (``text`` or ``json``),
``toolwire_strict`` (``true``: as ``--strict``, a warning fails the run; mitmdump's own exit code
is mitmproxy's, so the summary, and its JSON ``exit_code``, say so).
Needs ``pip install 'toolwire[mitmproxy]'`` (or mitmproxy and toolwire in one environment).
"""

from __future__ import annotations

import threading
from typing import Any

from toolwire.cli.handlers._proxy import ProxyOutputs
from toolwire.engines._core._events import ExchangeChecked, LiveFinding
from toolwire.engines.proxy import Checked, ExchangeChecker, LiveConversations, ProxyTotals, record_of

__all__ = ["ToolwireAddon", "addons"]

#: Response types streamed through as they arrive (everything else mitmproxy may buffer whole).
_STREAMED = ("text/event-stream", "application/vnd.amazon.eventstream")


class ToolwireAddon:
    """The mitmproxy addon: an :class:`ExchangeChecker` per flow, its events handed to the outputs
    ``toolwire proxy`` has (:class:`~toolwire.cli.handlers._proxy.ProxyOutputs`)."""

    def __init__(self) -> None:
        self.tally = ProxyTotals()
        self.ledger = LiveConversations()
        self._count = 0
        self._lock = threading.Lock()
        self._outputs = ProxyOutputs()
        self._protocols: tuple[str, ...] = ()
        self._checkers: dict[int, ExchangeChecker] = {}
        self._options: Any = None

    def load(self, loader: Any) -> None:
        """Declare the addon's options."""
        loader.add_option("toolwire_report", str, "", "write toolwire's findings to FILE as JSON Lines")
        loader.add_option("toolwire_record", str, "", "record the exchanges as FILE.har or FILE.yaml")
        loader.add_option("toolwire_protocol", str, "", "comma-separated protocols to check parts as")
        loader.add_option("toolwire_format", str, "text", "text or json lines for each finding")
        loader.add_option("toolwire_strict", bool, False, "fail on warnings too, as toolwire proxy --strict")
        self._options = loader.master.options

    def configure(self, updated: set[str]) -> None:
        """Open the report and the record named by the options."""
        options = self._options
        if "toolwire_report" in updated and options.toolwire_report:
            self._outputs.report_to(options.toolwire_report)
        if "toolwire_record" in updated and options.toolwire_record:
            self._outputs.record_to(options.toolwire_record)
        if "toolwire_protocol" in updated:
            self._protocols = tuple(p.strip() for p in options.toolwire_protocol.split(",") if p.strip())
            from toolwire.protocols import get_protocol

            for name in self._protocols:
                get_protocol(name)
        if "toolwire_format" in updated:
            self._outputs.fmt = options.toolwire_format
        if "toolwire_strict" in updated:
            self.tally.strict = bool(options.toolwire_strict)

    def _tell(self, told: LiveFinding) -> None:
        self.tally.add(told)
        self._outputs(told)

    def _done(self, checked: Checked, checker: ExchangeChecker) -> None:
        self._checkers.pop(checked.exchange, None)
        recording = record_of(checker) if self._outputs.recorder is not None else None
        self._outputs(ExchangeChecked(engine="proxy", exchange=checked.exchange, recording=recording))

    def request(self, flow: Any) -> None:
        """The request was read whole: check it (in the flow's own checker thread)."""
        with self._lock:
            self._count += 1
            number = self._count
        with self.tally.lock:
            self.tally.exchanges += 1
        request = flow.request
        body = request.get_content(strict=False) or b""
        checker = ExchangeChecker(
            number,
            request.method,
            request.url,
            body,
            request.headers.get("content-type", ""),
            self._protocols or None,
            self.ledger,
            self._tell,
            lambda checked: self._done(checked, checker),
        )
        checker.request_headers = list(request.headers.items(multi=True))
        self._checkers[number] = checker
        flow.metadata["toolwire"] = checker

    def responseheaders(self, flow: Any) -> None:
        """The response began: stream event streams through, each chunk to the checker after."""
        checker: ExchangeChecker | None = flow.metadata.get("toolwire")
        if checker is None:
            return
        response = flow.response
        kind = response.headers.get("content-type", "")
        pipe = checker.responded(response.status_code, kind, response.headers.get("content-encoding", ""))
        checker.response_headers = list(response.headers.items(multi=True))
        if kind.split(";")[0].strip().lower() in _STREAMED:

            def passed(chunk: bytes) -> bytes:
                if chunk:
                    pipe.write(chunk)
                else:
                    pipe.close()  # mitmproxy calls with b"" at the end of the body
                return chunk

            response.stream = passed

    def response(self, flow: Any) -> None:
        """The response ended; a buffered body goes to the checker whole."""
        checker: ExchangeChecker | None = flow.metadata.get("toolwire")
        if checker is None or checker.response is None:
            return
        if not flow.response.stream:
            checker.response.write(flow.response.raw_content or b"")
        checker.response.close()

    def error(self, flow: Any) -> None:
        """The flow broke (the upstream or the client went away)."""
        checker: ExchangeChecker | None = flow.metadata.get("toolwire")
        if checker is not None:
            checker.failed(f"the flow broke: {flow.error}")

    def done(self) -> None:
        """mitmproxy stops: wait for the checks, print the summary, close the files."""
        for checker in list(self._checkers.values()):
            checker.join(5)
            if checker.response is not None:
                # A flow mitmproxy never ended: its response is judged as far as it came.
                checker.failed("mitmproxy stopped before the response ended")
            checker.join(25)
        self._outputs.close(self.tally)


addons = [ToolwireAddon()]
