"""MCP: one JSON-RPC request of a session, from request to response.

Src: docs/protocol-rules.md MCP-1 and MCP-2; MCP specification 2025-06-18, basic.
"""

from __future__ import annotations

from statemachine import State

from toolwire.machines._base import CheckingMachine

__all__ = ["JsonRpcRequest"]


class JsonRpcRequest(CheckingMachine):
    """A request id of one requestor: ``request``, then one ``response`` (or a ``cancel`` first)."""

    unused = State(initial=True)
    pending = State()
    cancelled = State()
    answered = State(final=True)
    accepting = ("cancelled",)

    request = unused.to(pending)
    cancel = pending.to(cancelled)
    response = pending.to(answered) | cancelled.to(answered)
