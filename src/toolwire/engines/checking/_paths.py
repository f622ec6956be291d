"""``toolwire check`` of a path: a trace file, a recording or standard input, as the CLI checks it.

One open and one monitor per file: the head read once decides what the input is (a cassette or HAR
file goes to :mod:`._exchanges`, a trace without ``-p`` to detection, :mod:`._detect`), and the check
goes on from the values already read (:mod:`._check` feeds them).
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import stat
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, BinaryIO, Final

from toolwire.engines._core._events import Handler, PartFailed, ReportReady
from toolwire.engines._core._results import Problem, Report, strictly
from toolwire.engines.checking._check import (
    _EMPTY,
    _SAMPLE,
    TYPED_BYTES,
    _foreign,
    _head,
    _long,
    _open,
    _run_quietly,
    _sink,
    _stream_before,
    is_recording,
)
from toolwire.errors import UsageError
from toolwire.models import InputFormat, detect_format, read_frames
from toolwire.models._wire import not_a_trace
from toolwire.properties import Finding, Monitor, Protocol
from toolwire.protocols import get_protocol

if TYPE_CHECKING:
    from toolwire.engines._core._pool import Outcome, Part

__all__ = ["STDIN_TWICE", "check_file", "check_path", "check_paths", "check_range", "check_usage"]

#: What an engine hands each of its events to.
Emit = Callable[[PartFailed], None]


def check_path(
    path: str | os.PathLike[str],
    protocol: str | None = None,
    *,
    input_format: InputFormat | None = None,
    after: str | os.PathLike[str] | None = None,
    profile: str | None = None,
    handlers: Sequence[Handler] = (),
    strict: bool = False,
) -> list[Report]:
    """What ``toolwire check PATH`` reports: one report for a trace, one per request and response
    of a VCR cassette or HAR file, one per protocol of an OTLP JSON file (and of each file of a
    folder of them).  ``-`` reads standard input (once, as it comes).

    Without ``protocol`` the trace's protocol is detected from its content (a recording's parts
    from their endpoints too); ``after`` is the stream a request followed, for the round-trip
    rules.  A file that cannot be read is a :class:`Problem` of its report (with
    :attr:`Report.unreadable` saying why); only usage that is wrong for every file (an unknown
    protocol or profile, ``after`` without a protocol, standard input twice) raises
    :class:`UsageError`.  ``handlers`` are called with a :class:`ReportReady` event when the reports
    are made.  ``strict`` judges them under ``--strict``: a warning fails as an error does.

    >>> reports = check_path("tests/data/recordings/crewai-anthropic-gzip.yaml")
    >>> [(r.source.split("#")[1], r.protocol, r.exit_code) for r in reports]
    [('1 request', 'anthropic-messages', 0), ('1 response', 'anthropic-message-response', 0)]
    """
    reports = strictly(_check_path(path, protocol, input_format, after, profile), strict)
    for handler in handlers:
        handler(ReportReady(engine="check", source=str(path), reports=tuple(reports)))
    return reports


def _check_path(
    path: str | os.PathLike[str],
    protocol: str | None,
    input_format: InputFormat | None,
    after: str | os.PathLike[str] | None,
    profile: str | None,
) -> list[Report]:
    make = check_usage(protocol, profile, after)
    if str(path) == "-" and after is not None and str(after) == "-":
        raise UsageError(STDIN_TWICE)
    try:
        if str(path) != "-" and os.path.isdir(path) and (names := _otlp_files(path)):
            from toolwire.engines.logs import check_log

            return [r for name in names for r in check_log([name], protocol=protocol, profile=profile)]
        with _open(path) as raw:
            head, stream = _head(raw)
            if is_recording(head):
                from toolwire.engines.checking._exchanges import check_recording

                return check_recording(path, stream.read(), protocol, profile)
            if _otlp(head):
                from toolwire.engines.logs import check_log, check_log_input

                if str(path) == "-":
                    return check_log_input(stream, protocol=protocol, profile=profile)
                return check_log([path], protocol=protocol, profile=profile)
            if protocol is None:
                return [_detected(path, raw, head, stream, input_format, profile)]
            assert make is not None
            return [_checked(path, get_protocol(protocol), make(), raw, head, stream, input_format, after)]
    except UsageError as exc:
        # This file alone cannot be read: say so in its report, and let the caller check the others.
        problem = Problem(None, None, str(exc))
        return [Report(str(path), protocol or "", 0, problems=(problem,), unreadable=str(exc))]


def _otlp_files(folder: str | os.PathLike[str]) -> list[str]:
    """The files under ``folder`` when they are all OTLP JSON (each is checked as when it is named);
    else none (a folder of traces is refused: name its files)."""
    from toolwire.engines.logs import files_under, is_otlp_file

    names = files_under(folder)
    return names if all(is_otlp_file(name) for name in names) else []


def _otlp(head: bytes) -> bool:
    """Whether ``head`` starts an OTLP JSON file (the OTLP reader loads only when it may be one)."""
    if b'"resource' not in head[:4096]:
        return False
    from toolwire.engines.logs import is_otlp

    return is_otlp(head[:4096])


def check_file(
    path: str | os.PathLike[str],
    protocol: str,
    *,
    input_format: InputFormat | None = None,
    after: str | os.PathLike[str] | None = None,
    profile: str | None = None,
    strict: bool = False,
) -> Report:
    """Check a recorded trace on disk (``-`` reads standard input) as ``protocol``: :func:`check_path`
    as one report (``strict``: a warning fails it too).

    A recording's parts come as the report's :attr:`~Report.parts`, their findings and problems
    gathered into its own.  Anything wrong with the file, inside or out, is a :class:`Problem`.

    >>> report = check_file("tests/data/recordings/crewai-anthropic-gzip.yaml", "anthropic-messages")
    >>> report.exit_code, [part.protocol for part in report.parts]
    (0, ['anthropic-messages', ''])
    """
    reports = check_path(
        path, protocol, input_format=input_format, after=after, profile=profile, strict=strict
    )
    if len(reports) == 1 and reports[0].source == str(path):
        return reports[0]
    findings = tuple(f for r in reports for f in r.findings)
    problems = tuple(p for r in reports for p in r.problems)
    events = sum(r.events for r in reports)
    return Report(str(path), protocol, events, findings, problems, parts=tuple(reports), strict=strict)


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


STDIN_TWICE: Final = "standard input (-) can be read once; name it once among FILE and --after"


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
    from toolwire.engines._core._detect import Detection, detect, is_document

    if not_a_trace(head) is not None:
        return Report(str(path), "", 0, problems=(Problem(None, None, Detection(None, ()).explain()),))
    fmt = input_format or detect_format(head)
    problems: list[Problem] = []
    frames = read_frames(stream, _sink(problems), fmt)
    sample = list(itertools.islice(frames, _SAMPLE))
    detection = detect(sample, document=is_document(head, fmt))
    logged = _logged(sample) if fmt == "jsonl" else None
    if detection.protocol is None:
        why = detection.explain() + (f"; {logged[0]}: try it" if logged else "")
        return Report(str(path), "", 0, problems=(Problem(None, None, why),))
    spec = get_protocol(detection.protocol)
    monitor = spec.make(profile)
    if logged is not None:
        # A log read as if its records were bodies: what reads as one was checked, not the rest.
        said = f"{logged[0]}: only what reads as {spec.name} was checked; --log {logged[1]} checks"
        said += " each record's request and response"
        problems.insert(0, Problem(None, None, said, "warning"))
    if _long(raw) and raw.seekable() and raw is not sys.stdin.buffer:
        # A long file is read again from its start, typed (see :func:`_checked`).
        raw.seek(0)
        head, stream = _head(raw)
        report = _checked(path, spec, monitor, raw, head, stream, input_format, None)
        carried = tuple(problems[:1]) if logged is not None else ()  # the warning, not what was read
        return dataclasses.replace(
            report, detected=True, runner_up=detection.runner_up, problems=(*carried, *report.problems)
        )
    report = _run_quietly(spec, itertools.chain(sample, frames), str(path), problems, fmt, None, monitor)
    return dataclasses.replace(report, detected=True, runner_up=detection.runner_up)


def _logged(sample: list[Any]) -> tuple[str, str] | None:
    """When the first record of a JSON Lines ``sample`` looks like a log preset's: what it looks
    like, and the preset's name."""
    from toolwire.engines.logs import looks_like

    first = next((value for _, value, _ in sample if isinstance(value, dict)), None)
    kind = looks_like(first)
    if kind is None:
        return None
    return f"the records look like those of --log {kind.name} ({kind.summary.split(':')[0]})", kind.name


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


