"""The monitor engine behind ``toolwire check``: read a trace, run its protocol's monitor."""

from __future__ import annotations

import contextlib
import gc
import itertools
import os
import re
import stat
import sys
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any, BinaryIO, Final

from toolwire.engines._core._results import MAX_PROBLEMS, Problem, Report
from toolwire.engines._core._sizes import DETECT_BYTES
from toolwire.errors import UsageError
from toolwire.models import (
    DONE,
    Frame,
    InputFormat,
    detect_format,
    plain,
)
from toolwire.models._wire import SNIFF_BYTES, Prefixed
from toolwire.properties import Finding, Monitor, Notice, Protocol
from toolwire.properties._monitor import MAX_NOTICES
from toolwire.protocols import check_round_trip, get_protocol

__all__ = ["check", "check_messages", "first_error", "is_recording"]


def check(
    trace: Iterable[Any] | dict[str, Any],
    protocol: str,
    *,
    after: Iterable[Any] | None = None,
    profile: str | None = None,
    strict: bool = False,
) -> Report:
    """Check a trace given as Python values: stream events, messages, or a request body.

    ``after`` is the stream the request followed, for the round-trip rules;
    ``profile`` picks a variant of the protocol (``toolwire protocols`` lists them);
    ``strict`` fails the report on a warning too (its ``exit_code`` is 1, as ``--strict``'s).

    >>> report = check([{"role": "tool", "tool_call_id": "call_1", "content": "Result"},
    ...                 {"role": "user", "content": "Hello"}], "openai-chat")
    >>> [(f.rule, f.path) for f in report.findings]
    [('CC-2', 'messages[0].role')]
    """
    spec = get_protocol(protocol)
    values = [trace] if isinstance(trace, dict) else trace
    frames: Iterator[Frame] = ((None, value, None) for value in values)
    previous = None if after is None else _stream_before(spec, iter([(None, v, None) for v in after]))[0]
    report = _run(spec, frames, "<python>", [], None, previous, profile)
    return replace(report, strict=True) if strict else report


def check_messages(messages: list[Any], protocol: str) -> Report:
    """:func:`check` of ``messages``, the messages of one conversation: the same report, the
    messages fed to the monitor in one go (its hot path, :meth:`Monitor.feed_document`, three
    times as fast for Chat as message by message; ``tests/unit/test_hot_paths.py`` holds the
    two equal).  A list that is not plain messages (a body, a nested list) is checked as
    :func:`check` checks it.

    >>> check_messages([{"role": "tool", "tool_call_id": "call_1", "content": "42"}], "openai-chat").exit_code
    1
    """
    spec = get_protocol(protocol)
    container = spec.container or ""
    if (
        spec.shape == "stream"
        or not messages
        or not all(type(m) is dict and container not in m for m in messages)
    ):
        return check(messages, protocol)
    frames: Iterator[Frame] = ((None, value, None) for value in messages)
    return _run(spec, frames, "<python>", [], None, None, whole=True)


def first_error(trace: list[Any] | dict[str, Any], protocol: str) -> Report | None:
    """:func:`check` of ``trace`` that stops at the first error finding: None then (the trace
    breaks a rule; what follows is not read), else the report ``check`` makes of it.

    For a caller that only asks whether a trace is clean (the repairer, before it repairs): a
    damaged trace costs what its monitor reads up to its first error, not a whole check.  A
    stopped read is not judged as a whole (an input that is mostly another protocol's may read as
    foreign to a full check, its findings dropped): the caller checks what it makes of it.

    >>> first_error([{"role": "tool", "tool_call_id": "call_1", "content": "42"}], "openai-chat")
    >>> first_error([{"role": "user", "content": "Hello"}], "openai-chat").exit_code
    0
    """
    spec = get_protocol(protocol)
    values = [trace] if isinstance(trace, dict) else trace
    frames: Iterator[Frame] = ((None, value, None) for value in values)
    try:
        return _run(spec, frames, "<python>", [], None, None, stop=True)
    except _Stopped:
        return None


class _Stopped(Exception):
    """A monitor of :func:`first_error`'s run recorded an error finding."""


def _stop_at_error(monitor: Monitor, seen: int) -> int:
    """How many findings ``monitor`` holds; :class:`_Stopped` when one past ``seen`` is an error."""
    findings = monitor.findings
    if any(f.severity == "error" for f in findings[seen:]):
        raise _Stopped
    return len(findings)


def _run_quietly(
    spec: Protocol,
    frames: Iterator[Frame],
    source: str,
    problems: list[Problem],
    fmt: InputFormat | None,
    previous: Monitor | None,
    monitor: Monitor,
) -> Report:
    """:func:`_run` with garbage collection off."""
    # What is read here holds no reference cycles: garbage collection would only walk the
    # millions of fresh dicts again and again (half the time of a request log).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _run(spec, frames, source, problems, fmt, previous, monitor=monitor)
    finally:
        if collecting:
            gc.enable()


