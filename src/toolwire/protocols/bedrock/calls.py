"""Where calls and results sit in AWS Bedrock Converse traces: readers, sites, probe, id shapes."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Final

from toolwire.properties._protocol import Result
from toolwire.properties._sites import Sites, first, intact_ids, key, role, typed_ids

__all__ = [
    "ID_SHAPES",
    "MESSAGE_SITES",
    "RESPONSE_SITES",
    "STREAM_SITES",
    "intact",
    "probe",
    "recognises",
    "recognises_response",
    "response_probe",
    "results",
]

#: ``contentBlockStart`` of a ``toolUse`` block opens a call.
STREAM_SITES: Final = Sites(key(None, "toolUseId", "contentBlockStart", "start", "toolUse"))
#: Assistant ``toolUse`` blocks open calls; user ``toolResult`` blocks answer them.
MESSAGE_SITES: Final = Sites(
    role("assistant", lambda e: first(e, ("content",), key(None, "toolUseId", "toolUse"))),
    role("user", lambda e: first(e, ("content",), key(None, "toolUseId", "toolResult"))),
)
#: Id shapes seen in the wild (docs/protocol-rules.md, "ID formats and limits"): not contracts.
ID_SHAPES: Final = ((re.compile(r"tooluse_[A-Za-z0-9_-]+"), "Bedrock toolUseId"),)


def results(trace: list[Any]) -> Iterable[Result]:
    """The ``toolResult`` blocks of user messages: the id each answers and its content."""
    for m in trace:
        if isinstance(m, dict) and m.get("role") == "user":
            content = m.get("content")
            for b in content if isinstance(content, list) else []:
                if isinstance(b, dict) and "toolResult" in b:
                    r = b["toolResult"] if isinstance(b["toolResult"], dict) else {}
                    yield Result(r.get("toolUseId"), None, r.get("content"))


def probe(call_id: str) -> dict[str, Any]:
    """The smallest request in which ``call_id`` is a call's id and its answer's."""
    return {
        "messages": [
            {"role": "user", "content": [{"text": "Weather?"}]},
            {
                "role": "assistant",
                "content": [{"toolUse": {"toolUseId": call_id, "name": "get_weather", "input": {}}}],
            },
            {
                "role": "user",
                "content": [{"toolResult": {"toolUseId": call_id, "content": [{"text": "15"}]}}],
            },
        ]
    }


def recognises(message: Any) -> bool:
    """A Converse message: a role and a list of content blocks, which carry no ``type`` (unions by key).

    >>> recognises({"role": "user", "content": [{"type": "text", "text": "Hi"}]})
    False
    """
    return (
        isinstance(message, dict)
        and message.get("role") in ("user", "assistant")
        and isinstance(message.get("content"), list)
        and all(isinstance(block, dict) and "type" not in block for block in message["content"])
    )


#: The first toolUse block of a Converse response's ``output.message``.
RESPONSE_SITES: Final = Sites(
    lambda e: first(e, ("output", "message", "content"), key(None, "toolUseId", "toolUse"))
)


def response_probe(call_id: str) -> list[dict[str, Any]]:
    """The smallest Converse response in which ``call_id`` is a toolUseId."""
    use = {"toolUse": {"toolUseId": call_id, "name": "get_weather", "input": {}}}
    return [{"output": {"message": {"role": "assistant", "content": [use]}}, "stopReason": "tool_use"}]


def recognises_response(body: Any) -> bool:
    """A Converse response: ``output.message`` or a ``stopReason``."""
    if not isinstance(body, dict):
        return False
    output = body.get("output")
    return (isinstance(output, dict) and isinstance(output.get("message"), dict)) or "stopReason" in body


_TOOL_USES: Final = typed_ids("assistant", "content", None, ("toolUse", "toolUseId"))
_TOOL_RESULTS: Final = typed_ids("user", "content", None, ("toolResult", "toolUseId"))


def intact(trace: list[Any]) -> set[str]:
    """Ids of the toolUse/toolResult pairs a damaged history still holds intact: each called once
    and answered once, in the user message right after its assistant message."""
    return intact_ids(trace, _TOOL_USES, _TOOL_RESULTS, one_message=True)
