"""The group checker: the calls of each group (a conversation, session or trace) met in order, each
body checked by its protocol's monitor, and the round-trip rules run between consecutive turns.

The calls of one group meet in order (``--order-by``, else as logged), and the request of turn
N+1 must replay the calls the response of turn N emitted, with their ids (RT-1, RT-2, as ``check
--after`` does for one pair), each answered by its own result (the request's own rules).  Every
finding names its record's line, its path inside the record, and its group in its message.

:class:`GroupChecker` holds what it keeps between batches of calls (each field's protocol, once
detected); each :meth:`GroupChecker.check` gives a :class:`Checked`, what those calls found.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from toolwire.engines._core._results import Problem
from toolwire.engines.logs._detector import Detector, Field
from toolwire.engines.logs._records import Body, Call, group_key, number
from toolwire.properties import Finding, Monitor, Protocol
from toolwire.properties._turn import Turn
from toolwire.protocols import check_round_trip

__all__ = ["Checked", "Gathered", "GroupChecker", "Key", "Rank", "grouped_problem"]

#: What a file's findings of one protocol are kept under: (file, protocol).
Key = tuple[str, str]
#: Where a check of the whole log meets a :data:`Key` first: its group's first record's file and
#: line, the call's place in its group, its side (0 request, 1 response).
Rank = tuple[Any, ...]


@dataclass(slots=True)
class Gathered:
    """What one file's bodies of one protocol gave: the makings of its :class:`Report`."""

    events: int = 0
    findings: list[Finding] = field(default_factory=list)
    #: The tool calls and results its monitors judged.
    calls: int = 0
    results: int = 0


@dataclass(slots=True)
class Checked:
    """What checking calls gave: what each file's bodies of each protocol gave (in the order met),
    each file's problems, and (when asked for) each key's :data:`Rank`, so that what parts checked
    apart gave is put back in the order of a check of the whole log."""

    found: dict[Key, Gathered] = field(default_factory=dict)
    problems: dict[str, list[Problem]] = field(default_factory=dict)
    ranks: dict[Key, Rank] = field(default_factory=dict)

    def add(self, other: Checked) -> None:
        """Take in what ``other`` gave, after what this gave (a key's rank: the lower of the two)."""
        for name, own in other.problems.items():
            self.problems.setdefault(name, []).extend(own)
        found, ranks = self.found, self.ranks
        for key, bucket in other.found.items():
            mine = found.get(key)
            if mine is None:
                mine = found[key] = Gathered()
            mine.events += bucket.events
            mine.calls += bucket.calls
            mine.results += bucket.results
            mine.findings.extend(bucket.findings)
            rank = other.ranks.get(key)
            if rank is not None and (key not in ranks or rank < ranks[key]):
                ranks[key] = rank


