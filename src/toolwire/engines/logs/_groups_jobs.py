"""``toolwire check --group-by PATH --jobs N``: what the workers run for a grouped log (the parent's
side is :func:`toolwire.engines.logs._plans.grouped_in_parallel`, which hands these to the pool).

A group (a conversation, a session) may be spread over a whole log, in any order, and across
files, or each group's records may be together (a log written a conversation at a time, or sorted
by it).  The parent reads the head of each file: when its groups show as runs, the log is tried as
**clustered**, in one round:

- Each file is cut at line ends as an ungrouped check cuts it, and each cut moved on to the next
  record of another group, so that no run is cut.  Each worker checks its part's groups whole
  (:func:`run_clustered_part`), as ``--jobs 1`` checks them, and says which groups it met (64-bit
  digests).  A worker that meets a group again after another gives up at once; the parent gives
  up when two parts met one group.  Either way the log is then spilled, as below.

Else (or when it gave up) the check runs in two rounds on the pool:

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
holds about :data:`toolwire.engines.logs._plans.BUCKET` bytes of log. ``benchmarks/bench_jobs.py``
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
from toolwire.engines.logs._checker import Checked, GroupChecker
from toolwire.engines.logs._envelopes import Preset
from toolwire.engines.logs._pipeline import read_then_checked
from toolwire.engines.logs._reader import read
from toolwire.engines.logs._records import Records, group_key, value_at
from toolwire.protocols import get_protocol

__all__ = [
    "RanAgain",
    "Runs",
    "bucket_of",
    "digest_of",
    "run_bucket_part",
    "run_clustered_part",
    "run_spill_part",
]


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


class RanAgain(Exception):
    """A group showed again after another: the records are not clustered."""


class Runs:
    """The groups of records met in order, each expected as one run of them."""

    def __init__(self) -> None:
        #: Every group met (as :func:`group_key` keys).
        self.seen: set[Any] = set()
        self._current: Any = _NONE

    def starts(self, group: Any) -> bool:
        """Whether ``group`` starts a run (not: it goes on with the current one, or it is no group:
        None or empty text); raises :class:`RanAgain` when it was met before another."""
        key = group_key(group)
        if key is None or key == self._current:
            return False
        if key in self.seen:
            raise RanAgain
        self.seen.add(key)
        self._current = key
        return True


_NONE: Final = object()

#: The calls a clustered part's worker gathers before it checks the groups they complete.
_HELD: Final = 1000


def grouped_checker(options: dict[str, Any]) -> GroupChecker:
    """The checker of a grouped part, from its options (each key's rank kept)."""
    o = options
    chosen = get_protocol(o["protocol"]) if o["protocol"] is not None else None
    return GroupChecker(
        chosen,
        o["profile"],
        grouped=True,
        group_by=o["group_by"],
        order_by=o["order_by"],
        samples=o["samples"],
        ranked=True,
    )


def run_clustered_part(part: Any) -> tuple[Checked, array[int]] | None:
    """A pool worker's check of one part of a clustered log, its groups whole: what it found (each
    key with its rank, see :class:`~toolwire.engines.logs._checker.Checked`) and the digests of the
    groups it met; None as soon as a group shows again after another."""
    o = part.options
    name, kind = o["files"][o["file"]]
    checker = grouped_checker(o)
    records = Records(o["body"], o["group_by"], o["order_by"])
    calls = records.calls
    checked = Checked()
    runs = Runs()

    def each(line: int | None, record: Any) -> None:
        known = len(calls)
        records.add(name, kind, line, record)
        if len(calls) == known or group_key(calls[-1].group) is None:
            return
        if runs.starts(calls[-1].group) and len(calls) > _HELD:
            # The groups before this record are whole: checked now, so that a worker holds a few
            # groups' records, not its part's.
            first = calls.pop()
            checked.add(checker.check(calls))
            calls.clear()
            first.seq = 0  # its group's order among the calls to come (seq numbers them)
            calls.append(first)

    try:
        read(name, kind, records, each=each, span=(part.start, part.end, part.before))
    except RanAgain:
        return None
    checked.add(checker.check(calls))
    return read_then_checked(records.problems, checked), array("q", map(digest_of, runs.seen))


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

    span = (part.start, part.end, part.before)
    problems = read(part.path, o["kind"], Records(o["body"]), each=each, span=span)
    offsets = [0]
    with open(o["spill"], "wb") as out:
        for chunk in chunks:
            out.write(chunk)
            offsets.append(offsets[-1] + len(chunk))
    return problems, offsets


def run_bucket_part(part: Any) -> Checked:
    """A pool worker's check of one bucket: what it found, each key with its rank (see
    :class:`~toolwire.engines.logs._checker.Checked`)."""
    o = part.options
    bucket: int = o["bucket"]
    files: list[tuple[str, Preset | None]] = o["files"]
    records = Records(o["body"], o["group_by"], o["order_by"])
    for name, _ in files:
        records.problems_of(name)
    add = records.add
    for index, spill, offsets in o["sources"]:
        name, kind = files[index]
        with open(spill, "rb") as raw:
            raw.seek(offsets[bucket])
            size = offsets[bucket + 1] - offsets[bucket]
            stream = io.BytesIO(raw.read(size))
        while stream.tell() < size:
            # One unpickler a record: each was pickled alone, its memo its own.
            line, record = pickle.load(stream)  # this run's own spill files
            add(name, kind, line, record)
    return read_then_checked(records.problems, grouped_checker(o).check(records.calls))
