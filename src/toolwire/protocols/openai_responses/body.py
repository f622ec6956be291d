"""The OpenAI Responses response body: a ``response`` object's ``output`` items (RS-1b to RS-5, RS-10)."""

from __future__ import annotations

from typing import Any, Final

from toolwire.models import openai_responses as wire
from toolwire.properties._body import BodyCall, BodyMonitor, BodyRules, BodyTurn
from toolwire.properties._text import clip
from toolwire.protocols.openai_responses.rules import RESPONSE, RULES

__all__ = ["ResponseMonitor", "output_turns"]

_BOOK: Final = {rule.id: rule for rule in RULES}
#: A response's status says nothing of its calls: every status is a neutral stop.
_RULES: Final = BodyRules(call="RS-10a", arguments="RS-10b", unique="RS-4b", stop="RS-10c", text=True)


def output_turns(body: dict[str, Any]) -> list[BodyTurn] | str:
    """The ``output`` items as one turn: the ``function_call`` items, and the ``status``.

    >>> item = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": "{}"}
    >>> [c.id for c in output_turns({"object": "response", "status": "completed", "output": [item]})[0].calls]
    ['call_1']
    """
    output = body.get("output")
    if not isinstance(output, list):
        if isinstance(body.get("type"), str) and body["type"].startswith("response."):
            return "a stream event (a response body has no type)"
        return "an error object" if "error" in body and "output" not in body else "a body without output"
    turn = BodyTurn("output", reason=body.get("status"), reason_path="status")
    for k, item in enumerate(output):
        if isinstance(item, dict) and item.get("type") == wire.FUNCTION_CALL:
            call = BodyCall(f"output[{k}]", item.get("call_id"), item.get("name"), item.get("arguments"))
            turn.calls.append(call)
    return [turn]


class ResponseMonitor(BodyMonitor):
    """Checks ``response`` bodies: their function_call items, item ids and statuses.

    >>> m = ResponseMonitor()
    >>> m.feed({"object": "response", "status": "completed", "output": [{"type": "function_call",
    ...     "id": "call_1", "call_id": "call_1", "name": "f", "arguments": "{}", "status": "completed"}]},
    ...     0, None, None)
    >>> [f.rule for f in m.findings]
    ['RS-1b']
    """

    protocol = RESPONSE
    rules = _RULES
    book = _BOOK
    noun = "response"

    def read(self, body: dict[str, Any]) -> list[BodyTurn] | str:
        return output_turns(body)

    def check_id(self, call: BodyCall, index: int, line: int | None) -> None:
        if isinstance(call.id, str) and len(call.id) > wire.CALL_ID_MAX:
            where = f"{call.path}.call_id"
            self.report(
                "RS-2",
                f"{where} is {len(call.id)} characters long: {clip(call.id)}",
                index=index,
                line=line,
                ids=(call.id,),
                path=where,
                n=call.path,
                length=len(call.id),
            )

    def check_body(self, body: dict[str, Any], turns: list[BodyTurn], index: int, line: int | None) -> None:
        seen: dict[str, int] = {}
        completed = body.get("status") == "completed"
        for k, item in enumerate(body.get("output") or []):
            if not isinstance(item, dict):
                continue
            item_id = item.get("id")
            where = f"output[{k}]"
            if isinstance(item_id, str) and item_id in seen:
                self.report(
                    "RS-5",
                    f"{where}.id repeats item id {clip(item_id)} of output[{seen[item_id]}]",
                    index=index,
                    line=line,
                    ids=(item_id,),
                    path=f"{where}.id",
                    id=item_id,
                )
            elif isinstance(item_id, str):
                seen[item_id] = k
            if item.get("type") != wire.FUNCTION_CALL:
                continue
            if item_id is not None and not str(item_id).startswith(wire.FUNCTION_CALL_ITEM_ID_PREFIX):
                self.report(
                    "RS-1b",
                    f"{where}.id is {clip(str(item_id))}, which does not begin with 'fc'",
                    index=index,
                    line=line,
                    ids=(item_id,),
                    path=f"{where}.id",
                    n=k,
                    id=item_id,
                )
            status = item.get("status")
            if completed and status is not None and status != "completed":
                self.report(
                    "RS-10c",
                    f"{where}.status is {status!r} in a completed response",
                    index=index,
                    line=line,
                    ids=(item.get("call_id"),),
                    path=f"{where}.status",
                )
