"""The official MCP Python SDK (``mcp``) as a consumer of a session's messages, in-process.

Issue 38's severity policy for MCP sessions: a rule is an error when the SDK, on either end of the
session, loses, duplicates or changes a call, its arguments or its id, or refuses the message.
Each side runs over the SDK's in-memory streams and reads every message the way its stdio
transport does (``jsonrpc_message_adapter.validate_json`` per line; a line it cannot read goes
into the stream as the exception):

- ``server_side`` runs an ``MCPServer`` with one tool, get_weather, and feeds it the client's
  messages after the initialize handshake: what comes back is the cities the tool ran with and
  the messages the server wrote (the handshake's answer left out).
- ``client_side`` runs a ``ClientSession`` whose server is scripted: it answers the handshake and
  tools/list, and each tools/call with the messages a test gives; what comes back is the result
  ``call_tool`` returned, or the error it raised (its read timeout is two seconds).

mcp is pinned in pyproject.toml's dev extra.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: The client's initialize request and initialized notification, as every session starts.
HANDSHAKE: list[dict[str, Any]] = [
    {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"},
        },
    },
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
]
#: The server's answer to the initialize request.
INITIALIZED: dict[str, Any] = {
    "protocolVersion": "2025-06-18",
    "capabilities": {"tools": {}},
    "serverInfo": {"name": "weather", "version": "0"},
}
_TOOLS: dict[str, Any] = {
    "tools": [
        {
            "name": "get_weather",
            "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
        }
    ]
}


@dataclass
class Served:
    """What the SDK's server did with the client's messages: the tool's runs and its answers."""

    ran: list[str] = field(default_factory=list)
    wrote: list[dict[str, Any]] = field(default_factory=list)


def _read(message: dict[str, Any]) -> Any:
    """One line read as the SDK's stdio transports read it: a SessionMessage, or the exception."""
    from mcp import types
    from mcp.shared.message import SessionMessage

    try:
        read = types.jsonrpc_message_adapter.validate_json(json.dumps(message), by_name=False)
    except Exception as error:
        return error
    return SessionMessage(message=read)


#: How long a side waits for an answer: long enough on a loaded machine, short for the tests
#: that wait it out (a call nothing answers).
_WAIT = 2.0


def server_side(messages: list[dict[str, Any]]) -> Served:
    """An mcp ``MCPServer`` with get_weather, fed the handshake then ``messages``."""
    import anyio
    from mcp.server.mcpserver import MCPServer
    from mcp.shared.memory import create_client_server_memory_streams

    served = Served()
    server = MCPServer("weather")

    @server.tool()
    def get_weather(city: str) -> str:
        """The weather in a city."""
        served.ran.append(city)
        return f"sunny in {city}"

    lowlevel = server._lowlevel_server

    async def main() -> None:
        async with (
            create_client_server_memory_streams() as ((client_read, client_write), (read, write)),
            anyio.create_task_group() as group,
        ):

            async def run() -> None:
                await lowlevel.run(read, write, lowlevel.create_initialization_options())

            async def collect() -> None:
                async for item in client_read:
                    served.wrote.append(item.message.model_dump(by_alias=True, exclude_none=True))

            group.start_soon(run)
            group.start_soon(collect)
            for message in HANDSHAKE + messages:
                await client_write.send(_read(message))
                await anyio.sleep(0.05)
            # Wait for an answer to each request (the handshake's too); a request the server
            # reads as something else gets none, and the wait runs out.
            expected = 1 + sum(1 for m in messages if "method" in m and "id" in m)
            with anyio.move_on_after(_WAIT):
                while len(served.wrote) < expected:
                    await anyio.sleep(0.02)
            group.cancel_scope.cancel()

    anyio.run(main)
    served.wrote = [m for m in served.wrote if m.get("id") != 0]
    return served


def client_side(answer: Callable[[Any], list[dict[str, Any]]]) -> dict[str, Any]:
    """An mcp ``ClientSession`` calling get_weather(city="Paris") of a server that answers the
    tools/call whose id is ``n`` with the messages ``answer(n)``.

    Returns ``{"result": ...}`` (the CallToolResult as JSON) or ``{"error": "Type: message"}``.
    """
    import anyio
    from mcp import types
    from mcp.client.session import ClientSession
    from mcp.shared.memory import create_client_server_memory_streams

    seen: dict[str, Any] = {}

    def reply(request: Any) -> list[dict[str, Any]]:
        if request.method == "initialize":
            return [{"jsonrpc": "2.0", "id": request.id, "result": INITIALIZED}]
        if request.method == "tools/list":
            return [{"jsonrpc": "2.0", "id": request.id, "result": _TOOLS}]
        if request.method == "tools/call":
            return answer(request.id)
        return []

    async def main() -> None:
        async with (
            create_client_server_memory_streams() as ((read, write), (server_read, server_write)),
            anyio.create_task_group() as group,
        ):

            async def serve() -> None:
                async for item in server_read:
                    if isinstance(item.message, types.JSONRPCRequest):
                        for message in reply(item.message):
                            await server_write.send(_read(message))

            group.start_soon(serve)
            async with ClientSession(read, write, read_timeout_seconds=_WAIT) as session:
                await session.initialize()
                try:
                    result = await session.call_tool("get_weather", {"city": "Paris"})
                    seen["result"] = result.model_dump(by_alias=True, exclude_none=True)
                except Exception as error:
                    seen["error"] = f"{type(error).__name__}: {error}"
            group.cancel_scope.cancel()

    anyio.run(main)
    return seen
