"""``toolwire check --jobs N``: files, and big JSON Lines logs cut at line boundaries, on N processes.

The unit of work is a :class:`Part`: a whole file, or a byte range of a big JSON Lines file that
starts just after a line end.  The parent never parses a part: it reads a file's head to decide
what the file is (and its protocol, when the check would detect it: detection runs once, here),
finds each cut with a short read past its offset, and counts the line ends before each cut (a
``bytes.count`` over the file, no decoding) so that each worker numbers its lines exactly.  Each
worker opens the file, reads its own range and checks it as ``--jobs 1`` would check those lines;
the parent puts the parts' findings back together in the order of the command line and of the
file, so the output is the one ``--jobs 1`` prints.

The pool is this module's own (spawned, or forked from a forkserver): each worker has a pipe of
its own and is handed a part when it is idle, the largest first, and runs the function the part
carries (a module-level function, pickled by reference: the pool names no job).  What a part gave
is an :data:`Outcome`: :class:`Ok` (its value), :class:`Usage` (its usage error), :class:`Died` (its
worker died: killed, out of memory; another worker takes the rest, never a lost run) or
:class:`Failed` (its check raised: a bug, with its traceback, which the caller hands on, never
prints).
"""

from __future__ import annotations

import contextlib
import os
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Final

from toolwire.engines._core._deaths import death_of
from toolwire.engines._core._sizes import READ_CHUNK

__all__ = [
    "BIG",
    "PART_MAX",
    "Died",
    "Failed",
    "Ok",
    "Outcome",
    "Part",
    "Range",
    "Usage",
    "count_lines",
    "cuts",
    "death_of",
    "default_jobs",
    "died",
    "failed",
    "line_end_after",
    "run_parts",
    "shifted",
]

#: A file bigger than this is worth a pool of its own (cut into parts when it can be).
BIG: Final = 8 << 20
#: A part's size: a quarter of a worker's share of what is left of the file, within these bounds:
#: the parts shrink towards the file's end (guided self-scheduling), so that the workers, given the
#: largest first, end together whatever their speed, with few parts.
PART_MIN: Final = 1 << 20
PART_MAX: Final = 64 << 20
#: A test's hook, read by the parent: a worker handed a part whose label (its path, and ``@start``
#: for a range) contains this variable's value dies at once (SIGKILL).
DIE_ON: Final = "TOOLWIRE_TEST_WORKER_DIES_ON"

#: benchmarks/bench_jobs.py's: a file the parent appends its workers' CPU seconds and peak RSS
#: (KiB) to, ``seconds:kib`` each.
CPU_TIMES: Final = "TOOLWIRE_JOBS_CPU_TIMES"


def default_jobs() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover (not Linux)
        return os.cpu_count() or 1


@dataclass(frozen=True, slots=True)
class Part:
    """One worker's unit: a whole file, or the bytes ``start``-``end`` of one (a ``kind`` that ends in
    ``range``), whose first line is line ``before + 1`` of the file; ``run`` checks it in a worker.

    ``kind`` names the part for what is said of it (and for tests); ``run`` is a module-level
    function (a worker imports its module, by reference), called with the part."""

    kind: str
    path: str
    size: int
    options: dict[str, Any] = field(default_factory=dict)
    start: int = 0
    end: int = -1
    before: int = 0
    #: The lines it holds (a range's), for what is said when its worker dies.
    lines: int = 0
    run: Callable[[Part], Any] = field(kw_only=True)

    @property
    def label(self) -> str:
        return f"{self.path}@{self.start}" if self.kind.endswith("range") else self.path


@dataclass(frozen=True, slots=True)
class Ok:
    """A part checked: what its ``run`` returned."""

    value: Any


@dataclass(frozen=True, slots=True)
class Usage:
    """A part whose check raised a :class:`~toolwire.errors.UsageError`: its message."""

    message: str


@dataclass(frozen=True, slots=True)
class Died:
    """A part whose worker died before it gave anything: why (:func:`death_of`)."""

    why: str


