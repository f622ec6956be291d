"""Shape features of MCP sessions: JSON-RPC ids, notifications, ``tools/call`` and its results."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from toolwire.models import mcp as wire
from toolwire.properties._shapes import Feature, Shapes, calls_shapes, hashable

__all__ = ["SESSION_SHAPES"]

_SPEC: Final = "modelcontextprotocol.io/specification/2025-06-18"
_TOOLS: Final = f"{_SPEC}/server/tools"

#: JSON-RPC 2.0, which MCP messages follow: a response names its request by id.
_JSONRPC: Final = (
    f"{_SPEC}/basic (requests and responses pair by id); jsonrpc.org/specification (responses may "
    "come in any order, matched by id)"
)

_SESSION: Final = (
    Feature(
        "several-calls",
        "two or more tools/call requests",
        documented=f"{_TOOLS}: a client calls tools/call as often as it needs within a session",
    ),
    Feature(
        "same-tool-twice",
        "two tools/call requests of one tool",
        documented=f"{_TOOLS}: a client calls tools/call as often as it needs within a session",
    ),
    Feature("empty-arguments", "a tools/call with arguments {} or none"),
    Feature(
        "no-calls",
        "a session without tools/call",
        documented=f"{_SPEC}/basic/lifecycle: a session initializes; calling a tool is optional",
    ),
    Feature(
        "concurrent-calls",
        "a tools/call sent before an earlier one is answered",
        documented=f"{_JSONRPC}; {_SPEC}/basic/transports: Streamable HTTP sends each request in a POST "
        "of its own, so several may be in flight (2025-03-26 also allowed JSON-RPC batches)",
    ),
    Feature(
        "results-out-of-call-order",
        "responses answer tools/call requests in another order",
        documented=_JSONRPC,
    ),
    Feature("integer-ids", "requests with integer ids"),
    Feature("string-ids", "requests with string ids", documented=f"{_SPEC}/basic: string or number ids"),
    Feature("notification", "a notification (a method without an id)"),
    Feature(
        "cancelled-notification",
        "a notifications/cancelled for a request",
        documented=f"{_SPEC}/basic/utilities/cancellation",
    ),
    Feature("tools-list", "a tools/list request"),
    Feature("server-info", "the initialize result carries serverInfo"),
    Feature("is-error-false", "a tools/call result with isError false"),
    Feature("is-error-true", "a tools/call result with isError true (a tool's own error)", documented=_TOOLS),
    Feature("is-error-absent", "a tools/call result without isError", documented=_TOOLS),
    Feature("structured-content", "a tools/call result with structuredContent", documented=_TOOLS),
    Feature("text-content", "a tools/call result with text content"),
    Feature(
        "non-text-content",
        "a tools/call result with image, audio, resource or resource_link content",
        documented=_TOOLS,
    ),
    Feature("empty-content", "a tools/call result with content []", documented=_TOOLS),
    Feature("error-response", "a JSON-RPC error answers a tools/call", documented=f"{_TOOLS}#error-handling"),
    Feature(
        "server-request",
        "a request from the server (sampling, roots, elicitation)",
        documented=f"{_SPEC}/client/sampling",
    ),
    Feature("meta-field", 'params or results carry "_meta"', documented=f"{_SPEC}/basic#meta"),
)


def _session(trace: list[Any]) -> Iterator[str]:
    names: list[Any] = []
    open_calls: list[Any] = []
    asked: list[Any] = []
    answered: list[Any] = []
    initialize: set[Any] = set()
    for message in trace:
        if not isinstance(message, dict):
            continue
        method, ident = message.get("method"), hashable(message.get("id"))
        params, result = message.get("params"), message.get("result")
        if "_meta" in (params if isinstance(params, dict) else {}) or "_meta" in (
            result if isinstance(result, dict) else {}
        ):
            yield "meta-field"
        if isinstance(method, str):
            if "id" not in message:
                yield "notification"
                if method == wire.CANCELLED:
                    yield "cancelled-notification"
                continue
            yield "string-ids" if isinstance(ident, str) else "integer-ids"
            if method == "initialize":
                initialize.add(ident)
            elif method == "tools/list":
                yield "tools-list"
            elif method in wire.SERVER_METHODS:
                yield "server-request"
            elif method == wire.TOOLS_CALL:
                if open_calls:
                    yield "concurrent-calls"
                open_calls.append(ident)
                asked.append(ident)
                arguments = params.get("arguments") if isinstance(params, dict) else None
                names.append(params.get("name") if isinstance(params, dict) else None)
                if not arguments:
                    yield "empty-arguments"
            continue
        if ident in initialize and isinstance(result, dict) and "serverInfo" in result:
            yield "server-info"
        if ident not in open_calls:
            continue
        open_calls.remove(ident)
        answered.append(ident)
        if "error" in message:
            yield "error-response"
        elif isinstance(result, dict):
            yield from _result(result)
    if not names:
        yield "no-calls"
        return
    yield from calls_shapes(names)
    if answered != [ident for ident in asked if ident in answered]:
        yield "results-out-of-call-order"


def _result(result: dict[str, Any]) -> Iterator[str]:
    error = result.get("isError")
    yield "is-error-true" if error is True else "is-error-false" if error is False else "is-error-absent"
    if "structuredContent" in result:
        yield "structured-content"
    content = result.get("content")
    parts = content if isinstance(content, list) else []
    kinds = {hashable(part.get("type")) for part in parts if isinstance(part, dict)}
    if content == []:
        yield "empty-content"
    if "text" in kinds:
        yield "text-content"
    if kinds - {"text"}:
        yield "non-text-content"


SESSION_SHAPES: Final = Shapes(_SESSION, lambda trace: set(_session(trace)))