def check_paths(
    paths: Sequence[str | os.PathLike[str]],
    protocol: str | None = None,
    *,
    input_format: InputFormat | None = None,
    after: str | os.PathLike[str] | None = None,
    profile: str | None = None,
    jobs: int | None = None,
    handlers: Sequence[Handler] = (),
    strict: bool = False,
) -> list[list[Report]]:
    """:func:`check_path` of each of ``paths``, in their order, on ``jobs`` processes (default: the
    CPU count): the files are the parts, the largest first, and a big JSON Lines log of request
    bodies is cut at line boundaries.  What it reports is what ``jobs=1`` does.  ``handlers`` are
    called with a :class:`PartFailed` event for each part whose check raised, as it is met, then a
    :class:`ReportReady` per path, in order.  ``strict``: a warning fails as an error does.

    >>> [[r.protocol for r in found] for found in check_paths(
    ...     ["tests/data/openai-chat/cc1-missing-id.json"], jobs=2)]
    [['openai-chat']]
    """
    checked = _check_paths(paths, protocol, input_format, after, profile, jobs, handlers)
    out = [strictly(found, strict) for found in checked]
    for path, reports in zip(paths, out, strict=True):
        for handler in handlers:
            handler(ReportReady(engine="check", source=str(path), reports=tuple(reports)))
    return out


