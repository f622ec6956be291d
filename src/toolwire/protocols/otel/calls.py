"""Readers of OpenTelemetry GenAI messages: what is one, its tool results, mutation sites, intact
pairs, the id probe."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from toolwire.models import _otel as wire
from toolwire.properties._protocol import Result
from toolwire.properties._sites import Sites, first, intact_ids, key, role, typed_ids

__all__ = ["INPUT_SITES", "intact", "probe", "recognises", "results"]

#: Assistant ``tool_call`` parts open calls; ``tool`` messages' ``tool_call_response`` parts answer them.
INPUT_SITES: Final = Sites(
    role(wire.ROLE_ASSISTANT, lambda m: first(m, ("parts",), key(wire.TOOL_CALL, "id"))),
    role(wire.ROLE_TOOL, lambda m: first(m, ("parts",), key(wire.TOOL_CALL_RESPONSE, "id"))),
)


def recognises(message: Any) -> bool:
    """Whether ``message`` is a GenAI message: a role, and parts that each name their type.

    Other formats with ``parts`` are not: Gemini's parts have no type, the AI SDK's UI messages
    write text under ``text`` and name tool parts ``tool-NAME``.

    >>> recognises({"role": "user", "parts": [{"type": "text", "content": "Hi"}]})
    True
    >>> recognises({"role": "user", "parts": [{"type": "text", "text": "Hi"}]})
    False
    """
    if not isinstance(message, dict) or not isinstance(message.get("role"), str) or "content" in message:
        return False
    parts = message.get("parts")
    if not isinstance(parts, list):
        return False
    for part in parts:
        if not isinstance(part, dict) or not isinstance(part.get("type"), str):
            return False
        kind = part["type"]
        if kind.startswith(wire.FOREIGN_PREFIXES) or (kind == wire.TEXT and "content" not in part):
            return False
    return True


def results(trace: list[Any]) -> Iterable[Result]:
    """Each tool_call_response part of the messages, in order."""
    for message in trace:
        parts = message.get("parts") if isinstance(message, dict) else None
        for part in parts if isinstance(parts, list) else []:
            if isinstance(part, dict) and part.get("type") == wire.TOOL_CALL_RESPONSE:
                yield Result(part.get("id"), None, part.get("response"))


def probe(call_id: str) -> list[dict[str, Any]]:
    """The smallest input messages in which ``call_id`` is a call's id and its answer's."""
    return [
        {"role": "user", "parts": [{"type": wire.TEXT, "content": "Weather in Paris?"}]},
        {
            "role": wire.ROLE_ASSISTANT,
            "parts": [{"type": wire.TOOL_CALL, "id": call_id, "name": "get_weather", "arguments": {}}],
        },
        {
            "role": wire.ROLE_TOOL,
            "parts": [{"type": wire.TOOL_CALL_RESPONSE, "id": call_id, "response": "ok"}],
        },
    ]


_TOOL_CALLS: Final = typed_ids(wire.ROLE_ASSISTANT, "parts", wire.TOOL_CALL, ("id",))
_RESPONSES: Final = typed_ids(wire.ROLE_TOOL, "parts", wire.TOOL_CALL_RESPONSE, ("id",))


def intact(trace: list[Any]) -> set[str]:
    """Ids of the tool_call/tool_call_response pairs a damaged history still holds intact: each
    called once and answered once, in the run of tool messages right after its assistant message.
    Calls without ids pair by order, which no damage leaves certain: none is intact."""
    return intact_ids(trace, _TOOL_CALLS, _RESPONSES, one_message=False)
