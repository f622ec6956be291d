"""A small HTTP gateway for the gateway-fuzz tests: OpenAI Chat clients, a Chat or Gemini upstream.

``gateway_app(upstream, family, bug)`` is a Starlette app that takes a streaming
Chat Completions request, sends it upstream (``family`` ``chat``: Chat
Completions as it came, ids mapped; ``gemini``: converted to
``streamGenerateContent``) and converts the upstream stream back to Chat chunks.
A call keeps its upstream id downstream; a call without one (Gemini 2.x) gets one of
the gateway's own (``call_gw...``), mapped back to none on the next request.

``bug`` plants one of the bugs real gateways have; ``None`` is the fixed twin:

- ``name-keyed``: the id map is keyed by tool name (two calls of one tool share the last id);
- ``index-0``: every call is streamed at index 0;
- ``text-drop``: a chunk that carries text loses its calls (Gemini upstream);
- ``crossed``: each tool result goes upstream under the id of the next call.
- ``split-results``: each tool result goes upstream in a user content of its own (Gemini upstream),
  as crewAI did before crewAIInc/crewAI#4693: GM-5b, a warning rule (only ``--strict`` fails it).
"""

from __future__ import annotations

import contextlib
import itertools
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from helpers.accumulators import assembled_calls

BUGS = ("name-keyed", "index-0", "text-drop", "crossed", "split-results")


def gateway_app(upstream: str, family: str = "chat", bug: str | None = None) -> Starlette:
    """The gateway, sending its upstream traffic to ``upstream`` (a base URL)."""
    assert bug is None or bug in BUGS, bug
    numbers = itertools.count(1)
    #: downstream id -> upstream id (the fixed map); tool name -> upstream id (the buggy one).
    by_id: dict[str, str | None] = {}
    by_name: dict[str, str | None] = {}
    client = httpx.AsyncClient(timeout=30.0, trust_env=False)

    def down_id(up: str | None, name: str) -> str:
        mine = up or f"call_gw{next(numbers):017d}"
        by_id[mine] = up
        by_name[name] = up
        return mine

    def up_id(down: str, name: str) -> str | None:
        if bug == "name-keyed":
            return by_name.get(name, down)
        return by_id.get(down, down)

    def upstream_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        names = {
            call["id"]: call["function"]["name"]
            for message in messages
            for call in message.get("tool_calls") or []
        }
        out = []
        for message in messages:
            message = dict(message)
            if message.get("tool_calls"):
                message["tool_calls"] = [
                    call | {"id": up_id(call["id"], call["function"]["name"])}
                    for call in message["tool_calls"]
                ]
            if message.get("role") == "tool":
                message["tool_call_id"] = up_id(
                    message["tool_call_id"], names.get(message["tool_call_id"], "")
                )
            out.append(message)
        if bug == "crossed":
            tools = [m for m in out if m.get("role") == "tool"]
            ids = [m["tool_call_id"] for m in tools]
            for message, rotated in zip(tools, ids[1:] + ids[:1], strict=True):
                message["tool_call_id"] = rotated
        return out

    async def chat(request: Request) -> Response:
        body = await request.json()
        if family == "gemini":
            return await _gemini(body)
        forwarded = body | {"messages": upstream_messages(body["messages"])}
        reply = await client.send(
            client.build_request("POST", f"{upstream}/v1/chat/completions", json=forwarded), stream=True
        )
        if reply.status_code != 200:
            return Response(await reply.aread(), status_code=reply.status_code)

        async def chunks() -> AsyncIterator[bytes]:
            try:
                async for line in reply.aiter_lines():
                    if not line.startswith("data: "):
                        continue
                    if line == "data: [DONE]":
                        yield b"data: [DONE]\n\n"
                        continue
                    chunk = json.loads(line[6:])
                    for choice in chunk.get("choices") or []:
                        for call in choice.get("delta", {}).get("tool_calls") or []:
                            if call.get("id"):
                                call["id"] = down_id(call["id"], call.get("function", {}).get("name", ""))
                            if bug == "index-0":
                                call["index"] = 0
                    yield b"data: " + json.dumps(chunk).encode() + b"\n\n"
            finally:
                await reply.aclose()

        return StreamingResponse(chunks(), media_type="text/event-stream")

    async def _gemini(body: dict[str, Any]) -> Response:
        contents = _contents(body["messages"], up_id, split=bug == "split-results")
        tools = [{"functionDeclarations": [t["function"] for t in body.get("tools") or []]}]
        url = f"{upstream}/v1beta/models/{body['model']}:streamGenerateContent?alt=sse"
        reply = await client.send(
            client.build_request("POST", url, json={"contents": contents, "tools": tools}), stream=True
        )
        if reply.status_code != 200:
            return Response(await reply.aread(), status_code=reply.status_code)

        async def chunks() -> AsyncIterator[bytes]:
            index = 0
            called = False
            first = True
            # A call whose arguments stream (Gemini 3) goes out once it is closed, assembled.
            held: list[dict[str, Any]] = []
            try:
                async for line in reply.aiter_lines():
                    if not line.startswith("data: "):
                        continue
                    event = json.loads(line[6:])
                    candidate = (event.get("candidates") or [{}])[0]
                    parts = held + (candidate.get("content", {}).get("parts") or [])
                    held = []
                    if parts and _still_streaming(parts) and not candidate.get("finishReason"):
                        held = [p for p in parts if "functionCall" in p]
                        parts = [p for p in parts if "functionCall" not in p]
                    parts = assembled_calls(parts)
                    delta: dict[str, Any] = {"role": "assistant"} if first else {}
                    first = False
                    text = "".join(p["text"] for p in parts if "text" in p and not p.get("thought"))
                    if text:
                        delta["content"] = text
                    calls = made_calls(parts, index)
                    index += len(calls)
                    if calls:
                        delta["tool_calls"] = calls
                        called = True
                    finish = candidate.get("finishReason")
                    reason = ("tool_calls" if called else "stop") if finish else None
                    if delta or reason:
                        yield _chunk(delta, reason)
                if held:  # the stream ended inside a call whose arguments were streaming
                    yield _chunk({"tool_calls": made_calls(assembled_calls(held), index)}, None)
                yield b"data: [DONE]\n\n"
            finally:
                await reply.aclose()

        def made_calls(parts: list[dict[str, Any]], index: int) -> list[dict[str, Any]]:
            calls = []
            for part in parts:
                if "functionCall" not in part or (bug == "text-drop" and any("text" in p for p in parts)):
                    continue
                made = part["functionCall"]
                calls.append(
                    {
                        "index": index + len(calls),
                        "id": down_id(made.get("id"), made["name"]),
                        "type": "function",
                        "function": {"name": made["name"], "arguments": json.dumps(made.get("args", {}))},
                    }
                )
            return calls

        return StreamingResponse(chunks(), media_type="text/event-stream")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await client.aclose()

    return Starlette(
        routes=[Route("/v1/chat/completions", chat, methods=["POST"]), Route("/health", _health)],
        lifespan=lifespan,
    )


