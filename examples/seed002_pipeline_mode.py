"""Seed 002: Chat Completions stream -> history in "pipeline mode", ids dropped and synthesized.

Pipeline mode collected fragments without their ``id`` and emitted each call
as ``hist_tool_<uuid>``; tool responses then matched the synthetic ids, but
the next request carried ids the provider never returned.  Legacy mode kept
``deltaToolCall.id``.  Both variants are round trips.

    toolwire fuzz examples/seed002_pipeline_mode.py:buggy --from openai-chat-stream --to openai-chat
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from typing import Any

from _chat_stream import accumulate

Message = dict[str, Any]


def _round_trip(
    chunks: Iterable[Message], run_tool: Callable[[str, str], str], keep_ids: bool
) -> list[Message]:
    history = []
    for call in accumulate(chunks, keep_ids=keep_ids):
        # normalizeToHistoryToolId(`call_${index}`) minted a fresh id when none was captured.
        ident = call["id"] or f"hist_tool_{uuid.uuid4()}"
        history.append(
            {"type": "tool_call", "id": ident, "name": call["name"], "parameters": call["arguments"]}
        )
    messages: list[Message] = [{"role": "user", "content": "Go"}]
    if history:
        messages.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": b["id"],
                        "type": "function",
                        "function": {"name": b["name"], "arguments": b["parameters"]},
                    }
                    for b in history
                ],
            }
        )
    for block in history:
        output = run_tool(block["name"], block["parameters"])
        messages.append({"role": "tool", "tool_call_id": block["id"], "content": output})
    return messages


def buggy(chunks: Iterable[Message], run_tool: Callable[[str, str], str]) -> list[Message]:
    """Pipeline mode: the fragment's ``id`` is never captured, so every call gets a synthetic one."""
    return _round_trip(chunks, run_tool, keep_ids=False)


def fixed(chunks: Iterable[Message], run_tool: Callable[[str, str], str]) -> list[Message]:
    """Legacy mode: ``if (deltaToolCall.id) tc.id = deltaToolCall.id``."""
    return _round_trip(chunks, run_tool, keep_ids=True)
