"""Named provider quirk profiles: real deviations of provider traffic, each with its source."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["QUIRKS", "Quirk"]

_CC6: Final = "protocol-rules CC-6, deviations seen in practice"


@dataclass(frozen=True, slots=True)
class Quirk:
    """A way real providers bend a protocol.

    ``deviates`` names the rules of ``protocols`` that traffic with this quirk
    breaks on purpose (empty when the quirk is legal but unusual): ``check``
    reports exactly those on it, and a converter must still cope.
    """

    name: str
    summary: str
    protocols: tuple[str, ...]
    source: str
    deviates: tuple[str, ...] = ()


QUIRKS: Final = {
    quirk.name: quirk
    for quirk in (
        Quirk(
            "repeated-ids",
            "the call id is repeated on every fragment, not only the first",
            ("openai-chat-stream",),
            "protocol-rules CC-6(b); OpenAI sends the id on the first fragment only",
        ),
        Quirk(
            "null-ids",
            'continuation fragments carry the string "null" as id',
            ("openai-chat-stream",),
            f"{_CC6}; langchain-ai/langchainjs#11373",
            ("CC-6b",),
        ),
        Quirk(
            "index-0",
            "every call arrives at index 0, one after the other (Mistral, Ollama via LiteLLM)",
            ("openai-chat-stream",),
            f"{_CC6}; comet-ml/opik#8362, huggingface/smolagents#1958, ai-dynamo/dynamo#4723",
            ("CC-6c",),
        ),
        Quirk(
            "index-reuse",
            "a new call reuses the index of the call before it, with a new id",
            ("openai-chat-stream",),
            f"{_CC6}; mcowger/plexus#691",
            ("CC-6c",),
        ),
        Quirk(
            "two-per-chunk",
            "fragments of two calls arrive in one chunk",
            ("openai-chat-stream",),
            "openapi ChatCompletionChunk: delta.tool_calls is an array",
        ),
        Quirk(
            "missing-ids",
            "function calls and responses carry no id; they pair by order and name",
            ("gemini-stream", "gemini-contents"),
            "protocol-rules GM-1; the Gemini API omits FunctionCall.id",
        ),
    )
}
