"""Real consumers of tool-call streams, fed a stream in-process, and what each made of the calls.

Issue 38's severity policy: a stream rule is an error when a real consumer loses, duplicates or
changes a call, its arguments or its id when fed the rule's violating trace.  Each runner here
feeds one consumer the SSE text of a stream (the HTTP layer is a mock transport: nothing goes
over the network) and returns what that consumer hands its user, as ``Seen``: the calls it
yields (id, name, arguments) and, for consumers that stream input, the arguments streamed per
call.  The Python consumers are pinned in pyproject.toml's ``dev`` extra, the node ones in
tests/sdk/package.json.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SDK = Path(__file__).resolve().parent.parent / "sdk"
TOOLS = [
    {
        "type": "function",
        "name": "get_weather",
        "description": "The weather in a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    }
]


@dataclass
class Seen:
    """What a consumer handed its user: calls, streamed argument fragments per call id, an error, warnings."""

    calls: list[tuple[str, str, str]] = field(default_factory=list)
    streamed: dict[str, list[str]] = field(default_factory=dict)
    error: str | None = None
    warnings: list[str] = field(default_factory=list)
    #: The tool parts of the UI message an AI SDK consumer builds: (toolCallId, state, input as JSON).
    ui: list[tuple[str, str, str]] = field(default_factory=list)
    #: The ids of the tool calls ``convertToModelMessages`` keeps of that message (what goes back).
    sent_back: list[str | None] | None = None
    #: The results sent back with them: (toolCallId, output value).
    answered: list[tuple[str | None, Any]] | None = None
    #: The tool parts of streamText's steps: ("<type> <step number>", toolCallId).
    steps: list[tuple[str, str | None]] | None = None


def sse(events: list[dict[str, Any]], *, named: bool = True, done: bool = False) -> str:
    """The SSE text of ``events`` (``event:`` lines when ``named``; ``data: [DONE]`` when ``done``)."""
    lines = []
    for event in events:
        if named:
            lines.append(f"event: {event['type']}")
        lines.append(f"data: {json.dumps(event)}")
        lines.append("")
    if done:
        lines += ["data: [DONE]", ""]
    return "\n".join(lines) + "\n"


def mock_transport(body: str, requests: list[Any] | None = None) -> Any:
    import httpx2

    def handle(request: Any) -> Any:
        if requests is not None:
            requests.append(request)
        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, text=body)

    return httpx2.MockTransport(handle)


def _openai(body: str, requests: list[Any] | None = None) -> Any:
    import httpx2
    import openai

    client = httpx2.Client(transport=mock_transport(body, requests))
    return openai.OpenAI(api_key="test", base_url="http://127.0.0.1:9/v1", http_client=client, max_retries=0)


def _async_openai(body: str) -> Any:
    import httpx2
    import openai

    client = httpx2.AsyncClient(transport=mock_transport(body))
    return openai.AsyncOpenAI(
        api_key="test", base_url="http://127.0.0.1:9/v1", http_client=client, max_retries=0
    )


def catching(run: Callable[[Seen], None]) -> Seen:
    seen = Seen()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            run(seen)
        except Exception as error:
            seen.error = f"{type(error).__name__}: {error}"
    seen.warnings = [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
    return seen


# OpenAI Responses -------------------------------------------------------------------------------


def openai_responses_stream(body: str) -> Seen:
    """openai-python's ``client.responses.stream(...)`` (ResponseStreamState): its events, its final response.

    ``streamed`` is the arguments its ``response.function_call_arguments.delta`` events snapshot per
    call_id; ``calls`` are the function_call items of the ``response.output_item.done`` events it
    yields followed by those of ``get_final_response()``, each as (call_id, name, arguments).
    """

    def run(seen: Seen) -> None:
        client = _openai(body)
        by_index: dict[int, str] = {}
        with client.responses.stream(model="gpt-test", input="hi", tools=TOOLS) as stream:  # type: ignore[arg-type]
            for event in stream:
                if event.type == "response.output_item.added" and event.item.type == "function_call":
                    by_index[event.output_index] = event.item.call_id
                elif event.type == "response.function_call_arguments.delta":
                    seen.streamed.setdefault(by_index[event.output_index], []).append(event.delta)
                elif event.type == "response.output_item.done" and event.item.type == "function_call":
                    seen.calls.append(("done:" + event.item.call_id, event.item.name, event.item.arguments))
            final = stream.get_final_response()
        seen.calls += [
            ("final:" + item.call_id, item.name, item.arguments)
            for item in final.output
            if item.type == "function_call"
        ]

    return catching(run)


def openai_responses_resume(body: str, starting_after: int) -> Seen:
    """openai-python resuming a background response: ``responses.stream(response_id=..., starting_after=n)``.

    The server answers with ``body`` (the events after the one the client saw last); ``calls`` are
    the function_call items of the ``response.output_item.added`` events the SDK yields, then of
    ``get_final_response()``.
    """

    def run(seen: Seen) -> None:
        client = _openai(body)
        with client.responses.stream(response_id="resp_1", starting_after=starting_after) as stream:
            for event in stream:
                if event.type == "response.output_item.added" and event.item.type == "function_call":
                    seen.calls.append(("added:" + event.item.call_id, event.item.name, event.item.arguments))
                elif event.type == "response.output_item.done" and event.item.type == "function_call":
                    seen.calls.append(("done:" + event.item.call_id, event.item.name, event.item.arguments))
            final = stream.get_final_response()
        seen.calls += [
            ("final:" + item.call_id, item.name, item.arguments)
            for item in final.output
            if item.type == "function_call"
        ]

    return catching(run)


def _langchain_openai(body: str, *, responses: bool) -> Seen:
    """langchain-openai's ``ChatOpenAI`` streaming ``body`` (the Responses API or Chat Completions),
    its chunks summed: its tool calls, and its invalid ones as ``invalid:ARGS``."""

    def run(seen: Seen) -> None:
        import httpx2
        from langchain_openai import ChatOpenAI

        model = ChatOpenAI(
            model="gpt-test",
            api_key="test",  # type: ignore[arg-type]
            base_url="http://127.0.0.1:9/v1",
            use_responses_api=responses,
            http_client=httpx2.Client(transport=mock_transport(body)),
            max_retries=0,
        ).bind_tools(TOOLS if responses else CHAT_TOOLS)
        message: Any = None
        for chunk in model.stream("hi"):
            message = chunk if message is None else message + chunk
        if responses:
            for call in message.tool_call_chunks:
                seen.streamed[call["id"] or f"index {call['index']}"] = [call["args"] or ""]
        seen.calls = [(call["id"], call["name"], json.dumps(call["args"])) for call in message.tool_calls]
        seen.calls += [
            (c["id"], c["name"], "invalid:" + (c["args"] or "")) for c in message.invalid_tool_calls
        ]

    return catching(run)


def langchain_openai_responses(body: str) -> Seen:
    """langchain-openai's ``ChatOpenAI(use_responses_api=True).stream(...)``, its chunks summed."""
    return _langchain_openai(body, responses=True)


