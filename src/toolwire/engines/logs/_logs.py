"""Production logs: check the bodies inside log records, and the turns of a conversation across records.

``toolwire check --request/--response/--body PATH``, ``--log PRESET`` and OTLP JSON files come
here.  Each record gives one model call: the request body it sent and the response body it got
(either may be missing), taken from the record by dotted paths (:mod:`._envelopes`) or read from
OpenTelemetry spans (:mod:`._otlp`).  Each body's protocol is detected as ``check`` detects a
file's (:mod:`._detect`), and its protocol's monitor checks it.  With ``--group-by``, the calls of
one group (a conversation, session or trace) meet in order (``--order-by``, else as logged), and
the round-trip rules run between consecutive turns: the request of turn N+1 must replay the calls
the response of turn N emitted, with their ids (RT-1, RT-2, as ``check --after`` does for one
pair), and each is answered by its own result (the request's own rules).

Every finding names its file and record line, and its group in its message.  A record from which
no path reads a body is a :class:`Problem` with its line, never clean.  ``--jobs N`` checks
ungrouped logs on N processes (:mod:`._jobs`): each file a part, a big JSON Lines file cut at line
ends; a grouped log is cut where a group starts when its groups are clustered, else spilled into
buckets by group first, each bucket checked whole by one process (:mod:`._groups_jobs`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Final, Literal

import orjson

from toolwire.engines._core._detect import detect, endpoint_of
from toolwire.engines._core._results import MAX_PROBLEMS, Problem, Report, unreadable_parts
from toolwire.engines.logs._envelopes import MISSING, Preset, dig, preset
from toolwire.engines.logs._otlp import is_otlp, recorded_calls
from toolwire.errors import UsageError
from toolwire.models import detect_format, read_frames, sniff
from toolwire.models._wire import not_a_trace
from toolwire.properties import Finding, Monitor, Protocol
from toolwire.properties._turn import Turn
from toolwire.protocols import PROTOCOLS, check_round_trip, get_protocol

__all__ = [
    "check_log",
    "check_log_input",
    "check_log_range",
    "envelope",
    "files_under",
    "group_key",
    "is_otlp_file",
    "value_at",
]

Side = Literal["request", "response"]
#: Bodies of one field sampled together to tell their protocol (the first alone is often ambiguous).
_SAMPLE: Final = 50
#: The bytes of log a bucket of a grouped log holds, about: what bounds a worker's memory when a
#: grouped log is checked on a pool (:func:`_grouped_in_parallel`).
BUCKET: Final = 16 << 20
#: The head of a log its fields' protocols are detected from when it is checked in parts: so many
#: bytes at most, so many records at most (enough for :data:`_SAMPLE` bodies of each field).
_HEAD_BYTES: Final = 2 << 20
_HEAD_RECORDS: Final = 4 * _SAMPLE


@dataclass(slots=True)
class _Body:
    value: Any
    source: str
    line: int | None
    where: str
    side: Side
    #: The URL's ``host/path`` it was sent to, or the OTLP attribute that held it (``genai``).
    endpoint: str | None = None
    genai: bool = False
    #: A message list checked as the body ``{"messages": [...]}`` (its findings' paths are the list's).
    wrapped: bool = False


@dataclass(slots=True)
class _Call:
    """One model call: its request and response bodies, its group and where it sits in it."""

    source: str
    line: int | None
    group: Any
    order: Any
    seq: int
    request: _Body | None = None
    response: _Body | None = None
    #: Read from OpenTelemetry: grouped by its conversation or trace without ``--group-by``.
    otlp: bool = False
    #: The record logged a failed call: it has no response, and the next turn answers the turn before.
    failed: bool = False


@dataclass(slots=True)
class _Found:
    """What one file's bodies of one protocol gave: the makings of its :class:`Report`."""

    events: int = 0
    findings: list[Finding] = field(default_factory=list)


