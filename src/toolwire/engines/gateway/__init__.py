"""A gateway as a fuzz target: toolwire plays the upstream provider (a mock on loopback) and the
client, and the gateway is judged in both directions.
"""

from typing import TYPE_CHECKING

from toolwire._lazy import lazy

__all__ = [
    "MARKER",
    "Conversation",
    "GatewayRecipe",
    "GatewayTarget",
    "MockProvider",
    "Router",
    "ThreadServer",
    "body_record",
    "is_gateway",
    "parse_headers",
    "parse_upstream",
    "worker_prefix",
]

if TYPE_CHECKING:
    from toolwire.engines.gateway._mock_provider import (
        MARKER,
        Conversation,
        MockProvider,
        Router,
        ThreadServer,
        body_record,
        worker_prefix,
    )
    from toolwire.engines.gateway._options import is_gateway, parse_headers, parse_upstream
    from toolwire.engines.gateway._target import GatewayRecipe, GatewayTarget

# Each loads on first use: a check imports none of what it does not run.
_LAZY = {
    **dict.fromkeys(
        ("Conversation", "MARKER", "MockProvider", "Router", "ThreadServer", "body_record", "worker_prefix"),
        "toolwire.engines.gateway._mock_provider",
    ),
    **dict.fromkeys(("is_gateway", "parse_headers", "parse_upstream"), "toolwire.engines.gateway._options"),
    **dict.fromkeys(("GatewayRecipe", "GatewayTarget"), "toolwire.engines.gateway._target"),
}

__getattr__ = lazy(__name__, _LAZY, globals())
