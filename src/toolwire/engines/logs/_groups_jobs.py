"""``toolwire check --group-by PATH --jobs N``: what the workers run for a grouped log (the parent's
side is :func:`toolwire.engines.logs._logs._grouped_in_parallel`; the pool runs these by name).

A group (a conversation, a session) may be spread over a whole log, in any order, and across
files, or each group's records may be together (a log written a conversation at a time, or sorted
by it).  The parent reads the head of each file: when its groups show as runs, the log is tried as
**clustered**, in one round:

- Each file is cut at line ends as an ungrouped check cuts it, and each cut moved on to the next
  record of another group, so that no run is cut.  Each worker checks its part's groups whole
  (:func:`run_clustered_part`), as ``--jobs 1`` checks them, and says which groups it met (64-bit
  digests).  A worker that meets a group again after another gives up at once; the parent gives
  up when two parts met one group.  Either way the log is then spilled, as below.

Else (or when it gave up) the check runs in two rounds on the pool of :mod:`._jobs`:

1. **Spill.**  The logs are cut at line ends as an ungrouped check cuts them; each worker reads its
   range, takes each record's group and writes the record, with its line, into one of B buckets
   by a hash of the group that every process computes alike (a spill file per range, its buckets
   one after another).  Nothing is checked yet; what cannot be read is said with its line.
2. **Check.**  Each worker takes a bucket: its records from every range's spill file, in the order
   of the files and of their lines, are the records of whole groups, checked as ``--jobs 1``
   checks them.  The parent puts the buckets' findings together in the order ``--jobs 1`` gives.

Memory: a worker holds the records of some :data:`_HELD` calls (clustered: it checks the groups
they complete as it reads on, so a long part costs no more than a short one), a range's records
pickled (the spill round) or one bucket's records (the check round): B is chosen so that a bucket
holds about :data:`toolwire.engines.logs._logs.BUCKET` bytes of log. ``benchmarks/bench_jobs.py``
measures a shuffled log against the same log clustered.
"""

from __future__ import annotations

import hashlib
import io
import pickle
import zlib
from array import array
from typing import Any, Final

from toolwire.engines._core._results import Problem
from toolwire.engines.logs._envelopes import Preset
from toolwire.engines.logs._logs import (
    _Call,
    _check_groups,
    _Found,
    _RanAgain,
    _read,
    _record,
    _Runs,
    group_key,
    value_at,
)
from toolwire.protocols import get_protocol

__all__ = ["bucket_of", "digest_of", "run_bucket_part", "run_clustered_part", "run_spill_part"]


def bucket_of(group: Any, line: int | None, buckets: int) -> int:
    """The bucket of a record of ``group``: the same in every process (no salted ``hash``), and the
    same for groups that one process would take for one (``1`` and ``1.0``); a record of no group
    is a group of its own, put by its line."""
    if group_key(group) is None:
        return (line or 0) % buckets
    return zlib.crc32(_text(group)) % buckets


def digest_of(group: Any) -> int:
    """A 64-bit digest of ``group`` (not None), alike in every process and for groups that one
    process takes for one: what a clustered part says of the groups it met."""
    return int.from_bytes(hashlib.blake2b(_text(group), digest_size=8).digest(), "little", signed=True)


def _text(group: Any) -> bytes:
    return repr(group_key(group)).encode("utf-8", "surrogatepass")


#: The calls a clustered part's worker gathers before it checks the groups they complete.
_HELD: Final = 1000


def run_clustered_part(
    part: Any,
) -> (
    tuple[
        dict[tuple[str, str], _Found],
        dict[str, list[Problem]],
        dict[tuple[str, str], tuple[Any, ...]],
        array[int],
    ]
    | None
):
    """A pool worker's check of one part of a clustered log, its groups whole: its findings,
    problems by file, the rank of each (file, protocol) it found (see
    :func:`toolwire.engines.logs._logs._check_groups`) and the digests of the groups it met; None as
    soon as a group shows again after another."""
    o = part.options
    name, kind = o["files"][o["file"]]
    chosen = get_protocol(o["protocol"]) if o["protocol"] is not None else None
    found: dict[tuple[str, str], _Found] = {}
    ranks: dict[tuple[str, str], tuple[Any, ...]] = {}
    calls: list[_Call] = []
    problems: dict[str, list[Problem]] = {name: []}
    runs = _Runs()
    settled: list[Any] = [None]
    paths = (o["group_by"], o["order_by"])

    def check(done: list[_Call]) -> None:
        """Check ``done``, whole groups, as one process would (each field's protocol kept)."""
        settled[0] = _check_groups(
            done, chosen, o["profile"], True, found, problems, o["samples"], settled[0], ranks, paths
        )

    def each(line: int | None, record: Any) -> None:
        known = len(calls)
        _record(name, line, record, kind, o["body"], o["group_by"], o["order_by"], calls, {}, problems[name])
        if len(calls) == known or group_key(calls[-1].group) is None:
            return
        if runs.starts(calls[-1].group) and len(calls) > _HELD:
            # The groups before this record are whole: checked now, so that a worker holds a few
            # groups' records, not its part's.
            first = calls.pop()
            check(calls)
            calls.clear()
            first.seq = 0  # its group's order among the calls to come (seq numbers them)
            calls.append(first)

    try:
        span = (part.start, part.end, part.before)
        _read(name, kind, o["body"], None, None, [], {}, problems[name], span, each)
    except _RanAgain:
        return None
    check(calls)
    return found, problems, ranks, array("q", map(digest_of, runs.seen))


def run_spill_part(part: Any) -> tuple[list[Problem], list[int]]:
    """A pool worker's spill of one range of a log: the problems met reading it, and where each
    bucket starts in its spill file (one more offset: the file's end)."""
    o = part.options
    buckets: int = o["buckets"]
    group_by: str = o["group_by"]
    chunks = [bytearray() for _ in range(buckets)]
    dumps = pickle.dumps

    def each(line: int | None, record: Any) -> None:
        group = value_at(record, group_by) if isinstance(record, dict) else None
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
    (file, protocol) it found (see :func:`toolwire.engines.logs._logs._check_groups`)."""
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
    paths = (o["group_by"], o["order_by"])
    _check_groups(calls, chosen, o["profile"], True, found, problems, o["samples"], ranks=ranks, paths=paths)
    return found, problems, ranks
