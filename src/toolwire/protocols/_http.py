"""Each family's HTTP face: where its traffic is sent, how a client asks for it, how it is framed.

The mock provider (``engines/gateway/_mock_provider.py``) answers an upstream request
with a family's framing; the gateway client (``engines/gateway/_target.py``) builds
requests in a family's shape and reads its answers.  A family's face lives in
its own package (``protocols/<family>/http.py``, a :data:`FACE`); this module
finds it by protocol name, and holds what the faces share (SSE framing, tool
declarations that admit the generated arguments).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import orjson

from toolwire.errors import UsageError
from toolwire.properties._turn import Call
from toolwire.protocols import _registry

__all__ = [
    "HttpFace",
    "Tool",
    "arguments_of",
    "asks_stream",
    "face",
    "faced",
    "paired",
    "sse",
    "tools_for",
    "user_text",
    "whole",
]

Wire = list[dict[str, Any]]
#: A tool the client declares: its name and a JSON Schema of its parameters.
Tool = tuple[str, dict[str, Any]]


@dataclass(frozen=True, slots=True)
class HttpFace:
    """A family's HTTP face.

    ``paths`` are patterns searched in an upstream request's path; ``conversation``
    is the request protocol whose ``container`` holds the history, ``stream`` and
    ``document`` the protocols of its streamed and whole answers.
    """

    paths: tuple[str, ...]
    conversation: str
    stream: str
    document: str
    #: Whether a request (path, query, body) asks for a stream.
    wants_stream: Callable[[str, str, dict[str, Any]], bool]
    #: A trace as a response body: (trace, streamed, query) -> (bytes, media type).
    frame: Callable[[Wire, bool, str], tuple[bytes, str]]
    #: A text-only answer (model, streamed) as a trace of ``stream`` or ``document``.
    reply: Callable[[str, bool], Wire]
    #: A request body: (model, history, tools, streamed).
    request: Callable[[str, Wire, list[Tool], bool], dict[str, Any]]
    #: The first user message, as history.
    user: Callable[[str], Wire]
    #: An assistant turn with ``calls`` and, after it, one result per call (``texts``), as history.
    answer: Callable[[list[Call], list[str]], Wire]

    def matches(self, path: str) -> bool:
        """Whether an upstream request to ``path`` is this family's."""
        return any(re.search(pattern, path) for pattern in self.paths)


def face(protocol: str) -> HttpFace:
    """The HTTP face of ``protocol``'s family; a :class:`UsageError` when it has none."""
    module = _registry._HOME.get(protocol)
    spec = _registry.get_protocol(protocol)
    try:
        found: HttpFace = importlib.import_module(f"{module}.http").FACE
    except (ModuleNotFoundError, AttributeError, TypeError):
        raise UsageError(f"{protocol} has no HTTP face: a gateway speaks {', '.join(faced())}") from None
    if protocol not in (found.stream, found.document) and protocol not in _variants(found, str(module)):
        kind = "a request body" if spec.shape == "conversation" else "not a provider's answer"
        raise UsageError(
            f"{protocol} is {kind}: a gateway's --from and --to are what a provider answers "
            f"({', '.join(faced())})"
        )
    return found


def _variants(found: HttpFace, module: str) -> set[str]:
    """The family's stream protocols that share ``found``'s wire as a profile of it (Open Responses)."""
    return {
        name
        for name, p in _registry.PROTOCOLS.items()
        if p.variant_of == found.stream and _registry._HOME.get(name) == module
    }


def faced() -> list[str]:
    """Every protocol a gateway target can be fuzzed with, as --from or --to."""
    names = []
    for module in _registry.INDEX:
        try:
            found = importlib.import_module(f"{module}.http").FACE
        except ModuleNotFoundError:
            continue
        names += [found.stream, *sorted(_variants(found, module)), found.document]
    return names


def sse(events: Iterable[Any], *, named: bool = False, done: bool = False, end: str = "\n\n") -> bytes:
    """``events`` as Server-Sent Events: ``event:`` lines when ``named`` (from each ``type``), a
    closing ``data: [DONE]`` when ``done``."""
    out = bytearray()
    for event in events:
        if named and isinstance(event, dict) and isinstance(event.get("type"), str):
            out += f"event: {event['type']}\n".encode()
        out += b"data: " + orjson.dumps(event) + end.encode()
    if done:
        out += b"data: [DONE]" + end.encode()
    return bytes(out)


def asks_stream(path: str, query: str, body: dict[str, Any]) -> bool:
    """A request that says ``"stream": true`` in its body asks for a stream (Chat, Messages, Responses)."""
    return body.get("stream") is True


def whole(trace: Wire, streamed: bool, *, named: bool = False, done: bool = False) -> tuple[bytes, str]:
    """A trace as SSE when ``streamed``, else its one document as a JSON body."""
    if streamed:
        return sse(trace, named=named, done=done), "text/event-stream"
    return orjson.dumps(trace[0] if trace else {}), "application/json"


def user_text(text: str) -> Wire:
    """The first user message as history, its content a plain string (Chat, Messages, Responses, Mistral)."""
    return [{"role": "user", "content": text}]


def paired(calls: list[Call], texts: list[str]) -> Iterable[tuple[Call, str]]:
    """Each call with the text of its result: one text a call, in order."""
    return zip(calls, texts, strict=True)


def arguments_of(call: Call) -> Any:
    """A call's arguments as a JSON value (its text parsed; text that is no JSON stays text)."""
    if call.arguments in (None, ""):
        return {}
    try:
        return orjson.loads(call.arguments)
    except orjson.JSONDecodeError:
        return call.arguments


def tools_for(calls: Iterable[Call]) -> list[Tool]:
    """A declaration per tool name the calls use, with a schema that admits all their arguments.

    Each argument name seen becomes a property of any type (the empty schema); nothing is required.
    """
    schemas: dict[str, dict[str, Any]] = {}
    for call in calls:
        if not isinstance(call.name, str):
            continue
        properties = schemas.setdefault(call.name, {})
        value = arguments_of(call)
        if isinstance(value, dict):
            for key in value:
                properties.setdefault(str(key), {})
    return [(name, {"type": "object", "properties": props}) for name, props in schemas.items()]
