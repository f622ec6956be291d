"""Real consumers of the Anthropic, Gemini and Bedrock streams, fed a stream in-process.

The sibling of consumers.py (its ``Seen``, issue 38's policy, the OpenAI and AI SDK runners) for
the families with a wire format of their own: anthropic-python's MessageStream and tool runner,
google-genai's generate_content_stream, and pydantic-ai's model for each, and @ai-sdk/amazon-bedrock
(node).  The HTTP layer is a mock transport, or botocore's ``before-send`` hook: nothing goes over
the network.
"""

from __future__ import annotations

import json
from typing import Any

from helpers.consumers import CHAT_MESSAGES, TOOLS, Seen, ai_sdk, catching, mock_transport, pydantic_ai_calls

# Anthropic Messages ---------------------------------------------------------------------------------

ANTHROPIC_TOOLS = [
    {"name": "get_weather", "description": TOOLS[0]["description"], "input_schema": TOOLS[0]["parameters"]}
]


def _anthropic(body: str) -> Any:
    import anthropic
    import httpx2

    client = httpx2.Client(transport=mock_transport(body))
    return anthropic.Anthropic(
        api_key="test", base_url="http://127.0.0.1:9", http_client=client, max_retries=0
    )


def anthropic_stream(body: str) -> Seen:
    """anthropic-python's ``client.messages.stream(...)`` (MessageStream): the tool_use blocks of its
    ``content_block_stop`` events (``stop:<id>``), then of ``get_final_message()``, each as (id,
    name, input as compact JSON)."""

    def run(seen: Seen) -> None:
        stream_of = _anthropic(body).messages.stream
        with stream_of(
            model="claude-test", max_tokens=100, messages=CHAT_MESSAGES, tools=ANTHROPIC_TOOLS
        ) as stream:
            for event in stream:
                if event.type == "content_block_stop" and event.content_block.type == "tool_use":
                    block = event.content_block
                    seen.calls.append((f"stop:{block.id}", block.name, _compact(block.input)))
            final = stream.get_final_message()
        seen.calls += [
            (f"final:{block.id}", block.name, _compact(block.input))
            for block in final.content
            if block.type == "tool_use"
        ]

    return catching(run)


def anthropic_tool_runner(body: str) -> Seen:
    """anthropic-python's ``client.beta.messages.tool_runner(..., stream=True)`` on one reply:
    ``calls`` are the tool runs it makes, as ("ran", name, input as compact JSON)."""

    def run(seen: Seen) -> None:
        from anthropic import beta_tool

        @beta_tool
        def get_weather(city: str) -> str:
            """The weather in a city."""
            seen.calls.append(("ran", "get_weather", _compact({"city": city})))
            return "sunny"

        runner = _anthropic(body).beta.messages.tool_runner(
            model="claude-test",
            max_tokens=100,
            messages=CHAT_MESSAGES,
            tools=[get_weather],
            max_iterations=1,
            stream=True,
        )
        for stream in runner:
            stream.until_done()

    return catching(run)


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def pydantic_ai_anthropic(body: str) -> Seen:
    """pydantic-ai's ``AnthropicModel.request_stream``: the tool-call parts of its final response."""

    def run(seen: Seen) -> None:
        import anthropic
        import httpx2
        from pydantic_ai.models.anthropic import AnthropicModel
        from pydantic_ai.providers.anthropic import AnthropicProvider

        client = anthropic.AsyncAnthropic(
            api_key="test",
            base_url="http://127.0.0.1:9",
            http_client=httpx2.AsyncClient(transport=mock_transport(body)),
            max_retries=0,
        )
        pydantic_ai_calls(
            seen, AnthropicModel("claude-test", provider=AnthropicProvider(anthropic_client=client))
        )

    return catching(run)


# Gemini -----------------------------------------------------------------------------------------------


def _genai(body: str, *, asynchronous: bool = False) -> Any:
    import httpx
    from google import genai
    from google.genai import types

    def handle(request: Any) -> Any:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, text=body)

    transport = httpx.MockTransport(handle)
    options = (
        types.HttpOptions(httpx_async_client=httpx.AsyncClient(transport=transport))
        if asynchronous
        else types.HttpOptions(httpx_client=httpx.Client(transport=transport))
    )
    return genai.Client(api_key="test", http_options=options)


def google_genai_stream(body: str) -> Seen:
    """google-genai's ``models.generate_content_stream``: the function calls of each chunk, each as
    (id, name, args as compact JSON)."""

    def run(seen: Seen) -> None:
        client = _genai(body)
        for chunk in client.models.generate_content_stream(model="gemini-test", contents="hi"):
            seen.calls += [(c.id, c.name, _compact(c.args)) for c in chunk.function_calls or []]

    return catching(run)


def pydantic_ai_google(body: str) -> Seen:
    """pydantic-ai's ``GoogleModel.request_stream``: the tool-call parts of its final response."""

    def run(seen: Seen) -> None:
        from pydantic_ai.models.google import GoogleModel
        from pydantic_ai.providers.google import GoogleProvider

        client = _genai(body, asynchronous=True)
        pydantic_ai_calls(seen, GoogleModel("gemini-test", provider=GoogleProvider(client=client)))

    return catching(run)


# Amazon Bedrock ConverseStream ----------------------------------------------------------------------


def eventstream(events: list[dict[str, Any]]) -> bytes:
    """The AWS event stream of ``events`` (each ``{type: body}``), as Bedrock sends ConverseStream."""
    from toolwire.models._eventstream import encode_frame

    frames = b""
    for event in events:
        ((kind, body),) = event.items()
        headers = {":event-type": kind, ":content-type": "application/json", ":message-type": "event"}
        frames += encode_frame(headers, json.dumps(body).encode())
    return frames


class _Raw:
    """The urllib3 response botocore reads an event stream from: its bytes in small chunks."""

    def __init__(self, body: bytes) -> None:
        self._body = body

    def stream(self, amt: int = 64, decode_content: bool | None = None) -> Any:
        for start in range(0, len(self._body), amt):
            yield self._body[start : start + amt]

    def read(self, amt: int | None = None) -> bytes:
        body, self._body = self._body, b""
        return body

    def close(self) -> None:
        self._body = b""


def _bedrock(body: bytes) -> Any:
    import botocore.session
    from botocore.awsrequest import AWSResponse

    client = botocore.session.get_session().create_client(
        "bedrock-runtime", region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test"
    )

    def send(request: Any, **_: Any) -> Any:
        headers = {"content-type": "application/vnd.amazon.eventstream"}
        return AWSResponse(request.url, 200, headers, _Raw(body))

    client.meta.events.register("before-send.bedrock-runtime.ConverseStream", send)
    return client


def ai_sdk_bedrock(body: bytes) -> Seen:
    """@ai-sdk/amazon-bedrock's ``doStream`` on the event stream ``body`` (see :func:`ai_sdk`)."""
    import base64

    return ai_sdk("ai-sdk-amazon-bedrock", base64.b64encode(body).decode())


def pydantic_ai_bedrock(body: bytes) -> Seen:
    """pydantic-ai's ``BedrockConverseModel.request_stream`` (on botocore's ConverseStream parser): the
    tool-call parts of its final response."""

    def run(seen: Seen) -> None:
        from pydantic_ai.models.bedrock import BedrockConverseModel
        from pydantic_ai.providers.bedrock import BedrockProvider

        provider = BedrockProvider(bedrock_client=_bedrock(body))
        pydantic_ai_calls(seen, BedrockConverseModel("bedrock-test", provider=provider))

    return catching(run)
