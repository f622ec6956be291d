"""OTLP JSON: the OpenTelemetry file exporter's JSON Lines of ``TracesData`` / ``LogsData``.

Each model call an instrumentation recorded becomes a :class:`Call` of the log engine: the
messages sent and the messages answered, from, in this order of preference,

1. the ``gen_ai.client.inference.operation.details`` event (on a span, or as a log record):
   ``gen_ai.input.messages`` / ``gen_ai.output.messages`` as structured values;
2. the span's own ``gen_ai.input.messages`` / ``gen_ai.output.messages`` (JSON text, or structured);
3. OpenInference: ``input.value`` / ``output.value``, the wire bodies themselves when
   ``input.mime_type`` is JSON, else the flattened ``llm.input_messages.N.message.*``;
4. the older flattened ``gen_ai.prompt.N.*`` / ``gen_ai.completion.N.*``.

Flattened messages are rebuilt as GenAI messages (``role`` and typed ``parts``).  A call is grouped
by ``gen_ai.conversation.id`` (OpenInference: ``session.id``), else by its trace, and ordered by its
start time.  What is not shaped as the encoding says (a list that is text, a span that is a number,
an attribute whose value is no ``AnyValue``) is left out and is a :class:`Problem` at its line that
says where (``resourceSpans[0].scopeSpans``, a span by its id): an error, so that no report that
lost it is clean; a start time that is no number is a warning (the call is ordered as logged).
Sources: https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding,
https://opentelemetry.io/docs/specs/semconv/gen-ai/, and OpenInference's semantic conventions
(https://github.com/Arize-ai/openinference/blob/main/spec/semantic_conventions.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final, Literal

from toolwire.engines._core._results import Problem
from toolwire.engines.logs._envelopes import decoded

__all__ = ["Recorded", "is_otlp", "recorded_calls"]

#: Where detection finds the GenAI messages' protocols: the attribute that holds them.
INPUT: Final = "otlp/gen_ai.input.messages"
OUTPUT: Final = "otlp/gen_ai.output.messages"
DETAILS: Final = "gen_ai.client.inference.operation.details"
_JSON: Final = ("application/json", "json")

Severity = Literal["error", "warning"]
#: Takes what of a document cannot be read: a problem's message and severity.
Say = Callable[[str, Severity], None]


def is_otlp(head: bytes) -> bool:
    """Whether input starting with ``head`` is OTLP JSON (resourceSpans or resourceLogs in its first object).

    >>> is_otlp(b'{"resourceSpans": [{"scopeSpans": []}]}'), is_otlp(b'{"messages": []}')
    (True, False)
    """
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n")[:512]
    return start.startswith(b"{") and (b'"resourceSpans"' in start or b'"resourceLogs"' in start)


@dataclass(slots=True)
class Recorded:
    """One model call as telemetry recorded it: where, its group and time, what was sent and answered.

    ``request`` / ``response`` are ``(value, where, endpoint)``: the endpoint tells detection
    the value is GenAI messages (None: a wire body, detected by its content).
    """

    line: int | None
    group: Any
    order: Any
    request: tuple[Any, str, str | None] | None
    response: tuple[Any, str, str | None] | None
    attributes: dict[str, Any]


class Unreadable(ValueError):
    """A value that is not what OTLP's JSON encoding puts there; the message says what it is."""


def any_value(value: Any) -> Any:
    """An OTLP ``AnyValue`` as a Python value (``{"stringValue": "x"}`` is ``"x"``, null is None);
    :class:`Unreadable` when it is none.

    >>> any_value({"arrayValue": {"values": [{"intValue": "3"}, {"kvlistValue": {"values": [
    ...     {"key": "ok", "value": {"boolValue": True}}]}}]}})
    [3, {'ok': True}]
    """
    if not isinstance(value, dict):
        if value is None:
            return None
        raise Unreadable(f'{_shown(value)} is not an AnyValue (such as {{"stringValue": ...}})')
    if "stringValue" in value:
        return value["stringValue"]
    if "intValue" in value:
        try:
            return int(value["intValue"])
        except (TypeError, ValueError):
            return value["intValue"]
    for key in ("doubleValue", "boolValue", "bytesValue"):
        if key in value:
            return value[key]
    if "arrayValue" in value:
        return [any_value(v) for v in _values(value["arrayValue"], "arrayValue")]
    if "kvlistValue" in value:
        return _pairs(_values(value["kvlistValue"], "kvlistValue"))
    return None