def _stream_before(spec: Protocol, frames: Iterator[Frame]) -> tuple[Monitor, Protocol, list[Frame], int]:
    """The monitor of the stream a request of ``spec`` followed, fed ``frames``; the stream's
    protocol, its first frames and their count."""
    if not spec.follows:
        raise UsageError(f"{spec.name} is not a request that follows a stream; drop --after")
    head = list(itertools.islice(frames, _SAMPLE))
    # What the request followed: the first of its protocols that recognises the first value (a
    # response body), else its stream.
    followed = [get_protocol(name) for name in spec.follows]
    stream_spec = next(
        (p for p in followed if p.recognises is not None and head and p.recognises(head[0][1])), followed[0]
    )
    monitor = stream_spec.monitor()
    return monitor, stream_spec, head, _feed_stream(monitor, itertools.chain(head, frames))


def _run(
    spec: Protocol,
    frames: Iterator[Frame],
    source: str,
    problems: list[Problem],
    fmt: InputFormat | None,
    previous: Monitor | None,
    profile: str | None = None,
    *,
    monitor: Monitor | None = None,
    stop: bool = False,
    whole: bool = False,
) -> Report:
    """Check ``frames`` as ``spec`` (with ``monitor``, the first monitor, when one is made already;
    ``stop``: raise :class:`_Stopped` at the first error finding of a conversation's monitor)."""
    # The first events (or the first messages of the first bodies) say whether the input is this
    # protocol's traffic at all; the rest streams past unsampled.
    head = list(itertools.islice(frames, _SAMPLE))
    frames = itertools.chain(head, frames)
    tally = _Harvest()
    if spec.shape == "stream":
        monitor = monitor or spec.make(profile)
        monitor.input_format = fmt
        monitor.keep_calls = False
        events = _feed_stream(monitor, frames)
        tally.add(monitor)
    else:
        events = _feed_conversations(spec, frames, problems, profile, previous, tally, monitor, stop, whole)
    findings, notices, skipped, unlisted = tally.findings, tally.notices, tally.skipped, tally.unlisted
    if events == 0:
        # Nothing was read: whatever a rule says of an empty trace is made up.
        if not any(p.severity == "error" for p in problems):
            problems.append(Problem(None, None, _EMPTY))
        findings = []
    elif foreign := _foreign(spec, head, events, skipped, fmt):
        # Too little was this protocol's to judge: whatever a rule says of such a trace is made up.
        problems.append(Problem(None, None, foreign))
        findings = []
    elif tally.passed and not tally.calls + tally.results and (missed := _missed(spec, head, tally, fmt)):
        # It passed over the calls another protocol judges: a clean verdict would have checked nothing.
        problems.append(Problem(None, None, missed))
        findings = []
    problems.extend(Problem(n.line, n.index, n.message, "warning") for n in notices)
    if unlisted:
        problems.append(Problem(None, None, f"{unlisted} more skipped events, not listed", "warning"))
    findings.sort(key=lambda f: (f.line is None, f.line or 0, f.index is None, f.index or 0))
    problems.sort(key=lambda p: (p.line is None, p.line or 0))
    return Report(
        source, spec.name, events, tuple(findings), tuple(problems), calls=tally.calls, results=tally.results
    )


def _missed(spec: Protocol, head: list[Frame], tally: _Harvest, fmt: InputFormat | None) -> str:
    """Why a trace whose monitors judged no tool call or result, and passed types over, is not
    clean: another protocol's reading judges calls there (see :func:`passed_over_calls`)."""
    from toolwire.engines._core._detect import passed_over_calls

    return passed_over_calls(spec, head, tally.passed, None if fmt in (None, "json") else False)


def _feed_stream(monitor: Monitor, frames: Iterator[Frame]) -> int:
    index, line = monitor.consume(frames)
    monitor.finish(index, line)
    return index


class _Harvest:
    """What the monitors of a trace found, gathered as each finishes (so none is kept)."""

    def __init__(self) -> None:
        self.findings: list[Finding] = []
        self.notices: list[Notice] = []
        self.skipped = 0
        self.unlisted = 0
        self.calls = 0
        self.results = 0
        #: The types the monitors passed over as not modelled.
        self.passed: set[str] = set()

    def add(self, monitor: Monitor) -> None:
        calls, results = monitor.checked()
        self.calls += calls
        self.results += results
        if not (monitor.findings or monitor.noticed or monitor.skipped):
            return  # the usual case: nothing to gather
        self.passed.update(name for _, name in monitor.passed_over)
        self.findings.extend(monitor.findings)
        listed = monitor.notices[: max(0, MAX_NOTICES - len(self.notices))]
        self.notices.extend(listed)
        self.unlisted += monitor.noticed - len(listed)
        self.skipped += monitor.skipped


