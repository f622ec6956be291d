"""AutoGen's ``OpenAIChatCompletionClient.create_stream``: chunks -> ``CreateResult`` -> OpenAI message.

    toolwire fuzz benchmarks/real_converters/adapters/autogen_openai.py:convert \
        --from openai-chat-stream --to openai-chat-response

``autogen_ext.models.openai.OpenAIChatCompletionClient`` streams a completion as an
``AssistantAgent`` with ``model_client_stream=True`` does: ``create_stream`` yields the text deltas
and, last, a ``CreateResult`` whose ``content`` is the text or the list of ``FunctionCall``s it added
up (and, from 0.4.8, whose ``thought`` is the text that came with the calls). The adapter runs it
against an ``openai.AsyncOpenAI`` client that streams the generated chunks, writes the calls back
with AutoGen's own serializer for the next request (``to_oai_type`` of an ``AssistantMessage``),
the text beside them (the thought, when there are calls), in a chat.completion with the stream's
finish reason (AutoGen's own is its vocabulary, ``function_calls``, not the wire's).
"""

from __future__ import annotations

import asyncio
from typing import Any

from _openai_wire import async_client, body, finish_reason
from autogen_core.models import AssistantMessage, CreateResult, UserMessage
from autogen_ext.models.openai import OpenAIChatCompletionClient
from autogen_ext.models.openai._openai_client import to_oai_type

_CLIENT = OpenAIChatCompletionClient(model="gpt-4o", api_key="sk-toolwire-benchmark")


async def _result(chunks: list[dict[str, Any]]) -> CreateResult:
    _CLIENT._client = async_client(chunks)
    result = None
    async for item in _CLIENT.create_stream([UserMessage(content="Go.", source="user")]):
        result = item
    if not isinstance(result, CreateResult):
        raise RuntimeError(f"create_stream ended without a CreateResult: {result!r}")
    return result


def convert(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    result = asyncio.run(_result(chunks))
    [message] = to_oai_type(AssistantMessage(content=result.content, source="assistant"))
    message = dict(message)
    if isinstance(result.content, list):
        message["content"] = getattr(result, "thought", None)
    return body(chunks, message, finish_reason(chunks))
