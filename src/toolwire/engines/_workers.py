"""``fuzz --workers N``: N campaigns in processes of their own, their events gathered here.

Each worker runs an ordinary campaign (:func:`~toolwire.engines._fuzz.fuzz_with`) with its own
seed, sharing one example database, and sends its events back on a queue; this process passes
them on to the handlers (each finding's smallest example only, whatever the order they arrive
in) and merges the workers' runs (:meth:`FuzzRun.merge`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import queue
import tempfile
import time
from collections.abc import Callable
from typing import Any

from toolwire.engines._counterexample import Counterexample, smaller
from toolwire.engines._events import (
    EngineEvent,
    FindingFound,
    FindingShrunk,
    Finished,
    Handler,
    Progress,
    Started,
)
from toolwire.engines._fuzz import FuzzRun, fuzz_with
from toolwire.engines._options import FuzzOptions
from toolwire.engines._targets import Target
from toolwire.errors import UsageError

__all__ = ["fan_out"]


def fan_out(target: str | Callable[..., Any] | Target, options: FuzzOptions, emit: Handler) -> FuzzRun:
    """``options.workers`` campaigns in processes of their own, different seeds, one database.

    The workers send their events here, where each finding's smallest example (:func:`smaller`,
    whatever the order the workers find them in) is reported on; their runs are merged.
    """
    if not isinstance(target, str):
        raise UsageError("--workers needs a target named by module:function, a file, or a command")
    started = time.monotonic()
    emit(Started(engine="fuzz", target=target, source=options.source, destination=options.destination))
    per = -(-options.limit // options.workers)
    context = multiprocessing.get_context("spawn")
    events: Any = context.Queue()
    with contextlib.ExitStack() as stack:
        database = options.database or stack.enter_context(tempfile.TemporaryDirectory(prefix="toolwire-db-"))
        jobs = [
            dataclasses.replace(
                options, max_examples=per, seed=options.seed + 7919 * k, workers=1, database=database
            )
            for k in range(options.workers)
        ]
        processes = [
            context.Process(target=_worker, args=(k, target, job, events), daemon=True)
            for k, job in enumerate(jobs)
        ]
        for process in processes:
            process.start()
        try:
            runs = _gather(processes, events, emit, started)
        finally:
            for process in processes:
                process.join(5)
                if process.is_alive():
                    process.kill()
    merged = runs[0]
    for run in runs[1:]:
        merged = merged.merge(run)
    merged = dataclasses.replace(
        merged,
        max_examples=options.limit,
        seed=options.seed,
        seconds=time.monotonic() - started,
        saved={},
    )
    emit(Finished(engine="fuzz", run=merged))
    return merged


def _gather(processes: list[Any], events: Any, emit: Handler, started: float) -> list[FuzzRun]:
    """The workers' runs, in worker order; their findings and progress passed on as they come."""
    runs: dict[int, FuzzRun] = {}
    best: dict[str, Counterexample] = {}
    progress: dict[int, Progress] = {}
    interrupted = False
    while len(runs) < len(processes):
        try:
            number, event = events.get(timeout=0.5)
        except queue.Empty:
            dead = [n for n, p in enumerate(processes) if n not in runs and not p.is_alive()]
            if dead and events.empty():
                code = processes[dead[0]].exitcode
                raise UsageError(
                    f"fuzz worker {dead[0]} ended without a result (exit status {code})"
                ) from None
            continue
        except KeyboardInterrupt:
            # Ctrl-C reached the workers too: each stops and sends what it found.
            if interrupted:
                raise
            interrupted = True
            continue
        if isinstance(event, UsageError):
            raise event
        if isinstance(event, Finished):
            assert isinstance(event.run, FuzzRun)
            runs[number] = event.run
        elif isinstance(event, FindingFound | FindingShrunk):
            found = event.counterexample
            current = best.get(found.finding)
            if smaller(found, current):
                best[found.finding] = found
                kind = FindingFound if current is None else FindingShrunk
                emit(kind(engine="fuzz", counterexample=found))
        elif isinstance(event, Progress):
            progress[number] = event
            emit(
                Progress(
                    engine="fuzz",
                    done=sum(p.done for p in progress.values()),
                    findings=len(best),
                    elapsed=time.monotonic() - started,
                    left=event.left,
                    coverage=event.coverage,
                )
            )
    return [runs[n] for n in range(len(processes))]


def _worker(number: int, target: str, options: FuzzOptions, events: Any) -> None:
    """Campaign ``number`` of a fan-out, in a process of its own: its events go back on ``events``."""

    def send(event: EngineEvent) -> None:
        if not isinstance(event, Started):
            events.put((number, event))

    try:
        fuzz_with(target, options, [send])
    except UsageError as exc:
        events.put((number, exc))