def _pairs(pairs: list[Any]) -> dict[str, Any]:
    """``KeyValue`` pairs as a dict; :class:`Unreadable` when one is not a pair or its value no AnyValue."""
    try:
        out = {pair["key"]: any_value(pair.get("value")) for pair in pairs}
        if all(type(key) is str for key in out):
            return out
    except (TypeError, KeyError):
        pass
    for pair in pairs:
        if not isinstance(pair, dict) or not isinstance(pair.get("key"), str):
            raise Unreadable(f"{_shown(pair)} is not a key-value pair") from None
    raise AssertionError("unreachable: every pair is one")  # pragma: no cover


def _values(holder: Any, kind: str) -> list[Any]:
    """The ``values`` of an ``arrayValue`` or ``kvlistValue`` (null or absent: none)."""
    if isinstance(holder, dict):
        values = holder.get("values")
        if isinstance(values, list):
            return values
        if values is None:
            return []
        raise Unreadable(f"{kind}.values is {_shown(values)}, not a list")
    if holder is None:
        return []
    raise Unreadable(f'{kind} is {_shown(holder)}, not an object such as {{"values": [...]}}')


def _shown(value: Any) -> str:
    """``value`` as JSON, cut short: what a problem quotes of a bad value."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else f"{text[:37]}..."


def attributes(pairs: Any, where: str, say: Say) -> dict[str, Any]:
    """OTLP ``KeyValue`` pairs as a dict; a pair that cannot be read is told to ``say`` (``where``
    names what holds them, a span or log record) and left out."""
    if not isinstance(pairs, list):
        if pairs is not None:
            say(f"{where}: attributes is {_shown(pairs)}, not a list of key-value pairs; none read", "error")
        return {}
    try:
        return _pairs(pairs)
    except Unreadable:
        pass  # read again pair by pair, to say which
    read: dict[str, Any] = {}
    for n, pair in enumerate(pairs):
        try:
            read.update(_pairs([pair]))
        except Unreadable as exc:
            key = pair.get("key") if isinstance(pair, dict) else None
            named = f"attribute {key}" if isinstance(key, str) else f"attributes[{n}]"
            say(f"{where}: {named}: {exc}; not read", "error")
    return read


def recorded_calls(line: int | None, document: Any, problems: list[Problem]) -> Iterator[Recorded]:
    """The model calls in one OTLP JSON document (a line of the file exporter's output); what of it
    cannot be read is a :class:`Problem` at ``line`` in ``problems``, saying where in the document,
    and is left out (a null where the encoding allows an absent field is no problem)."""

    def say(message: str, severity: Severity) -> None:
        problems.append(Problem(line, None, message, severity))

    if not isinstance(document, dict) or ("resourceSpans" not in document and "resourceLogs" not in document):
        say(
            f"{_shown(document)} is not an OTLP TracesData or LogsData object (no resourceSpans or "
            "resourceLogs); nothing checked",
            "error",
        )
        return
    for resources, scopes, items, read, what in _LEVELS:
        for i, resource in enumerate(_listed(document, resources, "", say)):
            at = f"{resources}[{i}]"
            for j, scope in enumerate(_listed(resource, scopes, at, say)):
                at_scope = f"{at}.{scopes}[{j}]"
                for k, item in enumerate(_listed(scope, items, at_scope, say)):
                    if isinstance(item, dict):
                        found = read(line, item, f"{at_scope}.{items}[{k}]", say)
                        if found is not None:
                            yield found
                    else:
                        say(f"{at_scope}.{items}[{k}] is {_shown(item)}, not a {what}; not read", "error")


def _listed(holder: Any, key: str, where: str, say: Say) -> list[Any]:
    """The list at ``key`` of the object ``holder`` (at ``where`` in its document); an empty one, said
    so, when either is not what the encoding puts there (a null list: absent, nothing to say)."""
    if not isinstance(holder, dict):
        say(f"{where} is {_shown(holder)}, not an object; nothing in it read", "error")
        return []
    items = holder.get(key)
    if isinstance(items, list):
        return items
    if items is not None:
        say(f"{where}{'.' if where else ''}{key} is {_shown(items)}, not a list; nothing in it read", "error")
    return []


def _time(value: Any, where: str, say: Say) -> int | None:
    """A time in nanoseconds (absent: 0); None, said so, when it is none: the call is ordered as logged."""
    if value is None:
        return 0
    try:
        return int(value)
    except (TypeError, ValueError):
        say(
            f"{where} is {_shown(value)}, not nanoseconds since the epoch; the call is ordered as "
            "logged, after its group's timed calls",
            "warning",
        )
        return None


def _group(attrs: dict[str, Any], trace_id: Any, where: str, say: Say, *, span: bool) -> Any:
    """The call's conversation (``gen_ai.conversation.id``, ``session.id``), else its trace.  With
    neither it is checked alone, which a report says: an error for a span, whose ``traceId`` the
    encoding requires (a hex string), a warning for a log record, which may have none."""
    group = attrs.get("gen_ai.conversation.id") or attrs.get("session.id")
    if group or (isinstance(trace_id, str) and trace_id):
        return group or trace_id
    if trace_id is None or trace_id == "":
        what = "has no traceId"
        severity: Severity = "error" if span else "warning"
    else:
        what = f"has a traceId of {_shown(trace_id)}, not a hex string,"
        severity = "error"
    say(
        f"{where} {what} and no gen_ai.conversation.id or session.id groups the call; checked alone", severity
    )
    return None


def _span(line: int | None, span: dict[str, Any], at: str, say: Say) -> Recorded | None:
    name = f"span {span.get('spanId') or span.get('name') or at}"
    attrs = attributes(span.get("attributes"), name, say)
    sides: list[tuple[Any, str, str | None] | None] = [None, None]
    events = span.get("events")
    if isinstance(events, list):
        for n, event in enumerate(events):
            if isinstance(event, dict):
                if event.get("name") == DETAILS:
                    where = f"{name} event {DETAILS}"
                    _genai(attributes(event.get("attributes"), where, say), sides, where, say)
            else:
                say(f"{name}: events[{n}] is {_shown(event)}, not an event; not read", "error")
    elif events is not None:
        say(f"{name}: events is {_shown(events)}, not a list; none read", "error")
    _genai(attrs, sides, name, say)
    _openinference(attrs, sides, name)
    _legacy(attrs, sides, name)
    if sides == [None, None]:
        return None
    start = _time(span.get("startTimeUnixNano"), f"{name}: startTimeUnixNano", say)
    group = _group(attrs, span.get("traceId"), name, say, span=True)
    return Recorded(line, group, start, sides[0], sides[1], attrs)


def _log_record(line: int | None, record: dict[str, Any], at: str, say: Say) -> Recorded | None:
    name = f"log record {at}"
    attrs = attributes(record.get("attributes"), name, say)
    if (record.get("eventName") or attrs.get("event.name")) != DETAILS:
        return None
    try:
        body = any_value(record.get("body"))
    except Unreadable as exc:
        say(f"{name}: body: {exc}; not read", "error")
        body = None
    if isinstance(body, dict):
        attrs = {**body, **attrs}
    sides: list[tuple[Any, str, str | None] | None] = [None, None]
    _genai(attrs, sides, f"log record {DETAILS}", say)
    if sides == [None, None]:
        return None
    field = "timeUnixNano" if record.get("timeUnixNano") else "observedTimeUnixNano"
    when = _time(record.get(field), f"{name}: {field}", say)
    group = _group(attrs, record.get("traceId"), name, say, span=False)
    return Recorded(line, group, when, sides[0], sides[1], attrs)


#: The nesting of each kind of document: resources, their scopes, their items, how one is read.
_LEVELS: Final = (
    ("resourceSpans", "scopeSpans", "spans", _span, "span"),
    ("resourceLogs", "scopeLogs", "logRecords", _log_record, "record"),
)


def _genai(attrs: dict[str, Any], sides: list[Any], where: str, say: Say) -> None:
    for side, (key, endpoint) in enumerate(
        (("gen_ai.input.messages", INPUT), ("gen_ai.output.messages", OUTPUT))
    ):
        if sides[side] is None and key in attrs:
            value = decoded(attrs[key])
            if isinstance(value, str):
                say(f"{where} {key} is text that is not JSON ({_shown(value)}); not read", "error")
                continue
            sides[side] = ({"messages": value} if side == 0 else value, f"{where} {key}", endpoint)


def _openinference(attrs: dict[str, Any], sides: list[Any], where: str) -> None:
    for side, prefix in enumerate(("input", "output")):
        if sides[side] is not None:
            continue
        value, mime = attrs.get(f"{prefix}.value"), str(attrs.get(f"{prefix}.mime_type") or "")
        messages = _flattened(attrs, f"llm.{prefix}_messages.", "message.")
        if isinstance(value, str) and mime.endswith(_JSON):
            body = decoded(value)
            if isinstance(body, dict | list):
                sides[side] = (body, f"{where} {prefix}.value", None)
                continue
        if messages:
            endpoint = INPUT if side == 0 else OUTPUT
            rebuilt = {"messages": messages} if side == 0 else messages
            sides[side] = (rebuilt, f"{where} llm.{prefix}_messages", endpoint)


def _legacy(attrs: dict[str, Any], sides: list[Any], where: str) -> None:
    for side, prefix in enumerate(("gen_ai.prompt.", "gen_ai.completion.")):
        if sides[side] is None:
            messages = _flattened(attrs, prefix, "")
            if messages:
                endpoint = INPUT if side == 0 else OUTPUT
                rebuilt = {"messages": messages} if side == 0 else messages
                sides[side] = (rebuilt, f"{where} {prefix}N", endpoint)


_INDEXED: Final = re.compile(r"(\d+)\.(.*)")


def _flattened(attrs: dict[str, Any], prefix: str, inner: str) -> list[dict[str, Any]]:
    """Flattened messages (``PREFIX.N.INNERrole``, ``...tool_calls.M...``) rebuilt as GenAI messages.

    >>> _flattened({"gen_ai.prompt.0.role": "tool", "gen_ai.prompt.0.tool_call_id": "c1",
    ...             "gen_ai.prompt.0.content": "ok"}, "gen_ai.prompt.", "")
    [{'role': 'tool', 'parts': [{'type': 'tool_call_response', 'id': 'c1', 'response': 'ok'}]}]
    """
    fields: dict[int, dict[str, Any]] = {}
    for key, value in attrs.items():
        if not key.startswith(prefix):
            continue
        match = _INDEXED.fullmatch(key[len(prefix) :])
        if match is None or not match.group(2).startswith(inner):
            continue
        fields.setdefault(int(match.group(1)), {})[match.group(2)[len(inner) :]] = value
    return [_message(fields[n]) for n in sorted(fields)]


def _message(flat: dict[str, Any]) -> dict[str, Any]:
    role = flat.get("role")
    parts: list[dict[str, Any]] = []
    answering = flat.get("tool_call_id")
    if answering is not None or role == "tool":
        parts.append({"type": "tool_call_response", "id": answering, "response": flat.get("content")})
    elif isinstance(flat.get("content"), str):
        parts.append({"type": "text", "content": flat["content"]})
    calls: dict[int, dict[str, Any]] = {}
    for key, value in flat.items():
        match = _INDEXED.fullmatch(key[len("tool_calls.") :]) if key.startswith("tool_calls.") else None
        if match is not None:
            # OpenInference nests a call under tool_call. and its function under function.
            field = match.group(2).removeprefix("tool_call.").removeprefix("function.")
            calls.setdefault(int(match.group(1)), {})[field] = value
    for n in sorted(calls):
        call = calls[n]
        parts.append(
            {
                "type": "tool_call",
                "id": call.get("id"),
                "name": call.get("name"),
                "arguments": call.get("arguments"),
            }
        )
    message: dict[str, Any] = {"role": role, "parts": parts}
    if "finish_reason" in flat:
        message["finish_reason"] = flat["finish_reason"]
    return message
