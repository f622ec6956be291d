"""MCP: sessions of JSON-RPC requests and responses, ``tools/call`` (MCP-1 to MCP-3).

The family's places: ``models/_mcp.py`` (the wire), ``machines/_mcp.py`` (the
request lifecycle) and this package: ``rules``, ``monitors``, ``calls``
(readers, mutation sites, the id probe), ``generate`` (Hypothesis) and ``shapes``
(shape features).
"""

from typing import Final

from toolwire.machines import JsonRpcRequest
from toolwire.properties._protocol import Family, Protocol, Quirk, load
from toolwire.protocols.mcp import calls
from toolwire.protocols.mcp.monitors import SessionMonitor
from toolwire.protocols.mcp.rules import MCP, RULES
from toolwire.protocols.mcp.shapes import SESSION_SHAPES

__all__ = ["FAMILY", "SessionMonitor"]

FAMILY: Final = Family(
    "mcp",
    catalogue=9,
    protocols=(
        Protocol(
            MCP,
            "MCP session: JSON-RPC requests and responses, tools/call (MCP-1 to MCP-3)",
            "stream",
            SessionMonitor,
            recognises=calls.recognises,
            probe=calls.probe,
            calls=calls.calls,
            results=calls.results,
            sites=calls.SITES,
            breaks={"drop-id": "MCP-2a", "duplicate": "MCP-1", "reorder": "MCP-2a"},
            generator=load(f"{__name__}.generate", "SESSION"),
            shapes=SESSION_SHAPES,
        ),
    ),
    rules=RULES,
    machines=(JsonRpcRequest,),
    quirks=(
        Quirk(
            "lists-tools",
            "the client lists the server's tools (tools/list) before it calls one",
            (MCP,),
            "tests/data/traffic posit-dev__chatlas mcp test_call_http_mcp_tool.jsonl (mcp 1.27.0 server); "
            "modelcontextprotocol.io/specification/2025-06-18/server/tools#listing-tools",
            features=("tools-list",),
        ),
    ),
)
