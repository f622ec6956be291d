"""Which protocol a trace is: from the endpoint it was sent to, and from what it holds.

Every registered protocol is asked through its descriptor, so a protocol
registered later is detected by its own ``endpoints``, ``recognises`` and
monitor; nothing here names one.  The steps:

1. With an endpoint (a cassette's or HAR's URL), the protocols whose
   ``endpoints`` pattern matches it longest; only when none of those reads the
   content, every protocol.  Without one, every protocol.
2. The content: a candidate reads the values fully when its monitor skips none
   of them as foreign (a stream: fewer than half) and its ``recognises``, where
   it has one, accepts every message (a stream: most events).  A conversation
   needs request bodies holding its ``container``, or several bare messages;
   a response is never a conversation, and a request never a response body.
   It reads them in part where ``recognises`` refuses a message only for parts
   of a type it does not model (the message without them is accepted), or
   where a stream monitor skipped most events but judged tool calls in the rest.
3. A ``variant_of`` another protocol is a candidate only where that one reads
   the values too, and yields to it when both are candidates.
4. A response body (``document``) is one JSON document, a stream many values or SSE / JSON
   Lines: where both read the values, that tells them apart.
5. The readings left are ranked by how much of the values each models: the tool calls and
   results its monitor judged first (a reading that passes over the calls or results another
   reading judges is the worse one), then a full reading before a part one, then the fewer
   values skipped, then the fewer types passed over as not modelled.

One best is the protocol, the next the runner-up; several equal best are an ambiguity (``-p``
decides); none is "not recognised".
"""

from __future__ import annotations

import itertools
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO, Final, Literal
from urllib.parse import unquote, urlsplit

from toolwire.errors import UsageError
from toolwire.models import DONE, Frame, InputFormat, detect_format, read_frames, sniff
from toolwire.models._wire import not_a_trace
from toolwire.properties import Monitor, Protocol
from toolwire.protocols import _registry

__all__ = [
    "Detection",
    "Reading",
    "Side",
    "detect",
    "detect_file",
    "endpoint_of",
    "is_document",
    "passed_over_calls",
    "reads_as",
]

Side = Literal["request", "response"]
#: Values looked at to decide (events, or messages of the first bodies).
_SAMPLE: Final = 200


@dataclass(frozen=True, slots=True)
class Reading:
    """How one protocol reads a trace's first values: how much of them it models."""

    protocol: str
    #: Its monitor and ``recognises`` take every value (else it reads them in part).
    full: bool
    #: Tool calls and results its monitor judged.
    calls: int
    results: int
    #: The types it passed over as not modelled (or that ``recognises`` refused), sorted.
    passed: tuple[str, ...] = ()
    #: The values its monitor skipped unjudged.
    skipped: int = 0

    @property
    def rank(self) -> tuple[int, bool, int, int]:
        """Higher is better: the calls and results judged, then a full reading, then the fewer
        values skipped, then the fewer types passed over."""
        return (self.calls + self.results, self.full, -self.skipped, -len(self.passed))


@dataclass(frozen=True, slots=True)
class Detection:
    """What detection found: ``protocol`` when one reading is best, else the ``candidates`` (the
    equal best; ``protocol`` itself when there is one)."""

    protocol: str | None
    candidates: tuple[str, ...]
    endpoint: str | None = None
    #: The reading after the best (or the equal best), when there is one.
    runner_up: str | None = None
    #: Every reading, best first.
    readings: tuple[Reading, ...] = ()

    def reading(self, name: str) -> Reading | None:
        """The reading of protocol ``name``, if it read the values."""
        return next((r for r in self.readings if r.protocol == name), None)

    def explain(self) -> str:
        """Why no protocol was chosen (or which one was), in a sentence."""
        where = f" sent to {self.endpoint}" if self.endpoint else ""
        if self.protocol is not None:
            return f"detected {self.protocol}{where}"
        if self.candidates:
            return (
                f"ambiguous{where}: it reads as {', '.join(self.candidates)}; "
                "choose one with -p (toolwire protocols lists them)"
            )
        return f"no registered protocol recognises this traffic{where}; name one with -p"


def endpoint_of(uri: str) -> str:
    """``host/path`` of a URL, percent-decoded, without query.

    >>> endpoint_of("https://bedrock-runtime.us-east-1.amazonaws.com/model/amazon.nova-micro-v1%3A0/converse")
    'bedrock-runtime.us-east-1.amazonaws.com/model/amazon.nova-micro-v1:0/converse'
    """
    parts = urlsplit(uri)
    return f"{parts.netloc}{unquote(parts.path)}"


