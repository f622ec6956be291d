"""The monitor engine behind ``toolwire check``: read a trace, run its protocol's monitor."""

from __future__ import annotations

import gc
import itertools
import os
import stat
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Final, Literal

from toolwire.errors import UsageError
from toolwire.models import Frame, InputFormat, detect_format, is_eventstream, plain, read_frames, sniff
from toolwire.properties import Finding, Monitor, Notice, Protocol
from toolwire.properties._monitor import MAX_NOTICES
from toolwire.protocols import check_round_trip, get_protocol

__all__ = ["Problem", "Report", "check", "check_file"]


@dataclass(frozen=True, slots=True)
class Problem:
    """Input that could not be read (``error``) or was skipped unjudged (``warning``)."""

    line: int | None
    index: int | None
    message: str
    severity: Literal["error", "warning"] = "error"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of this problem."""
        return {"line": self.line, "index": self.index, "message": self.message, "severity": self.severity}


@dataclass(frozen=True, slots=True)
class Report:
    """What checking one trace found.

    ``exit_code`` is what ``toolwire check`` exits with for it: 1 when a rule
    was broken (an error finding), else 2 when part of the input could not be
    read, else 0.
    """

    source: str
    protocol: str
    events: int
    findings: tuple[Finding, ...] = ()
    problems: tuple[Problem, ...] = field(default=())

    @property
    def errors(self) -> list[Finding]:
        """The findings that break a rule (not warnings)."""
        return [f for f in self.findings if f.severity == "error"]

    @property
    def ok(self) -> bool:
        """True when no rule was broken and the whole input was read."""
        return self.exit_code == 0

    @property
    def exit_code(self) -> int:
        """1: rules broken; 2: input partly unreadable; 0: clean."""
        if self.errors:
            return 1
        if any(p.severity == "error" for p in self.problems):
            return 2
        return 0

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of this report."""
        return {
            "source": self.source,
            "protocol": self.protocol,
            "events": self.events,
            "exit_code": self.exit_code,
            "findings": [f.to_json() for f in self.findings],
            "problems": [p.to_json() for p in self.problems],
        }


def check(
    trace: Iterable[Any] | dict[str, Any],
    protocol: str,
    *,
    after: Iterable[Any] | None = None,
    profile: str | None = None,
) -> Report:
    """Check a trace given as Python values: stream events, messages, or a request body.

    ``after`` is the stream the request followed, for the round-trip rules;
    ``profile`` picks a variant of the protocol (``toolwire protocols`` lists them).

    >>> report = check([{"role": "tool", "tool_call_id": "call_1", "content": "Result"},
    ...                 {"role": "user", "content": "Hello"}], "openai-chat")
    >>> [(f.rule, f.path) for f in report.findings]
    [('CC-2', 'messages[0].role')]
    """
    spec = get_protocol(protocol)
    values = [trace] if isinstance(trace, dict) else trace
    frames: Iterator[Frame] = ((None, value, None) for value in values)
    previous = None if after is None else _stream_before(spec, iter([(None, v, None) for v in after]))
    return _run(spec, frames, "<python>", [], None, previous, profile)


