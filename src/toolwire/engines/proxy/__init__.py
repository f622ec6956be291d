"""``toolwire proxy``: a live proxy that forwards every byte unchanged and checks a copy of each
exchange, in a process of its own, with its record and report.
"""

from typing import TYPE_CHECKING

from toolwire._lazy import lazy

__all__ = [
    "MAX_BEHIND",
    "MAX_BODY",
    "MAX_QUEUED",
    "AiohttpTransport",
    "Checked",
    "ExchangeChecker",
    "Isolated",
    "JsonLines",
    "Ledger",
    "Pipe",
    "Proxy",
    "Recorder",
    "Recording",
    "RemoteChecker",
    "Tally",
    "Told",
    "har_of",
    "is_loopback",
    "parse_listen",
    "record_of",
    "render_summary",
    "render_told",
    "run_proxy",
    "serve",
    "told_json",
    "unreadable",
]

if TYPE_CHECKING:
    from toolwire.engines.proxy._checker import Checked, ExchangeChecker, Ledger, Told
    from toolwire.engines.proxy._isolation import MAX_QUEUED, Isolated, RemoteChecker
    from toolwire.engines.proxy._main import run_proxy
    from toolwire.engines.proxy._pipe import MAX_BEHIND, MAX_BODY, Pipe
    from toolwire.engines.proxy._record import Recorder, Recording, har_of, record_of
    from toolwire.engines.proxy._report import (
        JsonLines,
        Tally,
        render_summary,
        render_told,
        told_json,
        unreadable,
    )
    from toolwire.engines.proxy._server import Proxy, is_loopback, parse_listen, serve
    from toolwire.engines.proxy._upstream import AiohttpTransport

# Each loads on first use: a check imports none of what it does not run.
_LAZY = {
    **dict.fromkeys(("Checked", "ExchangeChecker", "Ledger", "Told"), "toolwire.engines.proxy._checker"),
    **dict.fromkeys(("Isolated", "MAX_QUEUED", "RemoteChecker"), "toolwire.engines.proxy._isolation"),
    **dict.fromkeys(("run_proxy",), "toolwire.engines.proxy._main"),
    **dict.fromkeys(("MAX_BEHIND", "MAX_BODY", "Pipe"), "toolwire.engines.proxy._pipe"),
    **dict.fromkeys(("Recorder", "Recording", "har_of", "record_of"), "toolwire.engines.proxy._record"),
    **dict.fromkeys(
        ("JsonLines", "Tally", "render_summary", "render_told", "told_json", "unreadable"),
        "toolwire.engines.proxy._report",
    ),
    **dict.fromkeys(("Proxy", "is_loopback", "parse_listen", "serve"), "toolwire.engines.proxy._server"),
    **dict.fromkeys(("AiohttpTransport",), "toolwire.engines.proxy._upstream"),
}

__getattr__ = lazy(__name__, _LAZY, globals())