async def _health(request: Request) -> Response:
    return JSONResponse({"ok": True})


def _still_streaming(parts: list[dict[str, Any]]) -> bool:
    """Whether the last call among ``parts`` still streams (its last part said ``willContinue``)."""
    calls = [p["functionCall"] for p in parts if isinstance(p.get("functionCall"), dict)]
    return bool(calls) and bool(calls[-1].get("willContinue"))


def _chunk(delta: dict[str, Any], finish: str | None) -> bytes:
    chunk = {
        "id": "chatcmpl-gw",
        "object": "chat.completion.chunk",
        "created": 1764000000,
        "model": "gw",
        "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
    }
    return b"data: " + json.dumps(chunk).encode() + b"\n\n"


def _contents(messages: list[dict[str, Any]], up_id: Any, split: bool = False) -> list[dict[str, Any]]:
    """Chat messages as Gemini contents; tool messages in a row become one user content (each its
    own with ``split``)."""
    names = {c["id"]: c["function"]["name"] for m in messages for c in m.get("tool_calls") or []}
    out: list[dict[str, Any]] = []
    for message in messages:
        role = message.get("role")
        if role == "user":
            out.append({"role": "user", "parts": [{"text": message["content"]}]})
        elif role == "assistant":
            parts = []
            for call in message.get("tool_calls") or []:
                made = {
                    "name": call["function"]["name"],
                    "args": json.loads(call["function"]["arguments"] or "{}"),
                }
                found = up_id(call["id"], made["name"])
                parts.append({"functionCall": made | ({"id": found} if found else {})})
            out.append({"role": "model", "parts": parts})
        elif role == "tool":
            name = names.get(message["tool_call_id"], "")
            found = up_id(message["tool_call_id"], name)
            part = {"functionResponse": {"name": name, "response": {"result": message["content"]}}}
            part["functionResponse"] |= {"id": found} if found else {}
            if not split and out and out[-1]["role"] == "user" and "functionResponse" in out[-1]["parts"][0]:
                out[-1]["parts"].append(part)
            else:
                out.append({"role": "user", "parts": [part]})
    return out