def check_file(
    path: str | os.PathLike[str],
    protocol: str,
    *,
    input_format: InputFormat | None = None,
    after: str | os.PathLike[str] | None = None,
    profile: str | None = None,
) -> Report:
    """Check a recorded trace on disk (``-`` reads standard input).

    Raises :class:`UsageError` for a file that cannot be opened; anything
    wrong inside the file is a :class:`Problem` of the report instead.
    """
    spec = get_protocol(protocol)
    previous = None
    problems: list[Problem] = []
    if after is not None:
        with _open(after) as stream:
            before: list[Problem] = []
            previous = _stream_before(spec, read_frames(stream, _sink(before)))
        problems.extend(
            Problem(p.line, p.index, f"in --after {after}: {p.message}", p.severity) for p in before
        )
    with _open(path) as raw:
        head, stream = sniff(raw)
        unreadable = not_a_trace(head)
        if unreadable is not None:
            return Report(str(path), spec.name, 0, problems=(*problems, Problem(None, None, unreadable)))
        fmt = input_format or detect_format(head)
        # Typed decoding pays for importing msgspec on long traces only.
        hot = spec.make(profile).load_hot() if _long(raw) else ()
        frames = read_frames(stream, _sink(problems), fmt, hot)
        # What is read here holds no reference cycles: garbage collection would only walk the
        # millions of fresh dicts again and again (half the time of a request log).
        collecting = gc.isenabled()
        gc.disable()
        try:
            return _run(spec, frames, str(path), problems, fmt, previous, profile)
        finally:
            if collecting:
                gc.enable()