def _feed_conversations(
    spec: Protocol,
    frames: Iterator[Frame],
    problems: list[Problem],
    profile: str | None,
    previous: Monitor | None,
    tally: _Harvest,
    first: Monitor | None = None,
    stop: bool = False,
    whole: bool = False,
) -> int:
    """Each request body is its own conversation; bare messages (JSON Lines) form one.

    Each is judged (round trip included) and tallied as it ends, and then forgotten.
    """
    container = spec.container or ""
    loose: Monitor | None = None
    count = 0
    seen_loose = 0  # ``stop``: the findings of ``loose`` looked at already

    def done(monitor: Monitor) -> None:
        if previous is not None:
            check_round_trip(previous.calls(), monitor)
        tally.add(monitor)

    keep_calls = previous is not None
    # Bodies of the usual shapes come typed (see Monitor.hot); their items are the monitor's.
    make = first.remake if first is not None and first.remake is not None else spec.factory(profile)
    made = first or make()
    hot = made.loaded_hot()
    spare: Monitor | None = made

    def fresh() -> Monitor:
        # The monitor made already serves the first body (or the bare messages).
        nonlocal spare
        monitor, spare = spare or make(), None
        return monitor

    if whole:
        # The frames are plain messages of one conversation (check_messages): the bare messages
        # below would feed them one by one to one monitor; feeding them whole is the same.
        loose = fresh()
        loose.keep_calls = keep_calls
        items = [value for _, value, _ in frames]
        loose.feed_document(items, None)
        count = len(items)
        frames = iter(())
    for line, value, _ in frames:
        typed = type(value) in hot
        if typed or (isinstance(value, dict) and container in value):
            monitor = fresh()
            monitor.keep_calls = keep_calls
            monitor.open_document(value)
            items = getattr(value, container) if typed else value[container]
            if not isinstance(items, list):
                problems.append(Problem(line, None, f"'{container}' is not a list; nothing checked"))
                continue
            if stop:
                seen = 0
                for position, item in enumerate(items):
                    monitor.feed(item, position, line, None)
                    if len(monitor.findings) > seen:
                        seen = _stop_at_error(monitor, seen)
            else:
                monitor.feed_document(items, line)
            monitor.finish(len(items), line)
            if stop:
                _stop_at_error(monitor, 0)
            done(monitor)
            count += len(items)
            continue
        if loose is None:
            loose = fresh()
            loose.keep_calls = previous is not None
        for item in value if isinstance(value, list) else [value]:
            loose.feed(item, count, line, None)
            count += 1
        if stop and len(loose.findings) > seen_loose:
            seen_loose = _stop_at_error(loose, seen_loose)
    if loose is not None:
        loose.finish(count, None)
        if stop:
            _stop_at_error(loose, 0)
        done(loose)
    return count


_EMPTY: Final = "the input is empty: no event, message or request body to check"
#: Events (or request bodies) sampled to tell whether the input is the protocol's traffic at all.
_SAMPLE: Final = 200


def _sampled(values: list[Any], container: str | None) -> list[Any]:
    """The events or messages among ``values``: request bodies opened, lists flattened."""
    out: list[Any] = []
    for value in values:
        if container is not None and isinstance(value, dict) and isinstance(value.get(container), list):
            out.extend(value[container][:_SAMPLE])
        elif isinstance(value, list):
            out.extend(value[:_SAMPLE])
        else:
            out.append(value)
    return out


