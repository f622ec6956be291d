"""Haystack's ``OpenAIChatGenerator`` in streaming mode: chunks -> ``ChatMessage`` -> OpenAI message.

    toolwire fuzz benchmarks/real_converters/adapters/haystack_openai.py:convert \
        --from openai-chat-stream --to openai-chat-response

The generator runs as a pipeline runs it (``run(messages, streaming_callback=...)``) against an
OpenAI client that streams the generated chunks; its reply is written back as an OpenAI message by
Haystack's own ``ChatMessage.to_openai_dict_format()``, and wrapped in a chat.completion with the
reply's ``finish_reason``.
"""

from __future__ import annotations

from typing import Any

from _openai_wire import body, client
from haystack.components.generators.chat import OpenAIChatGenerator
from haystack.dataclasses import ChatMessage
from haystack.utils import Secret

_GENERATOR = OpenAIChatGenerator(api_key=Secret.from_token("sk-toolwire-benchmark"), model="gpt-4o")


def convert(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    _GENERATOR.client = client(chunks)
    result = _GENERATOR.run([ChatMessage.from_user("Go.")], streaming_callback=lambda chunk: None)
    reply = result["replies"][0]
    return body(chunks, reply.to_openai_dict_format(), reply.meta.get("finish_reason"))
