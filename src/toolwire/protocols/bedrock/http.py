"""Bedrock Converse over HTTP: ``/model/{id}/converse`` and ``/model/{id}/converse-stream``.

A stream is AWS event-stream framing (``models/_eventstream.py``): one frame per
event, its type in ``:event-type``, its payload the event's JSON.  Src: Amazon
Bedrock API reference, "Converse" and "ConverseStream"; ``botocore`` 1.44.5
``bedrock-runtime`` service model.
"""

from __future__ import annotations

from typing import Any, Final

import orjson

from toolwire.models._eventstream import CONTENT_TYPE, encode_frame
from toolwire.properties._turn import Call
from toolwire.protocols._http import HttpFace, Tool, arguments_of, paired
from toolwire.protocols.bedrock.rules import CONVERSE, RESPONSE, STREAM

__all__ = ["FACE"]

Wire = list[dict[str, Any]]


def _wants_stream(path: str, query: str, body: dict[str, Any]) -> bool:
    return path.rstrip("/").endswith("/converse-stream")


def _frame(trace: Wire, streamed: bool, query: str) -> tuple[bytes, str]:
    if not streamed:
        return orjson.dumps(trace[0] if trace else {}), "application/json"
    out = bytearray()
    for event in trace:
        (kind, payload), *_ = event.items() if event else (("unknown", {}),)
        headers = {":event-type": kind, ":content-type": "application/json", ":message-type": "event"}
        out += encode_frame(headers, orjson.dumps(payload))
    return bytes(out), CONTENT_TYPE


def _reply(model: str, streamed: bool) -> Wire:
    usage = {"inputTokens": 10, "outputTokens": 2, "totalTokens": 12}
    if not streamed:
        return [
            {
                "output": {"message": {"role": "assistant", "content": [{"text": "Done."}]}},
                "stopReason": "end_turn",
                "usage": usage,
                "metrics": {"latencyMs": 1},
            }
        ]
    return [
        {"messageStart": {"role": "assistant"}},
        {"contentBlockDelta": {"delta": {"text": "Done."}, "contentBlockIndex": 0}},
        {"contentBlockStop": {"contentBlockIndex": 0}},
        {"messageStop": {"stopReason": "end_turn"}},
        {"metadata": {"usage": usage, "metrics": {"latencyMs": 1}}},
    ]


def _request(model: str, history: Wire, declared: list[Tool], streamed: bool) -> dict[str, Any]:
    body: dict[str, Any] = {"messages": history}
    if declared:
        specs = [
            {"toolSpec": {"name": name, "description": f"the {name} tool", "inputSchema": {"json": schema}}}
            for name, schema in declared
        ]
        body["toolConfig"] = {"tools": specs}
    return body


def _user(text: str) -> Wire:
    return [{"role": "user", "content": [{"text": text}]}]


def _answer(calls: list[Call], texts: list[str]) -> Wire:
    uses = [{"toolUse": {"toolUseId": c.id, "name": c.name, "input": arguments_of(c)}} for c in calls]
    results = [
        {"toolResult": {"toolUseId": call.id, "content": [{"text": text}], "status": "success"}}
        for call, text in paired(calls, texts)
    ]
    return [{"role": "assistant", "content": uses}, {"role": "user", "content": results}]


FACE: Final = HttpFace(
    paths=(r"/model/[^/]+/converse(-stream)?/?$",),
    conversation=CONVERSE,
    stream=STREAM,
    document=RESPONSE,
    wants_stream=_wants_stream,
    frame=_frame,
    reply=_reply,
    request=_request,
    user=_user,
    answer=_answer,
)
