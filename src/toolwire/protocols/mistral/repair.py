"""Mistral chat histories as the repairer sees them: OpenAI Chat Completions' shape, Mistral's ids."""

from __future__ import annotations

from typing import Final

from toolwire.models import mistral
from toolwire.properties._repair import (
    numbered,
)
from toolwire.protocols.openai_chat.repair import chat

__all__ = ["ADAPTER"]


def _mistral_accepts(value: str) -> bool:
    return bool(mistral.TOOL_CALL_ID.fullmatch(value))


_MISTRAL_RULES: Final = {
    "unanswered": "MI-4", "orphan": "MI-4", "move": "MI-4", "duplicate": "MI-4",
    "id": "MI-1", "missing": "MI-3", "second": "MI-4",
}  # fmt: skip


ADAPTER: Final = chat("mistral-chat", _MISTRAL_RULES, _mistral_accepts, numbered("tw", 7))
