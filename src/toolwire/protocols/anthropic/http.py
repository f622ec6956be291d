"""Anthropic Messages over HTTP: ``POST /v1/messages``, SSE events named by their ``type``.

Src: Anthropic API reference, "Messages" and "Streaming Messages" (the event
names and their order); ``anthropic`` 2.12.0 ``types`` (``RawMessageStreamEvent``, ``Message``).
"""

from __future__ import annotations

from typing import Any, Final

from toolwire.properties._turn import Call
from toolwire.protocols._http import HttpFace, Tool, arguments_of, asks_stream, paired, user_text, whole
from toolwire.protocols.anthropic.rules import MESSAGES, RESPONSE, STREAM

__all__ = ["FACE"]

Wire = list[dict[str, Any]]
_ID: Final = "msg_01ToolwireMock000000000"


def _frame(trace: Wire, streamed: bool, query: str) -> tuple[bytes, str]:
    return whole(trace, streamed, named=True)


def _reply(model: str, streamed: bool) -> Wire:
    text = "Done."
    usage = {"input_tokens": 10, "output_tokens": 2}
    message = {
        "id": _ID,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": usage,
    }
    if not streamed:
        return [message]
    start = message | {"content": [], "stop_reason": None, "usage": {"input_tokens": 10, "output_tokens": 1}}
    return [
        {"type": "message_start", "message": start},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}},
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn", "stop_sequence": None},
            "usage": {"output_tokens": 2},
        },
        {"type": "message_stop"},
    ]


def _request(model: str, history: Wire, declared: list[Tool], streamed: bool) -> dict[str, Any]:
    body: dict[str, Any] = {"model": model, "max_tokens": 1024, "messages": history, "stream": streamed}
    if declared:
        body["tools"] = [
            {"name": name, "description": f"the {name} tool", "input_schema": schema}
            for name, schema in declared
        ]
    return body


def _answer(calls: list[Call], texts: list[str]) -> Wire:
    uses = [{"type": "tool_use", "id": c.id, "name": c.name, "input": arguments_of(c)} for c in calls]
    results = [
        {"type": "tool_result", "tool_use_id": call.id, "content": text}
        for call, text in paired(calls, texts)
    ]
    return [{"role": "assistant", "content": uses}, {"role": "user", "content": results}]


FACE: Final = HttpFace(
    paths=(r"/messages/?$",),
    conversation=MESSAGES,
    stream=STREAM,
    document=RESPONSE,
    wants_stream=asks_stream,
    frame=_frame,
    reply=_reply,
    request=_request,
    user=user_text,
    answer=_answer,
)
