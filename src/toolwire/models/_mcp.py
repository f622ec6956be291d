"""MCP: JSON-RPC 2.0 messages of a session, and ``tools/call``.

Src: https://modelcontextprotocol.io/specification/2025-06-18/basic and
``.../server/tools``; ``mcp`` 2.3.0.
"""

from __future__ import annotations

from typing import Final

__all__ = ["CANCELLED", "SERVER_METHODS", "TOOLS_CALL"]

TOOLS_CALL: Final = "tools/call"
CANCELLED: Final = "notifications/cancelled"
#: Requests a server sends to its client; every other request comes from the client.
SERVER_METHODS: Final = frozenset({"sampling/createMessage", "roots/list", "elicitation/create"})
