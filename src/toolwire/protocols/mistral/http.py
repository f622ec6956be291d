"""Mistral chat over HTTP: ``POST /v1/chat/completions``, SSE chunks closed by ``[DONE]``.

The wire is Chat Completions' (``variant_of``); a tool message also names its tool.
Src: Mistral API reference, "Chat Completion" (``stream``, ``tools``, tool messages with
``tool_call_id`` and ``name``); ``mistralai`` 3.7.0 ``models`` (``CompletionChunk``).
"""

from __future__ import annotations

from typing import Any, Final

from toolwire.properties._turn import Call
from toolwire.protocols._http import HttpFace, Tool, asks_stream, paired, user_text, whole
from toolwire.protocols.mistral.rules import CHAT, CHAT_STREAM, RESPONSE

__all__ = ["FACE"]

Wire = list[dict[str, Any]]
_ID: Final = "cmpl-toolwire0000000000000000000"


def _frame(trace: Wire, streamed: bool, query: str) -> tuple[bytes, str]:
    return whole(trace, streamed, done=True)


def _reply(model: str, streamed: bool) -> Wire:
    message = {"role": "assistant", "content": "Done.", "tool_calls": None}
    if not streamed:
        return [
            {
                "id": _ID,
                "object": "chat.completion",
                "created": 1764000000,
                "model": model,
                "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12},
            }
        ]
    envelope = {"id": _ID, "object": "chat.completion.chunk", "created": 1764000000, "model": model}
    return [
        envelope
        | {
            "choices": [
                {"index": 0, "delta": {"role": "assistant", "content": "Done."}, "finish_reason": None}
            ]
        },
        envelope | {"choices": [{"index": 0, "delta": {"content": ""}, "finish_reason": "stop"}]},
    ]


def _request(model: str, history: Wire, declared: list[Tool], streamed: bool) -> dict[str, Any]:
    body: dict[str, Any] = {"model": model, "messages": history, "stream": streamed}
    if declared:
        body["tools"] = [
            {
                "type": "function",
                "function": {"name": name, "description": f"the {name} tool", "parameters": schema},
            }
            for name, schema in declared
        ]
    return body


def _answer(calls: list[Call], texts: list[str]) -> Wire:
    made = [
        {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments or "{}"}}
        for c in calls
    ]
    results = [
        {"role": "tool", "tool_call_id": call.id, "name": call.name, "content": text}
        for call, text in paired(calls, texts)
    ]
    return [{"role": "assistant", "content": "", "tool_calls": made}, *results]


FACE: Final = HttpFace(
    paths=(r"/chat/completions/?$",),
    conversation=CHAT,
    stream=CHAT_STREAM,
    document=RESPONSE,
    wants_stream=asks_stream,
    frame=_frame,
    reply=_reply,
    request=_request,
    user=user_text,
    answer=_answer,
)
