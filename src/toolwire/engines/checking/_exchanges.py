"""``toolwire check`` of a VCR cassette or HAR file: every recorded exchange, each part on its own.

Each exchange's request body and response body (or stream: SSE in the body,
or AWS event-stream frames) is read like a trace file and checked with the
protocol detected from its endpoint and content (:mod:`._detect`).  A part no
registered protocol reads is reported as skipped, with the reason, never as
clean.  When request and response are both one session protocol's messages
(MCP's JSON-RPC), they are checked together as one trace.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Final

from toolwire.engines._core._detect import Detection, Side, detect, endpoint_of, is_document
from toolwire.engines._core._results import Problem, Report
from toolwire.engines._core._sizes import DETECT_BYTES
from toolwire.engines.checking._across import PROXY_RECORD, Conversations, emitted_ids
from toolwire.engines.checking._check import _run, _sink, is_recording
from toolwire.errors import UsageError
from toolwire.models import Exchange, Frame, InputFormat, RecordingError, detect_format, read_frames
from toolwire.models import read_recording as _read
from toolwire.models import recording_kind as _kind
from toolwire.properties import Protocol
from toolwire.protocols import get_protocol

__all__ = ["check_recording", "choose", "exchange_reports", "is_recording"]


def check_recording(
    path: str | os.PathLike[str], raw: bytes, protocol: str | None = None, profile: str | None = None
) -> list[Report]:
    """One report per request and response of the recording in ``raw`` (read from ``path``).

    ``protocol`` chooses among the protocols a part could be; a part that cannot
    be it is skipped.  A :class:`UsageError` says why a recording cannot be read at all.
    """
    kind = _kind(raw[:DETECT_BYTES])
    if kind is None:
        raise UsageError(f"{path} is not a VCR cassette or HAR file")
    try:
        exchanges = _read(raw, kind)
    except RecordingError as exc:
        raise UsageError(f"{path}: {exc}") from None
    if not exchanges:
        return [Report(str(path), "", 0, problems=(Problem(None, None, f"the {kind} records no exchange"),))]
    reports: list[Report] = []
    # The proxy's record holds every exchange through it: the rule across exchanges judges it too.
    conversations = Conversations() if _by_proxy(raw, kind) else None
    for exchange in exchanges:
        read: dict[str, list[Frame]] = {}
        parts = list(exchange_reports(str(path), exchange, protocol, profile, read))
        if conversations is not None:
            parts = _across(conversations, exchange, parts, read.get("response"))
        reports.extend(parts)
    if protocol is not None and not any(report.protocol for report in reports):
        # Not one part is the named protocol's traffic: under -p that is unusable input, never clean.
        return [replace(r, problems=tuple(replace(p, severity="error") for p in r.problems)) for r in reports]
    return reports


def _by_proxy(raw: bytes, kind: str) -> bool:
    """Whether the recording is a record the proxy wrote (it names itself so, see :data:`PROXY_RECORD`)."""
    if kind == "har":
        named = rb'"creator"\s*:\s*\{\s*"name"\s*:\s*"' + PROXY_RECORD.encode() + rb'"'
        return re.search(named, raw[:4096]) is not None
    return re.search(rb"(?m)^recorded_by: " + PROXY_RECORD.encode() + rb"\s*$", raw[-4096:]) is not None


def _across(
    conversations: Conversations, exchange: Exchange, reports: list[Report], frames: list[Frame] | None
) -> list[Report]:
    """The exchange's reports, its request's with the findings across exchanges added; then what
    its response (read as ``frames``) emitted is known to the exchanges after it."""
    judged = [
        replace(r, findings=(*r.findings, *found))
        if r.source.endswith(" request") and (found := conversations.unanswered(exchange.request, r))
        else r
        for r in reports
    ]
    conversations.add(emitted_ids(exchange.response, reports, frames))
    return judged


def exchange_reports(
    path: str,
    exchange: Exchange,
    protocol: str | tuple[str, ...] | None,
    profile: str | None = None,
    read: dict[str, list[Frame]] | None = None,
) -> Iterator[Report]:
    """The reports of one exchange: its request and its response, each on its own (or both as one
    session), every part no protocol reads reported as skipped (the proxy checks live exchanges so).
    ``read`` gets each side's frames, as they were read (what its response emitted is read from
    them, not from its bytes again)."""
    where = f"{path}#{exchange.number}"
    endpoint = endpoint_of(exchange.uri)
    noted = [Problem(None, None, message, "warning") for message in exchange.problems]
    parts: list[tuple[Side, list[Frame], list[Problem], InputFormat, Detection]] = []
    sides: tuple[tuple[Side, bytes | None], ...] = (
        ("request", exchange.request),
        ("response", exchange.response),
    )
    for side, body in sides:
        if body is None:
            continue
        problems: list[Problem] = []
        fmt = detect_format(body[:DETECT_BYTES])
        frames = list(read_frames(io.BytesIO(body), _sink(problems), fmt))
        if read is not None:
            read[side] = frames
        document = is_document(body[:DETECT_BYTES], fmt)
        parts.append((side, frames, problems, fmt, detect(frames, endpoint, side, document)))
    if exchange.status is not None and exchange.status >= 400:
        noted.append(
            Problem(None, None, f"HTTP {exchange.status}: the provider refused this exchange", "warning")
        )
    names = [choose(d, protocol) for _, _, _, _, d in parts]
    if len(parts) == 2 and names[0] is not None and names[0] == names[1] and _session(names[0]):
        # One session protocol on both sides (MCP): the request's messages, then the answer's.
        spec = get_protocol(names[0])
        frames = parts[0][1] + parts[1][1]
        problems = parts[0][2] + parts[1][2] + noted
        yield _run(spec, iter(frames), f"{where} exchange", problems, parts[1][3], None, _own(spec, profile))
        return
    for side, frames, problems, fmt, detection in parts:
        source = f"{where} {side}"
        if side == "response" and exchange.status is not None and exchange.status >= 400:
            yield _skipped(source, f"HTTP {exchange.status} error response", noted)
        elif (name := choose(detection, protocol)) is None:
            yield _skipped(source, _why(exchange, side, detection, protocol), [*noted, *problems])
        else:
            spec = get_protocol(name)
            yield _run(spec, iter(frames), source, [*noted, *problems], fmt, None, _own(spec, profile))
        noted = []
    if exchange.response is None and (exchange.status not in _NO_CONTENT or not parts):
        # A HAR of a browser leaves event streams out; a body that does not decode is left out too.
        what = "no response body" if exchange.status not in _NO_CONTENT else "no body at all"
        yield _skipped(
            f"{where} response", f"the recording holds {what} ({exchange.method} {exchange.uri})", noted
        )


#: Statuses that answer without a body (an MCP notification is answered 202 Accepted).
_NO_CONTENT: Final = (202, 204)


def choose(detection: Detection, protocol: str | tuple[str, ...] | None) -> str | None:
    """The protocol to check a part with: the detected one, or ``-p`` where it is a candidate (a
    variant counts with its base)."""
    if isinstance(protocol, tuple):
        return next((name for p in protocol if (name := choose(detection, p)) is not None), None)
    if protocol is None:
        return detection.protocol
    if protocol in detection.candidates or get_protocol(protocol).variant_of in detection.candidates:
        return protocol
    return None


def _own(spec: Protocol, profile: str | None) -> str | None:
    """``--profile`` applies to the parts of the protocols that have it (a cassette mixes protocols)."""
    return profile if profile in spec.profile_names() else None


def _session(name: str) -> bool:
    return get_protocol(name).shape == "stream"


def _why(exchange: Exchange, side: str, detection: Detection, protocol: str | tuple[str, ...] | None) -> str:
    kind = exchange.request_type if side == "request" else exchange.response_type
    what = f"this {side} body" + (f" ({kind.split(';')[0]})" if kind else "")
    where = f"{exchange.method} {detection.endpoint or exchange.uri}"
    if detection.candidates:
        reads = f"reads as {', '.join(detection.candidates)}"
        if protocol is not None:
            named = protocol if isinstance(protocol, str) else " or ".join(protocol)
            return f"{what} to {where} is not {named} traffic: it {reads}"
        return f"{what} to {where} is ambiguous: it {reads}; -p chooses"
    return f"no registered protocol reads {what} to {where}"


def _skipped(source: str, reason: str, problems: list[Problem]) -> Report:
    return Report(source, "", 0, problems=(*problems, Problem(None, None, f"skipped: {reason}", "warning")))
