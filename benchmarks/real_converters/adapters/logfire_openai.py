"""Pydantic Logfire's OpenAI instrumentation: the response it records for a streamed chat completion.

    toolwire fuzz benchmarks/real_converters/adapters/logfire_openai.py:convert \
        --from openai-chat-stream --to openai-chat-response

``logfire.instrument_openai()`` wraps the openai client; when a chat completion streams, it records
each chunk the application iterates and, at the end of the stream, logs a span whose
``response_data`` attribute is what the Logfire UI shows as the assistant's reply (2.2.0 on: the
message the openai SDK's ``ChatCompletionStreamState`` adds up; before: the text alone, as
``combined_chunk_content``). The adapter runs a real instrumented ``openai.OpenAI`` client over the
mock transport, iterates the stream as an application does, reads ``response_data`` off the span
(an in-memory exporter: nothing is sent anywhere) and writes its message out as a chat.completion,
with the stream's finish reason (Logfire keeps none).
"""

from __future__ import annotations

import json
from typing import Any

import logfire
from _openai_wire import body, client, finish_reason
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

_SPANS = InMemorySpanExporter()
logfire.configure(
    send_to_logfire=False,
    console=False,
    additional_span_processors=[SimpleSpanProcessor(_SPANS)],
)
logfire.instrument_openai()


def _response_data() -> Any:
    for span in reversed(_SPANS.get_finished_spans()):
        data = (span.attributes or {}).get("response_data")
        if data is not None:
            return json.loads(data) if isinstance(data, str) else data
    raise RuntimeError("logfire recorded no response_data for the stream")


def convert(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    _SPANS.clear()
    stream = client(chunks).chat.completions.create(
        model="gpt-4o", messages=[{"role": "user", "content": "Go."}], stream=True
    )
    for _ in stream:
        pass
    data = _response_data()
    recorded = data.get("message")
    if recorded is None:  # before 2.2.0, and 2.2.0 when no chunk made a snapshot: the text alone
        message: dict[str, Any] = {"role": "assistant", "content": data.get("combined_chunk_content")}
    else:
        message = {"role": recorded.get("role") or "assistant", "content": recorded.get("content")}
        if recorded.get("tool_calls"):
            message["tool_calls"] = [
                {
                    "id": call.get("id"),
                    "type": call.get("type"),
                    "function": {
                        "name": (call.get("function") or {}).get("name"),
                        "arguments": (call.get("function") or {}).get("arguments"),
                    },
                }
                for call in recorded["tool_calls"]
            ]
    return body(chunks, message, finish_reason(chunks))
