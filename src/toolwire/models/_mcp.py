"""MCP: JSON-RPC 2.0 messages of a session, and ``tools/call``.

Src: https://modelcontextprotocol.io/specification/2025-06-18/basic and
``.../server/tools``; ``mcp`` 2.3.0 (``mcp_types.methods``: ``CLIENT_REQUESTS``,
``SERVER_REQUESTS``, ``CLIENT_NOTIFICATIONS``, ``SERVER_NOTIFICATIONS``; ``CallToolResult``,
``InputRequiredResult``).
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "CALL_PARAMS",
    "CALL_RESULT_FIELDS",
    "CANCELLED",
    "CLIENT_METHODS",
    "INPUT_REQUIRED",
    "NOTIFICATIONS",
    "RESULT_TYPES",
    "SERVER_METHODS",
    "TOOLS_CALL",
]

TOOLS_CALL: Final = "tools/call"
CANCELLED: Final = "notifications/cancelled"
#: Requests a server sends to its client; every other request comes from the client.
SERVER_METHODS: Final = frozenset({"sampling/createMessage", "roots/list", "elicitation/create"})
#: Requests a client sends to its server (``ping`` goes both ways and is keyed as the client's).
CLIENT_METHODS: Final = frozenset(
    {
        "completion/complete",
        "initialize",
        "logging/setLevel",
        "ping",
        "prompts/get",
        "prompts/list",
        "resources/list",
        "resources/read",
        "resources/subscribe",
        "resources/templates/list",
        "resources/unsubscribe",
        "server/discover",
        "subscriptions/listen",
        TOOLS_CALL,
        "tools/list",
    }
)
#: The notifications of either side; only ``notifications/cancelled`` steps a request.
NOTIFICATIONS: Final = frozenset(
    {
        CANCELLED,
        "notifications/elicitation/complete",
        "notifications/initialized",
        "notifications/message",
        "notifications/progress",
        "notifications/prompts/list_changed",
        "notifications/resources/list_changed",
        "notifications/resources/updated",
        "notifications/roots/list_changed",
        "notifications/subscriptions/acknowledged",
        "notifications/tools/list_changed",
    }
)
#: What the monitor reads of a ``tools/call``'s params and of its result.
CALL_PARAMS: Final = frozenset({"name", "arguments"})
CALL_RESULT_FIELDS: Final = frozenset({"content", "isError", "resultType"})
#: ``resultType`` of an ``InputRequiredResult`` (2026-07-28): the server asks for input before
#: the call completes, in place of the ``CallToolResult``, so it carries no ``content``.
INPUT_REQUIRED: Final = "input_required"
RESULT_TYPES: Final = frozenset({"complete", INPUT_REQUIRED})