def _check_paths(
    paths: Sequence[str | os.PathLike[str]],
    protocol: str | None,
    input_format: InputFormat | None,
    after: str | os.PathLike[str] | None,
    profile: str | None,
    jobs: int | None,
    handlers: Sequence[Handler],
) -> list[list[Report]]:
    from toolwire.engines._core._pool import BIG, Part, cuts, default_jobs

    def emit(event: PartFailed) -> None:
        for handler in handlers:
            handler(event)

    check_usage(protocol, profile, after)
    jobs = jobs or default_jobs()
    names = [str(path) for path in paths]
    sizes = [_size(name) for name in names]
    options = {"protocol": protocol, "input_format": input_format, "after": after, "profile": profile}
    if jobs == 1 or (len(names) == 1 and sizes[0] <= BIG):
        return [check_path(name, **options) for name in names]  # type: ignore[arg-type]
    parts: list[Part] = []
    mine: list[list[int]] = []
    splits: dict[int, tuple[str, bool]] = {}
    for k, (name, size) in enumerate(zip(names, sizes, strict=True)):
        if size < 0 or (after is not None and str(after) == "-"):
            mine.append([])  # checked here: standard input, a folder, a file that is not there
            continue
        split = _splittable(name, protocol, input_format) if size > BIG and after is None else None
        if split is None:
            mine.append([len(parts)])
            parts.append(Part("path", name, size, options, run=run_path_part))
            continue
        splits[k] = split
        mine.append([])
        # Cut with a seek and a short read each: each worker counts its part's lines, and the
        # parts' line numbers are put right as they are put together (see _merged).
        for start, end, _, _ in cuts(name, size, jobs, count=False):
            mine[-1].append(len(parts))
            given = {"protocol": split[0], "profile": profile}
            parts.append(Part("range", name, end - start, given, start, end, run=run_range_part))
    if len(parts) <= 1 and not splits:
        return [check_path(name, **options) for name in names]  # type: ignore[arg-type]
    from toolwire.engines._core._pool import run_parts

    outcomes = run_parts(parts, jobs, [m for spec_name, _ in splits.values() for m in _modules(spec_name)])
    out: list[list[Report]] = []
    for k, name in enumerate(names):
        if not mine[k] and k not in splits:
            out.append(check_path(name, **options))  # type: ignore[arg-type]
        elif k in splits:
            spec_name, detected = splits[k]
            out.append([_merged(name, spec_name, detected, [(parts[i], outcomes[i]) for i in mine[k]], emit)])
        else:
            out.append(_whole(parts[mine[k][0]], outcomes[mine[k][0]], protocol, emit))
    return out


def _modules(protocol: str) -> list[str]:
    """What a worker checking ``protocol`` imports: its monitor's module and its typed events'."""
    monitor = type(get_protocol(protocol).make())
    return [monitor.__module__, *([monitor.hot[0]] if monitor.hot else [])]


def _size(name: str) -> int:
    """The size of the file ``name``; -1 for standard input, a folder, or a file not there."""
    if name == "-":
        return -1
    try:
        status = os.stat(name)
    except OSError:
        return -1
    return status.st_size if stat.S_ISREG(status.st_mode) else -1


def _whole(part: Part, outcome: Outcome, protocol: str | None, emit: Emit) -> list[Report]:
    from toolwire.engines._core._pool import Died, Failed, Ok, Usage, died, failed

    match outcome:
        case Ok(value):
            return list(value)
        case Usage(message):
            raise UsageError(message)
        case Died(why):
            said = died(part, why)
        case Failed(text):
            emit(PartFailed(engine="check", part=part.label, traceback=text))
            said = failed(part, text)
    return [Report(part.path, protocol or "", 0, problems=(Problem(None, None, said),), unreadable=said)]


