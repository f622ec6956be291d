"""Traceloop OpenLLMetry's OpenAI instrumentation: the completion it records for a streamed chat completion.

    toolwire fuzz benchmarks/real_converters/adapters/traceloop_openai.py:convert \
        --from openai-chat-stream --to openai-chat-response

``opentelemetry-instrumentation-openai`` (``OpenAIInstrumentor``) wraps ``chat.completions.create``;
when the call streams, ``ChatStream`` adds up the chunks the application iterates
(``_accumulate_stream_items``) and, at the end of the stream, writes the completion onto the span as
``gen_ai.completion.0.*`` attributes (role, content, ``tool_calls.N.id`` / ``.name`` /
``.arguments``). The adapter runs a real instrumented ``openai.OpenAI`` client over the mock
transport, iterates the stream as an application does, reads those attributes off the span (an
in-memory exporter: nothing is sent anywhere) and writes them out one for one as a chat.completion,
with the finish reason the span records.
"""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("TRACELOOP_TRACE_CONTENT", "true")

from _openai_wire import body, client
from opentelemetry.instrumentation.openai import OpenAIInstrumentor
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

_SPANS = InMemorySpanExporter()
_PROVIDER = TracerProvider()
_PROVIDER.add_span_processor(SimpleSpanProcessor(_SPANS))
OpenAIInstrumentor().instrument(tracer_provider=_PROVIDER)

_PREFIX = "gen_ai.completion.0"


def convert(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    _SPANS.clear()
    stream = client(chunks).chat.completions.create(
        model="gpt-4o", messages=[{"role": "user", "content": "Go."}], stream=True
    )
    for _ in stream:
        pass
    spans = [s for s in _SPANS.get_finished_spans() if s.name == "openai.chat"]
    if not spans:
        raise RuntimeError("the instrumentation recorded no openai.chat span")
    attributes = dict(spans[-1].attributes or {})
    message: dict[str, Any] = {
        "role": attributes.get(f"{_PREFIX}.role") or "assistant",
        "content": attributes.get(f"{_PREFIX}.content") or None,
    }
    calls = []
    while f"{_PREFIX}.tool_calls.{len(calls)}.name" in attributes:
        key = f"{_PREFIX}.tool_calls.{len(calls)}"
        calls.append(
            {
                "id": attributes.get(f"{key}.id"),
                "type": "function",
                "function": {
                    "name": attributes.get(f"{key}.name"),
                    "arguments": attributes.get(f"{key}.arguments"),
                },
            }
        )
    if calls:
        message["tool_calls"] = calls
    return body(chunks, message, attributes.get(f"{_PREFIX}.finish_reason"))