@dataclass(frozen=True, slots=True)
class Failed:
    """A part whose check raised (a bug in toolwire): its traceback, for the caller to hand on."""

    traceback: str


#: What a worker made of a part.
Outcome = Ok | Usage | Died | Failed


def run_parts(parts: Sequence[Part], jobs: int, preload: Sequence[str] = ()) -> list[Outcome]:
    """Each part's outcome, in the order of ``parts``, from ``jobs`` workers (the largest parts
    first).  The workers fork from a server that has imported, once, the modules of the parts'
    ``run`` functions and ``preload`` (modules they will import besides)."""
    from multiprocessing.connection import wait

    modules = dict.fromkeys([__name__, *(part.run.__module__ for part in parts), *preload])
    context = _context(list(modules))
    die_on = os.environ.get(DIE_ON)
    cpu: dict[int, tuple[float, int]] = {}
    pending = deque(sorted(range(len(parts)), key=lambda k: -parts[k].size))
    outcomes: list[Outcome | None] = [None] * len(parts)
    idle: list[tuple[Any, Any]] = []
    busy: dict[Any, tuple[Any, int]] = {}

    def start() -> tuple[Any, Any]:
        mine, theirs = context.Pipe()
        process = context.Process(target=_serve, args=(theirs,), daemon=True)
        process.start()
        theirs.close()
        return process, mine

    try:
        for _ in range(min(jobs, len(parts))):
            idle.append(start())
        while pending or busy:
            while idle and pending:
                process, conn = idle.pop()
                k = pending.popleft()
                try:
                    conn.send((parts[k], die_on))
                except OSError:  # it died idle: another takes the part
                    pending.appendleft(k)
                    process.join()
                    idle.append(start())
                    continue
                busy[conn] = (process, k)
            ready = set(wait([*busy, *(process.sentinel for process, _ in busy.values())]))
            for conn, (process, k) in list(busy.items()):
                if conn not in ready and process.sentinel not in ready:
                    continue
                del busy[conn]
                outcome: Outcome | None = None
                if conn.poll():
                    try:
                        outcome, seconds, kib = conn.recv()
                        cpu[process.pid] = (seconds, kib)
                    except (EOFError, OSError):
                        outcome = None
                if outcome is not None:
                    outcomes[k] = outcome
                    idle.append((process, conn))
                    continue
                process.join()
                conn.close()
                outcomes[k] = Died(death_of(process.exitcode))
                if pending:
                    idle.append(start())
    finally:
        for process, conn in [*idle, *busy.values()]:
            _stop(process, conn)
    if os.environ.get(CPU_TIMES):
        # For benchmarks/bench_jobs.py: each worker's CPU seconds (forked workers' own, from zero)
        # and peak RSS.
        with open(os.environ[CPU_TIMES], "a", encoding="utf-8") as out:
            out.write(" ".join(f"{seconds:.4f}:{kib}" for seconds, kib in cpu.values()) + "\n")
    return [outcome or Died("it was not run") for outcome in outcomes]


def _stop(process: Any, conn: Any) -> None:
    with contextlib.suppress(OSError):
        conn.send(None)
    conn.close()
    process.join(timeout=5)
    if process.is_alive():
        process.kill()
        process.join()


def _context(preload: Sequence[str]) -> Any:
    import multiprocessing

    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        # Forked from a server that has imported what a check needs, once.
        context.set_forkserver_preload(list(preload))
        return context
    return multiprocessing.get_context("spawn")  # pragma: no cover (not POSIX)