def detect(
    frames: Sequence[Frame],
    endpoint: str | None = None,
    side: Side | None = None,
    document: bool | None = None,
) -> Detection:
    """The protocol of a trace's ``frames``, sent to ``endpoint`` (``host/path``) when known.

    ``document`` says whether the frames are one JSON document that is not an array (what a
    response body is; SSE, JSON Lines and a JSON array are streams); None: one value is.

    >>> body = {"messages": [{"role": "user", "content": "Hi"}]}
    >>> detect([(None, body, None)], "api.openai.com/v1/chat/completions").protocol
    'openai-chat'
    """
    pools = [_by_endpoint(endpoint), list(_registry.PROTOCOLS.values())]
    readings: dict[str, tuple[Protocol, Reading]] = {}
    for pool in pools[: 2 if endpoint else 1]:
        if side == "response":
            pool = [spec for spec in pool if spec.shape != "conversation"]
        elif side == "request":
            pool = [spec for spec in pool if not spec.document]
        readings = {
            spec.name: (spec, found)
            for spec in pool
            if (found := _reading(spec, frames)) is not None and _base_reading(spec, frames) is not None
        }
        if readings:
            break
    readers = [spec for spec, _ in readings.values() if spec.variant_of not in readings]
    if any(spec.document for spec in readers) and any(
        spec.shape == "stream" and not spec.document for spec in readers
    ):
        single = len([f for f in frames if f[1] is not DONE]) == 1 if document is None else document
        readers = [spec for spec in readers if spec.shape != "stream" or spec.document == single]
    ranked = sorted((readings[spec.name][1] for spec in readers), key=lambda r: r.rank, reverse=True)
    best = tuple(r.protocol for r in ranked if r.rank == ranked[0].rank) if ranked else ()
    after = ranked[len(best)].protocol if len(ranked) > len(best) else None
    return Detection(best[0] if len(best) == 1 else None, best, endpoint, after, tuple(ranked))


def passed_over_calls(
    spec: Protocol, frames: Sequence[Frame], passed: Iterable[str], document: bool | None = None
) -> str:
    """Why a trace that ``spec`` checked without judging one tool call or result cannot be called
    clean: it passed over ``passed`` (types it does not model), where another protocol's reading of
    the first ``frames`` judges calls.  Empty when no reading does.

    A type is tool-shaped, here, when a protocol that models it finds calls or results in it: no
    list of names is kept.
    """
    detection = detect(frames, document=document)
    own = {spec.name, spec.variant_of}
    better = [r for r in detection.readings if r.protocol not in own and r.calls + r.results]
    if not better:
        return ""
    best = better[0]
    types = ", ".join(sorted({str(name) for name in passed})) or "parts"
    return (
        f"{spec.name} passed over {types} as not modelled and checked no tool call or result, "
        f"where {best.protocol} reads {best.calls} call{'s' * (best.calls != 1)} and "
        f"{best.results} result{'s' * (best.results != 1)} in the first values: "
        f"check it with -p {best.protocol}"
    )


def _base_reading(spec: Protocol, frames: Sequence[Frame], *, lone: bool = False) -> Reading | bool | None:
    """A variant shares its base's wire: what the base cannot read is not the variant's either."""
    base = _registry.PROTOCOLS.get(spec.variant_of or "")
    return True if base is None else _reading(base, frames, lone=lone)


def _by_endpoint(endpoint: str | None) -> list[Protocol]:
    specs = list(_registry.PROTOCOLS.values())
    if not endpoint:
        return specs
    scores: dict[str, int] = {}
    for spec in specs:
        spans = [m.end() - m.start() for p in spec.endpoints if (m := re.search(p, endpoint))]
        if spans:
            scores[spec.name] = max(spans)
    if not scores:
        return specs
    best = max(scores.values())
    return [spec for spec in specs if scores.get(spec.name) == best]


def reads_as(spec: Protocol, frames: Sequence[Frame]) -> bool:
    """Whether ``frames`` read as ``spec``'s traffic, as detection asks it of a candidate (and of
    the protocol a variant is of); a lone message counts as a conversation of one.

    >>> from toolwire.protocols import get_protocol
    >>> reads_as(get_protocol("openai-chat"), [(1, {"role": "user", "content": "Hi"}, None)])
    True
    >>> reads_as(get_protocol("anthropic-stream"), [(1, {"role": "user", "content": "Hi"}, None)])
    False
    """
    return _reads(spec, frames, lone=True) and _base_reads(spec, frames, lone=True)


def _base_reads(spec: Protocol, frames: Sequence[Frame], *, lone: bool = False) -> bool:
    base = _registry.PROTOCOLS.get(spec.variant_of or "")
    return base is None or _reads(base, frames, lone=lone)


def _reads(spec: Protocol, frames: Sequence[Frame], *, lone: bool = False) -> bool:
    """``spec``'s monitor and ``recognises`` take ``frames`` for its own traffic, every value
    (``lone``: a single message may be a conversation)."""
    found = _reading(spec, frames, lone=lone)
    return found is not None and found.full


