"""Generated OpenTelemetry GenAI input messages: ``gen_ai.input.messages``, as instrumentations
record a conversation (opentelemetry-util-genai's ``InputMessage``: a role and typed parts)."""

from __future__ import annotations

from typing import Any, Final

from hypothesis import strategies as st

from toolwire.models import _otel as wire
from toolwire.properties._strategies._plan import Plan, PlannedCall, PlannedTurn, Tokened
from toolwire.properties._strategies._render import Generator, Spelling, Wire, conversation

__all__ = ["MESSAGES", "call_id"]


def call_id(call: Tokened) -> str:
    """The provider's id, as instrumentations record it (OpenAI's ``call_`` and 24 characters)."""
    return f"call_{call.token}"


def _text(role: str, text: str) -> dict[str, Any]:
    return {"role": role, "parts": [{"type": wire.TEXT, "content": text}]}


def _assistant(turn: PlannedTurn) -> Wire:
    parts: Wire = [{"type": wire.TEXT, "content": turn.text}] if turn.text else []
    for c in turn.calls:
        parts.append({"type": wire.TOOL_CALL, "id": call_id(c), "name": c.name, "arguments": c.input})
    return [{"role": wire.ROLE_ASSISTANT, "parts": parts}] if parts else []


def _results(calls: list[PlannedCall], _: str) -> Wire:
    """A ``tool`` message each, as instrumentations record Chat's tool messages."""
    return [
        {
            "role": wire.ROLE_TOOL,
            "parts": [{"type": wire.TOOL_CALL_RESPONSE, "id": call_id(c), "response": c.result}],
        }
        for c in calls
    ]


_SPELLING: Final[Spelling] = (
    lambda text: _text("user", text),
    _assistant,
    _results,
    lambda text: _text(wire.ROLE_ASSISTANT, text),
)


def otel_messages(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """The input messages: each turn a user message, the assistant's calls, a tool message per
    call in any order (GenAI pairs by id)."""
    return conversation(lambda _: _SPELLING, any_order=True)(draw, plan, quirks)


#: The input messages of a model call; a tool message answers each call, in any order.
MESSAGES: Final = Generator.conversation(otel_messages)
