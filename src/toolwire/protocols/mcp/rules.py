"""The rules of MCP sessions (MCP-1 to MCP-3)."""

from __future__ import annotations

from typing import Final

from toolwire.properties._rule import Rule

__all__ = ["MCP", "MODELLED_SDK", "RULES"]

#: The SDK release whose types this family's model follows (pinned in pyproject.toml's dev
#: extra): a type outside it is passed over with one notice naming this, never a finding.
MODELLED_SDK: Final = "mcp 2.3.0"

MCP: Final = "mcp"

_BASIC = "https://modelcontextprotocol.io/specification/2025-06-18/basic"

RULES: Final = (
    Rule(
        "MCP-1",
        "always",
        (MCP,),
        "A request id is a string or an integer, never null, and never reused by its requestor "
        "in the session.",
        source=f"{_BASIC} ('the ID MUST NOT be null', 'MUST NOT have been "
        "previously used by the requestor within the same session'). "
        "An error from a consumer (issue 38, tests/integration/test_consumer_evidence_bodies.py): "
        "the mcp 2.3.0 server reads a tools/call with id null as a notification: the tool never "
        "runs and nothing answers it (a reused id it runs and answers as if new).",
        fix="Number requests from a per-session counter; never derive a JSON-RPC id from an LLM "
        "tool-call id (MCP-4): keep a map between the two.",
    ),
    Rule(
        "MCP-2a",
        "always",
        (MCP,),
        "Every response carries the id of a request awaiting its response, and each request gets "
        "one response.",
        source=f"{_BASIC} ('Responses MUST include the same ID as the request'). "
        "An error from a consumer (issue 38, tests/integration/test_consumer_evidence_bodies.py): "
        "the mcp 2.3.0 ClientSession drops a response whose id no request has, so its call_tool "
        "times out, and keeps the first of two responses to one request, dropping the second.",
        fix="Answer with the request's own id, once.",
    ),
    Rule(
        "MCP-2b",
        "always",
        (MCP,),
        "A response sets exactly one of result and error.",
        source=f"{_BASIC}. "
        "An error from a consumer (issue 38, tests/integration/test_consumer_evidence_bodies.py): "
        "the mcp 2.3.0 ClientSession reads a response with both as the error and loses the "
        "result; one with neither it cannot read, and its call_tool times out.",
        fix="Send result on success, error on a protocol failure, never both or neither.",
    ),
    Rule(
        "MCP-2c",
        "eventually",
        (MCP,),
        "Every request is answered or cancelled by the end of the session (a capture may end "
        "early: a warning).",
        source=f"{_BASIC}; notifications/cancelled",
        fix="Answer every request, or send notifications/cancelled for it.",
        severity="warning",
    ),
    Rule(
        "MCP-3",
        "always",
        (MCP,),
        "tools/call takes params {name, arguments} and returns result {content[], structuredContent?, "
        "isError?}; a tool's own failure is result.isError, a protocol failure a JSON-RPC error "
        "{code, message}.",
        source="https://modelcontextprotocol.io/specification/2025-06-18/server/tools. Scope (issue 29): "
        'a result with resultType "input_required" needs no content: mcp 2.3.0 InputRequiredResult '
        '(2026-07-28) "returned in place of the normal result of ... tools/call". '
        "An error from a consumer (issue 38, tests/integration/test_consumer_evidence_bodies.py): "
        "the mcp 2.3.0 server refuses arguments given as text (-32602, the tool not run) and its "
        "ClientSession.call_tool refuses a result without a content list (ValidationError).",
        fix="Send arguments as an object and content as a list; report tool failures with isError: "
        "true so the model sees them.",
    ),
)
