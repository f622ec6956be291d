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
start time.  Sources: https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding,
https://opentelemetry.io/docs/specs/semconv/gen-ai/, and OpenInference's semantic conventions
(https://github.com/Arize-ai/openinference/blob/main/spec/semantic_conventions.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from toolwire.engines._envelopes import decoded

__all__ = ["Recorded", "is_otlp", "recorded_calls"]

#: Where detection finds the GenAI messages' protocols: the attribute that holds them.
INPUT: Final = "otlp/gen_ai.input.messages"
OUTPUT: Final = "otlp/gen_ai.output.messages"
DETAILS: Final = "gen_ai.client.inference.operation.details"
_JSON: Final = ("application/json", "json")


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


def any_value(value: Any) -> Any:
    """An OTLP ``AnyValue`` as a Python value (``{"stringValue": "x"}`` is ``"x"``)."""
    if not isinstance(value, dict):
        return value
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
        return [any_value(v) for v in (value["arrayValue"] or {}).get("values", [])]
    if "kvlistValue" in value:
        return attributes((value["kvlistValue"] or {}).get("values", []))
    return None


def attributes(pairs: Any) -> dict[str, Any]:
    """OTLP ``KeyValue`` pairs as a dict."""
    if not isinstance(pairs, list):
        return {}
    return {p["key"]: any_value(p.get("value")) for p in pairs if isinstance(p, dict) and "key" in p}


def recorded_calls(line: int | None, document: Any) -> Iterator[Recorded]:
    """The model calls in one OTLP JSON document (a line of the file exporter's output)."""
    if not isinstance(document, dict):
        return
    for resource in document.get("resourceSpans") or []:
        for scope in (resource or {}).get("scopeSpans") or []:
            for span in (scope or {}).get("spans") or []:
                if isinstance(span, dict):
                    found = _span(line, span)
                    if found is not None:
                        yield found
    for resource in document.get("resourceLogs") or []:
        for scope in (resource or {}).get("scopeLogs") or []:
            for record in (scope or {}).get("logRecords") or []:
                if isinstance(record, dict):
                    found = _log_record(line, record)
                    if found is not None:
                        yield found


def _time(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _group(attrs: dict[str, Any], trace_id: Any) -> Any:
    return attrs.get("gen_ai.conversation.id") or attrs.get("session.id") or trace_id


def _span(line: int | None, span: dict[str, Any]) -> Recorded | None:
    attrs = attributes(span.get("attributes"))
    name = f"span {span.get('spanId') or span.get('name')}"
    sides: list[tuple[Any, str, str | None] | None] = [None, None]
    for event in span.get("events") or []:
        if isinstance(event, dict) and event.get("name") == DETAILS:
            details = attributes(event.get("attributes"))
            _genai(details, sides, f"{name} event {DETAILS}")
    _genai(attrs, sides, name)
    _openinference(attrs, sides, name)
    _legacy(attrs, sides, name)
    if sides == [None, None]:
        return None
    start = _time(span.get("startTimeUnixNano"))
    return Recorded(line, _group(attrs, span.get("traceId")), start, sides[0], sides[1], attrs)


def _log_record(line: int | None, record: dict[str, Any]) -> Recorded | None:
    attrs = attributes(record.get("attributes"))
    if (record.get("eventName") or attrs.get("event.name")) != DETAILS:
        return None
    body = any_value(record.get("body"))
    if isinstance(body, dict):
        attrs = {**body, **attrs}
    sides: list[tuple[Any, str, str | None] | None] = [None, None]
    _genai(attrs, sides, f"log record {DETAILS}")
    if sides == [None, None]:
        return None
    when = _time(record.get("timeUnixNano") or record.get("observedTimeUnixNano"))
    return Recorded(line, _group(attrs, record.get("traceId")), when, sides[0], sides[1], attrs)


def _genai(attrs: dict[str, Any], sides: list[Any], where: str) -> None:
    for side, (key, endpoint) in enumerate(
        (("gen_ai.input.messages", INPUT), ("gen_ai.output.messages", OUTPUT))
    ):
        if sides[side] is None and key in attrs:
            value = decoded(attrs[key])
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
