"""Parallel plans: a log check on a pool of processes, with the reports of a check in one process.

Ungrouped logs (no ``--group-by``, no joined batch halves, no OpenTelemetry file): each file is a
part, a big JSON Lines one cut at line ends, its fields' protocols detected here from its first
records (:func:`in_parallel`).  Grouped logs: cut where a group starts when their groups are
clustered, else spilled into buckets by group first, each bucket checked whole by one process
(:func:`grouped_in_parallel`; the workers' side is :mod:`._groups_jobs`).  What a part gave is a
pool :data:`~toolwire.engines._core._pool.Outcome`; a part whose check failed is said as a problem
of its file, and its traceback handed to ``failed`` (the caller makes it an event).
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Callable, Iterable
from typing import Any, Final

from toolwire.engines._core._pool import Died, Failed, Ok, Outcome, Part, Usage, died, failed
from toolwire.engines._core._results import Problem, Report
from toolwire.engines.logs._checker import Checked
from toolwire.engines.logs._groups_jobs import (
    RanAgain,
    Runs,
    run_bucket_part,
    run_clustered_part,
    run_spill_part,
)
from toolwire.engines.logs._pipeline import LogFile, head, run_log_part, run_log_range_part
from toolwire.engines.logs._reader import is_jsonl, is_otlp_file
from toolwire.engines.logs._records import group_key, value_at
from toolwire.engines.logs._report import reports
from toolwire.errors import UsageError

__all__ = ["BUCKET", "OnFailure", "at_group_starts", "grouped_in_parallel", "in_parallel"]

#: The bytes of log a bucket of a grouped log holds, about: what bounds a worker's memory when a
#: grouped log is checked on a pool (:func:`grouped_in_parallel`).
BUCKET: Final = 16 << 20

#: Handed a part whose check raised, and its traceback.
OnFailure = Callable[[Part, str], None]


def in_parallel(
    files: list[LogFile],
    body: str | None,
    order_by: str | None,
    protocol: str | None,
    profile: str | None,
    jobs: int | None,
    on_failure: OnFailure,
) -> list[Report] | None:
    """The reports of ungrouped ``files`` from a pool: each file a part, a big JSON Lines one cut
    at line ends, its protocols detected here from its first records; None when the files are
    better checked here (one small file) or must be read together (joined halves of a batch,
    OpenTelemetry spans grouped by their trace, standard input)."""
    from toolwire.engines._core._pool import BIG, cuts, default_jobs, run_parts

    jobs = jobs or default_jobs()
    names = [name for name, _ in files]
    if jobs == 1 or "-" in names or any(kind is not None and kind.key for _, kind in files):
        return None
    sizes = [os.path.getsize(name) if os.path.isfile(name) else -1 for name in names]
    if min(sizes) < 0 or (len(files) == 1 and sizes[0] <= BIG) or any(is_otlp_file(n) for n in names):
        return None
    parts: list[Part] = []
    mine: list[list[int]] = []
    split: list[bool] = []
    for (name, kind), size in zip(files, sizes, strict=True):
        options: dict[str, Any] = {"kind": kind, "body": body, "order_by": order_by}
        options |= {"protocol": protocol, "profile": profile}
        mine.append([])
        split.append(size > BIG and is_jsonl(name))
        if not split[-1]:
            mine[-1].append(len(parts))
            parts.append(Part("log", name, size, options, run=run_log_part))
            continue
        pieces = cuts(name, size, jobs)
        options["samples"] = head(name, kind, body, pieces[0])[0]
        for start, end, before, lines in pieces:
            mine[-1].append(len(parts))
            parts.append(
                Part(
                    "log-range", name, end - start, options, start, end, before, lines, run=run_log_range_part
                )
            )
    if len(parts) <= 1:
        return None
    outcomes = run_parts(parts, jobs)
    out: list[Report] = []
    for k, name in enumerate(names):
        done = [(parts[i], outcomes[i]) for i in mine[k]]
        out.extend(_gathered(name, done, split[k], on_failure))
    return out


def _gathered(
    name: str, done: list[tuple[Part, Outcome]], split: bool, on_failure: OnFailure
) -> list[Report]:
    """The reports of one file from what its parts gave."""
    checked = Checked(problems={name: []})
    problems = checked.problems[name]
    for part, outcome in done:
        match outcome:
            case Usage(message):
                raise UsageError(message)
            case Ok(value) if not split:
                return list(value)
            case Ok(value):
                checked.add(value)
            case Died(why):
                problems.append(Problem(part.before + 1 if split else None, None, died(part, why)))
            case Failed(text):
                on_failure(part, text)
                problems.append(Problem(part.before + 1 if split else None, None, failed(part, text)))
    return reports([name], checked)


def grouped_in_parallel(
    files: list[LogFile],
    body: str | None,
    group_by: str,
    order_by: str | None,
    protocol: str | None,
    profile: str | None,
    jobs: int | None,
    on_failure: OnFailure,
) -> list[Report] | None:
    """The reports of grouped ``files`` from a pool, as a check in one process gives them (see
    :mod:`._groups_jobs`, whose functions the workers run): cut at group starts when the log's
    groups are clustered, else spilled into buckets by group and checked a bucket at a time; None
    when they are better read here: small logs, standard input, files that are not JSON Lines,
    OpenTelemetry files (grouped by their trace as they are read), joined halves of a batch."""
    from toolwire.engines._core._pool import BIG, cuts, default_jobs

    jobs = jobs or default_jobs()
    names = [name for name, _ in files]
    if jobs == 1 or "-" in names or any(kind is not None and kind.key for _, kind in files):
        return None
    sizes = [os.path.getsize(name) if os.path.isfile(name) else -1 for name in names]
    if min(sizes) < 0 or sum(sizes) <= BIG:
        return None
    if any(is_otlp_file(name) or not is_jsonl(name) for name in names):
        return None
    pieces = [cuts(name, size, jobs) for name, size in zip(names, sizes, strict=True)]
    samples: dict[Any, list[Any]] = {}
    clustered = True
    for (name, kind), mine in zip(files, pieces, strict=True):
        first, groups = head(name, kind, body, mine[0], group_by)
        samples |= first
        clustered = clustered and _contiguous(groups)
    shared: dict[str, Any] = {"files": files, "body": body, "group_by": group_by, "order_by": order_by}
    shared |= {"protocol": protocol, "profile": profile, "samples": samples}
    if clustered:
        found = _clustered(files, sizes, pieces, shared, jobs, on_failure)
        if found is not None:
            return found
    return _spilled(files, sizes, pieces, shared, jobs, on_failure)


def _clustered(
    files: list[LogFile],
    sizes: list[int],
    pieces: list[list[tuple[int, int, int, int]]],
    shared: dict[str, Any],
    jobs: int,
    on_failure: OnFailure,
) -> list[Report] | None:
    """The reports of grouped ``files`` whose groups are clustered (each group's records one run of
    lines in one file), from one round: each file cut at group starts, each part checked whole by
    one worker; None when a worker, or the parts' groups together, show a group in two places (the
    log is spilled instead)."""
    from toolwire.engines._core._pool import run_parts

    names = [name for name, _ in files]
    parts: list[Part] = []
    for index, (name, size, mine) in enumerate(zip(names, sizes, pieces, strict=True)):
        for start, end, before, lines in at_group_starts(name, size, mine, shared["group_by"]):
            options = shared | {"file": index}
            parts.append(
                Part(
                    "clustered-range", name, end - start, options, start, end, before, lines,
                    run=run_clustered_part,
                )
            )  # fmt: skip
    outcomes = run_parts(parts, jobs)
    seen = 0
    keys: set[int] = set()
    checked: list[Outcome] = []
    for outcome in outcomes:
        if isinstance(outcome, Ok):
            if outcome.value is None:
                return None  # a group shows in two places in one part
            found, digests = outcome.value
            seen += len(digests)
            keys.update(digests)
            outcome = Ok(found)
        checked.append(outcome)
    if len(keys) < seen:
        return None  # a group shows in two parts
    return _merged(names, parts, checked, Checked(problems={name: [] for name in names}), on_failure)


def _spilled(
    files: list[LogFile],
    sizes: list[int],
    pieces: list[list[tuple[int, int, int, int]]],
    shared: dict[str, Any],
    jobs: int,
    on_failure: OnFailure,
) -> list[Report]:
    """The reports of grouped ``files`` from two rounds, spill and check (see :mod:`._groups_jobs`)."""
    from toolwire.engines._core._pool import run_parts

    names = [name for name, _ in files]
    buckets = max(2 * jobs, math.ceil(sum(sizes) / BUCKET))
    with tempfile.TemporaryDirectory(prefix="toolwire-groups-") as spill:
        ranges: list[Part] = []
        for index, ((name, kind), mine) in enumerate(zip(files, pieces, strict=True)):
            for start, end, before, lines in mine:
                target = os.path.join(spill, f"{index}-{len(ranges)}")
                options: dict[str, Any] = {"kind": kind, "spill": target, "buckets": buckets, "file": index}
                options |= {"body": shared["body"], "group_by": shared["group_by"]}
                ranges.append(
                    Part(
                        "group-range",
                        name,
                        end - start,
                        options,
                        start,
                        end,
                        before,
                        lines,
                        run=run_spill_part,
                    )
                )
        spilled = run_parts(ranges, jobs)
        read = Checked(problems={name: [] for name in names})
        sources: list[tuple[int, str, list[int]]] = []
        for part, outcome in zip(ranges, spilled, strict=True):
            match outcome:
                case Usage(message):
                    raise UsageError(message)
                case Ok((problems, offsets)):
                    read.problems[part.path].extend(problems)
                    sources.append((part.options["file"], part.options["spill"], offsets))
                case _:
                    read.problems[part.path].append(
                        Problem(part.before + 1, None, _said(part, outcome, on_failure))
                    )
        sized = [(b, sum(o[b + 1] - o[b] for _, _, o in sources)) for b in range(buckets)]
        checks = [
            Part(
                "group-bucket",
                f"bucket {b}",
                size,
                shared | {"sources": sources, "bucket": b},
                run=run_bucket_part,
            )
            for b, size in sized
            if size
        ]
        checked = run_parts(checks, jobs) if checks else []
    return _merged(names, checks, checked, read, on_failure)


def _merged(
    names: list[str], parts: list[Part], outcomes: list[Outcome], checked: Checked, on_failure: OnFailure
) -> list[Report]:
    """The reports of ``names`` from what grouped parts gave (each a :class:`Checked` with its keys'
    ranks), after ``checked`` (what was met before), in the order a check in one process gives them."""
    for part, outcome in zip(parts, outcomes, strict=True):
        match outcome:
            case Usage(message):
                raise UsageError(message)
            case Ok(value):
                checked.add(value)
            case _:
                where = part.before + 1 if part.kind.endswith("range") else None
                checked.problems[part.path if part.path in checked.problems else names[0]].append(
                    Problem(where, None, _said(part, outcome, on_failure))
                )
    # The protocols of a file in the order a check in one process meets them first.
    position = {name: k for k, name in enumerate(names)}
    ranks = checked.ranks
    ordered = sorted(checked.found, key=lambda key: (position[ranks[key][0]], *ranks[key][1:]))
    checked.found = {key: checked.found[key] for key in ordered}
    return reports(names, checked)


def _said(part: Part, outcome: Died | Failed | Ok | Usage, on_failure: OnFailure) -> str:
    """What is said of a grouped part that gave nothing: its worker died, or its check failed."""
    if isinstance(outcome, Failed):
        on_failure(part, outcome.traceback)
        return failed(part, outcome.traceback)
    assert isinstance(outcome, Died)
    if part.kind == "clustered-range":
        return died(part, outcome.why)  # its groups are all in it
    if part.kind == "group-bucket":
        why = f"the worker checking them died ({outcome.why})"
        return f"the groups of {part.path} ({part.size:,} bytes of records) were not checked: {why}"
    return f"{died(part, outcome.why)}; a group with records there is judged without them"


def _contiguous(groups: Iterable[Any]) -> bool:
    """Whether each group among ``groups`` (records' groups, in file order) shows as one run (a
    record of no group, None, is a group of its own and breaks no run)."""
    runs = Runs()
    try:
        for group in groups:
            if group is not None:
                runs.starts(group)
    except RanAgain:
        return False
    return True


_NONE: Final = object()


def at_group_starts(
    name: str, size: int, pieces: list[tuple[int, int, int, int]], group_by: str
) -> list[tuple[int, int, int, int]]:
    """``pieces`` (a file's cuts at line ends: start, end, lines before, lines) with each cut moved
    on to the next record whose group differs from the group of the record at the cut, so that a
    clustered group is never cut; parts left empty are dropped."""
    from toolwire.engines._core._pool import PART_MAX, count_lines

    starts = [(0, 0)]
    with open(name, "rb") as raw:
        for start, _, before, _ in pieces[1:]:
            if start < starts[-1][0]:
                continue
            moved = _next_group(raw, start, size, group_by, PART_MAX)
            if moved >= size:
                break
            starts.append((moved, before + count_lines(name, start, moved)))
    ends = [*starts[1:], (size, pieces[-1][2] + pieces[-1][3])]
    return [
        (start, end, before, after - before)
        for (start, before), (end, after) in zip(starts, ends, strict=True)
        if end > start
    ]


def _next_group(raw: Any, offset: int, size: int, group_by: str, limit: int) -> int:
    """The offset of the first line at or after ``offset`` (a line start) whose record's group
    differs from the first record's there (lines that are no record of a group skipped); ``size``
    when none does, or ``offset + limit`` and on, wherever the line past it starts (a group that
    big is cut, and the parts' groups then show it)."""
    import json

    raw.seek(offset)
    position = offset
    first: Any = _NONE
    while position < size:
        line = raw.readline()
        if not line:
            return size
        try:
            record = json.loads(line)
        except ValueError:
            record = None
        key = group_key(value_at(record, group_by)) if isinstance(record, dict) else None
        if key is not None:
            if first is _NONE:
                first = key
            elif key != first:
                return position
        position += len(line)
        if position - offset > limit:
            return position
    return size
