"""The provider side of the adapters: a real ``openai.OpenAI`` client whose HTTP transport answers with the
generated chunks as a server-sent event stream, on no network at all (``httpx.MockTransport``).

So the converter under test gets exactly what it gets in production: the openai SDK parses the SSE
bytes into its ``Stream`` of ``ChatCompletionChunk`` objects (loosely, as it parses any server's
stream), and the project's own code takes it from there. Nothing here converts a tool call.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import openai

Chunk = dict[str, Any]
BASE_URL = "http://127.0.0.1:9/v1"  # never reached: the mock transport answers every request


def sse(chunks: list[Chunk]) -> bytes:
    """The chunks as a Chat Completions SSE body, ending with ``data: [DONE]``."""
    lines = [f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n" for chunk in chunks]
    return ("".join(lines) + "data: [DONE]\n\n").encode()


def transport(chunks: list[Chunk], requests: list[dict[str, Any]] | None = None) -> httpx.MockTransport:
    """A transport that answers any request with the chunks' stream (and records the request bodies)."""
    body = sse(chunks)

    def answer(request: httpx.Request) -> httpx.Response:
        if requests is not None:
            requests.append(json.loads(request.content or b"{}"))
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    return httpx.MockTransport(answer)


def client(chunks: list[Chunk], requests: list[dict[str, Any]] | None = None) -> openai.OpenAI:
    """An OpenAI client whose every request is answered with the chunks' stream."""
    return openai.OpenAI(
        api_key="sk-toolwire-benchmark",
        base_url=BASE_URL,
        max_retries=0,
        http_client=httpx.Client(transport=transport(chunks, requests)),
    )


def async_client(chunks: list[Chunk]) -> openai.AsyncOpenAI:
    """An AsyncOpenAI client whose every request is answered with the chunks' stream."""
    return openai.AsyncOpenAI(
        api_key="sk-toolwire-benchmark",
        base_url=BASE_URL,
        max_retries=0,
        http_client=httpx.AsyncClient(transport=transport(chunks)),
    )


def finish_reason(chunks: list[Chunk]) -> Any:
    """The stream's last finish reason (for converters that keep none)."""
    reasons = [
        choice.get("finish_reason")
        for chunk in chunks
        for choice in chunk.get("choices") or []
        if choice.get("finish_reason")
    ]
    return reasons[-1] if reasons else None


def parsed(chunks: list[Chunk]) -> list[Any]:
    """The chunks as the openai SDK yields them from a streamed request: its own ``Stream`` over the
    SSE response (built directly, so that no wrapper a tracing SDK put on ``create`` runs)."""
    from openai.types.chat import ChatCompletionChunk

    sdk = client(chunks)
    response = httpx.Client(transport=transport(chunks)).send(
        httpx.Request("POST", f"{BASE_URL}/chat/completions"), stream=True
    )
    return list(openai.Stream(cast_to=ChatCompletionChunk, response=response, client=sdk))


def body(chunks: list[Chunk], message: dict[str, Any], finish_reason: Any) -> dict[str, Any]:
    """A chat.completion around the converter's message (id and model from the stream)."""
    head = chunks[0] if chunks else {}
    return {
        "id": head.get("id") or "chatcmpl-benchmark",
        "object": "chat.completion",
        "created": head.get("created") or 0,
        "model": head.get("model") or "gpt-4o",
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
    }