def not_a_trace(head: bytes) -> str | None:
    """Why bytes that start like ``head`` are no trace toolwire reads (gzip, UTF-16, binary), or None.

    >>> not_a_trace(b"\\x1f\\x8b\\x08\\x00")
    'the input is gzip-compressed: decompress it first (gunzip, or zcat FILE | toolwire check -)'
    """
    if is_eventstream(head):
        return None
    if head.startswith(b"\x1f\x8b"):
        return "the input is gzip-compressed: decompress it first (gunzip, or zcat FILE | toolwire check -)"
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or head[:64].count(b"\x00") > 8:
        return (
            "the input looks like UTF-16 (NUL bytes between characters): convert it to UTF-8 (iconv -t utf-8)"
        )
    sample = head[:4096]
    if b"\x00" in sample:
        return "the input is binary (NUL bytes), not a trace: give an SSE capture, JSON Lines or JSON"
    # A stray byte is a problem of its line; mostly undecodable bytes are no text at all.
    bad = sample.decode("utf-8", "replace").count("\ufffd")
    if bad > max(8, len(sample) // 50):
        return "the input is not UTF-8 text (random or binary bytes): give an SSE capture, JSON Lines or JSON"
    return None


def _stream_before(spec: Protocol, frames: Iterator[Frame]) -> Monitor:
    if not spec.follows:
        raise UsageError(f"{spec.name} is not a request that follows a stream; drop --after")
    head = list(itertools.islice(frames, 1))
    # What the request followed: the first of its protocols that recognises the first value (a
    # response body), else its stream.
    followed = [get_protocol(name) for name in spec.follows]
    stream_spec = next(
        (p for p in followed if p.recognises is not None and head and p.recognises(head[0][1])), followed[0]
    )
    monitor = stream_spec.monitor()
    _feed_stream(monitor, itertools.chain(head, frames))
    return monitor


def _run(
    spec: Protocol,
    frames: Iterator[Frame],
    source: str,
    problems: list[Problem],
    fmt: InputFormat | None,
    previous: Monitor | None,
    profile: str | None = None,
) -> Report:
    sample: list[Any] = []
    if spec.recognises is not None:
        # The first events (or the first messages of the first bodies) say whether any of it is
        # this protocol's traffic at all; the rest streams past unsampled.
        head = list(itertools.islice(frames, _SAMPLE))
        frames = itertools.chain(head, frames)
        sample = _sampled([plain(value) for _, value, _ in head], spec.container)
    tally = _Tally()
    if spec.shape == "stream":
        monitor = spec.make(profile)
        monitor.input_format = fmt
        monitor.keep_calls = False
        events = _feed_stream(monitor, frames)
        tally.add(monitor)
    else:
        events = _feed_conversations(spec, frames, problems, profile, previous, tally)
    findings, notices, skipped, unlisted = tally.findings, tally.notices, tally.skipped, tally.unlisted
    if events == 0:
        # Nothing was read: whatever a rule says of an empty trace is made up.
        if not any(p.severity == "error" for p in problems):
            problems.append(Problem(None, None, _EMPTY))
        findings = []
    elif events and (
        skipped >= events or (spec.recognises is not None and not any(map(spec.recognises, sample)))
    ):
        # Not one event was recognised: whatever a rule says of such a trace is made up.
        problems.append(Problem(None, None, _unrecognised(spec)))
        findings = []
    problems.extend(Problem(n.line, n.index, n.message, "warning") for n in notices)
    if unlisted:
        problems.append(Problem(None, None, f"{unlisted} more skipped events, not listed", "warning"))
    findings.sort(key=lambda f: (f.line is None, f.line or 0, f.index is None, f.index or 0))
    problems.sort(key=lambda p: (p.line is None, p.line or 0))
    return Report(source, spec.name, events, tuple(findings), tuple(problems))


def _feed_stream(monitor: Monitor, frames: Iterator[Frame]) -> int:
    index, line = monitor.consume(frames)
    monitor.finish(index, line)
    return index


class _Tally:
    """What the monitors of a trace found, gathered as each finishes (so none is kept)."""

    def __init__(self) -> None:
        self.findings: list[Finding] = []
        self.notices: list[Notice] = []
        self.skipped = 0
        self.unlisted = 0

    def add(self, monitor: Monitor) -> None:
        if not (monitor.findings or monitor.noticed or monitor.skipped):
            return  # the usual case: nothing to gather
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
    tally: _Tally,
) -> int:
    """Each request body is its own conversation; bare messages (JSON Lines) form one.

    Each is judged (round trip included) and tallied as it ends, and then forgotten.
    """
    container = spec.container or ""
    loose: Monitor | None = None
    count = 0

    def done(monitor: Monitor) -> None:
        if previous is not None:
            check_round_trip(previous.calls(), monitor)
        tally.add(monitor)

    keep_calls = previous is not None
    # Bodies of the usual shapes come typed (see Monitor.hot); their items are the monitor's.
    make = spec.factory(profile)
    hot = make().loaded_hot()
    for line, value, _ in frames:
        typed = type(value) in hot
        if typed or (isinstance(value, dict) and container in value):
            monitor = make()
            monitor.keep_calls = keep_calls
            monitor.open_document(value)
            items = getattr(value, container) if typed else value[container]
            if not isinstance(items, list):
                problems.append(Problem(line, None, f"'{container}' is not a list; nothing checked"))
                continue
            monitor.feed_document(items, line)
            monitor.finish(len(items), line)
            done(monitor)
            count += len(items)
            continue
        if loose is None:
            loose = spec.make(profile)
            loose.keep_calls = previous is not None
        for item in value if isinstance(value, list) else [value]:
            loose.feed(item, count, line, None)
            count += 1
    if loose is not None:
        loose.finish(count, None)
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


#: Input problems reported one by one; past this many, only their count.
MAX_PROBLEMS: Final = 50


def _unrecognised(spec: Protocol) -> str:
    return (
        f"nothing in the input is {spec.name} traffic (every event was skipped): check -p, "
        "or run toolwire shapes on it"
    )


def _sink(problems: list[Problem]) -> Any:
    count = [0]

    def problem(line: int | None, message: str) -> None:
        count[0] += 1
        if count[0] <= MAX_PROBLEMS:
            problems.append(Problem(line, None, message))
        elif count[0] == MAX_PROBLEMS + 1:
            problems.append(Problem(line, None, "more unreadable input follows; only the first are listed"))

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


def _open(path: str | os.PathLike[str]) -> BinaryIO:
    if str(path) == "-":
        return sys.stdin.buffer
    if os.path.isdir(path):
        raise UsageError(f"{path} is a folder; name a trace file")
    try:
        return open(path, "rb")
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None


def _peek_format(stream: BinaryIO) -> InputFormat:
    head = stream.peek(65536)[:65536] if hasattr(stream, "peek") else b""
    return detect_format(head)
