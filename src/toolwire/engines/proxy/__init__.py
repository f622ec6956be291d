"""``toolwire proxy``: a live proxy that forwards every byte unchanged and checks a copy of each
exchange, in a process of its own; it reports as events (``LiveFinding``, ``ExchangeChecked``),
which the CLI's handlers print, write to the report and record.  With ``repair`` (``--repair``,
:class:`RequestRepair`) each request's history is repaired on its way upstream.
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
    "LiveConversations",
    "Pipe",
    "Proxy",
    "ProxyTotals",
    "Recording",
    "RemoteChecker",
    "Repaired",
    "RequestRepair",
    "cassette_item",
    "har_entry",
    "har_of",
    "is_loopback",
    "parse_listen",
    "record_of",
    "serve",
    "unreadable",
]

if TYPE_CHECKING:
    from toolwire.engines.proxy._checker import Checked, ExchangeChecker, LiveConversations
    from toolwire.engines.proxy._isolation import MAX_QUEUED, Isolated, RemoteChecker
    from toolwire.engines.proxy._pipe import MAX_BEHIND, MAX_BODY, Pipe
    from toolwire.engines.proxy._record import Recording, cassette_item, har_entry, har_of, record_of
    from toolwire.engines.proxy._repairing import Repaired, RequestRepair
    from toolwire.engines.proxy._server import Proxy, is_loopback, parse_listen, serve
    from toolwire.engines.proxy._totals import ProxyTotals, unreadable
    from toolwire.engines.proxy._upstream import AiohttpTransport

# Each loads on first use: a check imports none of what it does not run.
_LAZY = {
    **dict.fromkeys(("Checked", "ExchangeChecker", "LiveConversations"), "toolwire.engines.proxy._checker"),
    **dict.fromkeys(("Isolated", "MAX_QUEUED", "RemoteChecker"), "toolwire.engines.proxy._isolation"),
    **dict.fromkeys(("MAX_BEHIND", "MAX_BODY", "Pipe"), "toolwire.engines.proxy._pipe"),
    **dict.fromkeys(
        ("Recording", "cassette_item", "har_entry", "har_of", "record_of"), "toolwire.engines.proxy._record"
    ),
    **dict.fromkeys(("Repaired", "RequestRepair"), "toolwire.engines.proxy._repairing"),
    **dict.fromkeys(("Proxy", "is_loopback", "parse_listen", "serve"), "toolwire.engines.proxy._server"),
    **dict.fromkeys(("ProxyTotals", "unreadable"), "toolwire.engines.proxy._totals"),
    **dict.fromkeys(("AiohttpTransport",), "toolwire.engines.proxy._upstream"),
}

__getattr__ = lazy(__name__, _LAZY, globals())
