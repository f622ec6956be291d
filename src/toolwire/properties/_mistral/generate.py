"""Generated Mistral chat requests: the Chat Completions shape with Mistral's 9-character ids."""

from __future__ import annotations

from typing import Final

from toolwire.properties._strategies._plan import Call, Turn
from toolwire.properties._strategies._render import Generator, Spelling, Wire, conversation

__all__ = ["CHAT"]


def _spelling(quirks: frozenset[str]) -> Spelling:
    def assistant(turn: Turn) -> Wire:
        if not turn.calls:
            return []
        calls = [
            {"id": c.token[:9], "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in turn.calls
        ]
        return [{"role": "assistant", "content": turn.text or None, "tool_calls": calls}]

    def results(calls: list[Call], _: str) -> Wire:
        return [
            {"role": "tool", "tool_call_id": c.token[:9], "content": c.result, "name": c.name} for c in calls
        ]

    return (
        lambda text: {"role": "user", "content": text},
        assistant,
        results,
        lambda text: {"role": "assistant", "content": text},
    )


#: A request's ``messages``; tool messages answer a turn's calls in call order (MI-4).
CHAT: Final = Generator.conversation(conversation(_spelling, any_order=False))
