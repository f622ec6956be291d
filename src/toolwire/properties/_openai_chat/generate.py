"""Generated OpenAI Chat Completions traffic: stream chunks and request messages."""

from __future__ import annotations

from typing import Any, Final

from hypothesis import strategies as st

from toolwire.properties._strategies._plan import Call, Plan, Tokened, Turn, timeline
from toolwire.properties._strategies._render import Generator, Spelling, Wire, conversation

__all__ = ["CONVERSATION", "STREAM", "add_fragment", "chat_fragment", "chat_id", "chunk"]


def chat_id(call: Tokened) -> str:
    """``call_`` and 24 characters, as OpenAI's Chat Completions ids look."""
    return f"call_{call.token}"


def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-E1SkHbn88HxjSI6bWHtP3fS2qHx6k",
        "object": "chat.completion.chunk",
        "created": 1764000000,
        "model": "gpt-4o-2024-08-06",
        "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
    }


def openai_chat_stream(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """Chat Completions chunks: fragments accumulate by ``index`` (CC-6)."""
    turn = plan.turns[0]
    events = [chunk({"role": "assistant", "content": None if not turn.text else ""})]
    if turn.text:
        events.append(chunk({"content": turn.text}))
    indexes = _chat_indexes(draw, len(turn.calls), quirks)
    merged: dict[str, Any] | None = None
    for filler, k, j, _ in timeline(turn):
        call = turn.calls[k]
        if filler:
            events.append(chunk({}))
            merged = None
        fragment = chat_fragment(call, call.name, call.pieces[j], j, indexes[k], quirks)
        merged = add_fragment(events, merged, fragment, quirks)
    events.append(chunk({}, "tool_calls" if turn.calls else "stop"))
    return events


def chat_fragment(
    call: Tokened, name: str, piece: str, j: int, index: int, quirks: frozenset[str]
) -> dict[str, Any]:
    """Fragment ``j`` of a call: the first carries id, type and name; quirks shape the others' ids."""
    fragment: dict[str, Any] = {"index": index}
    if j == 0:
        fragment |= {"id": chat_id(call), "type": "function"}
        fragment["function"] = {"name": name, "arguments": piece}
        return fragment
    if "repeated-ids" in quirks:
        fragment["id"] = chat_id(call)
    elif "null-ids" in quirks:
        fragment["id"] = "null"
    fragment["function"] = {"arguments": piece}
    return fragment


def add_fragment(
    events: Wire, merged: dict[str, Any] | None, fragment: dict[str, Any], quirks: frozenset[str]
) -> dict[str, Any] | None:
    """Append ``fragment`` in a chunk of its own, or (``two-per-chunk``) in ``merged``, the chunk before.

    Returns the chunk the next fragment may join.
    """
    fragments = merged["choices"][0]["delta"]["tool_calls"] if merged else None
    if fragments is not None and all(f["index"] != fragment["index"] for f in fragments):
        fragments.append(fragment)
        return None
    events.append(chunk({"tool_calls": [fragment]}))
    return events[-1] if "two-per-chunk" in quirks else None


def _chat_indexes(draw: st.DrawFn, count: int, quirks: frozenset[str]) -> list[int]:
    if "index-0" in quirks:
        return [0] * count
    indexes = list(range(count))
    if "index-reuse" in quirks:
        for k in range(1, count):
            if draw(st.booleans()):
                indexes[k] = indexes[k - 1]
    return indexes


def _spelling(quirks: frozenset[str]) -> Spelling:
    def assistant(turn: Turn) -> Wire:
        if not turn.calls:
            return []
        calls = [
            {"id": chat_id(c), "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in turn.calls
        ]
        return [{"role": "assistant", "content": turn.text or None, "tool_calls": calls}]

    def results(calls: list[Call], _: str) -> Wire:
        out = []
        for call in calls:
            out.append({"role": "tool", "tool_call_id": chat_id(call), "content": call.result})
        return out

    return (
        lambda text: {"role": "user", "content": text},
        assistant,
        results,
        lambda text: {"role": "assistant", "content": text},
    )


#: Chunks: fragments of concurrent calls interleave, by ``index``.
STREAM: Final = Generator(openai_chat_stream, interleave=True)
#: The ``messages`` of a request; tool messages answer a turn's calls in any order.
CONVERSATION: Final = Generator.conversation(conversation(_spelling, any_order=True))
