"""The Gemini response body: a ``GenerateContentResponse`` (GM-9a, GM-9b)."""

from __future__ import annotations

from typing import Any, Final

from toolwire.models import gemini as wire
from toolwire.properties._body import BodyCall, BodyMonitor, BodyRules, BodyTurn
from toolwire.protocols.gemini.rules import RESPONSE, RULES

__all__ = ["ResponseMonitor", "candidate_turns"]

_BOOK: Final = {rule.id: rule for rule in RULES}
#: Gemini's finishReason never says that the model called functions (STOP either way): no reason
#: contradicts the calls, and an illegal stop step cannot happen.
_RULES: Final = BodyRules(
    call="GM-9a",
    arguments="GM-9a",
    unique="GM-9b",
    stop="GM-9a",
    text=False,
    ids_required=False,
    arguments_required=False,
)


def candidate_turns(body: dict[str, Any]) -> list[BodyTurn] | str:
    """One turn per candidate: its ``functionCall`` parts and its ``finishReason``.

    >>> [len(t.calls) for t in candidate_turns({"candidates": [{"content": {"role": "model",
    ...     "parts": [{"functionCall": {"name": "f", "args": {}}}]}, "finishReason": "STOP"}]})]
    [1]
    """
    candidates = wire.member(body, "candidates")
    if not isinstance(candidates, list):
        if "error" in body:
            return "an error object"
        return (
            "a body without candidates"
            if "promptFeedback" not in body
            else "a blocked prompt (no candidates)"
        )
    turns = []
    for n, candidate in enumerate(candidates):
        if not isinstance(candidate, dict):
            continue
        path = f"candidates[{n}]"
        reason = wire.member(candidate, "finishReason")
        turn = BodyTurn(path, reason=reason, reason_path=f"{path}.finishReason")
        content = candidate.get("content")
        parts = content.get("parts") if isinstance(content, dict) else None
        for k, part in enumerate(parts if isinstance(parts, list) else []):
            call = wire.function_call(part)
            if call is not None:
                where = f"{path}.content.parts[{k}].functionCall"
                turn.calls.append(BodyCall(where, call.get("id"), call.get("name"), call.get("args")))
        turns.append(turn)
    return turns


class ResponseMonitor(BodyMonitor):
    """Checks ``GenerateContentResponse`` bodies: each candidate's functionCall parts.

    >>> m = ResponseMonitor()
    >>> m.feed({"candidates": [{"content": {"role": "model", "parts": [
    ...     {"functionCall": {"name": "f", "args": "{}"}}]}, "finishReason": "STOP"}]}, 0, None, None)
    >>> [f.rule for f in m.findings]
    ['GM-9a']
    """

    protocol = RESPONSE
    rules = _RULES
    book = _BOOK
    noun = "GenerateContentResponse"

    def read(self, body: dict[str, Any]) -> list[BodyTurn] | str:
        return candidate_turns(body)
