"""``toolwire check --group-by PATH --jobs N``: a grouped log on N processes, in memory bounded by a bucket.

A group (a conversation, a session) may be spread over a whole log, in any order, and across
files: no cut at line ends keeps its records together.  So the check runs in two rounds on the
pool of :mod:`._jobs`:

1. **Spill.**  The logs are cut at line ends as an ungrouped check cuts them; each worker reads its
   range, takes each record's group and writes the record, with its line, into one of B buckets
   by a hash of the group that every process computes alike (a spill file per range, its buckets
   one after another).  Nothing is checked yet; what cannot be read is said with its line.
2. **Check.**  Each worker takes a bucket: its records from every range's spill file, in the order
   of the files and of their lines, are the records of whole groups, checked as ``--jobs 1``
   checks them.  The parent puts the buckets' findings together in the order ``--jobs 1`` gives.

Memory: a worker holds a range's records pickled (the spill round) or one bucket's records (the
check round): B is chosen so that a bucket holds about :data:`BUCKET` bytes of log.  A log whose
groups are clustered and one whose groups are shuffled cost the same (``benchmarks/bench_jobs.py``
measures both).
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import pickle
import tempfile
import zlib
from typing import Any, Final

from toolwire.engines._check import Problem, Report
from toolwire.engines._envelopes import Preset
from toolwire.engines._logs import (
    _Call,
    _check_groups,
    _Found,
    _hashable,
    _head_samples,
    _jsonl,
    _read,
    _record,
    _reports,
    _value,
    is_otlp_file,
)
from toolwire.errors import UsageError
from toolwire.protocols import get_protocol

__all__ = ["BUCKET", "grouped_in_parallel", "run_bucket_part", "run_spill_part"]

#: The bytes of log a bucket holds, about: what bounds a worker's memory in the check round.
BUCKET: Final = 16 << 20


def grouped_in_parallel(
    files: list[tuple[str, Preset | None]],
    body: str | None,
    group_by: str,
    order_by: str | None,
    protocol: str | None,
    profile: str | None,
    jobs: int | None,
) -> list[Report] | None:
    """The reports of grouped ``files`` from a pool, as :func:`toolwire.engines._logs.check_log`
    gives them in one process; None when they are better read here: small logs, standard input,
    files that are not JSON Lines, OpenTelemetry files (grouped by their trace as they are read),
    joined halves of a batch."""
    from toolwire.engines._jobs import BIG, Part, cuts, default_jobs, run_parts

    jobs = jobs or default_jobs()
    names = [name for name, _ in files]
    if jobs == 1 or "-" in names or any(kind is not None and kind.key for _, kind in files):
        return None
    sizes = [os.path.getsize(name) if os.path.isfile(name) else -1 for name in names]
    if min(sizes) < 0 or sum(sizes) <= BIG:
        return None
    if any(is_otlp_file(name) or not _jsonl(name) for name in names):
        return None
    buckets = max(2 * jobs, math.ceil(sum(sizes) / BUCKET))
    with tempfile.TemporaryDirectory(prefix="toolwire-groups-") as spill:
        ranges: list[Part] = []
        samples: dict[Any, list[Any]] = {}
        for index, ((name, kind), size) in enumerate(zip(files, sizes, strict=True)):
            pieces = cuts(name, size, jobs)
            samples |= _head_samples(name, kind, body, pieces[0])
            for start, end, before, lines in pieces:
                target = os.path.join(spill, f"{index}-{len(ranges)}")
                options: dict[str, Any] = {"kind": kind, "body": body, "group_by": group_by}
                options |= {"spill": target, "buckets": buckets, "file": index}
                ranges.append(Part("group-range", name, end - start, options, start, end, before, lines))
        spilled = run_parts(ranges, jobs)
        problems: dict[str, list[Problem]] = {name: [] for name in names}
        sources: list[tuple[int, str, list[int]]] = []
        for part, (status, value) in zip(ranges, spilled, strict=True):
            if status == "usage":
                raise UsageError(value)
            if status != "ok":
                problems[part.path].append(Problem(part.before + 1, None, _said(part, status, value)))
                continue
            read, offsets = value
            problems[part.path].extend(read)
            sources.append((part.options["file"], part.options["spill"], offsets))
        shared = {"files": files, "sources": sources, "body": body, "group_by": group_by}
        shared |= {"order_by": order_by, "protocol": protocol, "profile": profile, "samples": samples}
        sized = [(b, sum(o[b + 1] - o[b] for _, _, o in sources)) for b in range(buckets)]
        checks = [
            Part("group-bucket", f"bucket {b}", size, shared | {"bucket": b}) for b, size in sized if size
        ]
        checked = run_parts(checks, jobs) if checks else []
    found: dict[tuple[str, str], _Found] = {}
    ranks: dict[tuple[str, str], tuple[Any, ...]] = {}
    for part, (status, value) in zip(checks, checked, strict=True):
        if status == "usage":
            raise UsageError(value)
        if status != "ok":
            problems[names[0]].append(Problem(None, None, _said(part, status, value)))
            continue
        part_found, part_problems, part_ranks = value
        for name, own in part_problems.items():
            problems[name].extend(own)
        for key, bucket in part_found.items():
            mine = found.setdefault(key, _Found())
            mine.events += bucket.events
            mine.findings.extend(bucket.findings)
            rank = part_ranks[key]
            if key not in ranks or rank < ranks[key]:
                ranks[key] = rank
    # The protocols of a file in the order a check in one process meets them first.
    position = {name: k for k, name in enumerate(names)}
    ordered = sorted(found, key=lambda key: (position[ranks[key][0]], *ranks[key][1:]))
    return _reports(names, {key: found[key] for key in ordered}, problems)


def _said(part: Any, status: str, value: Any) -> str:
    from toolwire.engines._jobs import died, failed

    if status == "died":
        if part.kind == "group-bucket":
            why = f"the worker checking them died ({value})"
            return f"the groups of {part.path} ({part.size:,} bytes of records) were not checked: {why}"
        return f"{died(part, value)}; a group with records there is judged without them"
    return failed(part, value)


def bucket_of(group: Any, line: int | None, buckets: int) -> int:
    """The bucket of a record of ``group``: the same in every process (no salted ``hash``), and the
    same for groups that one process would take for one (``1`` and ``1.0``); a record of no group
    is a group of its own, put by its line."""
    if group is None:
        return (line or 0) % buckets
    key = _hashable(group)
    text = repr(key)
    if isinstance(key, bool | int | float):
        with contextlib.suppress(OverflowError):
            text = repr(float(key))
    return zlib.crc32(text.encode("utf-8", "surrogatepass")) % buckets


def run_spill_part(part: Any) -> tuple[list[Problem], list[int]]:
    """A pool worker's spill of one range of a log: the problems met reading it, and where each
    bucket starts in its spill file (one more offset: the file's end)."""
    o = part.options
    buckets: int = o["buckets"]
    group_by: str = o["group_by"]
    chunks = [bytearray() for _ in range(buckets)]
    dumps = pickle.dumps

    def each(line: int | None, record: Any) -> None:
        group = _value(record, group_by) if isinstance(record, dict) else None
        chunks[bucket_of(group, line, buckets)] += dumps((line, record), pickle.HIGHEST_PROTOCOL)

    problems: list[Problem] = []
    _read(
        part.path,
        o["kind"],
        o["body"],
        None,
        None,
        [],
        {},
        problems,
        (part.start, part.end, part.before),
        each,
    )
    offsets = [0]
    with open(o["spill"], "wb") as out:
        for chunk in chunks:
            out.write(chunk)
            offsets.append(offsets[-1] + len(chunk))
    return problems, offsets


def run_bucket_part(
    part: Any,
) -> tuple[dict[tuple[str, str], _Found], dict[str, list[Problem]], dict[tuple[str, str], tuple[Any, ...]]]:
    """A pool worker's check of one bucket: its findings, problems by file, and the rank of each
    (file, protocol) it found (see :func:`toolwire.engines._logs._check_groups`)."""
    o = part.options
    bucket: int = o["bucket"]
    files: list[tuple[str, Preset | None]] = o["files"]
    calls: list[_Call] = []
    problems: dict[str, list[Problem]] = {name: [] for name, _ in files}
    for index, spill, offsets in o["sources"]:
        name, kind = files[index]
        with open(spill, "rb") as raw:
            raw.seek(offsets[bucket])
            size = offsets[bucket + 1] - offsets[bucket]
            stream = io.BytesIO(raw.read(size))
        while stream.tell() < size:
            # One unpickler a record: each was pickled alone, its memo its own.
            line, record = pickle.load(stream)  # this run's own spill files
            _record(
                name, line, record, kind, o["body"], o["group_by"], o["order_by"], calls, {}, problems[name]
            )
    chosen = get_protocol(o["protocol"]) if o["protocol"] is not None else None
    found: dict[tuple[str, str], _Found] = {}
    ranks: dict[tuple[str, str], tuple[Any, ...]] = {}
    _check_groups(calls, chosen, o["profile"], True, found, problems, o["samples"], ranks=ranks)
    return found, problems, ranks
