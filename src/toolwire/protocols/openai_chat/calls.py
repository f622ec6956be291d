"""Where calls and results sit in OpenAI Chat Completions traces: readers, sites, probe, id shapes."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any, Final

from toolwire.properties._protocol import Result
from toolwire.properties._sites import Sites, first, key, role

__all__ = [
    "ID_SHAPES",
    "MESSAGE_SITES",
    "RESPONSE_SITES",
    "STREAM_SITES",
    "intact",
    "probe",
    "recognises",
    "recognises_chunk",
    "recognises_completion",
    "response_probe",
    "results",
]

#: Fragments open calls; the first fragment of a call carries its id.
STREAM_SITES: Final = Sites(lambda e: first(e, ("choices", 0, "delta", "tool_calls"), key(None, "id")))
#: Assistant ``tool_calls`` open calls; ``tool`` messages answer them.
MESSAGE_SITES: Final = Sites(
    role("assistant", lambda e: first(e, ("tool_calls",), key(None, "id"))),
    role("tool", key(None, "tool_call_id")),
)
#: Id shapes seen in the wild (docs/protocol-rules.md, "ID formats and limits"): not contracts.
ID_SHAPES: Final = (
    (re.compile(r"call_[A-Za-z0-9]{24}"), "OpenAI call id (call_ + 24)"),
    (re.compile(r"functions\.[A-Za-z0-9_-]+:\d+"), "Kimi id (functions.NAME:N)"),
)


def results(trace: list[Any]) -> Iterable[Result]:
    """The ``tool`` messages: the id each answers, its name when given, its content."""
    for m in trace:
        if isinstance(m, dict) and m.get("role") == "tool":
            yield Result(m.get("tool_call_id"), m.get("name"), m.get("content"))


def probe(call_id: str) -> dict[str, Any]:
    """The smallest request in which ``call_id`` is a call's id and its answer's."""
    call = {"id": call_id, "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}
    return {
        "messages": [
            {"role": "user", "content": "Weather?"},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": call_id, "content": "15 degrees"},
        ]
    }


def intact(trace: list[Any]) -> set[str]:
    """Ids of the call/result pairs a damaged history still holds intact.

    A pair is intact when its id is called once and answered once, by a tool
    message in the run of tool messages right after the assistant message
    that made the call: a sanitizer must keep exactly these.
    """
    called: Counter[Any] = Counter()
    answered: Counter[Any] = Counter()
    ok: set[str] = set()
    pending: set[Any] = set()
    for m in trace:
        kind = m.get("role") if isinstance(m, dict) else None
        if kind == "tool":
            answered[m.get("tool_call_id")] += 1
            if m.get("tool_call_id") in pending:
                ok.add(m["tool_call_id"])
            continue
        pending = set()
        if kind == "assistant":
            for call in m.get("tool_calls") or []:
                if isinstance(call, dict):
                    called[call.get("id")] += 1
                    pending.add(call.get("id"))
    return {i for i in ok if called[i] == 1 and answered[i] == 1}


_ROLES: Final = frozenset({"system", "developer", "user", "assistant", "tool", "function"})


#: The content part types of Chat Completions messages (openapi ChatCompletionRequest*ContentPart).
_PARTS: Final = frozenset({"text", "image_url", "input_audio", "file", "refusal"})


def recognises(message: Any) -> bool:
    """A Chat Completions message: an object with a role, whose content parts (if any) are typed
    Chat Completions parts (not Anthropic's ``tool_use`` blocks or Bedrock's untyped ones).

    >>> recognises({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t"}]})
    False
    """
    # A role or part type of any JSON shape is no Chat Completions one (a list cannot be looked up in a set).
    if (
        not isinstance(message, dict)
        or not isinstance(role := message.get("role"), str)
        or role not in _ROLES
    ):
        return False
    content = message.get("content")
    return not isinstance(content, list) or all(
        not isinstance(part, dict) or (isinstance(part.get("type"), str) and part["type"] in _PARTS)
        for part in content
    )


def recognises_chunk(chunk: Any) -> bool:
    """A ``chat.completion.chunk``: an object whose ``choices`` carry a ``delta`` (or none, with usage).

    >>> recognises_chunk({"object": "chat.completion", "choices": [{"message": {}}]})
    False
    """
    if not isinstance(chunk, dict):
        return False
    choices = chunk.get("choices")
    if not isinstance(choices, list):
        return False
    return not choices or any(isinstance(c, dict) and isinstance(c.get("delta"), dict) for c in choices)


#: The first call of the first choice of a ``chat.completion``.
RESPONSE_SITES: Final = Sites(lambda e: first(e, ("choices", 0, "message", "tool_calls"), key(None, "id")))


def response_probe(call_id: str) -> list[dict[str, Any]]:
    """The smallest ``chat.completion`` in which ``call_id`` is a call's id."""
    call = {"id": call_id, "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}
    message = {"role": "assistant", "content": None, "tool_calls": [call]}
    choice = {"index": 0, "message": message, "finish_reason": "tool_calls"}
    return [{"id": "chatcmpl-1", "object": "chat.completion", "choices": [choice]}]


def recognises_completion(body: Any) -> bool:
    """A chat completion body: ``object`` ``chat.completion``, or choices that carry a message."""
    if not isinstance(body, dict):
        return False
    choices = body.get("choices")
    return body.get("object") == "chat.completion" or (
        isinstance(choices, list) and any(isinstance(c, dict) and "message" in c for c in choices)
    )
