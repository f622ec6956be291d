"""OpenAI Chat Completions over HTTP: ``POST /v1/chat/completions``, SSE chunks closed by ``[DONE]``.

Src: OpenAI API reference, "Create chat completion" (``stream``, ``tools``), and
``openai`` 3.54.0 ``types/chat`` (``ChatCompletionChunk``, ``ChatCompletion``).
"""

from __future__ import annotations

from typing import Any, Final

from toolwire.properties._turn import Call
from toolwire.protocols._http import HttpFace, Tool, asks_stream, paired, user_text, whole
from toolwire.protocols.openai_chat.rules import CHAT, CHAT_RESPONSE, CHAT_STREAM

__all__ = ["FACE", "answer", "frame", "reply", "request", "tools"]

Wire = list[dict[str, Any]]
_ID: Final = "chatcmpl-toolwire0000000000000000000"
_CREATED: Final = 1764000000


def frame(trace: Wire, streamed: bool, query: str) -> tuple[bytes, str]:
    """Chunks as SSE closed by ``data: [DONE]``; a completion as its JSON body."""
    return whole(trace, streamed, done=True)


def reply(model: str, streamed: bool, text: str = "Done.", envelope: str = _ID) -> Wire:
    """A text answer: two chunks, or a ``chat.completion``."""
    if not streamed:
        return [
            {
                "id": envelope,
                "object": "chat.completion",
                "created": _CREATED,
                "model": model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": text, "refusal": None},
                        "logprobs": None,
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12},
            }
        ]

    def chunk(delta: dict[str, Any], finish: str | None) -> dict[str, Any]:
        return {
            "id": envelope,
            "object": "chat.completion.chunk",
            "created": _CREATED,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
        }

    return [chunk({"role": "assistant", "content": text}, None), chunk({}, "stop")]


def tools(declared: list[Tool]) -> list[dict[str, Any]]:
    """Chat's function tools."""
    return [
        {
            "type": "function",
            "function": {"name": name, "description": f"the {name} tool", "parameters": schema},
        }
        for name, schema in declared
    ]


def request(model: str, history: Wire, declared: list[Tool], streamed: bool) -> dict[str, Any]:
    """A Chat Completions request body."""
    body: dict[str, Any] = {"model": model, "messages": history, "stream": streamed}
    if declared:
        body["tools"] = tools(declared)
    return body


def answer(calls: list[Call], texts: list[str]) -> Wire:
    """The assistant message with ``tool_calls``, then one ``tool`` message per call."""
    assistant = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": call.arguments or "{}"},
            }
            for call in calls
        ],
    }
    results = [
        {"role": "tool", "tool_call_id": call.id, "content": text} for call, text in paired(calls, texts)
    ]
    return [assistant, *results]


FACE: Final = HttpFace(
    paths=(r"/chat/completions/?$",),
    conversation=CHAT,
    stream=CHAT_STREAM,
    document=CHAT_RESPONSE,
    wants_stream=asks_stream,
    frame=frame,
    reply=reply,
    request=request,
    user=user_text,
    answer=answer,
)