def pydantic_ai_responses(body: str) -> Seen:
    """pydantic-ai's ``OpenAIResponsesModel.request_stream``: the tool-call parts of its final response,
    and the arguments its part events streamed per call id (start plus deltas)."""

    def run(seen: Seen) -> None:
        from pydantic_ai.messages import (
            ModelRequest,
            PartDeltaEvent,
            PartStartEvent,
            ToolCallPart,
            ToolCallPartDelta,
        )
        from pydantic_ai.models import ModelRequestParameters
        from pydantic_ai.models.openai import OpenAIResponsesModel
        from pydantic_ai.providers.openai import OpenAIProvider
        from pydantic_ai.tools import ToolDefinition

        model = OpenAIResponsesModel("gpt-test", provider=OpenAIProvider(openai_client=_async_openai(body)))
        tool = ToolDefinition(name="get_weather", parameters_json_schema=TOOLS[0]["parameters"])  # type: ignore[arg-type]
        params = ModelRequestParameters(function_tools=[tool])

        async def main() -> None:
            parts: dict[int, str] = {}
            async with model.request_stream([ModelRequest.user_text_prompt("hi")], None, params) as response:
                async for event in response:
                    if isinstance(event, PartStartEvent) and isinstance(event.part, ToolCallPart):
                        parts[event.index] = event.part.tool_call_id
                        seen.streamed[event.part.tool_call_id] = [event.part.args_as_json_str()]
                    elif isinstance(event, PartDeltaEvent) and isinstance(event.delta, ToolCallPartDelta):
                        call_id = parts[event.index]
                        seen.streamed[call_id].append(str(event.delta.args_delta or ""))
                final = response.get()
            seen.calls = [
                (part.tool_call_id, part.tool_name, part.args_as_json_str())
                for part in final.parts
                if isinstance(part, ToolCallPart)
            ]

        asyncio.run(main())

    return catching(run)


