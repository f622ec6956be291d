"""A stream reader, OpenAI Chat Completions chunks -> one chat.completion body, with two pairs of
planted bugs: in each pair, one symptom from two causes.

A lost call (``convert``):

- on the strict wire: text before the calls ends the message there, so its calls are lost (the
  reader takes the first delta's kind for the whole message, as langfuse/langfuse-python#1715 did);
- with a provider's shape: fragments are accumulated by ``index`` alone, so where a provider puts
  every call at index 0 (Mistral, Ollama) or reuses an index for a new call, the second call
  merges into the first and is lost (the accumulators of haystack#9576 and agno#8879).

Changed arguments (``convert_arguments``):

- on the strict wire: the arguments a call's first fragment carries (a call whole in one chunk)
  are dropped: only continuation fragments are appended (the reverse of simonw/llm#1218);
- with a provider's shape: a fragment that carries an id starts the call's arguments afresh, so
  where a provider repeats the id on every fragment only the last fragment's arguments are kept.

A campaign that counts symptoms reports one finding of each symptom (the smaller example, usually
the provider's shape) and hides the other bug; keyed by cause, a default campaign reports both:
``one-to-one:lost`` on the strict wire and ``one-to-one:lost [index-0]``; ``arguments:changed``
and ``arguments:changed [repeated-ids]``.  ``BUGS`` names them; ``planted(*names)`` is a reader
with only those (``benchmarks/bench_causes.py`` replays each finding on each alone).

    toolwire fuzz examples/multibug_same_symptom.py:convert \\
        --from openai-chat-stream --to openai-chat-response
    toolwire fuzz examples/multibug_same_symptom.py:fixed \\
        --from openai-chat-stream --to openai-chat-response
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _chat_stream import accumulate

Event = dict[str, Any]
Reader = Callable[[Iterable[Event]], list[Event]]

#: The planted bugs, by pair: (the strict wire's, the provider shape's) and the symptom they share.
BUGS: dict[str, tuple[tuple[str, str], str]] = {
    "lost": (("text-first", "index-keyed"), "one-to-one:lost"),
    "arguments": (("first-fragment-dropped", "id-restarts"), "arguments:changed"),
}


def planted(*bugs: str) -> Reader:
    """A reader with only ``bugs`` planted (names from :data:`BUGS`)."""
    chosen = frozenset(bugs)

    def read(chunks: Iterable[Event]) -> list[Event]:
        return [_body(list(chunks), chosen)]

    return read


#: Both bugs of a lost call; both bugs of changed arguments; none.
convert = planted(*BUGS["lost"][0])
convert_arguments = planted(*BUGS["arguments"][0])
fixed = planted()


def _planted_calls(chunks: list[Event], bugs: frozenset[str]) -> list[dict[str, Any]]:
    """Fragments accumulated by ``index`` (alone, with ``index-keyed``: a new id at a busy index
    continues the old call), with the argument bugs that are planted."""
    calls: dict[Any, dict[str, Any]] = {}
    order: list[dict[str, Any]] = []
    for chunk in chunks:
        for choice in chunk.get("choices") or []:
            for fragment in (choice.get("delta") or {}).get("tool_calls") or []:
                index = fragment.get("index", 0)
                function = fragment.get("function") or {}
                fresh = fragment.get("id") if fragment.get("id") not in ("", "null") else None
                call = calls.get(index)
                if call is None or (
                    "index-keyed" not in bugs and fresh and call["seen"] and fresh != call["seen"]
                ):
                    call = calls[index] = {"id": None, "name": None, "arguments": "", "seen": None}
                    order.append(call)
                    first = True
                else:
                    first = False
                call["seen"] = call["seen"] or fresh
                call["id"] = call["id"] or fresh
                call["name"] = call["name"] or function.get("name")
                pieces = function.get("arguments") or ""
                if "id-restarts" in bugs and fresh and not first:
                    call["arguments"] = ""
                if "first-fragment-dropped" in bugs and first:
                    pieces = ""
                call["arguments"] += pieces
    return [{key: call[key] for key in ("id", "name", "arguments")} for call in order]


def _body(chunks: list[Event], bugs: frozenset[str]) -> Event:
    text, finish, kind = "", None, None
    for chunk in chunks:
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            if kind is None and (delta.get("content") or delta.get("tool_calls")):
                kind = "text" if delta.get("content") else "calls"
            text += delta.get("content") or ""
            finish = choice.get("finish_reason") or finish
    calls = _planted_calls(chunks, bugs) if bugs else accumulate(chunks)
    if "text-first" in bugs and kind == "text":
        calls = []  # the message was text: the calls after it are never read
    message: Event = {"role": "assistant", "content": text or None, "refusal": None}
    if calls:
        message["tool_calls"] = [
            {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
            for c in calls
        ]
    head = chunks[0] if chunks else {}
    reason = "tool_calls" if calls else (finish if finish != "tool_calls" else "stop") or "stop"
    return {
        "id": head.get("id", "chatcmpl-0"),
        "object": "chat.completion",
        "created": head.get("created", 0),
        "model": head.get("model", "gpt-4o"),
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": reason}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
