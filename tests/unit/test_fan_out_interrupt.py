"""A fan-out's gathering under Ctrl-C: a first Ctrl-C waits for each worker's run; a second one
stops waiting and says which workers it stopped (the CLI then prints the report and exits 130)."""

from __future__ import annotations

import time
from typing import Any

from toolwire.engines.fuzzing._workers import _gather


class _Interrupted:
    """An event queue read while Ctrl-C is pressed, again and again: every wait is interrupted."""

    def __init__(self) -> None:
        self.waits = 0

    def get(self, timeout: float) -> Any:
        self.waits += 1
        raise KeyboardInterrupt

    def empty(self) -> bool:
        return True


class _Busy:
    """A worker that never stops: it does not answer Ctrl-C (stuck in a call)."""

    exitcode = None

    def is_alive(self) -> bool:
        return True


def test_a_second_ctrl_c_stops_waiting_for_workers_that_do_not_stop() -> None:
    events = _Interrupted()
    gathered = _gather([_Busy(), _Busy()], events, lambda event: None, time.monotonic())
    assert events.waits == 2  # the first Ctrl-C waits on; the second ends the gathering
    assert gathered.stopped and gathered.runs == [None, None] and gathered.found == []
    assert [lost.split(" was ")[0] for lost in gathered.lost] == ["fuzz worker 0", "fuzz worker 1"]
    assert all("stopped by a second Ctrl-C before it sent its result" in lost for lost in gathered.lost)