def is_otlp_file(path: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` is OTLP JSON (what ``check`` reads without a flag)."""
    if str(path) == "-" or os.path.isdir(path):
        return False
    try:
        with open(path, "rb") as handle:
            return is_otlp(handle.read(4096))
    except OSError:
        return False


def check_log(
    paths: Sequence[str | os.PathLike[str]],
    *,
    request: str | None = None,
    response: str | None = None,
    body: str | None = None,
    presets: Sequence[str] = (),
    group_by: str | None = None,
    order_by: str | None = None,
    protocol: str | None = None,
    profile: str | None = None,
    jobs: int | None = 1,
) -> list[Report]:
    """Check the bodies logged in ``paths`` (files or folders), one :class:`Report` per file and protocol.

    ``request`` / ``response`` / ``body`` are dotted paths into each record (``body``: a body of
    either side); ``presets`` name the sources' own paths, one per file given (or one for all).
    OTLP JSON files need neither.  ``group_by`` / ``order_by`` are dotted paths (an OTLP span's
    attribute names) that gather the records of one conversation and order them.  ``protocol``
    names the requests' protocol (or the responses', when it is a response's).  ``jobs`` processes
    (None: the CPU count) check the files, and big JSON Lines logs cut at line ends, when no
    record's meaning depends on another file's or line's: no ``group_by``, no joined batch halves,
    no OpenTelemetry file (:func:`_in_parallel`); the reports are the same.

    >>> import json, tempfile, os
    >>> record = {"session": "s1", "body": {"messages": [
    ...     {"role": "tool", "tool_call_id": "call_1", "content": "72F"}]}}
    >>> with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
    ...     _ = f.write(json.dumps(record) + "\\n")
    >>> [report] = check_log([f.name], request="body", group_by="session")
    >>> [(x.rule, x.line, x.path, x.message.split(":")[0]) for x in report.findings]
    [('CC-2', 1, 'body.messages[0].role', 'group s1')]
    >>> os.unlink(f.name)
    """
    if protocol is not None:
        get_protocol(protocol).make(profile)
    kinds = [preset(name) for name in presets]
    if len(kinds) > 1 and len(kinds) != len(paths):
        raise UsageError(
            f"give one --log per FILE ({len(paths)} files, {len(kinds)} presets), or one --log for all"
        )
    files: list[tuple[str, Preset | None]] = []
    for k, path in enumerate(paths):
        kind = envelope(kinds[k] if len(kinds) > 1 else (kinds[0] if kinds else None), request, response)
        files.extend((name, kind) for name in files_under(path))
    if order_by is not None and group_by is None and not all(is_otlp_file(name) for name, _ in files):
        # Records are checked alone without a group: there is nothing to order.
        raise UsageError(
            "--order-by orders the records of each conversation: name what gathers them with --group-by "
            "(OpenTelemetry files alone are grouped by conversation or trace without it)"
        )
    if jobs != 1:
        if group_by is None:
            parallel = _in_parallel(files, body, order_by, protocol, profile, jobs)
        else:
            parallel = _grouped_in_parallel(files, body, group_by, order_by, protocol, profile, jobs)
        if parallel is not None:
            return parallel
    return _check_files(files, body, group_by, order_by, protocol, profile)


def check_log_input(stream: BinaryIO, *, protocol: str | None, profile: str | None) -> list[Report]:
    """:func:`check_log` of the OTLP JSON on standard input, read from ``stream``: ``check -`` read
    its head to tell what it is, and gives it back in front of the rest."""
    return _check_files([("-", None)], None, None, None, protocol, profile, stream)


def envelope(kind: Preset | None, request: str | None, response: str | None) -> Preset | None:
    """Where records keep their bodies: ``kind`` (a preset), its paths replaced by ``request`` and
    ``response`` where given; None when neither names a path (``--body`` alone, or OTLP)."""
    if kind is not None and (request or response):
        return dataclasses.replace(kind, request=request or kind.request, response=response or kind.response)
    if kind is None and (request or response):
        return Preset("", "", request=request, response=response)
    return kind


def _check_files(
    files: list[tuple[str, Preset | None]],
    body: str | None,
    group_by: str | None,
    order_by: str | None,
    protocol: str | None,
    profile: str | None,
    stdin: BinaryIO | None = None,
) -> list[Report]:
    """:func:`check_log` of ``files``, each with the preset that says where its records keep their
    bodies; ``-`` is read from ``stdin`` when given (else standard input)."""
    chosen = get_protocol(protocol) if protocol is not None else None
    problems: dict[str, list[Problem]] = {name: [] for name, _ in files}
    calls: list[_Call] = []
    joined: dict[Any, Any] = {}
    for name, kind in files:
        _read(name, kind, body, group_by, order_by, calls, joined, problems[name], stdin=stdin)
    _unjoined(files, joined, problems)
    found: dict[tuple[str, str], _Found] = {}
    _check_groups(calls, chosen, profile, group_by is not None, found, problems, paths=(group_by, order_by))
    return _reports([name for name, _ in files], found, problems)


def _in_parallel(
    files: list[tuple[str, Preset | None]],
    body: str | None,
    order_by: str | None,
    protocol: str | None,
    profile: str | None,
    jobs: int | None,
) -> list[Report] | None:
    """The reports of ungrouped ``files`` from a pool (:mod:`._jobs`): each file a part, a big JSON
    Lines one cut at line ends, its protocols detected here from its first records; None when the
    files are better checked here (one small file) or must be read together (joined halves of a
    batch, OpenTelemetry spans grouped by their trace, standard input)."""
    from toolwire.engines._core._pool import BIG, Part, cuts, default_jobs, run_parts

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
        split.append(size > BIG and _jsonl(name))
        if not split[-1]:
            mine[-1].append(len(parts))
            parts.append(Part("log", name, size, options))
            continue
        pieces = cuts(name, size, jobs)
        options["samples"] = _head(name, kind, body, pieces[0])[0]
        for start, end, before, lines in pieces:
            mine[-1].append(len(parts))
            parts.append(Part("log-range", name, end - start, options, start, end, before, lines))
    if len(parts) <= 1:
        return None
    outcomes = run_parts(parts, jobs)
    reports: list[Report] = []
    for k, name in enumerate(names):
        done = [(parts[i], outcomes[i]) for i in mine[k]]
        reports.extend(_gathered(name, done, split[k]))
    return reports


def _grouped_in_parallel(
    files: list[tuple[str, Preset | None]],
    body: str | None,
    group_by: str,
    order_by: str | None,
    protocol: str | None,
    profile: str | None,
    jobs: int | None,
) -> list[Report] | None:
    """The reports of grouped ``files`` from a pool, as :func:`check_log` gives them in one process
    (see :mod:`._groups_jobs`, whose functions the workers run): cut at group starts when the log's
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
    if any(is_otlp_file(name) or not _jsonl(name) for name in names):
        return None
    pieces = [cuts(name, size, jobs) for name, size in zip(names, sizes, strict=True)]
    samples: dict[Any, list[Any]] = {}
    clustered = True
    for (name, kind), mine in zip(files, pieces, strict=True):
        head, groups = _head(name, kind, body, mine[0], group_by)
        samples |= head
        clustered = clustered and _contiguous(groups)
    shared: dict[str, Any] = {"files": files, "body": body, "group_by": group_by, "order_by": order_by}
    shared |= {"protocol": protocol, "profile": profile, "samples": samples}
    if clustered:
        reports = _clustered(files, sizes, pieces, shared, jobs)
        if reports is not None:
            return reports
    return _spilled(files, sizes, pieces, shared, jobs)


def _clustered(
    files: list[tuple[str, Preset | None]],
    sizes: list[int],
    pieces: list[list[tuple[int, int, int, int]]],
    shared: dict[str, Any],
    jobs: int,
) -> list[Report] | None:
    """The reports of grouped ``files`` whose groups are clustered (each group's records one run of
    lines in one file), from one round: each file cut at group starts, each part checked whole by
    one worker; None when a worker, or the parts' groups together, show a group in two places (the
    log is spilled instead)."""
    from toolwire.engines._core._pool import Part, run_parts

    names = [name for name, _ in files]
    parts: list[Part] = []
    for index, (name, size, mine) in enumerate(zip(names, sizes, pieces, strict=True)):
        for start, end, before, lines in _at_group_starts(name, size, mine, shared["group_by"]):
            options = shared | {"file": index}
            parts.append(Part("clustered-range", name, end - start, options, start, end, before, lines))
    outcomes = run_parts(parts, jobs)
    seen = 0
    keys: set[int] = set()
    for status, value in outcomes:
        if status == "ok":
            if value is None:
                return None  # a group shows in two places in one part
            seen += len(value[3])
            keys.update(value[3])
    if len(keys) < seen:
        return None  # a group shows in two parts
    problems: dict[str, list[Problem]] = {name: [] for name in names}
    return _merged(names, parts, [(s, v[:3] if s == "ok" else v) for s, v in outcomes], problems)


def _spilled(
    files: list[tuple[str, Preset | None]],
    sizes: list[int],
    pieces: list[list[tuple[int, int, int, int]]],
    shared: dict[str, Any],
    jobs: int,
) -> list[Report]:
    """The reports of grouped ``files`` from two rounds, spill and check (see :mod:`._groups_jobs`)."""
    from toolwire.engines._core._pool import Part, run_parts

    names = [name for name, _ in files]
    buckets = max(2 * jobs, math.ceil(sum(sizes) / BUCKET))
    with tempfile.TemporaryDirectory(prefix="toolwire-groups-") as spill:
        ranges: list[Part] = []
        for index, ((name, kind), mine) in enumerate(zip(files, pieces, strict=True)):
            for start, end, before, lines in mine:
                target = os.path.join(spill, f"{index}-{len(ranges)}")
                options: dict[str, Any] = {"kind": kind, "spill": target, "buckets": buckets, "file": index}
                options |= {"body": shared["body"], "group_by": shared["group_by"]}
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
        sized = [(b, sum(o[b + 1] - o[b] for _, _, o in sources)) for b in range(buckets)]
        checks = [
            Part("group-bucket", f"bucket {b}", size, shared | {"sources": sources, "bucket": b})
            for b, size in sized
            if size
        ]
        checked = run_parts(checks, jobs) if checks else []
    return _merged(names, checks, checked, problems)


def _merged(
    names: list[str], parts: list[Any], outcomes: list[tuple[str, Any]], problems: dict[str, list[Problem]]
) -> list[Report]:
    """The reports of ``names`` from what grouped parts gave (findings, problems by file, ranks), in
    the order a check in one process gives them."""
    found: dict[tuple[str, str], _Found] = {}
    ranks: dict[tuple[str, str], tuple[Any, ...]] = {}
    for part, (status, value) in zip(parts, outcomes, strict=True):
        if status == "usage":
            raise UsageError(value)
        if status != "ok":
            where = part.before + 1 if part.kind.endswith("range") else None
            problems[part.path if part.path in problems else names[0]].append(
                Problem(where, None, _said(part, status, value))
            )
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


def _contiguous(groups: Iterable[Any]) -> bool:
    """Whether each group among ``groups`` (records' groups, in file order) shows as one run (a
    record of no group, None, is a group of its own and breaks no run)."""
    runs = _Runs()
    try:
        for group in groups:
            if group is not None:
                runs.starts(group)
    except _RanAgain:
        return False
    return True


class _RanAgain(Exception):
    """A group showed again after another: the records are not clustered."""


class _Runs:
    """The groups of records met in order, each expected as one run of them."""

    def __init__(self) -> None:
        #: Every group met (as :func:`group_key` keys).
        self.seen: set[Any] = set()
        self._current: Any = _NONE

    def starts(self, group: Any) -> bool:
        """Whether ``group`` starts a run (not: it goes on with the current one, or it is no group:
        None or empty text); raises :class:`_RanAgain` when it was met before another."""
        key = group_key(group)
        if key is None or key == self._current:
            return False
        if key in self.seen:
            raise _RanAgain
        self.seen.add(key)
        self._current = key
        return True


_NONE: Final = object()


def _at_group_starts(
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


def _said(part: Any, status: str, value: Any) -> str:
    from toolwire.engines._core._pool import died, failed

    if status == "died":
        if part.kind == "clustered-range":
            return died(part, value)  # its groups are all in it
        if part.kind == "group-bucket":
            why = f"the worker checking them died ({value})"
            return f"the groups of {part.path} ({part.size:,} bytes of records) were not checked: {why}"
        return f"{died(part, value)}; a group with records there is judged without them"
    return failed(part, value)


def _jsonl(name: str) -> bool:
    """Whether the file ``name`` reads as JSON Lines (False when it cannot be read: the check in
    one process says why)."""
    try:
        with open(name, "rb") as raw:
            head = raw.read(65536)
    except OSError:
        return False
    return not_a_trace(head) is None and detect_format(head) == "jsonl"


def _head(
    name: str,
    kind: Preset | None,
    body: str | None,
    first: tuple[int, int, int, int],
    group_by: str | None = None,
) -> tuple[dict[Any, list[Any]], list[Any]]:
    """The bodies each field's protocol is detected from, and the groups at ``group_by``, of the
    file's first records (those of its first :data:`_HEAD_BYTES` or :data:`_HEAD_RECORDS`, read by
    the parent before any worker starts)."""
    from toolwire.engines._core._pool import line_end_after

    end = min(first[1], line_end_after(name, first[0] + _HEAD_BYTES))
    calls: list[_Call] = []

    def each(line: int | None, record: Any) -> None:
        _record(name, line, record, kind, body, group_by, None, calls, {}, [])
        if len(calls) >= _HEAD_RECORDS:
            raise _Enough

    with contextlib.suppress(_Enough):
        _read(name, kind, body, None, None, calls, {}, [], (first[0], end, first[2]), each)
    return _Detector(calls, None).samples, [call.group for call in calls]


class _Enough(Exception):
    """The head of a log has given the bodies its fields are detected from."""


def _gathered(name: str, done: list[tuple[Any, tuple[str, Any]]], split: bool) -> list[Report]:
    """The reports of one file from what its parts gave."""
    from toolwire.engines._core._pool import died, failed

    found: dict[tuple[str, str], _Found] = {}
    problems: list[Problem] = []
    for part, (status, value) in done:
        if status == "usage":
            raise UsageError(value)
        if status != "ok":
            why = died(part, value) if status == "died" else failed(part, value)
            problems.append(Problem(part.before + 1 if split else None, None, why))
        elif not split:
            return list(value)
        else:
            part_found, part_problems = value
            problems.extend(part_problems)
            for key, bucket in part_found.items():
                mine = found.setdefault(key, _Found())
                mine.events += bucket.events
                mine.findings.extend(bucket.findings)
    return _reports([name], found, {name: problems})


def check_log_range(
    path: str,
    start: int,
    end: int,
    before: int,
    *,
    kind: Preset | None,
    body: str | None,
    order_by: str | None,
    protocol: str | None,
    profile: str | None,
    samples: dict[Any, list[Any]],
) -> tuple[dict[tuple[str, str], _Found], list[Problem]]:
    """What the records of bytes ``start``-``end`` of the log at ``path`` (``before`` lines precede
    them) gave, ungrouped: a worker's part (see :func:`_in_parallel`); ``samples`` are the file's
    first bodies, which its protocols are detected from."""
    chosen = get_protocol(protocol) if protocol is not None else None
    problems: dict[str, list[Problem]] = {path: []}
    calls: list[_Call] = []
    _read(path, kind, body, None, order_by, calls, {}, problems[path], (start, end, before))
    found: dict[tuple[str, str], _Found] = {}
    _check_groups(calls, chosen, profile, False, found, problems, samples)
    return found, problems[path]


def files_under(path: str | os.PathLike[str]) -> list[str]:
    if str(path) != "-" and os.path.isdir(path):
        # Every file under it but hidden ones (.git, .DS_Store, an editor's own), not walked into.
        names: list[str] = []
        for top, folders, files in os.walk(path):
            folders[:] = [folder for folder in folders if not folder.startswith(".")]
            names.extend(os.path.join(top, file) for file in files if not file.startswith("."))
        if not names:
            raise UsageError(f"{path} is a folder with no files in it (but hidden ones, if any)")
        return sorted(names)
    return [str(path)]


def _read(
    name: str,
    kind: Preset | None,
    body: str | None,
    group_by: str | None,
    order_by: str | None,
    calls: list[_Call],
    joined: dict[Any, Any],
    problems: list[Problem],
    span: tuple[int, int, int] | None = None,
    each: Callable[[int | None, Any], None] | None = None,
    stdin: BinaryIO | None = None,
) -> None:
    """Read the records of the file ``name`` (of its bytes ``start``-``end`` when ``span`` is
    ``(start, end, lines before start)``; ``-``: ``stdin``, else standard input) into ``calls``;
    or hand each record, with its line, to ``each``."""
    try:
        raw = open(name, "rb") if name != "-" else None  # noqa: SIM115 (closed below)
    except OSError as exc:
        problems.append(Problem(None, None, f"cannot read {name}: {exc.strerror}"))
        return
    stream_in: Any = raw if raw is not None else (stdin or sys.stdin.buffer)
    before = 0
    if span is not None and raw is not None:
        from toolwire.engines._core._pool import Range

        stream_in, before = Range(raw, span[0], span[1]), span[2]
    try:
        head, stream = sniff(stream_in)
        unreadable = not_a_trace(head)
        if unreadable is not None:
            problems.append(Problem(None, None, unreadable))
            return

        def sink(line: int | None, message: str) -> None:
            problems.append(Problem(None if line is None else line + before, None, message))

        # A part of a file is JSON Lines: the parent cut the file so (its own first line may be a
        # record cut short, whose head alone reads as neither).
        frames = read_frames(stream, sink, "jsonl" if span is not None else detect_format(head))
        if before:
            from toolwire.engines._core._pool import shifted

            frames = shifted(frames, before)
        if is_otlp(head):
            _read_otlp(name, frames, group_by, order_by, calls, problems)
            return
        if kind is None and body is None:
            raise UsageError(
                f"{name}: say where each record keeps its bodies: --request PATH, --response PATH, "
                "--body PATH or --log PRESET"
            )
        if kind is not None and kind.recorded and (span is None or span[0] == 0):
            problems.append(
                Problem(
                    None,
                    None,
                    f"{kind.name} keeps what an SDK recorded of each call, not the bytes on the wire: "
                    "the findings are about the recorded messages",
                    "warning",
                )
            )
        if each is not None:
            for line, record, _ in frames:
                each(line, record)
            return
        for line, record, _ in frames:
            _record(name, line, record, kind, body, group_by, order_by, calls, joined, problems)
    finally:
        if raw is not None:
            raw.close()


def _read_otlp(
    name: str,
    frames: Iterable[Any],
    group_by: str | None,
    order_by: str | None,
    calls: list[_Call],
    problems: list[Problem],
) -> None:
    before = len(calls)
    # --group-by / --order-by name attributes.  A file none of whose calls has one keeps its own
    # grouping (conversation, else trace) or order (start time), as when it is not given: it may
    # be meant for other files of the same check.  Where some have it, the others have none (and
    # are said so), never a start time in nanoseconds sorted among turn numbers.
    own: list[tuple[_Call, Any, Any]] = []
    for line, document, _ in frames:
        for found in recorded_calls(line, document, problems):
            group = found.attributes.get(group_by) if group_by else found.group
            order = found.attributes.get(order_by) if order_by else found.order
            call = _Call(name, line, group, order, len(calls), otlp=True)
            if group_by or order_by:
                own.append((call, found.group, found.order))
            if found.request is not None:
                value, where, endpoint = found.request
                genai = endpoint is not None
                call.request = _Body(value, name, line, where, "request", endpoint, genai, wrapped=genai)
            if found.response is not None:
                value, where, endpoint = found.response
                call.response = _Body(value, name, line, where, "response", endpoint, endpoint is not None)
            calls.append(call)
    if group_by and all(call.group is None for call, _, _ in own):
        for call, group, _ in own:
            call.group = group
    if order_by and all(call.order is None for call, _, _ in own):
        for call, _, order in own:
            call.order = order
    if len(calls) == before:
        problems.append(
            Problem(
                None,
                None,
                "no span or log record holds GenAI messages (gen_ai.input.messages, "
                "gen_ai.output.messages, OpenInference's input.value / llm.input_messages, or "
                "gen_ai.prompt.N): nothing to check",
            )
        )


def _record(
    name: str,
    line: int | None,
    record: Any,
    kind: Preset | None,
    body: str | None,
    group_by: str | None,
    order_by: str | None,
    calls: list[_Call],
    joined: dict[Any, Any],
    problems: list[Problem],
) -> None:
    where = f"record at line {line}" if line is not None else "record"
    if not isinstance(record, dict):
        problems.append(Problem(line, None, f"{where} is not a JSON object; nothing checked"))
        return
    only = kind.only if kind is not None else None
    if only is not None and dig(record, only[0]) not in (MISSING, only[1]):
        return  # not a model call: a span or event of the same trace
    group = value_at(record, group_by)
    order = value_at(record, order_by)
    named = group_key(group) if group_by else None
    failed = _failed(record, kind) if kind is not None else None
    if failed is not None:
        said = f"{where} logged a failed call ({failed}); its response is not checked"
        problems.append(Problem(line, None, said, "warning", group=named))
    call = _Call(name, line, group, order, len(calls), failed=failed is not None)
    sent = dig(record, kind.endpoint) if kind is not None and kind.endpoint else None
    endpoint = (endpoint_of(sent) if "://" in sent else sent) if isinstance(sent, str) else None
    read: list[str] = []
    for side, path in (
        ("request", kind.request if kind else None),
        ("response", kind.response if kind else None),
    ):
        if path is None or (side == "response" and failed is not None):
            continue
        read.append(path)
        value = dig(record, path)
        if value is MISSING or value is None:
            continue
        wrapped = side == "request" and kind is not None and kind.messages and isinstance(value, list)
        if wrapped:
            value = {"messages": value}
        if side == "response" and kind is not None and kind.messages and isinstance(value, str):
            # An SDK recorded the model's text alone (Langfuse's output is any value): an answer, no calls.
            value = {"role": "assistant", "content": value}
        if (
            side == "response"
            and kind is not None
            and kind.messages
            and isinstance(value, dict)
            and "role" in value
        ):
            # An SDK recorded the model's message alone: checked as the response body holding it.
            finish = "tool_calls" if value.get("tool_calls") else "stop"
            value = {"choices": [{"index": 0, "message": value, "finish_reason": finish}]}
        setattr(call, side, _Body(value, name, line, path, side, endpoint, wrapped=wrapped))  # type: ignore[arg-type]
    if body is not None:
        read.append(body)
        value = dig(record, body)
        if value is not MISSING and value is not None:
            side = _side(value)
            setattr(call, side, _Body(value, name, line, body, side, endpoint))
    if call.request is None and call.response is None:
        if failed is None:
            problems.append(Problem(line, None, f"{where}: no body at {' or '.join(read)}; nothing checked"))
        elif kind is not None and kind.key:
            # A failed batch line still answers its input line: joined, with nothing of its own.
            _join(call, dig(record, kind.key), kind, joined, calls, problems)
        return
    if kind is not None and kind.request and kind.response and failed is None and not body:
        gone = kind.request if call.request is None else kind.response if call.response is None else None
        if gone is not None:
            # A turn with one side: in a conversation, the next turn cannot be compared with it.
            said = f"{where}: no body at {gone}; only its {'response' if call.request is None else 'request'}"
            problems.append(Problem(line, None, said + " is checked", "warning", group=named))
    if kind is None or not kind.key:
        calls.append(call)
        return
    _join(call, dig(record, kind.key), kind, joined, calls, problems)


def _join(
    call: _Call, key: Any, kind: Preset, joined: dict[Any, Any], calls: list[_Call], problems: list[Problem]
) -> None:
    """Add ``call``, a batch line, to ``calls``, or join it to the other half of its line given
    in another file: an input line (its request) and an output line (its response) join on their
    ``key`` (``custom_id``), each output line to the first input line of its key not joined yet.
    Two input (or two output) files are never joined; a key twice in one file is a problem, and
    both lines are checked.  ``joined`` holds the lines of each key in each file, and the halves
    still waiting for their other half (:func:`_unjoined` names the output lines left)."""
    where = f"record at line {call.line}" if call.line is not None else "record"
    if key is MISSING or isinstance(key, bool) or not isinstance(key, str | int):
        checked = "its body is checked alone" if call.request or call.response else "it logged a failed call"
        problems.append(Problem(call.line, None, f"{where} has no {kind.key} to join it by; {checked}"))
        calls.append(call)
        return
    first = joined.setdefault(("line", call.source, key), call.line)
    if first != call.line:
        at = f"line {first}" if first is not None else "another record"
        said = f"{where}: {kind.key} {key!r} again ({at} has it); it must be unique: both lines are checked"
        problems.append(Problem(call.line, None, said))
    # Which half of a batch line the file holds: the request (an input) or the response (an output).
    half = "request" if kind.response is None else "response" if kind.request is None else None
    if half is None:
        calls.append(call)
        return
    waiting: list[_Call] = joined.get(("waiting", "response" if half == "request" else "request", key), [])
    if not waiting:
        joined.setdefault(("waiting", half, key), []).append(call)
        calls.append(call)
        return
    # The other half of a batch line given in another file (input and output join on their key).
    other = waiting.pop(0)
    opposite = "response" if half == "request" else "request"
    joined[("joined", "", key)] = {half: (call.source, call.line), opposite: (other.source, other.line)}
    if any(left.source != other.source for left in waiting):
        # Two batches given together, both with this key: the first file given is the one joined.
        at = f"{other.source} line {other.line}" if other.line is not None else other.source
        said = f"{where}: {kind.key} {key!r} is in more than one file of the other half given; "
        problems.append(Problem(call.line, None, said + f"joined with {at}", "warning"))
    other.request = other.request or call.request
    other.response = other.response or call.response
    sent_to = next(
        (b.endpoint for b in (other.request, other.response) if b is not None and b.endpoint), None
    )
    for part in (other.request, other.response):
        if part is not None and part.endpoint is None:
            part.endpoint = sent_to
    if other.group is None:
        other.group = call.group


def _side(value: Any) -> Side:
    """Whether a body read at ``--body`` is a request or a response: a request holds its messages
    in a list at its protocol's ``container`` (``messages``, ``contents``, ``input``), as detection
    asks of a request body, or is a list (of messages); any other body is a response."""
    if isinstance(value, list):
        return "request"
    if isinstance(value, dict):
        for spec in PROTOCOLS.values():
            if spec.shape == "conversation" and isinstance(value.get(spec.container or ""), list):
                return "request"
    return "response"


def _unjoined(
    files: list[tuple[str, Preset | None]], joined: dict[Any, Any], problems: dict[str, list[Problem]]
) -> None:
    """Warn of each line of a batch whose key no line of the other half has, when that half was
    given: an output line's response is checked alone, without its request's protocol and
    endpoint; an input line's request has no response to follow (the line failed, or its output
    is in another file)."""
    halves = {
        "request": [k for _, k in files if k is not None and k.key and k.response is None],
        "response": [k for _, k in files if k is not None and k.key and k.request is None],
    }
    for (tag, half, key), waiting in joined.items():
        other = "request" if half == "response" else "response"
        if tag != "waiting" or not halves[other]:
            continue
        for call in waiting:
            where = f"record at line {call.line}" if call.line is not None else "record"
            name = "input" if other == "request" else "output"
            said = f"{where}: no batch {name} line given has {halves[other][0].key} {key!r}"
            if ("joined", "", key) in joined:
                # Two files of this half have the key: the other half's line joined the one read first.
                pair = joined[("joined", "", key)]
                (source, line), (theirs, at) = pair[half], pair[other]
                said = f"{where}: the batch {name} line of {halves[other][0].key} {key!r} ({theirs}:{at}) "
                said += f"joined {source}:{line}, read before this one"
            said += f"; its {half} is checked alone"
            problems[call.source].append(Problem(call.line, None, said, "warning"))


def _failed(record: dict[str, Any], kind: Preset) -> str | None:
    """What says the record logged a failed call (``response.status 429``), or None."""
    if kind.error is not None:
        error = dig(record, kind.error)
        if error is not MISSING and error is not None:
            fields = error if isinstance(error, dict) else {}
            said = next((fields[k] for k in ("code", "type") if fields.get(k)), None)
            return f"{kind.error} {said!r}" if isinstance(said, str | int) else f"{kind.error} set"
    if kind.failed is not None:
        path, ok = kind.failed
        value = dig(record, path)
        if value is not MISSING and value != ok:
            return f"{path} {value!r}"
    return None


def value_at(record: Any, path: str | None) -> Any:
    if path is None:
        return None
    value = dig(record, path)
    return None if value is MISSING else value


def _sort_key(call: _Call) -> tuple[Any, ...]:
    """Numbers (and numbers written as text: ``"9"`` before ``"10"``) in order, then text (an ISO
    8601 time sorts as text), then records with no value; ties as logged."""
    order = call.order
    if order is None:
        return (1, 0, "", call.seq)
    number = _number(order)
    if number is None:
        return (0, 1, order if isinstance(order, str) else group_key(order), call.seq)
    return (0, 0, number, call.seq)


def _number(order: Any) -> float | None:
    """``order`` as a finite number, when it is one or is text that reads as one (not true/false)."""
    if isinstance(order, bool):
        return None
    if isinstance(order, int | float):
        return order if math.isfinite(order) else None
    if isinstance(order, str):
        try:
            number = float(order)
        except ValueError:
            return None
        return number if math.isfinite(number) else None
    return None


def _order_problems(members: list[_Call], group: Any, order_by: str) -> list[tuple[str, Problem]]:
    """What keeps ``members`` (a group of more than one, sorted) from being in a sure order: a
    record with no value at ``order_by``, and values that mix numbers and text."""
    missing = f"no value at --order-by {order_by}: checked after the group's records that have one"
    out = [
        (call.source, _grouped(call.line, missing, group, "warning"))
        for call in members
        if call.order is None
    ]
    kinds = {_number(call.order) is None for call in members if call.order is not None}
    if len(kinds) > 1:
        first = members[0]
        mixed = f"the values at --order-by {order_by} mix numbers and other values: numbers first"
        out.append((first.source, _grouped(first.line, mixed, group, "warning")))
    return out


def _check_groups(
    calls: list[_Call],
    chosen: Protocol | None,
    profile: str | None,
    grouped: bool,
    found: dict[tuple[str, str], _Found],
    problems: dict[str, list[Problem]],
    samples: dict[Any, list[Any]] | None = None,
    settled: dict[Any, Protocol | None] | None = None,
    ranks: dict[tuple[str, str], tuple[Any, ...]] | None = None,
    paths: tuple[str | None, str | None] = (None, None),
) -> dict[Any, Protocol | None]:
    """Check ``calls`` group by group; the protocol each field's bodies were detected as (``settled``:
    fields already detected, from an earlier run's return).  ``ranks`` gets, for each key added to
    ``found``, where a check of the whole log would have added it: (its group's first record's
    file and line, the call's place in its group, its side), so that parts checked apart are put
    back in that order.  ``paths``: ``--group-by`` and ``--order-by``, named in the warnings about
    records that have no value there."""
    group_by, order_by = paths
    groups: dict[Any, list[_Call]] = {}
    for call in calls:
        key = group_key(call.group) if grouped or call.otlp else None
        if key is None and group_by is not None:
            message = f"no value at --group-by {group_by}: checked alone, as no conversation's turn"
            problems.setdefault(call.source, []).append(Problem(call.line, None, message, "warning"))
        groups.setdefault(("\0", call.seq) if key is None else key, []).append(call)
    detector = _Detector(calls, chosen, samples)
    detector.by_field.update(settled or {})
    for key, members in groups.items():
        first = (members[0].source, members[0].line or 0)  # where the group first shows, in file order
        members.sort(key=_sort_key)
        if order_by is not None and len(members) > 1:
            for source, problem in _order_problems(members, key, order_by):
                problems.setdefault(source, []).append(problem)
        before: list[Turn] | None = None
        named = key if not isinstance(key, tuple) else None
        group = named if (named is not None and len(members) > 1) or grouped else None
        for k, call in enumerate(members):
            known = len(found)
            if call.request is not None:
                partner = detector.protocol(call.response)[0] if call.response is not None else None
                monitor = _check(call.request, detector, profile, before, group, found, problems, partner)
                if monitor is None:
                    before = None
                if ranks is not None and len(found) > known:
                    _ranked(found, known, ranks, (*first, k, 0))
                    known = len(found)
            if call.response is not None:
                monitor = _check(call.response, detector, profile, None, group, found, problems)
                before = monitor.calls() if monitor is not None else None
                if ranks is not None and len(found) > known:
                    _ranked(found, known, ranks, (*first, k, 1))
            elif not call.failed:
                # A failed call's retry replays the same history: it answers the turn before it too.
                before = None
    return detector.by_field


def _ranked(
    found: dict[tuple[str, str], _Found], known: int, ranks: dict[tuple[str, str], Any], rank: Any
) -> None:
    for key in list(found)[known:]:
        ranks[key] = rank


def group_key(value: Any) -> str | None:
    """A group's key and name: text as it is; any other JSON value as its JSON text, keys sorted
    (equal objects are one group whatever the order of their keys, in every process; ``true`` is
    not ``1``; ``7``, ``7.0`` and ``"7"`` are one, as are ``true`` and ``"true"``); None for no
    group (None, or empty text)."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # 7.0 is 7 (a log written through a float column)
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    except (TypeError, orjson.JSONEncodeError):  # not from JSON: a Python caller's own value
        return repr(value)


class _Detector:
    """The protocol of each body: ``-p``, else detected from the bodies of its field together, else alone."""

    def __init__(
        self, calls: list[_Call], chosen: Protocol | None, given: dict[Any, list[Any]] | None = None
    ) -> None:
        self.chosen = chosen
        self.by_field: dict[tuple[str, str, Side, str | None], Protocol | None] = {}
        # A part of a file is detected from the file's first bodies (given), not its own.
        self.samples: dict[tuple[str, str, Side, str | None], list[Any]] = dict(given or {})
        fixed = set(self.samples)
        for call in calls:
            for part in (call.request, call.response):
                if part is not None and self._key(part) not in fixed:
                    sample = self.samples.setdefault(self._key(part), [])
                    if len(sample) < _SAMPLE:
                        sample.append(part.value)

    @staticmethod
    def _key(part: _Body) -> tuple[str, str, Side, str | None]:
        where = part.where.split(" ", 2)[-1] if part.where.startswith(("span ", "log record")) else part.where
        return (part.source, where, part.side, part.endpoint)

    def protocol(self, part: _Body, partner: Protocol | None = None) -> tuple[Protocol | None, str]:
        """``part``'s protocol, or why none; ``partner`` is the other side's, which settles a tie."""
        chosen = self.chosen
        if chosen is not None and not part.genai:
            if (chosen.shape == "conversation") == (part.side == "request"):
                return chosen, ""
            if part.side == "response" and chosen.follows:
                names = [n for n in self._candidates([part.value], part) if n in chosen.follows]
                if len(names) == 1:
                    return get_protocol(names[0]), ""
                return None, f"{part.where} is none of {', '.join(chosen.follows)}"
        key = self._key(part)
        if key not in self.by_field:
            self.by_field[key] = self._settled(
                self._candidates(self.samples.get(key, [part.value]), part), part, None
            )
        shared = self.by_field[key]
        if shared is not None:
            return shared, ""
        alone = self._candidates([part.value], part)
        found = self._settled(alone, part, partner)
        if found is not None:
            return found, ""
        if alone:
            return None, (
                f"{part.where}: ambiguous: it reads as {', '.join(alone)}; choose one with -p "
                "(toolwire protocols lists them)"
            )
        return None, f"{part.where}: no registered protocol recognises this body; name one with -p"

    def alone(self, part: _Body, partner: Protocol | None = None) -> Protocol | None:
        """``part``'s protocol detected from its own body, not its field's first bodies."""
        return self._settled(self._candidates([part.value], part), part, partner)

    @staticmethod
    def _settled(names: list[str], part: _Body, partner: Protocol | None) -> Protocol | None:
        if len(names) > 1 and partner is not None:
            # A request and its response are of one family: the request follows the response's protocol.
            if part.side == "request":
                names = [n for n in names if partner.name in get_protocol(n).follows]
            else:
                names = [n for n in names if n in partner.follows]
        return get_protocol(names[0]) if len(names) == 1 else None

    @staticmethod
    def _candidates(values: list[Any], part: _Body) -> list[str]:
        frames = _frames(values if part.side == "request" else values[:1], part.side)
        return list(detect(frames, part.endpoint, part.side, _document(values[0], part.side)).candidates)


def _frames(values: list[Any], side: Side) -> list[Any]:
    if side == "response" and values and isinstance(values[0], list):
        return [(None, event, None) for event in values[0]]
    out: list[Any] = []
    for value in values:
        if side == "request" and isinstance(value, list):
            out.extend((None, item, None) for item in value)
        else:
            out.append((None, value, None))
    return out


def _document(value: Any, side: Side) -> bool | None:
    return isinstance(value, dict) if side == "response" else None


def _check(
    part: _Body,
    detector: _Detector,
    profile: str | None,
    before: list[Turn] | None,
    group: Any,
    found: dict[tuple[str, str], _Found],
    problems: dict[str, list[Problem]],
    partner: Protocol | None = None,
) -> Monitor | None:
    spec, why = detector.protocol(part, partner)
    own = problems.setdefault(part.source, [])
    if spec is None:
        own.append(_grouped(part.line, why, group))
        return None
    fed = _fed(spec, part, profile if spec is detector.chosen else None)
    if isinstance(fed, str) and detector.chosen is None:
        # Its field's protocol, detected from the field's first bodies, is not this body's: a log
        # of mixed operations (Bedrock's InvokeModel beside Converse).  Detected alone, it may read.
        alone = detector.alone(part, partner)
        if alone is not None and alone is not spec:
            spec, fed = alone, _fed(alone, part, None)
    if isinstance(fed, str):
        own.append(_grouped(part.line, fed, group))
        return None
    monitor, events = fed
    if before and spec.shape == "conversation":
        check_round_trip(before, monitor)
    bucket = found.setdefault((part.source, spec.name), _Found())
    bucket.events += events
    bucket.findings.extend(_placed(f, part, group) for f in monitor.findings)
    named = _group_name(group)
    own.extend(
        Problem(part.line, None, f"{part.where}: {n.message}", "warning", group=named)
        for n in monitor.notices
    )
    return monitor


def _fed(spec: Protocol, part: _Body, profile: str | None) -> tuple[Monitor, int] | str:
    """A monitor of ``spec`` fed ``part``'s body, and its events; or why the body is not ``spec``'s."""
    monitor = spec.make(profile)
    monitor.keep_calls = True
    value = part.value
    if spec.shape == "conversation":
        container = spec.container or ""
        if isinstance(value, dict) and isinstance(value.get(container), list):
            monitor.open_document(value)
            items = value[container]
        elif isinstance(value, list):
            items = value
        else:
            return f"{part.where} holds no '{container}' list"
        monitor.feed_document(items, part.line)
        monitor.finish(len(items), part.line)
        events = len(items)
    else:
        events_in = value if isinstance(value, list) else [value]
        for index, event in enumerate(events_in):
            monitor.feed(event, index, part.line, None)
        monitor.finish(len(events_in), part.line)
        events = len(events_in)
    if events and monitor.skipped >= events:
        return f"{part.where} is not {spec.name} traffic; skipped"
    return monitor, events


def _group_name(group: Any) -> str | None:
    return None if group is None else str(group)


def _grouped(
    line: int | None, message: str, group: Any, severity: Literal["error", "warning"] = "error"
) -> Problem:
    """A problem of a record of ``group``: the group named in its message, and as its field."""
    return Problem(line, None, _named(group) + message, severity, group=_group_name(group))


def _named(group: Any) -> str:
    return "" if group is None else f"group {group}: "


def _placed(finding: Finding, part: _Body, group: Any) -> Finding:
    """``finding`` at its record's line, its path inside the record, its group in its message."""
    if finding.path is not None and part.wrapped and finding.path.startswith("messages"):
        where = part.where + finding.path.removeprefix("messages")
    elif finding.path is not None:
        where = f"{part.where}.{finding.path}"
    elif finding.index is not None:
        where = f"{part.where} event {finding.index}"
    else:
        where = part.where
    named = _group_name(group)
    return dataclasses.replace(
        finding, line=part.line, path=where, message=_named(group) + finding.message, group=named
    )


def _reports(
    names: list[str], found: dict[tuple[str, str], _Found], problems: dict[str, list[Problem]]
) -> list[Report]:
    reports: list[Report] = []
    for name in names:
        own = sorted(problems.get(name, []), key=lambda p: (p.line is None, p.line or 0))
        if len(own) > MAX_PROBLEMS:
            left = own[MAX_PROBLEMS:]
            errors = unreadable_parts(left)
            worst: Literal["error", "warning"] = "error" if errors else "warning"
            own = [
                *own[:MAX_PROBLEMS],
                Problem(
                    None, None, f"{len(left)} more input problems, not listed", worst, unlisted_errors=errors
                ),
            ]
        mine = [(protocol, bucket) for (source, protocol), bucket in found.items() if source == name]
        if not mine:
            if not any(p.severity == "error" for p in own):
                own.append(Problem(None, None, "no record held a body to check"))
            reports.append(Report(name, "", 0, problems=tuple(own)))
            continue
        for k, (protocol, bucket) in enumerate(mine):
            findings = sorted(bucket.findings, key=lambda f: (f.line is None, f.line or 0, f.index or 0))
            reports.append(
                Report(name, protocol, bucket.events, tuple(findings), tuple(own) if k == 0 else ())
            )
    return reports


def run_log_part(part: Any) -> Any:
    """A pool worker's run of one whole log file (:mod:`._jobs`)."""
    o = part.options
    return _check_files([(part.path, o["kind"])], o["body"], None, o["order_by"], o["protocol"], o["profile"])


def run_log_range_part(part: Any) -> Any:
    """A pool worker's run of one byte range of a log file (:mod:`._jobs`)."""
    return check_log_range(part.path, part.start, part.end, part.before, **part.options)
