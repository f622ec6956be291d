"""Mistral's provider profile: reached over OpenAI Chat Completions' wire (La Plateforme) or
Mistral's own, its ids are Mistral's (see :mod:`toolwire.protocols.openai_chat.providers`)."""

from __future__ import annotations

from typing import Final

from toolwire.models import mistral
from toolwire.properties._repair import Provider, ProviderRule
from toolwire.protocols.openai_chat.providers import fixes, lint

__all__ = ["PROVIDERS"]

_MISTRAL_ID = ProviderRule(
    "MS-1",
    "Every tool_calls[].id and tool_call_id matches ^[a-zA-Z0-9]{9}$ (tokenizers v3 to v11).",
    "mistral-common 1.13.1 validator.py; https://github.com/langchain-ai/langchain/pull/24668; "
    "https://github.com/nearai/ironclaw/issues/1241",
    "Tool call id was {id} but must be a-z, A-Z, 0-9, with a length of 9.",
    "error",
    same_as="MI-1",
    accepts=lambda v: bool(mistral.TOOL_CALL_ID.fullmatch(v)),
)

PROVIDERS: Final[tuple[Provider, ...]] = (
    Provider("mistral", ("openai-chat", "mistral-chat"), (_MISTRAL_ID,), lint=lint, fixes=fixes),
)