class GroupChecker:
    """Checks calls group by group, and keeps, from one batch of calls to the next, the protocol
    each field's bodies were detected as.

    ``chosen`` is ``-p``'s protocol; ``grouped``: the calls are grouped (``--group-by``; OTLP calls
    are grouped by their conversation or trace without it); ``group_by`` and ``order_by`` are named
    in the warnings about records with no value there; ``samples`` are each field's first bodies,
    when the calls are a part of a file; ``ranked``: each :class:`Checked` says its keys' ranks;
    ``keep_unsettled``: a field its bodies did not settle is not detected again in later batches.
    """

    def __init__(
        self,
        chosen: Protocol | None,
        profile: str | None,
        *,
        grouped: bool,
        group_by: str | None = None,
        order_by: str | None = None,
        samples: dict[Any, list[Any]] | None = None,
        ranked: bool = False,
        keep_unsettled: bool = True,
    ) -> None:
        self.chosen = chosen
        self.profile = profile
        self.grouped = grouped
        self.group_by = group_by
        self.order_by = order_by
        self.samples = samples
        self.ranked = ranked
        self.keep_unsettled = keep_unsettled
        #: The protocol each field was detected as, in the batches checked so far.
        self.settled: dict[Field, Protocol | None] = {}

    def check(self, calls: list[Call]) -> Checked:
        """What ``calls`` (whole groups) found, checked group by group (each group's calls sorted)."""
        group_by, order_by, grouped = self.group_by, self.order_by, self.grouped
        out = Checked()
        found, problems = out.found, out.problems
        ranks = out.ranks if self.ranked else None
        groups: dict[Any, list[Call]] = {}
        for call in calls:
            key = group_key(call.group) if grouped or call.otlp else None
            if key is None and group_by is not None:
                message = f"no value at --group-by {group_by}: checked alone, as no conversation's turn"
                problems.setdefault(call.source, []).append(Problem(call.line, None, message, "warning"))
            groups.setdefault(("\0", call.seq) if key is None else key, []).append(call)
        detector = Detector(calls, self.chosen, self.samples)
        detector.by_field.update(self.settled)
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
                    monitor = self._check(call.request, detector, before, group, out, partner)
                    if monitor is None:
                        before = None
                    if ranks is not None and len(found) > known:
                        _ranked(found, known, ranks, (*first, k, 0))
                        known = len(found)
                if call.response is not None:
                    monitor = self._check(call.response, detector, None, group, out)
                    before = monitor.calls() if monitor is not None else None
                    if ranks is not None and len(found) > known:
                        _ranked(found, known, ranks, (*first, k, 1))
                elif not call.failed:
                    # A failed call's retry replays the same history: it answers the turn before it too.
                    before = None
        if self.keep_unsettled:
            self.settled = detector.by_field
        else:
            self.settled.update((key, spec) for key, spec in detector.by_field.items() if spec is not None)
        return out

    def _check(
        self,
        part: Body,
        detector: Detector,
        before: list[Turn] | None,
        group: Any,
        out: Checked,
        partner: Protocol | None = None,
    ) -> Monitor | None:
        """Check one body (after the turn ``before``, for the round-trip rules) into ``out``: its
        monitor, or None when it could not be checked (said as a problem)."""
        spec, why = detector.protocol(part, partner)
        own = out.problems.setdefault(part.source, [])
        if spec is None:
            own.append(grouped_problem(part.line, why, group))
            return None
        fed = _fed(spec, part, self.profile if spec is detector.chosen else None)
        if isinstance(fed, str) and detector.chosen is None:
            # Its field's protocol, detected from the field's first bodies, is not this body's: a log
            # of mixed operations (Bedrock's InvokeModel beside Converse).  Detected alone, it may read.
            alone = detector.alone(part, partner)
            if alone is not None and alone is not spec:
                spec, fed = alone, _fed(alone, part, None)
        if isinstance(fed, str):
            own.append(grouped_problem(part.line, fed, group))
            return None
        monitor, events = fed
        if before and spec.shape == "conversation":
            check_round_trip(before, monitor)
        bucket = out.found.get((part.source, spec.name))
        if bucket is None:
            bucket = out.found[(part.source, spec.name)] = Gathered()
        bucket.events += events
        calls, results = monitor.checked()
        bucket.calls += calls
        bucket.results += results
        bucket.findings.extend(_placed(f, part, group) for f in monitor.findings)
        named = _group_name(group)
        own.extend(
            Problem(part.line, None, f"{part.where}: {n.message}", "warning", group=named)
            for n in monitor.notices
        )
        return monitor


def _ranked(found: dict[Key, Gathered], known: int, ranks: dict[Key, Rank], rank: Rank) -> None:
    for key in list(found)[known:]:
        ranks[key] = rank


def _fed(spec: Protocol, part: Body, profile: str | None) -> tuple[Monitor, int] | str:
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


def grouped_problem(
    line: int | None, message: str, group: Any, severity: Literal["error", "warning"] = "error"
) -> Problem:
    """A problem of a record of ``group``: the group named in its message, and as its field."""
    return Problem(line, None, _named(group) + message, severity, group=_group_name(group))


def _named(group: Any) -> str:
    return "" if group is None else f"group {group}: "


def _placed(finding: Finding, part: Body, group: Any) -> Finding:
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


def _sort_key(call: Call) -> tuple[Any, ...]:
    """Numbers (and numbers written as text: ``"9"`` before ``"10"``) in order, then text (an ISO
    8601 time sorts as text), then records with no value; ties as logged."""
    order = call.order
    if order is None:
        return (1, 0, "", call.seq)
    value = number(order)
    if value is None:
        return (0, 1, order if isinstance(order, str) else group_key(order), call.seq)
    return (0, 0, value, call.seq)


def _order_problems(members: list[Call], group: Any, order_by: str) -> list[tuple[str, Problem]]:
    """What keeps ``members`` (a group of more than one, sorted) from being in a sure order: a
    record with no value at ``order_by``, and values that mix numbers and text."""
    missing = f"no value at --order-by {order_by}: checked after the group's records that have one"
    out = [
        (call.source, grouped_problem(call.line, missing, group, "warning"))
        for call in members
        if call.order is None
    ]
    kinds = {number(call.order) is None for call in members if call.order is not None}
    if len(kinds) > 1:
        first = members[0]
        mixed = f"the values at --order-by {order_by} mix numbers and other values: numbers first"
        out.append((first.source, grouped_problem(first.line, mixed, group, "warning")))
    return out
