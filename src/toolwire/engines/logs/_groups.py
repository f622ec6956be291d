"""The records of one group checked where they already are: rows of a fixed schema, for Spark, Dask or a loop.

``toolwire check --log ... --group-by PATH`` reads files; a log that lives in a cluster is a table
whose rows reach a function a group at a time.  :class:`GroupMonitor` takes those records one by one
(``feed``, as a Spark Python UDTF's ``eval`` does) and checks them when the group ends (``finish``,
its ``terminate``), by the same stages as ``check`` (:mod:`._records`, :mod:`._checker`): the same
envelopes and presets, the same order (``order_by``, else as fed), the same round-trip rules between
turns, and the same findings, each at the line (or index) it was fed with.  :func:`check_group` is
the loop over a list.  What comes back is :class:`LogRow` rows: one per finding and per input
problem, and one summary per group (kind ``group``), so a clean group is counted too.

A monitor detects each field's protocol (the request bodies at one path, say) from the first group
whose bodies settle it, and keeps it for the groups after (``check`` detects a file's from its first
fifty bodies): the same protocol wherever the bodies are unambiguous.  Where they are not, name it
(``protocol=``), as ``-p`` does, so that the rows cannot depend on how a cluster split the log.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final, Literal

from toolwire.engines._core._results import Problem
from toolwire.engines.logs._check_log import envelope
from toolwire.engines.logs._checker import GroupChecker
from toolwire.engines.logs._envelopes import preset as preset_named
from toolwire.engines.logs._records import Call, Records, group_key, value_at
from toolwire.errors import UsageError
from toolwire.properties import Finding
from toolwire.protocols import get_protocol

__all__ = ["LOG_COLUMNS", "GroupMonitor", "LogRow", "check_group"]

RowKind = Literal["finding", "problem", "group"]

#: The rows' columns and their types, in :class:`LogRow`'s order (``toolwire.spark`` builds its Arrow
#: and Spark schemas from these; ``tests/unit/test_groups.py`` holds them equal to the dataclass's fields).
LOG_COLUMNS: Final = (
    ("kind", "string"),
    ("source", "string"),
    ("line", "int64"),
    ("group", "string"),
    ("protocol", "string"),
    ("rule", "string"),
    ("severity", "string"),
    ("message", "string"),
    ("path", "string"),
    ("index", "int64"),
    ("ids", "list<string>"),
    ("provider_error", "string"),
    ("fix", "string"),
    ("records", "int64"),
    ("events", "int64"),
    ("findings", "int64"),
    ("problems", "int64"),
)


@dataclass(frozen=True, slots=True)
class LogRow:
    """One row of what checking log records found.

    ``kind`` is ``finding`` (a rule broken: ``rule``, ``severity``, ``path``, ``ids`` as a
    :class:`~toolwire.Finding`'s), ``problem`` (a record that could not be checked, ``severity``
    ``error``, or was skipped, ``warning``) or ``group`` (the summary of one group: ``records``,
    ``events``, ``findings`` and ``problems`` counted, ``protocol`` the protocols its bodies were
    checked as).  ``line`` is the record's line (or index) as fed; ``group`` the value at
    ``group_by`` as text, None for records without one (each checked alone, as ``check`` does).
    """

    kind: RowKind
    source: str | None
    line: int | None
    group: str | None
    protocol: str | None
    rule: str | None
    severity: str | None
    message: str
    path: str | None = None
    index: int | None = None
    ids: tuple[str, ...] = ()
    provider_error: str | None = None
    fix: str | None = None
    records: int | None = None
    events: int | None = None
    findings: int | None = None
    problems: int | None = None

    @classmethod
    def of(cls, finding: Finding, source: str, group: str | None, protocol: str) -> LogRow:
        """The row of ``finding``, found in ``group``'s records of ``source`` checked as ``protocol``."""
        f = finding
        return cls(
            "finding", source, f.line, group, protocol, f.rule, f.severity, f.message,
            f.path, f.index, f.ids, f.provider_error, f.fix,
        )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of this row, keyed by :data:`LOG_COLUMNS`."""
        return {name: list(self.ids) if name == "ids" else getattr(self, name) for name, _ in LOG_COLUMNS}


class GroupMonitor:
    """Log records fed one at a time, checked when their group ends: ``check --log`` for a cluster's rows.

    The options are ``check_log``'s: ``preset`` (a ``--log`` name), ``request`` / ``response`` /
    ``body`` (dotted paths into each record), ``group_by`` / ``order_by``, ``protocol``,
    ``profile``.  They are checked here, so a bad one fails before any record is read.  Records fed
    with different values at ``group_by`` are checked as separate groups, as ``check`` would.

    >>> monitor = GroupMonitor(request="body", group_by="session")
    >>> monitor.feed({"session": "s1", "body": {"messages": [
    ...     {"role": "tool", "tool_call_id": "call_1", "content": "72F"}]}}, line=7)
    >>> [(r.kind, r.rule, r.line, r.group) for r in monitor.finish()]
    [('finding', 'CC-2', 7, 's1'), ('group', None, None, 's1')]
    """

    def __init__(
        self,
        *,
        preset: str | None = None,
        request: str | None = None,
        response: str | None = None,
        body: str | None = None,
        group_by: str | None = None,
        order_by: str | None = None,
        protocol: str | None = None,
        profile: str | None = None,
        source: str = "<records>",
    ) -> None:
        chosen = get_protocol(protocol) if protocol is not None else None
        if chosen is not None:
            chosen.make(profile)
        self._kind = envelope(preset_named(preset) if preset is not None else None, request, response)
        if self._kind is None and body is None:
            raise UsageError(
                "say where each record keeps its bodies: request=PATH, response=PATH, body=PATH or "
                "preset=NAME (as check's --request, --response, --body, --log)"
            )
        self._body = body
        self._group_by = group_by
        self._order_by = order_by
        self.source = source
        self._records = Records(body, group_by, order_by)
        #: Each record's input problems, with the group it was fed in.
        self._problems: list[tuple[Any, str, Problem]] = []
        self._fed: dict[Any, int] = {}
        # A checker per monitor: it keeps the protocol of each field (source, path, side, endpoint)
        # its first group settled (detecting it again for every group of a few records cost four
        # times the check), and forgets a field no group settled yet.
        self._checker = GroupChecker(
            chosen, profile, grouped=True, group_by=group_by, order_by=order_by, keep_unsettled=False
        )

    def feed(self, record: Any, line: int | None = None, source: str | None = None) -> None:
        """Take one record (a parsed JSON value) logged at ``line`` of ``source`` (default: the monitor's)."""
        name = source if source is not None else self.source
        group = group_key(value_at(record, self._group_by)) if isinstance(record, dict) else None
        self._fed[group] = self._fed.get(group, 0) + 1
        problems = self._records.problems_of(name)
        known = len(problems)
        self._records.add(name, self._kind, line, record)
        self._problems.extend((group, name, problem) for problem in problems[known:])

    def unreadable(self, message: str, line: int | None = None, source: str | None = None) -> None:
        """Count a record that could not even be parsed (an input problem of no group)."""
        name = source if source is not None else self.source
        where = f"record at line {line}" if line is not None else "record"
        self._fed[None] = self._fed.get(None, 0) + 1
        self._problems.append((None, name, Problem(line, None, f"{where}: {message}; nothing checked")))

    def finish(self) -> list[LogRow]:
        """The rows of every group fed (findings and problems by line, then its summary), and start afresh."""
        members: dict[Any, list[Call]] = {group: [] for group in self._fed}
        for call in self._records.calls:
            members.setdefault(group_key(call.group), []).append(call)
        early: dict[Any, list[tuple[str, Problem]]] = {}
        for group, name, problem in self._problems:
            early.setdefault(group, []).append((name, problem))
        rows: list[LogRow] = []
        for group, calls in members.items():
            rows.extend(self._rows(group, calls, early.get(group, [])))
        self._records = Records(self._body, self._group_by, self._order_by)
        self._problems, self._fed = [], {}
        return rows

    def _rows(self, group: Any, calls: list[Call], early: list[tuple[str, Problem]]) -> list[LogRow]:
        checked = self._checker.check(calls)
        found, problems = checked.found, checked.problems
        named = None if group is None else str(group)
        rows = [
            LogRow("problem", name, p.line, named, None, None, p.severity, p.message, index=p.index)
            for name, p in [*early, *((n, p) for n, listed in problems.items() for p in listed)]
        ]
        events = 0
        for (name, protocol), bucket in found.items():
            events += bucket.events
            rows.extend(LogRow.of(f, name, named, protocol) for f in bucket.findings)
        rows.sort(key=lambda r: (r.line is None, r.line or 0, r.index or 0))
        sources = sorted({call.source for call in calls} | {name for name, _ in early})
        protocols = ", ".join(sorted({protocol for _, protocol in found}))
        counted = sum(r.kind == "finding" for r in rows)
        summary = LogRow(
            "group", ", ".join(sources) or None, None, named, protocols or None, None, None,
            f"{self._fed.get(group, len(calls))} records, {events} events: {counted} findings, "
            f"{len(rows) - counted} input problems",
            records=self._fed.get(group, len(calls)), events=events, findings=counted,
            problems=len(rows) - counted,
        )  # fmt: skip
        return [*rows, summary]


def check_group(
    records: Iterable[Any], *, lines: Iterable[int | None] | None = None, **options: Any
) -> list[LogRow]:
    """Check the records of one group (parsed JSON values): its findings, input problems and summary as rows.

    ``lines`` are the records' lines (or indexes) in their log, else their 1-based places in
    ``records``; ``options`` are :class:`GroupMonitor`'s (``preset``, ``request``, ``response``,
    ``body``, ``group_by``, ``order_by``, ``protocol``, ``profile``, ``source``).

    >>> turn = {"conversation": "c1", "body": {"model": "m", "messages": [{"role": "user", "content": "hi"}]}}
    >>> rows = check_group([turn], request="body", protocol="openai-chat", group_by="conversation")
    >>> [(r.kind, r.group, r.records, r.findings) for r in rows]
    [('group', 'c1', 1, 0)]

    A body several protocols read alike is an input problem of its record, never clean:

    >>> [(r.kind, r.line) for r in check_group([turn], request="body")]
    [('problem', 1), ('group', None)]
    """
    monitor = GroupMonitor(**options)
    numbers = iter(lines) if lines is not None else None
    for place, record in enumerate(records, 1):
        monitor.feed(record, next(numbers, None) if numbers is not None else place)
    return monitor.finish()
