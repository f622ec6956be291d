"""aisuite's Anthropic provider: a Messages API response -> the OpenAI-shaped response aisuite returns.

    toolwire fuzz benchmarks/real_converters/adapters/aisuite_anthropic.py:convert \
        --from anthropic-message-response --to openai-chat-response

``client.chat.completions.create(model="anthropic:...")`` sends the request with the anthropic SDK
and normalizes the answer with ``AnthropicMessageConverter.convert_response``. The adapter lets
the anthropic SDK parse the generated body from an HTTP response (a mock transport, no network),
hands the parsed ``Message`` to the converter, and writes aisuite's ``ChatCompletionResponse`` out
as a chat.completion: its message as pydantic dumps it (fields that are None left out, but for
``content``) and its finish reason.
"""

from __future__ import annotations

import json
from typing import Any

import anthropic
import httpx
from aisuite.providers.anthropic_provider import AnthropicMessageConverter

_CONVERTER = AnthropicMessageConverter()


def _parsed(body: dict[str, Any]) -> Any:
    content = json.dumps(body).encode()
    transport = httpx.MockTransport(
        lambda request: httpx.Response(200, headers={"content-type": "application/json"}, content=content)
    )
    client = anthropic.Anthropic(
        api_key="sk-toolwire-benchmark",
        base_url="http://127.0.0.1:9",
        max_retries=0,
        http_client=httpx.Client(transport=transport),
    )
    return client.messages.create(model="claude-3-5-sonnet-latest", max_tokens=1024, messages=[])


def convert(trace: list[dict[str, Any]]) -> dict[str, Any]:
    body = trace[0]
    response = _CONVERTER.convert_response(_parsed(body))
    choice = response.choices[0]
    message = {k: v for k, v in choice.message.model_dump().items() if v is not None or k == "content"}
    return {
        "id": body.get("id") or "chatcmpl-benchmark",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model") or "claude",
        "choices": [{"index": 0, "message": message, "finish_reason": choice.finish_reason}],
    }