def _serve(conn: Any) -> None:
    """A worker: check each part the parent sends until it sends None."""
    import resource
    import signal
    import time
    import traceback

    from toolwire.errors import UsageError

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent says what Ctrl-C ends
    while True:
        try:
            sent = conn.recv()
        except (EOFError, OSError):
            return
        if sent is None:
            return
        part, die_on = sent
        if die_on and die_on in part.label:
            os.kill(os.getpid(), signal.SIGKILL)
        outcome: Outcome
        try:
            outcome = Ok(part.run(part))
        except UsageError as exc:
            outcome = Usage(str(exc))
        except Exception:  # a bug: said, with its traceback, as a problem of its part
            outcome = Failed(traceback.format_exc())
        try:
            conn.send((outcome, time.process_time(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
        except OSError:
            return


# --- cutting a file --------------------------------------------------------------------------------

_READ: Final = 1 << 20


def cuts(path: str, size: int, jobs: int, count: bool = True) -> list[tuple[int, int, int, int]]:
    """``path`` (of ``size`` bytes) cut just after line ends into parts of a quarter of a worker's
    share of what is left (see :data:`PART_MIN`): each part's (start, end, lines before it, its
    lines); without ``count``, the lines are left to the workers (0 and 0: a seek and a short read
    per cut)."""
    out: list[tuple[int, int, int, int]] = []
    with open(path, "rb") as raw:
        start = 0
        before = 0
        while start < size:
            share = min(max((size - start) // (4 * jobs), PART_MIN), PART_MAX)
            end = _line_end_after(raw, start + share) if start + share < size else size
            lines = _count_lines(raw, start, end) if count else 0
            out.append((start, end, before, lines))
            before += lines
            start = end
    return out


def line_end_after(path: str, offset: int) -> int:
    """The offset just past the first LF at or after ``offset`` in the file ``path``."""
    with open(path, "rb") as raw:
        return _line_end_after(raw, offset)


def _line_end_after(raw: BinaryIO, offset: int) -> int:
    """The offset just past the first LF at or after ``offset`` (the file's end when none)."""
    raw.seek(offset)
    position = offset
    while chunk := raw.read(READ_CHUNK):
        found = chunk.find(b"\n")
        if found >= 0:
            return position + found + 1
        position += len(chunk)
    return position


def count_lines(path: str, start: int, end: int) -> int:
    """The line ends in bytes ``start``-``end`` of the file ``path`` (see :func:`_count_lines`)."""
    with open(path, "rb") as raw:
        return _count_lines(raw, start, end)


def _count_lines(raw: BinaryIO, start: int, end: int) -> int:
    """The line ends in bytes ``start``-``end`` as the readers count them (LF, CRLF or CR)."""
    raw.seek(start)
    left = end - start
    count = 0
    while left > 0:
        chunk = raw.read(min(_READ, left))
        if not chunk:
            break
        left -= len(chunk)
        if chunk.endswith(b"\r") and left > 0:
            more = raw.read(1)
            left -= len(more)
            chunk += more
        count += chunk.count(b"\n")
        if b"\r" in chunk:
            count += chunk.count(b"\r") - chunk.count(b"\r\n")
    return count


def shifted(frames: Iterator[Any], before: int) -> Iterator[Any]:
    """``frames`` of a part numbered as lines of the whole file (``before`` lines precede it)."""
    for line, value, event in frames:
        yield (None if line is None else line + before), value, event


class Range:
    """Bytes ``start``-``end`` of an open file, read as a stream of their own."""

    def __init__(self, raw: BinaryIO, start: int, end: int) -> None:
        raw.seek(start)
        self._raw = raw
        self._left = end - start

    def read(self, size: int = -1) -> bytes:
        if self._left <= 0:
            return b""
        size = self._left if size is None or size < 0 else min(size, self._left)
        data = self._raw.read(size)
        self._left -= len(data)
        return data


def died(part: Part, why: str) -> str:
    """What is said of a part whose worker died."""
    if part.kind.endswith("range"):
        last = part.before + part.lines
        return f"lines {part.before + 1}-{last} were not checked: the worker checking them died ({why})"
    return f"{part.path} was not checked: the worker checking it died ({why})"


def failed(part: Part, text: str) -> str:
    """What is said of a part whose check raised (a bug in toolwire), from its traceback ``text``
    (the caller hands the traceback itself on, as an event)."""
    last = text.strip().splitlines()[-1] if text.strip() else "an error"
    where = f"lines {part.before + 1}-{part.before + part.lines}" if part.kind.endswith("range") else "it"
    return f"checking {where} failed: {last}"
