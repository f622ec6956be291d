"""Which protocol a trace is: from the endpoint it was sent to, and from what it holds.

Every registered protocol is asked through its descriptor, so a protocol
registered later is detected by its own ``endpoints``, ``recognises`` and
monitor; nothing here names one.  The steps:

1. With an endpoint (a cassette's or HAR's URL), the protocols whose
   ``endpoints`` pattern matches it longest; only when none of those reads the
   content, every protocol.  Without one, every protocol.
2. The content: a candidate reads the values when its monitor skips none of
   them as foreign (a stream: fewer than half) and its ``recognises``, where it
   has one, accepts every message (a stream: most events).  A conversation
   needs request bodies holding its ``container``, or several bare messages;
   a response is never a conversation, and a request never a response body.
3. A ``variant_of`` another protocol is a candidate only where that one reads
   the values too, and yields to it when both are candidates.
4. A response body (``document``) is one JSON document, a stream many values or SSE / JSON
   Lines: where both read the values, that tells them apart.

One left is the protocol; several are an ambiguity (``-p`` decides); none is
"not recognised".
"""

from __future__ import annotations

import itertools
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import BinaryIO, Final, Literal
from urllib.parse import unquote, urlsplit

from toolwire.errors import UsageError
from toolwire.models import DONE, Frame, InputFormat, detect_format, read_frames, sniff
from toolwire.models._wire import not_a_trace
from toolwire.properties import Protocol
from toolwire.protocols import _registry

__all__ = ["Detection", "Side", "detect", "detect_file", "endpoint_of", "is_document", "reads_as"]

Side = Literal["request", "response"]
#: Values looked at to decide (events, or messages of the first bodies).
_SAMPLE: Final = 200


@dataclass(frozen=True, slots=True)
class Detection:
    """What detection found: ``protocol`` when exactly one candidate is left, else the ``candidates``."""

    protocol: str | None
    candidates: tuple[str, ...]
    endpoint: str | None = None

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
    readers: list[Protocol] = []
    for pool in pools[: 2 if endpoint else 1]:
        if side == "response":
            pool = [spec for spec in pool if spec.shape != "conversation"]
        elif side == "request":
            pool = [spec for spec in pool if not spec.document]
        readers = [spec for spec in pool if _reads(spec, frames) and _base_reads(spec, frames)]
        if readers:
            break
    names = {spec.name for spec in readers}
    readers = [spec for spec in readers if spec.variant_of not in names]
    if any(spec.document for spec in readers) and any(
        spec.shape == "stream" and not spec.document for spec in readers
    ):
        single = len([f for f in frames if f[1] is not DONE]) == 1 if document is None else document
        readers = [spec for spec in readers if spec.shape != "stream" or spec.document == single]
    left = tuple(spec.name for spec in readers)
    return Detection(left[0] if len(left) == 1 else None, left, endpoint)


def _base_reads(spec: Protocol, frames: Sequence[Frame], *, lone: bool = False) -> bool:
    """A variant shares its base's wire: what the base cannot read is not the variant's either."""
    base = _registry.PROTOCOLS.get(spec.variant_of or "")
    return base is None or _reads(base, frames, lone=lone)


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


def _reads(spec: Protocol, frames: Sequence[Frame], *, lone: bool = False) -> bool:
    """``spec``'s monitor and ``recognises`` take ``frames`` for its own traffic (``lone``: a
    single message may be a conversation)."""
    sample = [f for f in frames if f[1] is not DONE][:_SAMPLE]
    events = [value for _, value, _ in sample]
    if not events:
        return False
    monitor = spec.make()
    if spec.shape == "conversation":
        container = spec.container or ""
        bodies = [v for v in events if isinstance(v, dict) and isinstance(v.get(container), list)]
        if bodies:
            items = [item for body in bodies for item in body[container]][:_SAMPLE]
        elif (len(events) > 1 or lone) and all(isinstance(v, dict) for v in events):
            items = events
        else:
            return False
        for index, item in enumerate(items):
            monitor.feed(item, index, None, None)
        if monitor.skipped:
            return False
        return spec.recognises is None or all(spec.recognises(item) for item in items)
    for index, (line, event, name) in enumerate(sample):
        monitor.feed(event, index, line, name)
    if monitor.skipped * 2 >= len(events):
        return False
    if spec.recognises is None:
        return True
    return sum(map(spec.recognises, events)) * 2 > len(events)


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
