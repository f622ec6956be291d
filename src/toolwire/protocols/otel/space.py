"""Explored OpenTelemetry GenAI input messages: ``gen_ai.input.messages``."""

from __future__ import annotations

import json
from typing import Any

from toolwire.machines import GenAIConversation, compile_machine
from toolwire.models import _otel as wire
from toolwire.properties._spaces._conversations import ChatTurns, TurnCall
from toolwire.protocols.otel.generate import call_id

__all__ = ["InputSpace"]


class InputSpace(ChatTurns):
    """``gen_ai.input.messages``: an assistant message's ``tool_call`` parts, then a ``tool``
    message with one ``tool_call_response`` part each, in any order.

    :class:`GenAIConversation` steps once per response part, as Chat's machine steps once per
    tool message: the turns are Chat's, the shape instrumentations record of a Chat history.
    """

    protocol = "otel-genai"
    table = compile_machine(GenAIConversation)

    def user_message(self, text: str) -> dict[str, Any]:
        return {"role": "user", "parts": [{"type": wire.TEXT, "content": text}]}

    def text_message(self, text: str) -> dict[str, Any]:
        return {"role": wire.ROLE_ASSISTANT, "parts": [{"type": wire.TEXT, "content": text}]}

    def call_message(self, calls: list[TurnCall]) -> dict[str, Any]:
        parts = [
            {"type": wire.TOOL_CALL, "id": call_id(c), "name": c.name, "arguments": json.loads(c.arguments)}
            for c in calls
        ]
        return {"role": wire.ROLE_ASSISTANT, "parts": parts}

    def result_message(self, calls: list[TurnCall]) -> dict[str, Any]:
        (call,) = calls
        part = {"type": wire.TOOL_CALL_RESPONSE, "id": call_id(call), "response": call.result}
        return {"role": wire.ROLE_TOOL, "parts": [part]}
