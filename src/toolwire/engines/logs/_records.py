"""Records: each log record read into the model :class:`Call` it logged, batch halves joined.

A record gives one call: the request body it sent and the response body it got (either may be
missing), taken from the record by the dotted paths of its envelope (:mod:`._envelopes`), or a
span's or log record's GenAI messages (:mod:`._otlp`).  :class:`Records` is the stage that turns
records into calls: it holds the calls read so far, the halves of batch lines waiting for their
other half, and each file's input problems, in the order met.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

import orjson

from toolwire.engines._core._detect import endpoint_of
from toolwire.engines._core._results import Problem
from toolwire.engines.logs._envelopes import MISSING, Preset, dig
from toolwire.engines.logs._otlp import recorded_calls
from toolwire.protocols import PROTOCOLS

__all__ = ["Body", "Call", "Records", "Side", "group_key", "number", "value_at"]

Side = Literal["request", "response"]


@dataclass(slots=True)
class Body:
    """One body a record logged: its value, where it was read and which side of a call it is."""

    value: Any
    source: str
    line: int | None
    where: str
    side: Side
    #: The URL's ``host/path`` it was sent to, or the OTLP attribute that held it (``genai``).
    endpoint: str | None = None
    genai: bool = False
    #: A message list checked as the body ``{"messages": [...]}`` (its findings' paths are the list's).
    wrapped: bool = False


@dataclass(slots=True)
class Call:
    """One model call: its request and response bodies, its group and where it sits in it."""

    source: str
    line: int | None
    group: Any
    order: Any
    seq: int
    request: Body | None = None
    response: Body | None = None
    #: Read from OpenTelemetry: grouped by its conversation or trace without ``--group-by``.
    otlp: bool = False
    #: The record logged a failed call: it has no response, and the next turn answers the turn before.
    failed: bool = False


def group_key(value: Any) -> str | None:
    """A group's key and name: text as it is; any other JSON value as its JSON text, keys sorted
    (equal objects are one group whatever the order of their keys, in every process; ``true`` is
    not ``1``; ``7``, ``7.0`` and ``"7"`` are one, as are ``true`` and ``"true"``); None for no
    group (None, or empty text)."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # 7.0 is 7 (a log written through a float column)
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    except (TypeError, orjson.JSONEncodeError):  # not from JSON: a Python caller's own value
        return repr(value)


def value_at(record: Any, path: str | None) -> Any:
    """The value at dotted ``path`` in ``record``; None when there is none (or no path)."""
    if path is None:
        return None
    value = dig(record, path)
    return None if value is MISSING else value


def number(order: Any) -> float | None:
    """``order`` as a finite number, when it is one or is text that reads as one (not true/false)."""
    if isinstance(order, bool):
        return None
    if isinstance(order, int | float):
        return order if math.isfinite(order) else None
    if isinstance(order, str):
        try:
            found = float(order)
        except ValueError:
            return None
        return found if math.isfinite(found) else None
    return None


