"""Production logs: check the bodies inside log records, and the turns of a conversation across records.

``toolwire check --request/--response/--body PATH``, ``--log PRESET`` and OTLP JSON files come
here.  The check is a pipeline (:mod:`._pipeline`): each file is read (:mod:`._reader`), its
records read into model calls (:mod:`._records`: the bodies taken by dotted paths,
:mod:`._envelopes`, or from OpenTelemetry spans, :mod:`._otlp`), the calls checked group by group
(:mod:`._checker`: each body's protocol detected as ``check`` detects a file's, :mod:`._detector`;
with ``--group-by``, the round-trip rules between consecutive turns of a conversation), and the
reports made (:mod:`._report`).  Every finding names its file and record line, and its group in its
message.  A record from which no path reads a body is a :class:`Problem` with its line, never clean.

``--jobs N`` runs the same stages on a pool of processes (:mod:`._plans`, :mod:`._groups_jobs`).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, BinaryIO

from toolwire.engines._core._events import Handler, PartFailed, ReportReady
from toolwire.engines._core._results import Report, strictly
from toolwire.engines.logs._envelopes import Preset, preset
from toolwire.engines.logs._pipeline import LogFile, check_files
from toolwire.engines.logs._reader import files_under, is_otlp_file
from toolwire.errors import UsageError
from toolwire.protocols import get_protocol

if TYPE_CHECKING:
    from toolwire.engines._core._pool import Part

__all__ = ["check_log", "check_log_input", "envelope"]


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
    handlers: Sequence[Handler] = (),
    strict: bool = False,
) -> list[Report]:
    """Check the bodies logged in ``paths`` (files or folders), one :class:`Report` per file and protocol.

    ``request`` / ``response`` / ``body`` are dotted paths into each record (``body``: a body of
    either side); ``presets`` name the sources' own paths, one per file given (or one for all).
    OTLP JSON files need neither.  ``group_by`` / ``order_by`` are dotted paths (an OTLP span's
    attribute names) that gather the records of one conversation and order them.  ``protocol``
    names the requests' protocol (or the responses', when it is a response's).  ``jobs`` processes
    (None: the CPU count) check the files, and big JSON Lines logs cut at line ends, when no
    record's meaning depends on another file's or line's: no ``group_by``, no joined batch halves,
    no OpenTelemetry file (:mod:`._plans`); the reports are the same.  ``handlers`` are called
    with a :class:`ReportReady` event per file once the reports are made (and a :class:`PartFailed`
    for each part of a pool whose check raised, as it is met).  ``strict`` judges the reports under
    ``--strict``: a warning fails as an error does.

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
    files: list[LogFile] = []
    for k, path in enumerate(paths):
        kind = envelope(kinds[k] if len(kinds) > 1 else (kinds[0] if kinds else None), request, response)
        files.extend((name, kind) for name in files_under(path))
    if order_by is not None and group_by is None and not all(is_otlp_file(name) for name, _ in files):
        # Records are checked alone without a group: there is nothing to order.
        raise UsageError(
            "--order-by orders the records of each conversation: name what gathers them with --group-by "
            "(OpenTelemetry files alone are grouped by conversation or trace without it)"
        )
    reports: list[Report] | None = None
    if jobs != 1:
        from toolwire.engines.logs._plans import grouped_in_parallel, in_parallel

        def on_failure(part: Part, traceback: str) -> None:
            _emit(handlers, PartFailed(engine="logs", part=part.label, traceback=traceback))

        if group_by is None:
            reports = in_parallel(files, body, order_by, protocol, profile, jobs, on_failure)
        else:
            reports = grouped_in_parallel(
                files, body, group_by, order_by, protocol, profile, jobs, on_failure
            )
    if reports is None:
        reports = check_files(files, body, group_by, order_by, protocol, profile)
    return _ready(strictly(reports, strict), handlers)


def check_log_input(
    stream: BinaryIO, *, protocol: str | None, profile: str | None, handlers: Sequence[Handler] = ()
) -> list[Report]:
    """:func:`check_log` of the OTLP JSON on standard input, read from ``stream``: ``check -`` read
    its head to tell what it is, and gives it back in front of the rest."""
    return _ready(check_files([("-", None)], None, None, None, protocol, profile, stream), handlers)


def envelope(kind: Preset | None, request: str | None, response: str | None) -> Preset | None:
    """Where records keep their bodies: ``kind`` (a preset), its paths replaced by ``request`` and
    ``response`` where given; None when neither names a path (``--body`` alone, or OTLP)."""
    if kind is not None and (request or response):
        return dataclasses.replace(kind, request=request or kind.request, response=response or kind.response)
    if kind is None and (request or response):
        return Preset("", "", request=request, response=response)
    return kind


def _ready(reports: list[Report], handlers: Sequence[Handler]) -> list[Report]:
    """``reports``, each file's announced to ``handlers`` (a :class:`ReportReady` per file, in order)."""
    if handlers:
        by_file: dict[str, list[Report]] = {}
        for report in reports:
            by_file.setdefault(report.source, []).append(report)
        for source, mine in by_file.items():
            _emit(handlers, ReportReady(engine="logs", source=source, reports=tuple(mine)))
    return reports


def _emit(handlers: Sequence[Handler], event: ReportReady | PartFailed) -> None:
    for handler in handlers:
        handler(event)
