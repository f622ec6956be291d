"""Agno's ``OpenAIChat`` model streaming a response: chunks -> assistant ``Message`` -> OpenAI message.

    toolwire fuzz benchmarks/real_converters/adapters/agno_openai.py:convert \
        --from openai-chat-stream --to openai-chat-response

The steps are Agno's own, as ``Model.response_stream`` takes them: each chunk (parsed by the openai
SDK) becomes a ``ModelResponse`` (``OpenAIChat._parse_provider_response_delta``), which
``Model._populate_stream_data`` adds to the stream's ``MessageData``; at the end
``_populate_assistant_message_from_stream_data`` builds the assistant ``Message``, its tool calls
assembled by ``OpenAIChat.parse_tool_calls``. ``OpenAIChat._format_message`` writes it back as the
message Agno sends in the next request, wrapped here in a chat.completion.
"""

from __future__ import annotations

from typing import Any

from _openai_wire import body, parsed
from agno.models.base import MessageData
from agno.models.message import Message
from agno.models.openai import OpenAIChat

_MODEL = OpenAIChat(id="gpt-4o", api_key="sk-toolwire-benchmark")


def convert(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    stream_data = MessageData()
    for chunk in parsed(chunks):
        delta = _MODEL._parse_provider_response_delta(chunk)
        for _ in _MODEL._populate_stream_data(stream_data, delta):
            pass
    message = Message(role="assistant")
    _MODEL._populate_assistant_message_from_stream_data(message, stream_data)
    finish = [
        choice.get("finish_reason")
        for chunk in chunks
        for choice in chunk.get("choices") or []
        if choice.get("finish_reason")
    ]
    return body(chunks, _MODEL._format_message(message), finish[-1] if finish else None)
