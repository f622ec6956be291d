"""Gemini over HTTP: ``models/M:generateContent`` and ``models/M:streamGenerateContent``.

A stream is SSE with ``alt=sse`` (``data:`` lines, CRLF-separated, as Google sends
them) and a JSON array of responses without it; ``/v1beta`` or ``/v1`` may prefix
the path.  Src: Gemini API reference, "Generating content" (``streamGenerateContent``,
``alt=sse``); ``google-genai`` 3.4.0 ``types`` (``GenerateContentResponse``, ``FunctionCall``).
"""

from __future__ import annotations

from typing import Any, Final

import orjson

from toolwire.properties._turn import Call
from toolwire.protocols._http import HttpFace, Tool, arguments_of, paired, sse
from toolwire.protocols.gemini.rules import CONTENTS, RESPONSE, STREAM

__all__ = ["FACE"]

Wire = list[dict[str, Any]]


def _wants_stream(path: str, query: str, body: dict[str, Any]) -> bool:
    return ":streamGenerateContent" in path


def _frame(trace: Wire, streamed: bool, query: str) -> tuple[bytes, str]:
    if not streamed:
        return orjson.dumps(trace[0] if trace else {}), "application/json"
    if "alt=sse" in query:
        return sse(trace, end="\r\n\r\n"), "text/event-stream"
    return orjson.dumps(trace), "application/json"


def _reply(model: str, streamed: bool) -> Wire:
    return [
        {
            "candidates": [
                {
                    "content": {"role": "model", "parts": [{"text": "Done."}]},
                    "finishReason": "STOP",
                    "index": 0,
                }
            ],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 2, "totalTokenCount": 12},
            "modelVersion": model,
        }
    ]


def _request(model: str, history: Wire, declared: list[Tool], streamed: bool) -> dict[str, Any]:
    body: dict[str, Any] = {"contents": history}
    if declared:
        body["tools"] = [
            {
                "functionDeclarations": [
                    {"name": name, "description": f"the {name} tool", "parameters": schema}
                    for name, schema in declared
                ]
            }
        ]
    return body


def _user(text: str) -> Wire:
    return [{"role": "user", "parts": [{"text": text}]}]


def _answer(calls: list[Call], texts: list[str]) -> Wire:
    def with_id(part: dict[str, Any], call: Call) -> dict[str, Any]:
        return part | ({"id": call.id} if call.id is not None else {})

    made = [with_id({"name": c.name, "args": arguments_of(c)}, c) for c in calls]
    responses = [
        with_id({"name": c.name, "response": {"result": text}}, c) for c, text in paired(calls, texts)
    ]
    return [
        {"role": "model", "parts": [{"functionCall": part} for part in made]},
        {"role": "user", "parts": [{"functionResponse": part} for part in responses]},
    ]


FACE: Final = HttpFace(
    paths=(r"models/[^/:]+:(stream)?[gG]enerateContent$",),
    conversation=CONTENTS,
    stream=STREAM,
    document=RESPONSE,
    wants_stream=_wants_stream,
    frame=_frame,
    reply=_reply,
    request=_request,
    user=_user,
    answer=_answer,
)
