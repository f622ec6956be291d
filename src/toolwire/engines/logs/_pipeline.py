"""The log check in one process: read -> records -> check -> report.

:func:`check_files` is ``check_log`` of files read here: each file's records are read
(:mod:`._reader`) into calls (:class:`Records`, batch halves joined across files), the calls
checked group by group (:class:`GroupChecker`), and the reports made (:func:`reports`).  The pool's
workers run the same stages on their parts (:func:`run_log_part`, :func:`run_log_range_part`, and
the grouped ones of :mod:`._groups_jobs`).
"""

from __future__ import annotations

import contextlib
from typing import Any, BinaryIO, Final

from toolwire.engines._core._results import Problem, Report
from toolwire.engines.logs._checker import Checked, GroupChecker
from toolwire.engines.logs._detector import SAMPLE, Detector
from toolwire.engines.logs._envelopes import Preset
from toolwire.engines.logs._reader import read
from toolwire.engines.logs._records import Records
from toolwire.engines.logs._report import reports
from toolwire.protocols import get_protocol

__all__ = [
    "HEAD_BYTES",
    "LogFile",
    "check_files",
    "check_log_range",
    "head",
    "read_then_checked",
    "run_log_part",
    "run_log_range_part",
]

#: A file to check, and the envelope that says where its records keep their bodies.
LogFile = tuple[str, Preset | None]

#: The head of a log its fields' protocols are detected from when it is checked in parts: so many
#: bytes at most, so many records at most (enough for :data:`SAMPLE` bodies of each field).
HEAD_BYTES: Final = 2 << 20
_HEAD_RECORDS: Final = 4 * SAMPLE


def check_files(
    files: list[LogFile],
    body: str | None,
    group_by: str | None,
    order_by: str | None,
    protocol: str | None,
    profile: str | None,
    stdin: BinaryIO | None = None,
) -> list[Report]:
    """``check_log`` of ``files`` in this process; ``-`` is read from ``stdin`` when given (else
    standard input)."""
    chosen = get_protocol(protocol) if protocol is not None else None
    records = Records(body, group_by, order_by)
    for name, kind in files:
        read(name, kind, records, stdin=stdin)
    records.unjoined(kind for _, kind in files)
    checker = GroupChecker(
        chosen, profile, grouped=group_by is not None, group_by=group_by, order_by=order_by
    )
    return reports(
        [name for name, _ in files], read_then_checked(records.problems, checker.check(records.calls))
    )


def read_then_checked(problems: dict[str, list[Problem]], checked: Checked) -> Checked:
    """What reading gave (``problems``, each file's input problems) and checking gave, together:
    each file's problems those of reading first, as they were met."""
    out = Checked(problems=problems)
    out.add(checked)
    return out


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
) -> Checked:
    """What the records of bytes ``start``-``end`` of the log at ``path`` (``before`` lines precede
    them) gave, ungrouped: a worker's part; ``samples`` are the file's first bodies, which its
    protocols are detected from."""
    chosen = get_protocol(protocol) if protocol is not None else None
    records = Records(body, None, order_by)
    read(path, kind, records, span=(start, end, before))
    checked = GroupChecker(chosen, profile, grouped=False, samples=samples).check(records.calls)
    return read_then_checked(records.problems, checked)


def run_log_part(part: Any) -> list[Report]:
    """A pool worker's run of one whole log file."""
    o = part.options
    return check_files([(part.path, o["kind"])], o["body"], None, o["order_by"], o["protocol"], o["profile"])


def run_log_range_part(part: Any) -> Checked:
    """A pool worker's run of one byte range of a log file."""
    return check_log_range(part.path, part.start, part.end, part.before, **part.options)


def head(
    name: str,
    kind: Preset | None,
    body: str | None,
    first: tuple[int, int, int, int],
    group_by: str | None = None,
) -> tuple[dict[Any, list[Any]], list[Any]]:
    """The bodies each field's protocol is detected from, and the groups at ``group_by``, of the
    file's first records (those of its first :data:`HEAD_BYTES` or so many records, in its first
    part ``first``: start, end, lines before, lines), read by the parent before any worker starts."""
    from toolwire.engines._core._pool import line_end_after

    end = min(first[1], line_end_after(name, first[0] + HEAD_BYTES))
    records = Records(body, group_by)
    calls = records.calls

    def each(line: int | None, record: Any) -> None:
        records.add(name, kind, line, record)
        if len(calls) >= _HEAD_RECORDS:
            raise _Enough

    with contextlib.suppress(_Enough):
        read(name, kind, records, each=each, span=(first[0], end, first[2]))
    return Detector(calls, None).samples, [call.group for call in calls]


class _Enough(Exception):
    """The head of a log has given the bodies its fields are detected from."""
