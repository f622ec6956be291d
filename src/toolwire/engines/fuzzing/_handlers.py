"""Handlers of engine events: save counterexamples, show progress, print the report.

:func:`~toolwire.engines.fuzz` and :func:`~toolwire.engines.explore` wire a
:class:`SaveCounterexamples` when asked for an ``out`` folder; the CLI adds
:class:`ShowProgress` and :class:`PrintReport`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from toolwire.engines._core._events import EngineEvent, FindingFound, FindingShrunk, Finished, Progress
from toolwire.engines.fuzzing._counterexample import file_name, save

__all__ = ["PrintReport", "SaveCounterexamples", "ShowProgress"]


class SaveCounterexamples:
    """Save each finding's example as it is found, and again (replacing it) each time it shrinks.

    The folder is fixed when the handler is made: a target that changes the working folder
    changes neither where files go nor the paths reported (``shown`` as given, or absolute
    with ``resolve``).  At the end the run learns where each finding is saved.
    """

    def __init__(self, out: str | os.PathLike[str], *, resolve: bool = True) -> None:
        self.folder = Path(out).resolve()
        self.shown = self.folder if resolve else Path(out)
        #: Where each finding's example is saved now, as reported.
        self.saved: dict[str, Path] = {}
        #: The files this handler made (not there before): the only ones it may delete.
        self.made: set[str] = set()

    def __call__(self, event: EngineEvent) -> None:
        """Save on a finding or a shrink; tell the run its files when it finishes."""
        if isinstance(event, FindingFound | FindingShrunk):
            found = event.counterexample
            name = file_name(found)
            if not (self.folder / name).exists():
                self.made.add(name)
            path = self.shown / save(found, self.folder).name
            previous = self.saved.get(found.finding)
            self.saved[found.finding] = path
            # A smaller example replaces the one before, unless another campaign saved that same
            # file too (same target, same example): it is that campaign's result as well.
            if previous is not None and previous != path and previous.name in self.made:
                (self.folder / previous.name).unlink(missing_ok=True)
                (self.folder / previous.name).with_suffix(".har").unlink(missing_ok=True)
        elif isinstance(event, Finished):
            event.run.record_saved(self.saved)


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
