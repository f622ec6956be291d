"""The monitor for MCP sessions: a :class:`JsonRpcRequest` per (requestor, id)."""

from __future__ import annotations

from typing import Any, Final

from toolwire.machines import JsonRpcRequest
from toolwire.models import mcp as wire
from toolwire.properties._lifecycle import Item, KeyedMonitor, Lifecycle
from toolwire.properties._text import clip
from toolwire.protocols.mcp.rules import MCP, MODELLED_SDK, RULES

__all__ = ["SessionMonitor"]

_BOOK: Final = {rule.id: rule for rule in RULES}

REQUESTS: Final = Lifecycle.declare(
    JsonRpcRequest,
    {
        ("*", "request"): ("MCP-1", "pending"),
        ("*", "response"): "MCP-2a",
        ("*", "cancel"): "MCP-2a",
    },
    {"pending": "MCP-2c"},
)


class SessionMonitor(KeyedMonitor):
    """Checks the JSON-RPC messages of one MCP session (both directions, in order).

    >>> m = SessionMonitor()
    >>> m.feed({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
    ...         "params": {"name": "get_weather", "arguments": {"city": "Paris"}}}, 0, 1, None)
    >>> m.feed({"jsonrpc": "2.0", "id": 2, "result": {"content": []}}, 1, 2, None)
    >>> [f.rule for f in m.findings]
    ['MCP-2a']
    """

    protocol = MCP
    modelled_sdk = MODELLED_SDK
    lifecycle = REQUESTS

    def __init__(self) -> None:
        super().__init__(_BOOK)

    def describe(self, item: Item) -> str:
        key: tuple[str, Any] = item.key  # type: ignore[assignment]
        return f"{key[0]} request {key[1]!r}" + (f" ({item.name})" if item.name else "")

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        if isinstance(value, list):
            for message in value:
                self.feed(message, index, line, sse_event)
            return
        if not isinstance(value, dict):
            self.notice(index, line, "message is not a JSON object; skipped")
            return
        method = value.get("method")
        if isinstance(method, str) and "id" in value:
            self._request(value, method, index, line)
        elif isinstance(method, str):
            if method not in wire.NOTIFICATIONS:
                self.unknown("notification", method, index, line, "passed over", skipped=False)
            elif method == wire.CANCELLED:
                params = value.get("params")
                request_id = params.get("requestId") if isinstance(params, dict) else None
                key = self._key_of(request_id)
                if key is not None:
                    self.step(key, "cancel", index, line, what="notifications/cancelled")
        elif "result" in value or "error" in value or "id" in value:
            self._response(value, index, line)
        else:
            self.notice(index, line, "neither a request, a notification nor a response; skipped")

    def _request(self, value: dict[str, Any], method: str, index: int, line: int | None) -> None:
        request_id = value.get("id")
        if request_id is None or isinstance(request_id, bool) or not isinstance(request_id, str | int):
            self.report("MCP-1", f"{method} request with id {clip(request_id)}", index=index, line=line)
            return
        side = "server" if method in wire.SERVER_METHODS else "client"
        if side == "client" and method not in wire.CLIENT_METHODS:
            self.unknown("request", method, index, line, "its id is tracked", skipped=False)
        item = self.step((side, request_id), "request", index, line, what=f"{method} request")
        item.name, item.id = method, request_id
        if method == wire.TOOLS_CALL:
            self.calls_checked += 1
            params = value.get("params")
            params = params if isinstance(params, dict) else {}
            if not isinstance(params.get("name"), str):
                self.report("MCP-3", f"tools/call {request_id!r} without params.name", index=index, line=line)
            if "arguments" in params and not isinstance(params["arguments"], dict):
                self.report(
                    "MCP-3",
                    f"tools/call {request_id!r} has arguments {clip(params['arguments'])}, not an object",
                    index=index,
                    line=line,
                    ids=(request_id,),
                )

    def _key_of(self, request_id: Any) -> tuple[str, Any] | None:
        if not isinstance(request_id, str | int):
            return None
        keys = [(side, request_id) for side in ("client", "server") if (side, request_id) in self.items]
        # Both sides may use one id at once; the later request is the one answered first.
        keys.sort(key=lambda key: -self.items[key].index)
        live = [key for key in keys if self.items[key].state != REQUESTS.table.state("answered")]
        found = live or keys
        return found[0] if found else None

    def _response(self, value: dict[str, Any], index: int, line: int | None) -> None:
        request_id = value.get("id")
        if ("result" in value) == ("error" in value):
            what = "both result and error" if "result" in value else "neither result nor error"
            self.report("MCP-2b", f"the response to {request_id!r} has {what}", index=index, line=line)
        key = self._key_of(request_id)
        if key is None:
            if request_id is None and "error" in value:
                return  # 2025-11-25: an error for a request whose id could not be read
            self.report(
                "MCP-2a",
                f"a response with id {clip(request_id)}, which no request has",
                index=index,
                line=line,
                ids=(request_id,),
            )
            return
        item = self.step(key, "response", index, line, what="response", ids=(request_id,))
        self.results_checked += item.name == wire.TOOLS_CALL
        if item.name == wire.TOOLS_CALL and isinstance(value.get("result"), dict):
            result = value["result"]
            if result.get("resultType") == wire.INPUT_REQUIRED:
                pass  # in place of the CallToolResult: no content until the client retries
            elif not isinstance(result.get("content"), list):
                self.report(
                    "MCP-3",
                    f"the tools/call result for {request_id!r} has no content list",
                    index=index,
                    line=line,
                    ids=(request_id,),
                )
            if "isError" in result and not isinstance(result["isError"], bool):
                self.report(
                    "MCP-3",
                    f"the tools/call result for {request_id!r} has isError {clip(result['isError'])}",
                    index=index,
                    line=line,
                )
        error = value.get("error")
        if "error" in value and not (
            isinstance(error, dict)
            and isinstance(error.get("code"), int)
            and isinstance(error.get("message"), str)
        ):
            self.report(
                "MCP-3",
                f"the error for {request_id!r} is not {{code, message}}: {clip(error)}",
                index=index,
                line=line,
            )

    def finish(self, index: int, line: int | None) -> None:
        self.finish_items(index, line)
