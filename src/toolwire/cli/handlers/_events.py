"""Handlers of a run's events that show it: progress while it runs, the report when it ends.

The engines (:func:`~toolwire.engines.fuzz`, :func:`~toolwire.engines.explore`) print nothing:
``toolwire fuzz`` and ``explore`` hand these their events, after the engine's own
:class:`~toolwire.engines.fuzzing.SaveCounterexamples`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

from toolwire.engines._core._events import EngineEvent, Finished, Progress

__all__ = ["PrintReport", "ShowProgress"]


class ShowProgress:
    """Progress on a stream (standard error) once a run takes longer than a few seconds.

    On a terminal, a live line (rich) redrawn in place; otherwise a plain line every ten seconds.
    """

    def __init__(self, stream: TextIO | None = None, after: float = 3.0) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.after = after
        self.last = 0.0
        self.live: Any = None
        self.tty = self.stream.isatty()

    def __call__(self, event: EngineEvent) -> None:
        """Show a progress line now and then; take the live line down at the end."""
        if isinstance(event, Progress):
            self._show(event)
        elif isinstance(event, Finished) and self.live is not None:
            self.live.stop()
            self.live = None

    def _show(self, event: Progress) -> None:
        elapsed = event.elapsed
        if elapsed < self.after or elapsed - self.last < (0.25 if self.tty else 10.0):
            return
        self.last = elapsed
        rate = event.done / elapsed if elapsed else 0.0
        noun = "examples" if event.engine == "fuzz" else "traces"
        line = f"{event.engine}: {event.done} {noun} ({rate:.0f}/s), {event.findings} distinct finding(s)"
        if event.coverage is not None:
            line += f", coverage {event.coverage:.0%}"
        line += f", {elapsed:.0f} s"
        if event.left is not None:
            line += f", {max(0.0, event.left):.0f} s left"
        if not self.tty:
            self.stream.write(f"{line}\n")
            self.stream.flush()
            return
        if self.live is None:
            from rich.console import Console
            from rich.live import Live

            self.live = Live(console=Console(file=self.stream), transient=True, auto_refresh=False)
            self.live.start()
        self.live.update(line, refresh=True)


class PrintReport:
    """Print the finished run as ``render`` renders it (text, JSON or JUnit) on standard output."""

    def __init__(self, render: Callable[[Any], str], stream: TextIO | None = None) -> None:
        self.render, self.stream = render, stream

    def __call__(self, event: EngineEvent) -> None:
        """Print the report when the run finishes."""
        if isinstance(event, Finished):
            print(self.render(event.run), file=self.stream if self.stream is not None else sys.stdout)
