"""Where calls and results sit in MCP sessions: readers, sites, probe."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from toolwire.properties._protocol import Result
from toolwire.properties._sites import Sites, dig
from toolwire.properties._text import json_text
from toolwire.properties._turn import Call

__all__ = ["SITES", "calls", "probe", "recognises", "results"]

#: A ``tools/call`` request opens a call; a response to it (not ``initialize``'s, id 0) answers it.
SITES: Final = Sites(
    lambda e: ("id",) if dig(e, ("method",)) == "tools/call" else None,
    lambda e: ("id",) if isinstance(e, dict) and "result" in e and dig(e, ("id",)) != 0 else None,
)


def calls(trace: list[Any]) -> list[Call]:
    """The ``tools/call`` requests: the JSON-RPC id, the tool name and its arguments."""
    found: list[Call] = []
    for e in trace:
        if isinstance(e, dict) and e.get("method") == "tools/call":
            params = e["params"] if isinstance(e.get("params"), dict) else {}
            found.append(Call(str(e.get("id")), params.get("name"), json_text(params.get("arguments"))))
    return found


def results(trace: list[Any]) -> Iterable[Result]:
    """The responses to ``tools/call`` requests: the id each answers and its content."""
    asked = {e.get("id") for e in trace if isinstance(e, dict) and e.get("method") == "tools/call"}
    for e in trace:
        if isinstance(e, dict) and "method" not in e and e.get("id") in asked and "result" in e:
            r = e["result"]
            yield Result(str(e["id"]), None, r.get("content") if isinstance(r, dict) else r)


def probe(call_id: str) -> list[dict[str, Any]]:
    """The smallest session in which ``call_id`` is a request's id and its response's."""
    call = {"name": "get_weather", "arguments": {}}
    return [
        {"jsonrpc": "2.0", "id": call_id, "method": "tools/call", "params": call},
        {"jsonrpc": "2.0", "id": call_id, "result": {"content": []}},
    ]


def recognises(message: Any) -> bool:
    """A JSON-RPC 2.0 message (MCP's framing).

    >>> recognises({"jsonrpc": "2.0", "id": 1, "method": "tools/call"})
    True
    """
    return isinstance(message, dict) and message.get("jsonrpc") == "2.0"
