"""Opik's OpenAI integration: the output it records for a streamed chat completion.

    toolwire fuzz benchmarks/real_converters/adapters/opik_openai.py:convert \
        --from openai-chat-stream --to openai-chat-response

``opik.integrations.openai.track_openai`` wraps ``chat.completions.create``; when the call streams,
it collects the chunks the application iterates and
``chat_completion_chunks_aggregator.aggregate`` adds them up into the span's output, a
chat.completion-shaped dict. The adapter hands it the chunks as the openai SDK parses them and
writes its first choice out as a chat.completion (its message and finish reason). Tracking stays
off: nothing is sent anywhere.
"""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("OPIK_TRACK_DISABLE", "true")
os.environ.setdefault("OPIK_URL_OVERRIDE", "http://127.0.0.1:9/api")

from _openai_wire import body, parsed
from opik.integrations.openai import chat_completion_chunks_aggregator


def convert(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    aggregated = chat_completion_chunks_aggregator.aggregate(parsed(chunks))
    if aggregated is None:  # the aggregator logs its own exception and records no output
        raise RuntimeError("opik recorded no output for the stream (aggregate returned None)")
    choice = aggregated.choices[0]
    message = dict(choice["message"])
    message["role"] = message.get("role") or "assistant"
    return body(chunks, message, choice.get("finish_reason"))
