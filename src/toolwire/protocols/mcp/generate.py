"""Generated MCP sessions: ``initialize``, then ``tools/call`` requests and their responses."""

from __future__ import annotations

from typing import Any, Final

from hypothesis import strategies as st

from toolwire.properties._strategies._plan import NAMES, Plan
from toolwire.properties._strategies._render import Generator, Wire, pick

__all__ = ["SESSION"]


#: The tools the generated server lists (the plan's tool names), as ``tools/list`` returns them.
TOOLS: Final = [
    {
        "name": name,
        "description": f"Runs {name}",
        "inputSchema": {"type": "object", "properties": {}, "title": f"{name}Arguments"},
    }
    for name in NAMES
]


def mcp_session(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """An MCP session: ``initialize``, then one ``tools/call`` per call.

    Each trace draws whether the client waits for each result before the next
    call or sends them all at once, to be answered in a drawn order.  Under
    ``lists-tools`` (or when the shape ``tools-list`` is asked for) the client
    lists the tools first, as the recorded session does.
    """
    turn = plan.turns[0]
    # Not drawn by default: the mutation sites (calls.SITES) take any response but initialize's
    # for a tools/call answer, so a tools/list response would be the one the mutators move.
    listed = bool({"lists-tools", "tools-list"} & quirks)
    concurrent = pick(draw, {"sequential-calls": False, "concurrent-calls": True}, quirks)
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
                "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": {"name": "weather", "version": "1.0.0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    first = 1
    if listed:
        events.append({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        events.append({"jsonrpc": "2.0", "id": 1, "result": {"tools": TOOLS}})
        first = 2
    ids = range(first, first + len(turn.calls))

    def request(k: int) -> dict[str, Any]:
        call = turn.calls[k - first]
        params = {"name": call.name, "arguments": call.input}
        return {"jsonrpc": "2.0", "id": k, "method": "tools/call", "params": params}

    def response(k: int) -> dict[str, Any]:
        content = [{"type": "text", "text": turn.calls[k - first].result}]
        return {"jsonrpc": "2.0", "id": k, "result": {"content": content, "isError": False}}

    if concurrent:
        events.extend(request(k) for k in ids)
        events.extend(response(k) for k in draw(st.permutations(ids)))
    else:
        for k in ids:
            events.extend((request(k), response(k)))
    return events


#: Whole calls, one after the other or all at once.
SESSION: Final = Generator(mcp_session, fragments=False)
