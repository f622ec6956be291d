"""Langfuse's OpenAI integration: the output it records for a streamed chat completion.

    toolwire fuzz benchmarks/real_converters/adapters/langfuse_openai.py:convert \
        --from openai-chat-stream --to openai-chat-response

``langfuse.openai`` wraps ``chat.completions.create``; when the call streams, it collects the chunks
the application iterates and ``_extract_streamed_openai_response`` adds them up into the
generation's output, the assistant message a trace shows (and evaluations and datasets reuse).
The adapter hands it the chunks as the openai SDK parses them and wraps the message it returns
(a dict, or the text alone when there are no calls) in a chat.completion with its finish reason.
Tracing stays off: nothing is sent anywhere.
"""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("LANGFUSE_TRACING_ENABLED", "false")
os.environ.setdefault("OTEL_SDK_DISABLED", "true")

from _openai_wire import body, parsed
from langfuse import openai as langfuse_openai

_CHAT = next(
    d
    for d in langfuse_openai.OPENAI_METHODS_V1
    if d.type == "chat" and d.object == "Completions" and d.method == "create"
)


def convert(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    result = langfuse_openai._extract_streamed_openai_response(_CHAT, parsed(chunks))
    output, metadata = result[1], result[3]
    message = output if isinstance(output, dict) else {"role": "assistant", "content": output}
    return body(chunks, message, (metadata or {}).get("finish_reason"))