def _foreign(spec: Protocol, head: list[Frame], events: int, skipped: int, fmt: InputFormat | None) -> str:
    """Why a trace of ``events`` (``head`` its first frames, read as ``fmt``) is too little
    ``spec``'s traffic to judge, and what it reads as; empty when it is ``spec``'s.

    It is not when its monitor skipped most of it.  Nor when its first values leave a doubt (half
    of them skipped, or one that ``spec``, or the protocol it is a variant of, does not
    recognise), do not read as ``spec``'s the way detection asks
    (:func:`toolwire.engines._core._detect.reads_as`), and either read as another protocol's or are
    mostly not recognised.  A trace of ``spec``'s with a damaged event or two (skipped, each with
    a notice) is still judged.
    """
    base = get_protocol(spec.variant_of) if spec.variant_of else None
    recognisers = [r for r in (spec.recognises, base.recognises if base else None) if r is not None]
    values = _sampled([plain(value) for _, value, _ in head if value is not DONE], spec.container)
    recognised = sum(all(r(value) for r in recognisers) for value in values)
    if skipped * 2 < events and recognised == len(values):
        return ""  # the usual case, decided without another monitor
    from toolwire.engines._core._detect import detect, reads_as

    if skipped * 2 <= events and reads_as(spec, head):
        return ""
    if recognisers and 0 < skipped <= 2 and skipped * 2 <= events:
        # A damaged event or two (events no protocol reads) do not make a trace foreign: the rest,
        # what ``spec`` recognises, decides.  Events another protocol reads are no damage.
        values_of = [(f, plain(f[1])) for f in head if f[1] is not DONE]
        kept = [f for f, value in values_of if all(r(value) for r in recognisers)]
        odd = [f for f, value in values_of if not all(r(value) for r in recognisers)]
        if kept and odd and reads_as(spec, kept) and not detect(odd, document=False).candidates:
            return ""
    # SSE and JSON Lines are streams, even of one value; a JSON document may be a response body.
    document = None if fmt in (None, "json") else False
    detection = detect(head, document=document)
    if spec.name in detection.candidates:
        return ""  # read in part (types it does not model passed over), yet read best as spec's
    looks = [name for name in detection.candidates if name != spec.name]
    if looks:
        return (
            f"nothing in the input is {spec.name} traffic: it reads as {', '.join(looks)}; "
            f"check it with -p {looks[0]}"
        )
    if skipped * 2 > events or recognised * 2 <= len(values):
        return (
            f"nothing in the input is {spec.name} traffic, nor any registered protocol's: "
            "check -p, or run toolwire shapes on it"
        )
    return ""


def _sink(problems: list[Problem]) -> Any:
    count = [0]
    summary = [-1]  # where the problem that stands for the unlisted ones is, once there is one

    def problem(line: int | None, message: str) -> None:
        count[0] += 1
        if count[0] <= MAX_PROBLEMS:
            problems.append(Problem(line, None, message))
        elif count[0] == MAX_PROBLEMS + 1:
            summary[0] = len(problems)
            more = "more unreadable input follows; only the first are listed"
            problems.append(Problem(line, None, more, unlisted_errors=1))
        else:
            said = problems[summary[0]]
            problems[summary[0]] = replace(said, unlisted_errors=said.unlisted_errors + 1)

    return problem


#: Traces shorter than this are read without typed decoding (see :func:`_long`).
TYPED_BYTES = 4 << 20


def _long(stream: BinaryIO) -> bool:
    """Whether ``stream`` is long enough for typed decoding to pay for importing msgspec (about 10 ms,
    the time typed decoding saves on some 20,000 events): a file over :data:`TYPED_BYTES`, or a pipe."""
    try:
        status = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return True
    return not stat.S_ISREG(status.st_mode) or status.st_size > TYPED_BYTES


def _open(path: str | os.PathLike[str]) -> contextlib.AbstractContextManager[BinaryIO]:
    """``path`` opened for reading (``-``: standard input, left open for whoever reads it next)."""
    if str(path) == "-":
        return contextlib.nullcontext(sys.stdin.buffer)
    if os.path.isdir(path):
        raise UsageError(
            f"{path} is a folder; name a trace file (a folder of logs is read with --log PRESET or "
            "--request/--response/--body PATH; a folder holding only OpenTelemetry JSON files, as it is)"
        )
    try:
        return open(path, "rb")
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None


def is_recording(head: bytes) -> bool:
    """``head`` (a file's first bytes, from :func:`_head`) starts a VCR cassette or a HAR file."""
    from toolwire.models import recording_kind

    return recording_kind(head[:DETECT_BYTES]) is not None


def _head(raw: BinaryIO) -> tuple[bytes, BinaryIO]:
    """The first bytes of ``raw`` and a stream that still yields every byte.

    At least :data:`~toolwire.engines._core._sizes.DETECT_BYTES` when there are that many, and on
    through the first line end (up to :data:`~toolwire.models.SNIFF_BYTES`): the format is
    decided on a whole first line, however long, and however a pipe delivers it.
    """
    read = getattr(raw, "read1", raw.read)
    head = b""
    while len(head) < SNIFF_BYTES:
        chunk = read(DETECT_BYTES)
        if not chunk:
            break
        head += chunk
        if len(head) >= DETECT_BYTES and _LINE_END.search(head.lstrip(b" \t\r\n")):
            break
    return head, Prefixed(head, raw)  # type: ignore[return-value]


_LINE_END: Final = re.compile(rb"[\r\n]")


def _peek_format(stream: BinaryIO) -> InputFormat:
    head = stream.peek(DETECT_BYTES)[:DETECT_BYTES] if hasattr(stream, "peek") else b""
    return detect_format(head)
