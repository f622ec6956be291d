"""OpenAI Responses over HTTP: ``POST /v1/responses``, SSE events named by their ``type``.

A stateless client sends the whole history as ``input`` (no ``previous_response_id``):
its messages, the ``function_call`` items as received, a ``function_call_output`` per call.
Src: OpenAI API reference, "Create a model response" and "Streaming responses";
``openai`` 3.54.0 ``types/responses`` (``ResponseStreamEvent``, ``Response``).
"""

from __future__ import annotations

from typing import Any, Final

from toolwire.properties._turn import Call
from toolwire.protocols._http import HttpFace, Tool, asks_stream, paired, user_text, whole
from toolwire.protocols.openai_responses.rules import INPUT, RESPONSE, STREAM

__all__ = ["FACE"]

Wire = list[dict[str, Any]]
_ID: Final = "resp_toolwire0000000000000000000000000000000000000"
_MESSAGE: Final = "msg_toolwire0000000000000000000000000000000000000"


def _frame(trace: Wire, streamed: bool, query: str) -> tuple[bytes, str]:
    return whole(trace, streamed, named=True)


def _reply(model: str, streamed: bool) -> Wire:
    text = "Done."
    part = {"type": "output_text", "text": text, "annotations": []}
    item = {"id": _MESSAGE, "type": "message", "status": "completed", "role": "assistant", "content": [part]}
    response = {
        "id": _ID,
        "object": "response",
        "created_at": 1764000000,
        "status": "completed",
        "model": model,
        "output": [item],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": {"input_tokens": 10, "output_tokens": 2, "total_tokens": 12},
    }
    if not streamed:
        return [response]
    opened = response | {"status": "in_progress", "output": [], "usage": None}
    events: Wire = [
        {"type": "response.created", "response": opened},
        {"type": "response.in_progress", "response": opened},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": item | {"status": "in_progress", "content": []},
        },
        {
            "type": "response.content_part.added",
            "item_id": _MESSAGE,
            "output_index": 0,
            "content_index": 0,
            "part": part | {"text": ""},
        },
        {
            "type": "response.output_text.delta",
            "item_id": _MESSAGE,
            "output_index": 0,
            "content_index": 0,
            "delta": text,
        },
        {
            "type": "response.output_text.done",
            "item_id": _MESSAGE,
            "output_index": 0,
            "content_index": 0,
            "text": text,
        },
        {
            "type": "response.content_part.done",
            "item_id": _MESSAGE,
            "output_index": 0,
            "content_index": 0,
            "part": part,
        },
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {"type": "response.completed", "response": response},
    ]
    return [event | {"sequence_number": number} for number, event in enumerate(events)]


def _request(model: str, history: Wire, declared: list[Tool], streamed: bool) -> dict[str, Any]:
    body: dict[str, Any] = {"model": model, "input": history, "stream": streamed}
    if declared:
        body["tools"] = [
            {
                "type": "function",
                "name": name,
                "description": f"the {name} tool",
                "parameters": schema,
                "strict": False,
            }
            for name, schema in declared
        ]
    return body


def _answer(calls: list[Call], texts: list[str]) -> Wire:
    made = [
        {"type": "function_call", "call_id": c.id, "name": c.name, "arguments": c.arguments or "{}"}
        for c in calls
    ]
    outputs = [
        {"type": "function_call_output", "call_id": call.id, "output": text}
        for call, text in paired(calls, texts)
    ]
    return [*made, *outputs]


FACE: Final = HttpFace(
    paths=(r"/responses/?$",),
    conversation=INPUT,
    stream=STREAM,
    document=RESPONSE,
    wants_stream=asks_stream,
    frame=_frame,
    reply=_reply,
    request=_request,
    user=user_text,
    answer=_answer,
)
