"""``toolwire check`` of a path: a trace file, a recording or standard input, as the CLI checks it.

One open and one monitor per file: the head read once decides what the input is (a cassette or HAR
file goes to :mod:`._exchanges`, a trace without ``-p`` to detection, :mod:`._detect`), and the check
goes on from the values already read (:mod:`._check` feeds them).
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import sys
from collections.abc import Callable
from typing import BinaryIO, Final

from toolwire.engines._check import (
    _EMPTY,
    _SAMPLE,
    Problem,
    Report,
    _foreign,
    _head,
    _long,
    _open,
    _run_quietly,
    _sink,
    _stream_before,
)
from toolwire.errors import UsageError
from toolwire.models import InputFormat, detect_format, read_frames, recording_kind
from toolwire.models._wire import not_a_trace
from toolwire.properties import Monitor, Protocol
from toolwire.protocols import get_protocol

__all__ = ["check_file", "check_path", "check_usage"]


def check_path(
    path: str | os.PathLike[str],
    protocol: str | None = None,
    *,
    input_format: InputFormat | None = None,
    after: str | os.PathLike[str] | None = None,
    profile: str | None = None,
) -> list[Report]:
    """What ``toolwire check PATH`` reports: one report for a trace, one per request and response
    of a VCR cassette or HAR file.  ``-`` reads standard input (once, as it comes).

    Without ``protocol`` the trace's protocol is detected from its content (a recording's parts
    from their endpoints too); ``after`` is the stream a request followed, for the round-trip
    rules.  A file that cannot be read is a :class:`Problem` of its report (with
    :attr:`Report.unreadable` saying why); only usage that is wrong for every file (an unknown
    protocol or profile, ``after`` without a protocol, standard input twice) raises
    :class:`UsageError`.

    >>> reports = check_path("tests/data/recordings/crewai-anthropic-gzip.yaml")
    >>> [(r.source.split("#")[1], r.protocol, r.exit_code) for r in reports]
    [('1 request', 'anthropic-messages', 0), ('1 response', 'anthropic-message-response', 0)]
    """
    make = check_usage(protocol, profile, after)
    if str(path) == "-" and after is not None and str(after) == "-":
        raise UsageError(_STDIN_TWICE)
    try:
        with _open(path) as raw:
            head, stream = _head(raw)
            if recording_kind(head[:65536]) is not None:
                from toolwire.engines._exchanges import check_recording

                return check_recording(path, stream.read(), protocol, profile)
            if str(path) != "-" and _otlp(head):
                from toolwire.engines._logs import check_log

                return check_log([path], protocol=protocol, profile=profile)
            if protocol is None:
                return [_detected(path, raw, head, stream, input_format, profile)]
            assert make is not None
            return [_checked(path, get_protocol(protocol), make(), raw, head, stream, input_format, after)]
    except UsageError as exc:
        # This file alone cannot be read: say so in its report, and let the caller check the others.
        problem = Problem(None, None, str(exc))
        return [Report(str(path), protocol or "", 0, problems=(problem,), unreadable=str(exc))]


def _otlp(head: bytes) -> bool:
    """Whether ``head`` starts an OTLP JSON file (the OTLP reader loads only when it may be one)."""
    if b'"resource' not in head[:4096]:
        return False
    from toolwire.engines._otlp import is_otlp

    return is_otlp(head[:4096])


def check_file(
    path: str | os.PathLike[str],
    protocol: str,
    *,
    input_format: InputFormat | None = None,
    after: str | os.PathLike[str] | None = None,
    profile: str | None = None,
) -> Report:
    """Check a recorded trace on disk (``-`` reads standard input) as ``protocol``: :func:`check_path`
    as one report.

    A recording's parts come as the report's :attr:`~Report.parts`, their findings and problems
    gathered into its own.  Anything wrong with the file, inside or out, is a :class:`Problem`.

    >>> report = check_file("tests/data/recordings/crewai-anthropic-gzip.yaml", "anthropic-messages")
    >>> report.exit_code, [part.protocol for part in report.parts]
    (0, ['anthropic-messages', ''])
    """
    reports = check_path(path, protocol, input_format=input_format, after=after, profile=profile)
    if len(reports) == 1 and reports[0].source == str(path):
        return reports[0]
    findings = tuple(f for r in reports for f in r.findings)
    problems = tuple(p for r in reports for p in r.problems)
    events = sum(r.events for r in reports)
    return Report(str(path), protocol, events, findings, problems, parts=tuple(reports))


def check_usage(
    protocol: str | None, profile: str | None, after: str | os.PathLike[str] | None
) -> Callable[[], Monitor] | None:
    """What makes ``protocol``'s monitors of ``profile`` (None without a protocol); a
    :class:`UsageError` for usage wrong for every file: an unknown protocol or profile, or
    ``after`` without a protocol."""
    if protocol is not None:
        return get_protocol(protocol).factory(profile)
    if after is not None:
        raise UsageError("--after needs -p: name the request's protocol")
    return None


_STDIN_TWICE: Final = "standard input (-) can be read once; name it once among FILE and --after"


def _checked(
    path: str | os.PathLike[str],
    spec: Protocol,
    monitor: Monitor,
    raw: BinaryIO,
    head: bytes,
    stream: BinaryIO,
    input_format: InputFormat | None,
    after: str | os.PathLike[str] | None,
) -> Report:
    """The report of the trace in ``stream`` (``head`` its first bytes) checked as ``spec`` by
    ``monitor`` (a request log's first body's)."""
    previous = None
    problems: list[Problem] = []
    if after is not None:
        previous, before = _after(spec, after)
        problems.extend(before)
    unreadable = not_a_trace(head)
    if unreadable is not None:
        return Report(str(path), spec.name, 0, problems=(*problems, Problem(None, None, unreadable)))
    fmt = input_format or detect_format(head)
    # Typed decoding pays for importing msgspec on long traces only.
    hot = monitor.load_hot() if _long(raw) else ()
    return _run_quietly(
        spec, read_frames(stream, _sink(problems), fmt, hot), str(path), problems, fmt, previous, monitor
    )


def _detected(
    path: str | os.PathLike[str],
    raw: BinaryIO,
    head: bytes,
    stream: BinaryIO,
    input_format: InputFormat | None,
    profile: str | None,
) -> Report:
    """The report of the trace in ``stream`` checked as the protocol its first values show."""
    from toolwire.engines._detect import Detection, detect, is_document

    if not_a_trace(head) is not None:
        return Report(str(path), "", 0, problems=(Problem(None, None, Detection(None, ()).explain()),))
    fmt = input_format or detect_format(head)
    problems: list[Problem] = []
    frames = read_frames(stream, _sink(problems), fmt)
    sample = list(itertools.islice(frames, _SAMPLE))
    detection = detect(sample, document=is_document(head, fmt))
    if detection.protocol is None:
        return Report(str(path), "", 0, problems=(Problem(None, None, detection.explain()),))
    spec = get_protocol(detection.protocol)
    monitor = spec.make(profile)
    if _long(raw) and raw.seekable() and raw is not sys.stdin.buffer:
        # A long file is read again from its start, typed (see :func:`_checked`).
        raw.seek(0)
        head, stream = _head(raw)
        return dataclasses.replace(
            _checked(path, spec, monitor, raw, head, stream, input_format, None), detected=True
        )
    report = _run_quietly(spec, itertools.chain(sample, frames), str(path), problems, fmt, None, monitor)
    return dataclasses.replace(report, detected=True)


def _after(spec: Protocol, after: str | os.PathLike[str]) -> tuple[Monitor, list[Problem]]:
    """The monitor of the stream a request followed, and what of it could not be read (named so)."""
    before: list[Problem] = []
    with _open(after) as raw:
        head, stream = _head(raw)
        unreadable = not_a_trace(head)
        fmt = detect_format(head)
        frames = iter(()) if unreadable is not None else read_frames(stream, _sink(before), fmt)
        previous, stream_spec, first, events = _stream_before(spec, frames)
    # A stream that could not be read leaves the round-trip rules nothing to judge: never a
    # silent pass.
    if unreadable is not None:
        before.append(Problem(None, None, unreadable))
    elif events == 0 and not any(p.severity == "error" for p in before):
        before.append(Problem(None, None, _EMPTY))
    elif events and (foreign := _foreign(stream_spec, first, events, previous.skipped, fmt)):
        before.append(Problem(None, None, foreign))
    return previous, [
        Problem(p.line, p.index, f"in --after {after}: {p.message}", p.severity) for p in before
    ]
