"""``--workers``: campaigns in processes of their own, different seeds, one database, their runs merged."""

from __future__ import annotations

import contextlib
import dataclasses
import queue
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from toolwire.engines._core._deaths import death_of
from toolwire.engines._core._events import (
    EngineEvent,
    FindingFound,
    FindingShrunk,
    Finished,
    Handler,
    Progress,
    Started,
)
from toolwire.engines.fuzzing._counterexample import Counterexample, smaller
from toolwire.engines.fuzzing._options import FuzzOptions
from toolwire.engines.fuzzing._run import FuzzRun, _ordered
from toolwire.engines.fuzzing._targets import Target, TargetRecipe
from toolwire.errors import UsageError

__all__: list[str] = []

#: How a worker runs its campaign (``fuzz_with``, handed in by reference: it is picklable by name).
Runner = Callable[[str | TargetRecipe, FuzzOptions, Sequence[Handler]], FuzzRun]


def _fan_out(
    target: str | Callable[..., Any] | Target | TargetRecipe,
    options: FuzzOptions,
    emit: Handler,
    runner: Runner,
) -> FuzzRun:
    """``options.workers`` campaigns (``runner``) in processes of their own, different seeds, one database.

    The workers send their events here, where each finding's smallest example (:func:`smaller`,
    whatever the order the workers find them in) is reported on; their runs are merged.
    """
    if not isinstance(target, str | Target):
        raise UsageError("--workers needs a target named by module:function, a file, a command or a URL")
    import multiprocessing

    started = time.monotonic()
    name = target if isinstance(target, str) else target.name
    emit(Started(engine="fuzz", target=name, source=options.source, destination=options.destination))
    per = -(-options.limit // options.workers)
    context = multiprocessing.get_context("spawn")
    events: Any = context.Queue()
    with contextlib.ExitStack() as stack:
        database = options.database or stack.enter_context(tempfile.TemporaryDirectory(prefix="toolwire-db-"))
        # A target object (a gateway) spreads as recipes its workers build their copies from.
        specs: Sequence[str | TargetRecipe] = (
            stack.enter_context(target.spread(options.workers))
            if isinstance(target, Target)
            else [target] * options.workers
        )
        jobs = [
            dataclasses.replace(
                options, max_examples=per, seed=options.seed + 7919 * k, workers=1, database=database
            )
            for k in range(options.workers)
        ]
        processes = [
            context.Process(target=_worker, args=(k, specs[k], job, events, runner), daemon=True)
            for k, job in enumerate(jobs)
        ]
        for process in processes:
            process.start()
        try:
            gathered = _gather(processes, events, emit, started)
        finally:
            for process in processes:
                process.join(5)
                if process.is_alive():
                    process.kill()
    runs = [run for run in gathered.runs if run is not None]
    if not runs and gathered.stopped:
        # Stopped before any worker sent its run: the report is of an interrupted campaign.
        o = options
        empty = FuzzRun(name, o.source, o.destination, o.limit, o.seed, o.quirks)
        runs = [dataclasses.replace(empty, mutate=options.mutate, interrupted=True, stopped="interrupted")]
    if not runs:
        raise UsageError("; ".join(gathered.lost))
    merged = runs[0]
    for run in runs[1:]:
        merged = merged.merge(run)
    # A lost worker's findings reached the handlers as it found them: the run keeps them too.
    best = {found.finding: found for found in merged.counterexamples}
    for found in gathered.found:
        if smaller(found, best.get(found.finding)):
            best[found.finding] = found
    merged = dataclasses.replace(
        merged,
        max_examples=options.limit,
        seed=options.seed,
        seconds=time.monotonic() - started,
        saved={},
        counterexamples=_ordered(best.values()),
        problems=merged.problems + tuple(gathered.lost),
    )
    emit(Finished(engine="fuzz", run=merged))
    return merged


@dataclass(frozen=True, slots=True)
class _Gathered:
    """What the workers of a fan-out sent: each one's run (None for a worker that died without
    one), why each lost worker is lost, and the smallest example of every finding any of them sent."""

    runs: list[FuzzRun | None]
    lost: list[str]
    found: list[Counterexample]
    #: A second Ctrl-C stopped the gathering before every worker sent its run.
    stopped: bool = False


def _gather(processes: list[Any], events: Any, emit: Handler, started: float) -> _Gathered:
    """The workers' runs, in worker order; their findings and progress passed on as they come.

    A worker that dies is a problem of its own part: the others run on, and what it sent is kept.
    """
    runs: dict[int, FuzzRun] = {}
    lost: dict[int, str] = {}
    best: dict[str, Counterexample] = {}
    progress: dict[int, Progress] = {}
    interrupted = stopped = False
    #: When each worker was first seen dead without its run (its last events may still be queued).
    dead_since: dict[int, float] = {}
    while len(runs) + len(lost) < len(processes):
        try:
            # A worker that died is noticed even while the others keep the queue busy.
            now = time.monotonic()
            for n, process in enumerate(processes):
                if n not in runs and not process.is_alive():
                    dead_since.setdefault(n, now)
            for n, since in dead_since.items():
                if n not in runs and n not in lost and now - since > 2.0:
                    lost[n] = _lost(n, processes[n])
            if len(runs) + len(lost) == len(processes):
                break
            number, event = events.get(timeout=0.5)
        except queue.Empty:
            if events.empty():
                for n, process in enumerate(processes):
                    if n not in runs and n not in lost and not process.is_alive():
                        lost[n] = _lost(n, process)
            continue
        except KeyboardInterrupt:
            # Ctrl-C reached the workers too: each stops and sends what it found.
            if interrupted:
                # A second Ctrl-C: wait no more. The workers that have not sent their run are
                # stopped as the fan-out ends; the report says so and keeps what they sent.
                for n in range(len(processes)):
                    if n not in runs and n not in lost:
                        lost[n] = (
                            f"fuzz worker {n} was stopped by a second Ctrl-C before it sent its result; "
                            "the findings it sent before are kept, its examples are not counted"
                        )
                stopped = True
                break
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
    return _Gathered(
        runs=[runs.get(n) for n in range(len(processes))],
        lost=[lost[n] for n in sorted(lost)],
        found=list(best.values()),
        stopped=stopped,
    )


def _lost(number: int, process: Any) -> str:
    return (
        f"fuzz worker {number} ended without a result ({death_of(process.exitcode)}); "
        "the findings it sent before are kept, its examples are not counted"
    )


def _worker(
    number: int, target: str | TargetRecipe, options: FuzzOptions, events: Any, runner: Runner
) -> None:
    """Campaign ``number`` of a fan-out, in a process of its own: its events go back on ``events``."""

    def send(event: EngineEvent) -> None:
        if not isinstance(event, Started):
            events.put((number, event))

    try:
        runner(target, options, [send])
    except UsageError as exc:
        events.put((number, exc))
