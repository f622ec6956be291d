"""The CLI's handlers: everything that prints or writes what the engines return or report.

Text, JSON and JUnit reports (``_check``, ``_fuzz``, ``_explore``), a run's progress line and
report (``_events``), and the live proxy's outputs: its findings one a line, the JSON Lines
report, the HAR or cassette record, the summary (``_proxy``, ``_record``).  The integrations
(``toolwire.mitmproxy_addon``) are built from these too.  Each loads on first use.
"""

from typing import TYPE_CHECKING

from toolwire._lazy import lazy

__all__ = ["PrintReport", "ShowProgress"]

if TYPE_CHECKING:
    from toolwire.cli.handlers._events import PrintReport, ShowProgress

_LAZY = dict.fromkeys(("PrintReport", "ShowProgress"), "toolwire.cli.handlers._events")

__getattr__ = lazy(__name__, _LAZY, globals())