# Node (the Vercel AI SDK) ----------------------------------------------------------------------


def node_missing() -> str | None:
    """Why the node consumers cannot run here, or None when they can."""
    if shutil.which("node") is None:
        return "node is not installed: the AI SDK's providers run in node"
    for package in ("ai", "@ai-sdk/openai", "@ai-sdk/anthropic", "@ai-sdk/amazon-bedrock"):
        if not (SDK / "node_modules" / package).is_dir():
            return f"the npm package {package} is not installed: npm ci --prefix {SDK}"
    return None


def _first_line(error: str | None) -> str | None:
    """An error's first line: a schema validation failure goes on to list every union member."""
    return None if error is None else error.split("\n", 1)[0]


def ai_sdk(consumer: str, body: str) -> Seen:
    """An AI SDK provider's ``doStream`` on ``body`` (tests/sdk/consumers.mjs): its tool parts.

    ``streamed`` is the tool-input-delta text per id; ``calls`` its tool-call parts (id, name, input).
    """
    line = json.dumps({"consumer": consumer, "body": body}) + "\n"
    out = subprocess.run(
        ["node", str(SDK / "consumers.mjs")], input=line, capture_output=True, text=True, check=True, cwd=SDK
    )
    answer = json.loads(out.stdout)
    seen = Seen(error=_first_line(answer.get("error")))
    for part in answer.get("parts", []):
        if part["type"] == "tool-input-start":
            seen.streamed.setdefault(part.get("id"), [])
        elif part["type"] == "tool-input-delta":
            seen.streamed.setdefault(part.get("id"), []).append(part["delta"])
        elif part["type"] == "tool-call":
            seen.calls.append((part.get("toolCallId"), part["toolName"], part["input"]))
        elif part["type"] in ("error", "tool-error"):
            seen.error = _first_line(part["error"])
    seen.ui = [
        (t.get("toolCallId"), t["state"], json.dumps(t["input"], separators=(",", ":")))
        for t in answer.get("tools", [])
    ]
    if answer.get("model") is not None:
        seen.sent_back = answer["model"]
    if answer.get("answered") is not None:
        seen.answered = [(call_id, output) for call_id, output in answer["answered"]]
    if answer.get("steps") is not None:
        seen.steps = [(kind, call_id) for kind, call_id in answer["steps"]]
    if answer.get("errors"):
        seen.error = _first_line(answer["errors"][0])
    return seen


def ai_stream_text(parts: list[dict[str, Any]]) -> Seen:
    """The ``ai`` package's ``streamText`` on a provider's stream parts (a mock LanguageModelV4 serves
    them): ``calls`` its fullStream's tool-call parts, ``ui`` the tool parts of the UI message that
    readUIMessageStream builds from its ``toUIMessageStream()``."""
    return ai_sdk("ai-stream-text", json.dumps(parts))