class Records:
    """The calls of the records read, in order: records of files given with their envelope (or
    ``body``, a path to a body of either side), grouped at ``group_by`` and ordered at
    ``order_by``; the input problems of each file (:attr:`problems`) as they are met."""

    def __init__(self, body: str | None, group_by: str | None = None, order_by: str | None = None) -> None:
        self.body = body
        self.group_by = group_by
        self.order_by = order_by
        self.calls: list[Call] = []
        #: Each file's input problems, in the order met (the reader's and the records').
        self.problems: dict[str, list[Problem]] = {}
        #: The lines of each batch key in each file, and the halves waiting for their other half.
        self._joined: dict[Any, Any] = {}

    def problems_of(self, name: str) -> list[Problem]:
        """The input problems of the file ``name`` (a list this stage adds to)."""
        own = self.problems.get(name)
        if own is None:
            own = self.problems[name] = []
        return own

    def add(self, name: str, kind: Preset | None, line: int | None, record: Any) -> None:
        """Read ``record``, at ``line`` of the file ``name`` whose envelope is ``kind``, into a call."""
        problems = self.problems.get(name)
        if problems is None:
            problems = self.problems[name] = []
        body, calls = self.body, self.calls
        where = f"record at line {line}" if line is not None else "record"
        if not isinstance(record, dict):
            problems.append(Problem(line, None, f"{where} is not a JSON object; nothing checked"))
            return
        only = kind.only if kind is not None else None
        if only is not None and dig(record, only[0]) not in (MISSING, only[1]):
            return  # not a model call: a span or event of the same trace
        group_by = self.group_by
        group = value_at(record, group_by)
        order = value_at(record, self.order_by)
        named = group_key(group) if group_by else None
        failed = _failed(record, kind) if kind is not None else None
        if failed is not None:
            said = f"{where} logged a failed call ({failed}); its response is not checked"
            problems.append(Problem(line, None, said, "warning", group=named))
        call = Call(name, line, group, order, len(calls), failed=failed is not None)
        sent = dig(record, kind.endpoint) if kind is not None and kind.endpoint else None
        endpoint = (endpoint_of(sent) if "://" in sent else sent) if isinstance(sent, str) else None
        read: list[str] = []
        for side, path in (
            ("request", kind.request if kind else None),
            ("response", kind.response if kind else None),
        ):
            if path is None or (side == "response" and failed is not None):
                continue
            read.append(path)
            value = dig(record, path)
            if value is MISSING or value is None:
                continue
            wrapped = side == "request" and kind is not None and kind.messages and isinstance(value, list)
            if wrapped:
                value = {"messages": value}
            if side == "response" and kind is not None and kind.messages and isinstance(value, str):
                # An SDK recorded the model's text alone (Langfuse's output is any value): an
                # answer, no calls.
                value = {"role": "assistant", "content": value}
            if (
                side == "response"
                and kind is not None
                and kind.messages
                and isinstance(value, dict)
                and "role" in value
            ):
                # An SDK recorded the model's message alone: checked as the response body holding it.
                finish = "tool_calls" if value.get("tool_calls") else "stop"
                value = {"choices": [{"index": 0, "message": value, "finish_reason": finish}]}
            setattr(call, side, Body(value, name, line, path, side, endpoint, wrapped=wrapped))  # type: ignore[arg-type]
        if body is not None:
            read.append(body)
            value = dig(record, body)
            if value is not MISSING and value is not None:
                side = _side(value)
                setattr(call, side, Body(value, name, line, body, side, endpoint))
        if call.request is None and call.response is None:
            if failed is None:
                problems.append(
                    Problem(line, None, f"{where}: no body at {' or '.join(read)}; nothing checked")
                )
            elif kind is not None and kind.key:
                # A failed batch line still answers its input line: joined, with nothing of its own.
                self._join(call, dig(record, kind.key), kind, problems)
            return
        if kind is not None and kind.request and kind.response and failed is None and not body:
            gone = kind.request if call.request is None else kind.response if call.response is None else None
            if gone is not None:
                # A turn with one side: in a conversation, the next turn cannot be compared with it.
                kept = "response" if call.request is None else "request"
                said = f"{where}: no body at {gone}; only its {kept}"
                problems.append(Problem(line, None, said + " is checked", "warning", group=named))
        if kind is None or not kind.key:
            calls.append(call)
            return
        self._join(call, dig(record, kind.key), kind, problems)

    def add_otlp(self, name: str, frames: Iterable[Any]) -> None:
        """Read the OTLP JSON documents ``frames`` (``(line, document, event)``) of the file ``name``
        into calls: each span or log record that holds GenAI messages is one."""
        calls, problems = self.calls, self.problems_of(name)
        group_by, order_by = self.group_by, self.order_by
        before = len(calls)
        # --group-by / --order-by name attributes.  A file none of whose calls has one keeps its own
        # grouping (conversation, else trace) or order (start time), as when it is not given: it may
        # be meant for other files of the same check.  Where some have it, the others have none (and
        # are said so), never a start time in nanoseconds sorted among turn numbers.
        own: list[tuple[Call, Any, Any]] = []
        for line, document, _ in frames:
            for found in recorded_calls(line, document, problems):
                group = found.attributes.get(group_by) if group_by else found.group
                order = found.attributes.get(order_by) if order_by else found.order
                call = Call(name, line, group, order, len(calls), otlp=True)
                if group_by or order_by:
                    own.append((call, found.group, found.order))
                if found.request is not None:
                    value, where, endpoint = found.request
                    genai = endpoint is not None
                    call.request = Body(value, name, line, where, "request", endpoint, genai, wrapped=genai)
                if found.response is not None:
                    value, where, endpoint = found.response
                    call.response = Body(value, name, line, where, "response", endpoint, endpoint is not None)
                calls.append(call)
        if group_by and all(call.group is None for call, _, _ in own):
            for call, group, _ in own:
                call.group = group
        if order_by and all(call.order is None for call, _, _ in own):
            for call, _, order in own:
                call.order = order
        if len(calls) == before:
            problems.append(
                Problem(
                    None,
                    None,
                    "no span or log record holds GenAI messages (gen_ai.input.messages, "
                    "gen_ai.output.messages, OpenInference's input.value / llm.input_messages, or "
                    "gen_ai.prompt.N): nothing to check",
                )
            )

    def _join(self, call: Call, key: Any, kind: Preset, problems: list[Problem]) -> None:
        """Add ``call``, a batch line, to the calls, or join it to the other half of its line given
        in another file: an input line (its request) and an output line (its response) join on their
        ``key`` (``custom_id``), each output line to the first input line of its key not joined yet.
        Two input (or two output) files are never joined; a key twice in one file is a problem, and
        both lines are checked (:meth:`unjoined` names the lines left waiting)."""
        calls, joined = self.calls, self._joined
        where = f"record at line {call.line}" if call.line is not None else "record"
        if key is MISSING or isinstance(key, bool) or not isinstance(key, str | int):
            checked = (
                "its body is checked alone" if call.request or call.response else "it logged a failed call"
            )
            problems.append(Problem(call.line, None, f"{where} has no {kind.key} to join it by; {checked}"))
            calls.append(call)
            return
        first = joined.setdefault(("line", call.source, key), call.line)
        if first != call.line:
            at = f"line {first}" if first is not None else "another record"
            said = (
                f"{where}: {kind.key} {key!r} again ({at} has it); it must be unique: both lines are checked"
            )
            problems.append(Problem(call.line, None, said))
        # Which half of a batch line the file holds: the request (an input) or the response (an output).
        half = "request" if kind.response is None else "response" if kind.request is None else None
        if half is None:
            calls.append(call)
            return
        waiting: list[Call] = joined.get(("waiting", "response" if half == "request" else "request", key), [])
        if not waiting:
            joined.setdefault(("waiting", half, key), []).append(call)
            calls.append(call)
            return
        # The other half of a batch line given in another file (input and output join on their key).
        other = waiting.pop(0)
        opposite = "response" if half == "request" else "request"
        joined[("joined", "", key)] = {half: (call.source, call.line), opposite: (other.source, other.line)}
        if any(left.source != other.source for left in waiting):
            # Two batches given together, both with this key: the first file given is the one joined.
            at = f"{other.source} line {other.line}" if other.line is not None else other.source
            said = f"{where}: {kind.key} {key!r} is in more than one file of the other half given; "
            problems.append(Problem(call.line, None, said + f"joined with {at}", "warning"))
        other.request = other.request or call.request
        other.response = other.response or call.response
        sent_to = next(
            (b.endpoint for b in (other.request, other.response) if b is not None and b.endpoint), None
        )
        for part in (other.request, other.response):
            if part is not None and part.endpoint is None:
                part.endpoint = sent_to
        if other.group is None:
            other.group = call.group

    def unjoined(self, kinds: Iterable[Preset | None]) -> None:
        """Warn of each line of a batch whose key no line of the other half has, when that half was
        given (``kinds``: the envelopes of the files read): an output line's response is checked
        alone, without its request's protocol and endpoint; an input line's request has no response
        to follow (the line failed, or its output is in another file)."""
        given = list(kinds)
        halves = {
            "request": [k for k in given if k is not None and k.key and k.response is None],
            "response": [k for k in given if k is not None and k.key and k.request is None],
        }
        joined = self._joined
        for (tag, half, key), waiting in joined.items():
            other = "request" if half == "response" else "response"
            if tag != "waiting" or not halves[other]:
                continue
            for call in waiting:
                where = f"record at line {call.line}" if call.line is not None else "record"
                name = "input" if other == "request" else "output"
                said = f"{where}: no batch {name} line given has {halves[other][0].key} {key!r}"
                if ("joined", "", key) in joined:
                    # Two files of this half have the key: the other half's line joined the one read first.
                    pair = joined[("joined", "", key)]
                    (source, line), (theirs, at) = pair[half], pair[other]
                    said = (
                        f"{where}: the batch {name} line of {halves[other][0].key} {key!r} ({theirs}:{at}) "
                    )
                    said += f"joined {source}:{line}, read before this one"
                said += f"; its {half} is checked alone"
                self.problems_of(call.source).append(Problem(call.line, None, said, "warning"))


def _side(value: Any) -> Side:
    """Whether a body read at ``--body`` is a request or a response: a request holds its messages
    in a list at its protocol's ``container`` (``messages``, ``contents``, ``input``), as detection
    asks of a request body, or is a list (of messages); any other body is a response."""
    if isinstance(value, list):
        return "request"
    if isinstance(value, dict):
        for spec in PROTOCOLS.values():
            if spec.shape == "conversation" and isinstance(value.get(spec.container or ""), list):
                return "request"
    return "response"


def _failed(record: dict[str, Any], kind: Preset) -> str | None:
    """What says the record logged a failed call (``response.status 429``), or None."""
    if kind.error is not None:
        error = dig(record, kind.error)
        if error is not MISSING and error is not None:
            fields = error if isinstance(error, dict) else {}
            said = next((fields[k] for k in ("code", "type") if fields.get(k)), None)
            return f"{kind.error} {said!r}" if isinstance(said, str | int) else f"{kind.error} set"
    if kind.failed is not None:
        path, ok = kind.failed
        value = dig(record, path)
        if value is not MISSING and value != ok:
            return f"{path} {value!r}"
    return None
