"""The Bedrock Converse response body: ``output.message`` and ``stopReason`` (BR-1, BR-4, BR-10a, BR-10b)."""

from __future__ import annotations

from typing import Any, Final

from toolwire.models import bedrock as wire
from toolwire.properties._body import BodyCall, BodyMonitor, BodyRules, BodyTurn
from toolwire.protocols.bedrock.monitors import id_problem
from toolwire.protocols.bedrock.rules import RESPONSE, RULES

__all__ = ["ResponseMonitor", "converse_turns"]

_BOOK: Final = {rule.id: rule for rule in RULES}
_RULES: Final = BodyRules(
    call="BR-10a",
    arguments="BR-10a",
    unique="BR-4",
    stop="BR-10b",
    text=False,
    tools=frozenset({wire.STOP_TOOL_USE}),
    ends=frozenset({"end_turn", "stop_sequence"}),
)


def converse_turns(body: dict[str, Any]) -> list[BodyTurn] | str:
    """``output.message`` as one turn: its ``toolUse`` blocks and the body's ``stopReason``.

    >>> [t.reason for t in converse_turns({"output": {"message": {"role": "assistant", "content": []}},
    ...     "stopReason": "end_turn"})]
    ['end_turn']
    """
    output = body.get("output")
    message = output.get("message") if isinstance(output, dict) else None
    if not isinstance(message, dict):
        return (
            "an error object"
            if "message" in body and "output" not in body
            else "a body without output.message"
        )
    turn = BodyTurn("output.message", reason=body.get("stopReason"), reason_path="stopReason")
    content = message.get("content")
    for k, block in enumerate(content if isinstance(content, list) else []):
        if isinstance(block, dict) and wire.TOOL_USE in block:
            use = block[wire.TOOL_USE] if isinstance(block[wire.TOOL_USE], dict) else {}
            where = f"output.message.content[{k}].toolUse"
            turn.calls.append(BodyCall(where, use.get("toolUseId"), use.get("name"), use.get("input")))
    return [turn]


class ResponseMonitor(BodyMonitor):
    """Checks Converse response bodies: the toolUse blocks of ``output.message`` and ``stopReason``.

    >>> m = ResponseMonitor()
    >>> use = {"toolUse": {"toolUseId": "tooluse_1", "name": "f", "input": "{}"}}
    >>> body = {"output": {"message": {"role": "assistant", "content": [use]}}, "stopReason": "tool_use"}
    >>> m.feed(body, 0, None, None)
    >>> [f.rule for f in m.findings]
    ['BR-10a']
    """

    protocol = RESPONSE
    rules = _RULES
    book = _BOOK
    noun = "Converse response"

    def read(self, body: dict[str, Any]) -> list[BodyTurn] | str:
        return converse_turns(body)

    def check_id(self, call: BodyCall, index: int, line: int | None) -> None:
        for value, field in ((call.id, "toolUseId"), (call.name, "name")):
            problem = id_problem(value, field)
            if problem is not None and value:
                self.report(
                    "BR-1", f"{call.path}: {problem}", index=index, line=line, ids=(call.id,), path=call.path
                )
