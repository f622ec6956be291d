"""The Anthropic response body: a ``message`` (AN-1, AN-2, AN-12a, AN-12b)."""

from __future__ import annotations

from typing import Any, Final

from toolwire.models import anthropic as wire
from toolwire.properties._body import BodyCall, BodyMonitor, BodyRules, BodyTurn
from toolwire.protocols.anthropic.monitors import id_problem
from toolwire.protocols.anthropic.rules import RESPONSE, RULES

__all__ = ["ResponseMonitor", "message_turns"]

_BOOK: Final = {rule.id: rule for rule in RULES}
_RULES: Final = BodyRules(
    call="AN-12a",
    arguments="AN-12a",
    unique="AN-2",
    stop="AN-12b",
    text=False,
    tools=frozenset({wire.STOP_TOOL_USE}),
    ends=frozenset({"end_turn", "stop_sequence", "pause_turn", "refusal"}),
)


def message_turns(body: dict[str, Any]) -> list[BodyTurn] | str:
    """The message as one turn: its ``tool_use`` blocks and its ``stop_reason``.

    >>> [(t.calls[0].id, t.reason) for t in message_turns({"type": "message", "content": [
    ...     {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}], "stop_reason": "tool_use"})]
    [('toolu_1', 'tool_use')]
    """
    content = body.get("content")
    if body.get("type") != "message" and not (isinstance(content, list) and "role" in body):
        return "an error object" if body.get("type") == "error" else "not an Anthropic message"
    turn = BodyTurn("message", reason=body.get("stop_reason"), reason_path="stop_reason")
    for k, block in enumerate(content if isinstance(content, list) else []):
        if isinstance(block, dict) and block.get("type") == wire.TOOL_USE:
            call = BodyCall(f"content.{k}", block.get("id"), block.get("name"), block.get("input"))
            turn.calls.append(call)
    return [turn]


class ResponseMonitor(BodyMonitor):
    """Checks Anthropic ``message`` bodies: their tool_use blocks and stop_reason.

    >>> m = ResponseMonitor()
    >>> m.feed({"type": "message", "role": "assistant", "stop_reason": "end_turn", "content": [
    ...     {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}]}, 0, None, None)
    >>> [f.rule for f in m.findings]
    ['AN-12b']
    """

    protocol = RESPONSE
    rules = _RULES
    book = _BOOK
    noun = "message"

    def read(self, body: dict[str, Any]) -> list[BodyTurn] | str:
        return message_turns(body)

    def check_id(self, call: BodyCall, index: int, line: int | None) -> None:
        problem = id_problem(wire.TOOL_USE, call.id)
        if problem is not None:
            self.report(
                "AN-1", f"{call.path}.id is {problem}", index=index, line=line, ids=(call.id,), path=call.path
            )

    def check_body(self, body: dict[str, Any], turns: list[BodyTurn], index: int, line: int | None) -> None:
        content = body.get("content")
        # A content that is no list (true, a number, a string) holds no blocks: message_turns says so.
        for k, block in enumerate(content if isinstance(content, list) else []):
            if isinstance(block, dict) and block.get("type") == wire.SERVER_TOOL_USE:
                problem = id_problem(wire.SERVER_TOOL_USE, block.get("id"))
                if problem is not None:
                    where = f"content.{k}"
                    self.report("AN-1", f"{where}.id is {problem}", index=index, line=line, path=where)
