"""``toolwire proxy`` end to end: serve, print each finding as it is told, write the report and the
record, and print the summary when SIGINT or SIGTERM stops it."""

from __future__ import annotations

import asyncio
import sys
import threading
from typing import IO

from toolwire.engines._core._redact import redact_url
from toolwire.engines.proxy._checker import Told
from toolwire.engines.proxy._record import Recorder
from toolwire.engines.proxy._report import JsonLines, render_summary, render_told
from toolwire.engines.proxy._server import Proxy, is_loopback, parse_listen, serve
from toolwire.errors import UsageError

__all__ = ["run_proxy"]


def run_proxy(
    upstream: str,
    listen: str,
    *,
    protocols: tuple[str, ...] = (),
    report: str | None = None,
    record: str | None = None,
    fmt: str = "text",
    out: IO[str] | None = None,
) -> int:
    """Serve until interrupted; returns the exit code (1 when a rule was broken, else 0)."""
    stream = out or sys.stdout
    host, port = parse_listen(listen)
    lock = threading.Lock()
    jsonl: JsonLines | None = None
    if report is not None:
        try:
            jsonl = JsonLines(open(report, "wb"))  # noqa: SIM115 - open while serving
        except OSError as exc:
            raise UsageError(f"cannot write {report}: {exc.strerror}") from None
    recorder = Recorder(record) if record is not None else None

    def say(line: str) -> None:
        with lock:
            print(line, file=stream, flush=True)

    def tell(told: Told) -> None:
        if jsonl is not None:
            jsonl.write(told)
        if told.finding is not None or told.problem is not None:
            say(render_told(told, fmt))

    # The checks run in a process of their own: forwarding never waits for them (nor for the GIL).
    recorded = recorder.add if recorder is not None else None
    proxy = Proxy(upstream, protocols=protocols, tell=tell, recorded=recorded, isolate=True)

    def started(address: str) -> None:
        if fmt == "json":
            import orjson

            say(orjson.dumps({"listening": address, "upstream": redact_url(upstream)}).decode())
        else:
            say(f"toolwire proxy: listening on {address}, forwarding to {redact_url(upstream)}")
        if not is_loopback(host):
            print(
                f"toolwire proxy: listening on {host}, not loopback: anyone who reaches it can use "
                "your upstream",
                file=sys.stderr,
            )

    try:
        asyncio.run(serve(proxy, host, port, started=started))
    finally:
        say(render_summary(proxy.tally, fmt))
        if jsonl is not None:
            jsonl.close()
        if recorder is not None:
            recorder.close()
    return proxy.tally.exit_code
