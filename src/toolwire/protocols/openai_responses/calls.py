"""Where calls and results sit in OpenAI Responses traces: readers, sites, probe, id shapes."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Final

from toolwire.properties._protocol import Result
from toolwire.properties._sites import Sites, dig, first, intact_ids, key

__all__ = [
    "ID_SHAPES",
    "INPUT_SITES",
    "RESPONSE_SITES",
    "STREAM_SITES",
    "intact",
    "probe",
    "recognises",
    "recognises_response",
    "response_probe",
    "results",
]

#: ``response.output_item.added`` of a ``function_call`` opens a call.
STREAM_SITES: Final = Sites(
    lambda e: (
        ("item", "call_id")
        if dig(e, ("type",)) == "response.output_item.added" and dig(e, ("item", "type")) == "function_call"
        else None
    )
)
#: ``function_call`` items open calls; ``function_call_output`` items answer them.
INPUT_SITES: Final = Sites(key("function_call", "call_id"), key("function_call_output", "call_id"))
#: Id shapes seen in the wild (docs/protocol-rules.md, "ID formats and limits"): not contracts.
ID_SHAPES: Final = ((re.compile(r"(fc|ws)_[0-9a-f]{40,}"), "OpenAI Responses item id, not a call_id"),)


def results(trace: list[Any]) -> Iterable[Result]:
    """The ``function_call_output`` items: the call id each answers and its output."""
    for item in trace:
        if isinstance(item, dict) and item.get("type") == "function_call_output":
            yield Result(item.get("call_id"), None, item.get("output"))


def probe(call_id: str) -> dict[str, Any]:
    """The smallest request in which ``call_id`` is a call's id and its answer's."""
    return {
        "input": [
            {"role": "user", "content": "Weather?"},
            {"type": "function_call", "call_id": call_id, "name": "get_weather", "arguments": "{}"},
            {"type": "function_call_output", "call_id": call_id, "output": "15 degrees"},
        ]
    }


_ROLES: Final = frozenset({"system", "developer", "user", "assistant"})
_ITEMS: Final = frozenset(
    {"message", "reasoning", "item_reference", "compaction", "mcp_list_tools", "mcp_approval_request"}
)


def recognises(item: Any) -> bool:
    """A Responses input item: a message with a role, or an item of a Responses item type."""
    if not isinstance(item, dict):
        return False
    kind, role = item.get("type"), item.get("role")
    # A role or type of any JSON shape: a list or an object cannot be looked up in a set.
    return (isinstance(role, str) and role in _ROLES) or (
        isinstance(kind, str) and (kind in _ITEMS or kind.endswith(("_call", "_output", "_response")))
    )


#: The first function_call item of a ``response`` body.
RESPONSE_SITES: Final = Sites(lambda e: first(e, ("output",), key("function_call", "call_id")))


def response_probe(call_id: str) -> list[dict[str, Any]]:
    """The smallest ``response`` body in which ``call_id`` is a function call's call_id."""
    item = {
        "type": "function_call",
        "id": "fc_1",
        "call_id": call_id,
        "name": "get_weather",
        "arguments": "{}",
    }
    return [{"object": "response", "status": "completed", "output": [item | {"status": "completed"}]}]


def recognises_response(body: Any) -> bool:
    """A Responses ``response`` body: ``object`` response, or an output list and a status."""
    return isinstance(body, dict) and (
        body.get("object") == "response" or (isinstance(body.get("output"), list) and "status" in body)
    )


def _typed_call_id(kind: str) -> Any:
    return lambda item: [item.get("call_id")] if isinstance(item, dict) and item.get("type") == kind else []


_FUNCTION_CALLS: Final = _typed_call_id("function_call")
_FUNCTION_OUTPUTS: Final = _typed_call_id("function_call_output")


def intact(trace: list[Any]) -> set[str]:
    """Ids of the function_call/function_call_output pairs a damaged ``input`` still holds
    intact: each called once and answered once, in the run of outputs right after the run of
    function_call items that made it."""
    return intact_ids(trace, _FUNCTION_CALLS, _FUNCTION_OUTPUTS, one_message=False, runs=True)