def _reading(spec: Protocol, frames: Sequence[Frame], *, lone: bool = False) -> Reading | None:
    """How ``spec`` reads ``frames``: None when it does not, not even in part."""
    sample = [f for f in frames if f[1] is not DONE][:_SAMPLE]
    events = [value for _, value, _ in sample]
    if not events:
        return None
    monitor = spec.make()
    if spec.shape == "conversation":
        container = spec.container or ""
        bodies = [v for v in events if isinstance(v, dict) and isinstance(v.get(container), list)]
        if bodies:
            items = [item for body in bodies for item in body[container]][:_SAMPLE]
        elif (len(events) > 1 or lone) and all(isinstance(v, dict) for v in events):
            items = events
        else:
            return None
        for index, item in enumerate(items):
            monitor.feed(item, index, None, None)
        if monitor.skipped:
            return None
        monitor.finish(len(items), None)
        refused: set[str] = set()
        if spec.recognises is not None:
            for item in items:
                if spec.recognises(item):
                    continue
                unmodelled = _unmodelled(item, spec.recognises)
                if unmodelled is None:
                    return None
                refused |= unmodelled
        return _read(spec, monitor, full=not refused, refused=refused)
    for index, (line, event, name) in enumerate(sample):
        monitor.feed(event, index, line, name)
    monitor.finish(len(sample), sample[-1][0])
    recognised = len(events) if spec.recognises is None else sum(map(spec.recognises, events))
    if monitor.skipped * 2 < len(events) and recognised * 2 > len(events):
        return _read(spec, monitor, full=True)
    found = _read(spec, monitor, full=False)
    # Most events skipped as not modelled: a part reading only where the rest holds calls it judged.
    if monitor.skipped < len(events) and recognised and found.calls + found.results:
        return found
    return None


def _read(spec: Protocol, monitor: Monitor, *, full: bool, refused: Iterable[str] = ()) -> Reading:
    calls, results = monitor.checked()
    passed = {name for _, name in monitor.passed_over} | set(refused)
    return Reading(spec.name, full, calls, results, tuple(sorted(passed)), monitor.skipped)


def _unmodelled(item: Any, recognises: Callable[[Any], bool]) -> set[str] | None:
    """The part types that alone make ``recognises`` refuse ``item`` (a message whose lists hold
    typed parts), when the message without them is accepted; else None."""
    if not isinstance(item, dict):
        return None
    lists = {key: value for key, value in item.items() if isinstance(value, list) and _types(value)}
    bare = {**item, **{key: [] for key in lists}}
    refused: set[str] = set()
    for key, parts in lists.items():
        for kind in _types(parts):
            # The message with only this type's parts in this list, every other typed list empty.
            alone = [p for p in parts if isinstance(p, dict) and p.get("type") == kind]
            if not recognises({**bare, key: alone}):
                refused.add(kind)
    if not refused:
        return None
    kept = {
        key: [p for p in parts if not (isinstance(p, dict) and p.get("type") in refused)]
        for key, parts in lists.items()
    }
    return refused if recognises({**item, **kept}) else None


def _types(parts: list[Any]) -> set[str]:
    return {p["type"] for p in parts if isinstance(p, dict) and isinstance(p.get("type"), str)}


def detect_file(path: str | os.PathLike[str], input_format: InputFormat | None = None) -> Detection:
    """The protocol of the trace at ``path``, from its first events (or its first request bodies).

    ``-`` is standard input, which must be seekable (a file, or input the CLI buffered).
    """
    if str(path) == "-":
        stdin = sys.stdin.buffer
        if not stdin.seekable():
            raise UsageError("standard input cannot be read twice: name its protocol with -p")
        try:
            return _detect_stream(stdin, input_format)
        finally:
            stdin.seek(0)
    try:
        with open(path, "rb") as raw:
            return _detect_stream(raw, input_format)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None


def _detect_stream(raw: BinaryIO, input_format: InputFormat | None) -> Detection:
    head, stream = sniff(raw)
    if not_a_trace(head) is not None:
        return Detection(None, ())
    fmt = input_format or detect_format(head)
    frames = list(itertools.islice(read_frames(stream, lambda *_: None, fmt), _SAMPLE))
    return detect(frames, document=is_document(head, fmt))


def is_document(head: bytes, fmt: InputFormat) -> bool:
    """Whether input that starts with ``head`` and reads as ``fmt`` is one JSON document, not an
    array: what a response body is.

    >>> is_document(b'  {"candidates": []}', "json"), is_document(b'[{"candidates": []}]', "json")
    (True, False)
    """
    return fmt == "json" and not head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"[")
