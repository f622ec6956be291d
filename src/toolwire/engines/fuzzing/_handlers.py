"""The engine's own handler of its events: save each finding's counterexample as it is found.

:func:`~toolwire.engines.fuzz` and :func:`~toolwire.engines.explore` wire a
:class:`SaveCounterexamples` when asked for an ``out`` folder (it renders nothing); the handlers
that show progress and print the report are the CLI's (:mod:`toolwire.cli.handlers`).
"""

from __future__ import annotations

import os
from pathlib import Path

from toolwire.engines._core._events import EngineEvent, FindingFound, FindingShrunk, Finished
from toolwire.engines.fuzzing._counterexample import file_name, save

__all__ = ["SaveCounterexamples"]


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
