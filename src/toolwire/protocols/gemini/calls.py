"""Where calls and results sit in Google Gemini traces: readers, sites, probe, id shapes."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Final

from toolwire.properties._protocol import Result
from toolwire.properties._sites import Sites, first, intact_ids, key, role, typed_ids

__all__ = [
    "CONTENTS_SITES",
    "ID_SHAPES",
    "RESPONSE_SITES",
    "STREAM_SITES",
    "intact",
    "probe",
    "recognises_chunk",
    "recognises_content",
    "recognises_response",
    "response_probe",
    "results",
]

#: A ``functionCall`` part of a chunk opens a call.
STREAM_SITES: Final = Sites(
    lambda e: first(e, ("candidates", 0, "content", "parts"), key(None, "id", "functionCall"))
)
#: ``functionCall`` parts of model contents open calls; ``functionResponse`` parts answer them.
CONTENTS_SITES: Final = Sites(
    role("model", lambda e: first(e, ("parts",), key(None, "id", "functionCall"))),
    role("user", lambda e: first(e, ("parts",), key(None, "id", "functionResponse"))),
)
#: Id shapes seen in the wild (docs/protocol-rules.md, "ID formats and limits"; ADK-1): not contracts.
ID_SHAPES: Final = (
    (
        re.compile(r"adk-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"),
        "Google ADK fallback id ('adk-' + uuid4, ADK-1)",
    ),
)


def results(trace: list[Any]) -> Iterable[Result]:
    """The ``functionResponse`` parts: the id each answers (when given), its name and response."""
    for c in trace:
        parts = c.get("parts") if isinstance(c, dict) else None
        for b in parts if isinstance(parts, list) else []:
            if isinstance(b, dict) and "functionResponse" in b:
                r = b["functionResponse"] if isinstance(b["functionResponse"], dict) else {}
                yield Result(r.get("id"), r.get("name"), r.get("response"))


def probe(call_id: str) -> dict[str, Any]:
    """The smallest request in which ``call_id`` is a call's id and its answer's."""
    return {
        "contents": [
            {"role": "user", "parts": [{"text": "Weather?"}]},
            {
                "role": "model",
                "parts": [{"functionCall": {"id": call_id, "name": "get_weather", "args": {}}}],
            },
            {
                "role": "user",
                "parts": [{"functionResponse": {"id": call_id, "name": "get_weather", "response": {}}}],
            },
        ]
    }


_CHUNK_KEYS: Final = frozenset({"candidates", "usageMetadata", "promptFeedback", "modelVersion"})


def recognises_content(content: Any) -> bool:
    """A Gemini content: parts, or a role of user or model."""
    return isinstance(content, dict) and (
        isinstance(content.get("parts"), list) or content.get("role") in ("user", "model")
    )


def recognises_chunk(chunk: Any) -> bool:
    """A streamGenerateContent chunk: candidates, usage or prompt feedback."""
    return isinstance(chunk, dict) and not _CHUNK_KEYS.isdisjoint(chunk)


#: The first functionCall of the first candidate (where the call has an id).
RESPONSE_SITES: Final = STREAM_SITES


def response_probe(call_id: str) -> list[dict[str, Any]]:
    """The smallest GenerateContentResponse in which ``call_id`` is a functionCall's id."""
    part = {"functionCall": {"id": call_id, "name": "get_weather", "args": {}}}
    return [{"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP"}]}]


def recognises_response(body: Any) -> bool:
    """A GenerateContentResponse: candidates, or a prompt's feedback."""
    return isinstance(body, dict) and ("candidates" in body or "promptFeedback" in body)


_FUNCTION_CALLS: Final = typed_ids("model", "parts", None, ("functionCall", "id"))
_FUNCTION_RESPONSES: Final = typed_ids("user", "parts", None, ("functionResponse", "id"))


def intact(trace: list[Any]) -> set[str]:
    """Ids of the functionCall/functionResponse pairs a damaged history still holds intact: each
    called once and answered once, in the user content right after its model content.  Calls
    without ids pair by name and order, which no damage leaves certain: none is intact."""
    return intact_ids(trace, _FUNCTION_CALLS, _FUNCTION_RESPONSES, one_message=True)
