"""Explored Gemini request contents: calls in a model content, answered by the next user content."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

from toolwire.machines import ILLEGAL, GeminiContents, compile_machine
from toolwire.properties._spaces._bodies import BodySpace
from toolwire.properties._spaces._conversations import ConversationSpace, TurnCall
from toolwire.properties._spaces._space import Step
from toolwire.protocols.gemini.generate import RESPONSE, gemini_id

__all__ = ["GeminiResponseSpace", "GeminiSpace"]


class GeminiSpace(ConversationSpace):
    """Gemini ``contents``: one user content answers every call of the model content before it.

    Responses come in any order when calls carry ids, in call order under
    ``missing-ids`` (with no ids, order is all that pairs them).
    """

    protocol = "gemini-contents"
    table = compile_machine(GeminiContents)
    user = "user_turn"
    text = "model_turn"
    call = "call_turn"
    quirks = frozenset({"missing-ids"})

    def results(self, state: Any) -> Iterator[Step]:
        table_state, turns, _, pending, used = state
        target = self.table.rows["response_turn"][table_state]
        if target == ILLEGAL:
            return
        orders = [pending] if "missing-ids" in self.bounds.quirks else itertools.permutations(pending)
        for order in orders:
            then = (target, turns, "result", (), used)
            yield ("result", *order), then, ((0, table_state, "response_turn"),)

    def user_message(self, text: str) -> dict[str, Any]:
        return {"role": "user", "parts": [{"text": text}]}

    def text_message(self, text: str) -> dict[str, Any]:
        return {"role": "model", "parts": [{"text": text}]}

    def _ided(self, body: dict[str, Any], call: TurnCall) -> dict[str, Any]:
        return body if "missing-ids" in self.bounds.quirks else body | {"id": gemini_id(call)}

    def call_message(self, calls: list[TurnCall]) -> dict[str, Any]:
        parts = [
            {"functionCall": self._ided({"name": c.name, "args": json.loads(c.arguments)}, c)} for c in calls
        ]
        return {"role": "model", "parts": parts}

    def result_message(self, calls: list[TurnCall]) -> dict[str, Any]:
        parts = [
            {"functionResponse": self._ided({"name": c.name, "response": {"output": c.result}}, c)}
            for c in calls
        ]
        return {"role": "user", "parts": parts}


class GeminiResponseSpace(BodySpace):
    """A ``gemini-response`` body: its calls whole, then its stop reason."""

    protocol = "gemini-response"
    quirks = frozenset({"missing-ids"})
    neutral = True
    generator = RESPONSE
