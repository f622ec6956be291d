"""Explored Anthropic traffic: message bodies (their calls whole, then the stop reason), and a
request's messages."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from toolwire.machines import AnthropicConversation, compile_machine
from toolwire.properties._spaces._bodies import BodySpace
from toolwire.properties._spaces._conversations import ConversationSpace, TurnCall
from toolwire.properties._spaces._space import Step
from toolwire.protocols.anthropic.generate import RESPONSE

__all__ = ["AnthropicResponseSpace", "AnthropicSpace"]


class AnthropicResponseSpace(BodySpace):
    """A ``anthropic-message-response`` body: its calls whole, then its stop reason."""

    protocol = "anthropic-message-response"
    generator = RESPONSE


def _tool_use_id(call: TurnCall) -> str:
    return f"toolu_01{call.token[:22]}"


class AnthropicSpace(ConversationSpace):
    """Anthropic ``messages``: an assistant message's ``tool_use`` blocks, every one answered by a
    ``tool_result`` block of the next user message, in any order."""

    protocol = "anthropic-messages"
    table = compile_machine(AnthropicConversation)
    user = "user"
    text = "assistant"
    call = "calls"

    def results(self, state: Any) -> Iterator[Step]:
        return self.all_results(state, "results")

    def user_message(self, text: str) -> dict[str, Any]:
        return {"role": "user", "content": [{"type": "text", "text": text}]}

    def text_message(self, text: str) -> dict[str, Any]:
        return {"role": "assistant", "content": [{"type": "text", "text": text}]}

    def call_message(self, calls: list[TurnCall]) -> dict[str, Any]:
        blocks = [
            {"type": "tool_use", "id": _tool_use_id(c), "name": c.name, "input": json.loads(c.arguments)}
            for c in calls
        ]
        return {"role": "assistant", "content": blocks}

    def result_message(self, calls: list[TurnCall]) -> dict[str, Any]:
        blocks = [{"type": "tool_result", "tool_use_id": _tool_use_id(c), "content": c.result} for c in calls]
        return {"role": "user", "content": blocks}
