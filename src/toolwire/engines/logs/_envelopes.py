"""Envelopes: where a log record keeps the bodies it logged, and the presets of the sources that write them.

A PATH is dotted (``response.body``, ``input.inputBodyJson``; a number indexes a list); a JSON
string met on the way or at its end is decoded, since gateways and lakehouse tables keep bodies as
JSON text.  A :class:`Preset` names the paths one source's own types or docs give
(``tests/data/logs/<preset>/PROVENANCE.md`` cites each).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import orjson

from toolwire.errors import UsageError

__all__ = ["PRESETS", "Preset", "dig", "looks_like", "preset"]

#: What :func:`dig` returns when the path leads nowhere.
MISSING: Final = object()


def dig(record: Any, path: str) -> Any:
    """The value at dotted ``path`` in ``record`` (JSON text decoded), or :data:`MISSING`.

    >>> dig({"response": {"body": '{"id": "x"}'}}, "response.body")
    {'id': 'x'}
    >>> dig({"a": [1, 2]}, "a.1"), dig({"a": 1}, "b") is MISSING
    (2, True)

    Where a key is missing, a key with dots in it is looked for (the shortest that is there):

    >>> dig({"metadata": {"session.id": "s1"}}, "metadata.session.id")
    's1'
    """
    keys = path.split(".")
    value = record
    for k, key in enumerate(keys):
        value = decoded(value)
        if isinstance(value, dict):
            if key not in value:
                return _dotted(value, keys[k:])
            value = value[key]
        elif isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        else:
            return MISSING
    return decoded(value)


def _dotted(value: dict[str, Any], keys: list[str]) -> Any:
    """:func:`dig` of ``keys`` in ``value`` whose first key is not there: the shortest key with dots
    in it (``session.id``) that is, then the rest; :data:`MISSING` when none is."""
    for n in range(2, len(keys) + 1):
        key = ".".join(keys[:n])
        if key in value:
            return dig(value[key], ".".join(keys[n:])) if n < len(keys) else decoded(value[key])
    return MISSING


def decoded(value: Any) -> Any:
    """``value``, or the JSON object or array its text holds."""
    if isinstance(value, str) and value.lstrip()[:1] in ("{", "["):
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return value
    return value


@dataclass(frozen=True, slots=True)
class Preset:
    """Where one source's log records keep their bodies, and what else they say.

    ``messages``: the request path holds a message list, not a body (it is checked as the
    body ``{"messages": [...]}``).  ``key`` joins the records of files given together (a batch's
    input and output, on ``custom_id``).  ``failed`` is ``(path, value)``: a record whose value at
    ``path`` is not ``value`` logged a failed call (a 429, a 500): its response is not checked, its
    request still is where the record holds it (a request the provider refused is where a broken
    history shows); ``error`` is a path that, when set, says the same.  ``session`` and ``order``
    are what ``--group-by`` and ``--order-by`` usually name for it.  ``recorded``: the bodies are
    what an SDK recorded, not the bytes on the wire.  ``endpoint`` is the path of the URL the body
    was sent to.  ``only`` is ``(path, value)``: a record whose value at ``path`` is another is not
    a model call (a Langfuse SPAN, EVENT or TOOL observation) and is skipped without a word; a
    file of nothing else is an input error, as one with no body is.
    """

    name: str
    summary: str
    request: str | None = None
    response: str | None = None
    messages: bool = False
    key: str | None = None
    failed: tuple[str, Any] | None = None
    error: str | None = None
    session: str | None = None
    order: str | None = None
    recorded: bool = False
    #: Where the record says which URL the body was sent to (detection reads it, as a recording's).
    endpoint: str | None = None
    only: tuple[str, Any] | None = None


PRESETS: Final = {
    p.name: p
    for p in (
        Preset(
            "litellm",
            "LiteLLM StandardLoggingPayload: messages (the request's), response (the model's)",
            request="messages",
            response="response",
            messages=True,
            failed=("status", "success"),
            session="trace_id",
            order="startTime",
        ),
        Preset(
            "openai-batch-input",
            "OpenAI Batch input line: custom_id, method, url, body",
            request="body",
            key="custom_id",
            endpoint="url",
        ),
        Preset(
            "openai-batch-output",
            "OpenAI Batch output line: custom_id, response.body, error",
            response="response.body",
            key="custom_id",
            failed=("response.status_code", 200),
            error="error",
        ),
        Preset(
            "anthropic-batch",
            "Anthropic Message Batches result line: custom_id, result.type, result.message",
            response="result.message",
            key="custom_id",
            failed=("result.type", "succeeded"),
        ),
        Preset(
            "bedrock-invocations",
            "Amazon Bedrock model invocation log: input.inputBodyJson, output.outputBodyJson",
            request="input.inputBodyJson",
            response="output.outputBodyJson",
            error="errorCode",
            order="timestamp",
        ),
        Preset(
            "portkey",
            "Portkey log: request.body, response.body, metadata.trace_id",
            request="request.body",
            response="response.body",
            failed=("response.status", 200),
            session="metadata.trace_id",
            endpoint="request.url",
        ),
        Preset(
            "helicone",
            "Helicone export line (--include-body): request_body, response_body",
            request="request_body",
            response="response_body",
            failed=("response_status", 200),
            session="request_properties.Helicone-Session-Id",
            order="request_created_at",
        ),
        Preset(
            "databricks-inference",
            "Databricks inference table row: request, response (JSON text), status_code",
            request="request",
            response="response",
            failed=("status_code", 200),
            order="timestamp_ms",
        ),
        Preset(
            "langfuse",
            "Langfuse observation (GENERATION): input, output as the SDK recorded them",
            request="input",
            response="output",
            messages=True,
            session="traceId",
            order="startTime",
            recorded=True,
            only=("type", "GENERATION"),
        ),
    )
}


def looks_like(record: Any) -> Preset | None:
    """The preset whose records ``record`` looks like: every path it names for bodies, its join key
    and its status is in it (two at least), and of those that fit, the one that names the deepest
    paths (``input.inputBodyJson`` before ``input``); None when none fits.

    >>> looks_like({"custom_id": "r1", "method": "POST", "url": "/v1/chat/completions", "body": {}}).name
    'openai-batch-input'
    >>> looks_like({"messages": []}) is None
    True
    """
    if not isinstance(record, dict):
        return None
    fits: list[tuple[int, Preset]] = []
    for kind in PRESETS.values():
        paths = [p for p in (kind.request, kind.response, kind.key, kind.failed and kind.failed[0]) if p]
        if len(paths) >= 2 and all(dig(record, path) is not MISSING for path in paths):
            fits.append((sum(path.count(".") + 1 for path in paths), kind))
    return max(fits, key=lambda fit: fit[0])[1] if fits else None


def preset(name: str) -> Preset:
    """The preset called ``name``; a :class:`UsageError` lists the presets there are."""
    try:
        return PRESETS[name]
    except KeyError:
        raise UsageError(f"unknown --log preset {name!r}; choose one of: {', '.join(PRESETS)}") from None
