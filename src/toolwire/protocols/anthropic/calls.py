"""Where calls and results sit in Anthropic Messages traces: readers, sites, probe, id shapes."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
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
    "recognises_message",
    "response_probe",
    "results",
]

#: ``content_block_start`` of a ``tool_use`` block opens a call.
STREAM_SITES: Final = Sites(key("content_block_start", "id", "content_block"))
#: Assistant ``tool_use`` blocks open calls; user ``tool_result`` blocks answer them.
MESSAGE_SITES: Final = Sites(
    role("assistant", lambda e: first(e, ("content",), key("tool_use", "id"))),
    role("user", lambda e: first(e, ("content",), key("tool_result", "tool_use_id"))),
)
#: Id shapes seen in the wild (docs/protocol-rules.md, "ID formats and limits"; AN-11): not contracts.
ID_SHAPES: Final = (
    (re.compile(r"toolu_(vrtx_|bdrk_)?[A-Za-z0-9]+"), "Anthropic tool_use id (AN-11)"),
    (re.compile(r"srvtoolu_[A-Za-z0-9_]+"), "Anthropic server tool id"),
)


def _blocks(content: Any, kind: str) -> Iterator[dict[str, Any]]:
    for block in content if isinstance(content, list) else []:
        if isinstance(block, dict) and block.get("type") == kind and "tool_use_id" in block:
            yield block


def results(trace: list[Any]) -> Iterable[Result]:
    """The ``tool_result`` blocks of user messages: the id each answers and its content."""
    for m in trace:
        if isinstance(m, dict) and m.get("role") == "user":
            for b in _blocks(m.get("content"), "tool_result"):
                yield Result(b["tool_use_id"], None, b.get("content"))


def probe(call_id: str) -> dict[str, Any]:
    """The smallest request in which ``call_id`` is a call's id and its answer's."""
    return {
        "messages": [
            {"role": "user", "content": "Weather?"},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": call_id, "name": "get_weather", "input": {}}],
            },
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call_id, "content": "15"}]},
        ]
    }


#: The first tool_use block of a ``message`` body.
RESPONSE_SITES: Final = Sites(lambda e: first(e, ("content",), key("tool_use", "id")))


def response_probe(call_id: str) -> list[dict[str, Any]]:
    """The smallest ``message`` body in which ``call_id`` is a tool_use id."""
    use = {"type": "tool_use", "id": call_id, "name": "get_weather", "input": {}}
    return [{"type": "message", "role": "assistant", "content": [use], "stop_reason": "tool_use"}]


def recognises_message(body: Any) -> bool:
    """An Anthropic ``message`` body: ``type`` message."""
    return isinstance(body, dict) and body.get("type") == "message"


def recognises(message: Any) -> bool:
    """A Messages API message: role user or assistant, content text or typed content blocks.

    >>> recognises({"role": "tool", "tool_call_id": "c", "content": "1"})
    False
    """
    if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
        return False
    content = message.get("content")
    if isinstance(content, str):
        return "tool_calls" not in message
    return isinstance(content, list) and all(isinstance(b, dict) and "type" in b for b in content)


_TOOL_USES: Final = typed_ids("assistant", "content", "tool_use", ("id",))
_TOOL_RESULTS: Final = typed_ids("user", "content", "tool_result", ("tool_use_id",))


def intact(trace: list[Any]) -> set[str]:
    """Ids of the tool_use/tool_result pairs a damaged history still holds intact: each called
    once and answered once, in the user message right after its assistant message."""
    return intact_ids(trace, _TOOL_USES, _TOOL_RESULTS, one_message=True)