def _merged(
    name: str, spec_name: str, detected: bool, done: list[tuple[Part, Outcome]], emit: Emit
) -> Report:
    """One report of a file's parts (each numbered from its own first line, with its count of
    lines), as checking it whole gives it."""
    from toolwire.engines._core._pool import Died, Failed, Ok, Usage, count_lines, died, failed

    events = calls = results = 0
    before = 0  # lines before the part
    findings: list[Finding] = []
    problems: list[Problem] = []
    for part, outcome in done:
        match outcome:
            case Ok(([report], lines)):
                events += report.events
                calls, results = calls + report.calls, results + report.results
                findings.extend(_moved(f, before) for f in report.findings)
                problems.extend(_moved(p, before) for p in report.problems if p.message != _EMPTY)
            case Usage(message):
                raise UsageError(message)
            case Died(why) | Failed(why):
                lines = count_lines(part.path, part.start, part.end)
                at = dataclasses.replace(part, before=before, lines=lines)
                if isinstance(outcome, Failed):
                    emit(PartFailed(engine="check", part=part.label, traceback=why))
                said = died(at, why) if isinstance(outcome, Died) else failed(at, why)
                problems.append(Problem(before + 1, None, said))
        before += lines
    if events == 0 and not any(p.severity == "error" for p in problems):
        problems.append(Problem(None, None, _EMPTY))
    findings.sort(key=lambda f: (f.line is None, f.line or 0, f.index is None, f.index or 0))
    problems.sort(key=lambda p: (p.line is None, p.line or 0))
    report = Report(name, spec_name, events, tuple(findings), tuple(problems), detected=detected)
    return dataclasses.replace(report, calls=calls, results=results)


def _moved(found: Any, before: int) -> Any:
    """A finding or problem of a part numbered as a line of its file (``before`` lines precede the part)."""
    if found.line is None or before == 0:
        return found
    return dataclasses.replace(found, line=found.line + before)


def _splittable(name: str, protocol: str | None, input_format: InputFormat | None) -> tuple[str, bool] | None:
    """The protocol of the file ``name`` and whether it was detected, when the file is a JSON Lines
    log of request bodies (each its own conversation: it can be cut at any line end); else None."""
    with open(name, "rb") as raw:
        head, stream = _head(raw)
        if is_recording(head) or _otlp(head) or not_a_trace(head) is not None:
            return None
        fmt = input_format or detect_format(head)
        if fmt != "jsonl":
            return None
        sample = list(itertools.islice(read_frames(stream, lambda line, message: None, fmt), _SAMPLE))
    if protocol is None:
        from toolwire.engines._core._detect import detect, is_document

        detection = detect(sample, document=is_document(head, fmt))
        if detection.protocol is None or _logged(sample) is not None:
            return None  # a log read as bodies is checked whole, as the warning it gets says
        spec = get_protocol(detection.protocol)
    else:
        spec = get_protocol(protocol)
    container = spec.container or ""
    if spec.shape != "conversation" or not sample:
        return None
    if not all(isinstance(value, dict) and isinstance(value.get(container), list) for _, value, _ in sample):
        return None
    return spec.name, protocol is None


def check_range(
    path: str, start: int, end: int, before: int, *, protocol: str, profile: str | None = None
) -> list[Report]:
    """The report of bytes ``start``-``end`` of the JSON Lines log of request bodies at ``path``
    (``before`` lines precede them), checked as ``protocol``: a worker's part (see :func:`check_paths`)."""
    from toolwire.engines._core._pool import Range, shifted
    from toolwire.models._wire import read_jsonl

    spec = get_protocol(protocol)
    monitor = spec.make(profile)
    problems: list[Problem] = []
    sink = _sink(problems)

    def problem(line: int | None, message: str) -> None:
        sink(None if line is None else line + before, message)

    with open(path, "rb") as raw:
        hot = monitor.load_hot() if end - start > TYPED_BYTES else ()
        frames = shifted(read_jsonl(Range(raw, start, end), problem, hot), before)  # type: ignore[arg-type]
        return [_run_quietly(spec, frames, path, problems, "jsonl", None, monitor)]


def run_path_part(part: Any) -> Any:
    """A pool worker's run of one whole file."""
    return check_path(part.path, **part.options)


def run_range_part(part: Any) -> Any:
    """A pool worker's run of one byte range of a file: its report, numbered from
    the range's first line, and the range's count of lines."""
    from toolwire.engines._core._pool import count_lines

    reports = check_range(part.path, part.start, part.end, part.before, **part.options)
    return reports, count_lines(part.path, part.start, part.end)