def ai_read_ui_message_stream(chunks: list[dict[str, Any]]) -> Seen:
    """The ``ai`` package's ``readUIMessageStream`` (what useChat runs) on UI message chunks: ``ui``
    the tool parts of the message it builds."""
    return ai_sdk("ai-read-ui-message-stream", json.dumps(chunks))


def ai_full_stream(parts: list[dict[str, Any]]) -> Seen:
    """The ``ai`` package's ``streamText`` result built from a full stream (TextStreamPart): an
    ``experimental_transform`` puts ``parts`` in place of the model's.  ``calls`` its fullStream's
    tool-call parts, ``steps`` the tool parts of the steps its result records, ``ui`` the tool parts
    of the UI message readUIMessageStream builds from its ``toUIMessageStream()``."""
    return ai_sdk("ai-full-stream", json.dumps(parts))


# OpenAI Chat Completions -------------------------------------------------------------------------

CHAT_TOOLS = [{"type": "function", "function": {k: v for k, v in TOOLS[0].items() if k != "type"}}]
CHAT_MESSAGES = [{"role": "user", "content": "Weather in Paris and Lyon?"}]


def openai_chat_stream(body: str) -> Seen:
    """openai-python's ``client.chat.completions.stream(...)`` (ChatCompletionStreamState).

    ``streamed`` is the arguments its ``tool_calls.function.arguments.delta`` events stream per
    index; ``calls`` are its ``tool_calls.function.arguments.done`` events (as ``done:<index>``)
    followed by the tool_calls of ``get_final_completion()``, each as (id, name, arguments).
    """

    def run(seen: Seen) -> None:
        client = _openai(body)
        stream_of = client.chat.completions.stream
        with stream_of(model="gpt-test", messages=CHAT_MESSAGES, tools=CHAT_TOOLS) as stream:  # type: ignore[arg-type]
            for event in stream:
                if event.type == "tool_calls.function.arguments.delta":
                    seen.streamed.setdefault(f"index {event.index}", []).append(event.arguments_delta)
                elif event.type == "tool_calls.function.arguments.done":
                    seen.calls.append((f"done:{event.index}", event.name, event.arguments))
            final = stream.get_final_completion()
        seen.calls += [
            (f"final:{call.id}", call.function.name, call.function.arguments)
            for call in final.choices[0].message.tool_calls or []
        ]

    return catching(run)


def langchain_openai_chat(body: str) -> Seen:
    """langchain-openai's ``ChatOpenAI().stream(...)`` on Chat Completions, its chunks summed."""
    return _langchain_openai(body, responses=False)


def pydantic_ai_calls(seen: Seen, model: Any) -> None:
    """Run a pydantic-ai ``model``'s ``request_stream`` on one prompt with get_weather as a tool: the
    tool-call parts of its final response into ``seen.calls``, each as (id, name, arguments)."""
    from pydantic_ai.messages import ModelRequest, ToolCallPart
    from pydantic_ai.models import ModelRequestParameters
    from pydantic_ai.tools import ToolDefinition

    tool = ToolDefinition(name="get_weather", parameters_json_schema=TOOLS[0]["parameters"])  # type: ignore[arg-type]
    params = ModelRequestParameters(function_tools=[tool])

    async def main() -> None:
        async with model.request_stream([ModelRequest.user_text_prompt("hi")], None, params) as response:
            async for _ in response:
                pass
            final = response.get()
        seen.calls = [
            (part.tool_call_id, part.tool_name, part.args_as_json_str())
            for part in final.parts
            if isinstance(part, ToolCallPart)
        ]

    asyncio.run(main())


def pydantic_ai_chat(body: str) -> Seen:
    """pydantic-ai's ``OpenAIChatModel.request_stream``: the tool-call parts of its final response."""

    def run(seen: Seen) -> None:
        from pydantic_ai.models.openai import OpenAIChatModel
        from pydantic_ai.providers.openai import OpenAIProvider

        pydantic_ai_calls(
            seen, OpenAIChatModel("gpt-test", provider=OpenAIProvider(openai_client=_async_openai(body)))
        )

    return catching(run)
