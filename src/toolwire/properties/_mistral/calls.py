"""What Mistral chat streams look like, for ``check``: a chunk of the Chat Completions shape.

The family's requests and stream sites are OpenAI Chat Completions' (that
family's ``calls`` serves them); this module adds what is Mistral's own.
"""

from __future__ import annotations

from typing import Any

__all__ = ["recognises_chunk"]


def recognises_chunk(chunk: Any) -> bool:
    """A ``CompletionChunk``: an object whose ``choices`` carry a ``delta``.

    >>> recognises_chunk({"id": "x", "choices": [{"index": 0, "delta": {"content": ""}}]})
    True
    >>> recognises_chunk({"type": "message_start"})
    False
    """
    if not isinstance(chunk, dict):
        return False
    choices = chunk.get("choices")
    if not isinstance(choices, list):
        return False
    return not choices or any(isinstance(c, dict) and isinstance(c.get("delta"), dict) for c in choices)
