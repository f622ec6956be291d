"""Generated MCP sessions: ``initialize``, then ``tools/call`` requests and their responses."""

from __future__ import annotations

from typing import Final

from hypothesis import strategies as st

from toolwire.properties._strategies._plan import Plan
from toolwire.properties._strategies._render import Generator, Wire

__all__ = ["SESSION"]


def mcp_session(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """An MCP session: ``initialize``, then one ``tools/call`` per call, answered in a drawn order."""
    turn = plan.turns[0]
    events: Wire = [
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {
            "jsonrpc": "2.0",
            "id": 0,
            "result": {
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "weather", "version": "1.0.0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    for k, call in enumerate(turn.calls, start=1):
        params = {"name": call.name, "arguments": call.input}
        events.append({"jsonrpc": "2.0", "id": k, "method": "tools/call", "params": params})
    order = draw(st.permutations(range(1, len(turn.calls) + 1)))
    for k in order:
        content = [{"type": "text", "text": turn.calls[k - 1].result}]
        events.append({"jsonrpc": "2.0", "id": k, "result": {"content": content, "isError": False}})
    return events


#: Whole calls, answered in a drawn order.
SESSION: Final = Generator(mcp_session, fragments=False)
