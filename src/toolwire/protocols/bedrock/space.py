"""Explored Bedrock Converse traffic: response bodies (their calls whole, then the stop reason),
and a request's messages."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from toolwire.machines import ConverseConversation, compile_machine
from toolwire.properties._spaces._bodies import BodySpace
from toolwire.properties._spaces._conversations import ConversationSpace, TurnCall
from toolwire.properties._spaces._space import Step
from toolwire.protocols.bedrock.generate import RESPONSE

__all__ = ["ConverseResponseSpace", "ConverseSpace"]


class ConverseResponseSpace(BodySpace):
    """A ``bedrock-converse-response`` body: its calls whole, then its stop reason."""

    protocol = "bedrock-converse-response"
    generator = RESPONSE


def _tool_use_id(call: TurnCall) -> str:
    return f"tooluse_{call.token[:22]}"


class ConverseSpace(ConversationSpace):
    """Converse ``messages``: an assistant message's ``toolUse`` blocks, every one answered by a
    ``toolResult`` block of the very next user message, in any order."""

    protocol = "bedrock-converse"
    table = compile_machine(ConverseConversation)
    user = "other"
    text = "other"
    call = "calls"

    def results(self, state: Any) -> Iterator[Step]:
        return self.all_results(state, "results")

    def user_message(self, text: str) -> dict[str, Any]:
        return {"role": "user", "content": [{"text": text}]}

    def text_message(self, text: str) -> dict[str, Any]:
        return {"role": "assistant", "content": [{"text": text}]}

    def call_message(self, calls: list[TurnCall]) -> dict[str, Any]:
        blocks = [
            {"toolUse": {"toolUseId": _tool_use_id(c), "name": c.name, "input": json.loads(c.arguments)}}
            for c in calls
        ]
        return {"role": "assistant", "content": blocks}

    def result_message(self, calls: list[TurnCall]) -> dict[str, Any]:
        blocks = [
            {"toolResult": {"toolUseId": _tool_use_id(c), "content": [{"text": c.result}]}} for c in calls
        ]
        return {"role": "user", "content": blocks}
