"""Generated Mistral chat requests: the Chat Completions shape with Mistral's 9-character ids.

Where clients differ, a trace draws one client's shape with
:func:`~toolwire.properties._strategies._render.pick`, keyed by the shape
feature (``shapes.py``) each shows: the recorded traffic's first, unless another
takes fewer messages (counterexamples shrink to the first option).
"""

from __future__ import annotations

import json
from typing import Any, Final

from hypothesis import strategies as st

from toolwire.properties._strategies._plan import Plan, PlannedCall, PlannedTurn, Tokened
from toolwire.properties._strategies._render import Generator, Spelling, Wire, conversation, pick

__all__ = ["CHAT", "RESPONSE", "STREAM", "mistral_chunk"]


def mistral_messages(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """A request's ``messages``, as the mistralai SDK or the API documentation writes them.

    The SDK replays the response's assistant message: ``content`` "" next to
    the calls, ``prefix`` false, each call with its ``index``; its tool
    messages carry JSON and no ``name``.  The documentation's example adds
    ``name`` to tool messages; the API takes content null and a system prompt.
    """
    system = pick(draw, {"no-system-message": False, "system-message": True}, quirks)
    empty = pick(draw, {"content-empty-with-calls": "", "content-null-with-calls": None}, quirks)
    prefix = pick(draw, {"prefix-field": True, "no-prefix-field": False}, quirks)
    indexed = pick(draw, {"call-index-field": True, "no-call-index-field": False}, quirks)
    named = pick(draw, {"no-tool-message-name": False, "tool-message-name": True}, quirks)
    as_json = pick(draw, {"json-tool-content": True, "plain-tool-content": False}, quirks)

    def spelling(_: frozenset[str]) -> Spelling:
        def assistant(turn: PlannedTurn) -> Wire:
            if not turn.calls:
                return []
            calls = []
            for k, c in enumerate(turn.calls):
                call: dict[str, Any] = {
                    "id": c.token[:9],
                    "type": "function",
                    "function": {"name": c.name, "arguments": c.arguments},
                }
                calls.append(call | {"index": k} if indexed else call)
            message = {"role": "assistant", "content": turn.text or empty, "tool_calls": calls}
            return [message | {"prefix": False} if prefix else message]

        def results(calls: list[PlannedCall], _: str) -> Wire:
            out = []
            for c in calls:
                message = {"role": "tool", "tool_call_id": c.token[:9]}
                if named:
                    message["name"] = c.name
                content = json.dumps({"result": c.result}, ensure_ascii=False) if as_json else c.result
                out.append(message | {"content": content})
            return out

        return (
            lambda text: {"role": "user", "content": text},
            assistant,
            results,
            lambda text: {"role": "assistant", "content": text},
        )

    messages = conversation(spelling, any_order=False)(draw, plan, quirks)
    if system:
        messages.insert(0, {"role": "system", "content": "You are a helpful assistant."})
    return messages


#: A request's ``messages``; tool messages answer a turn's calls in call order (MI-4).
CHAT: Final = Generator.conversation(mistral_messages)


def mistral_response(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """A Mistral chat completion of the first turn: 9-character ids, each call with its index."""
    turn = plan.turns[0]
    empty = pick(draw, {"content-empty-with-calls": "", "content-null-with-calls": None}, quirks)
    calls = [
        {
            "id": c.token[:9],
            "type": "function",
            "function": {"name": c.name, "arguments": c.arguments},
            "index": k,
        }
        for k, c in enumerate(turn.calls)
    ]
    message: dict[str, Any] = {"role": "assistant", "content": turn.text or (empty if calls else "Done.")}
    if calls:
        message["tool_calls"] = calls
    choice = {"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}
    usage = {"prompt_tokens": 94, "completion_tokens": 23, "total_tokens": 117}
    body = {"id": "cmpl-e5cc70bb28c444948073e77776eb30ef", "object": "chat.completion", "created": 1764000000}
    return [body | {"model": "mistral-small-latest", "choices": [choice], "usage": usage}]


#: A chat completion body: whole calls.
RESPONSE: Final = Generator(mistral_response, fragments=False)


#: The envelope of a recorded Mistral chunk (tests/data/traffic, DataDog__dd-trace-py
#: mistral_v1_chat_completions_post_1798d156.sse): a 32-hex id, no logprobs.
_ENVELOPE: Final = {
    "id": "378d4d9fd4914db088d7c448257ed0d2",
    "object": "chat.completion.chunk",
    "created": 1784567096,
    "model": "mistral-large-latest",
}
_USAGE: Final = {"prompt_tokens": 72, "total_tokens": 86, "completion_tokens": 14}


def mistral_chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    """A ``CompletionChunk`` with one choice carrying ``delta``."""
    return _ENVELOPE | {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def mistral_fragment(
    call: Tokened, name: str, k: int, arguments: str, *, first: bool, quirks: frozenset[str]
) -> dict[str, Any]:
    """A ``ToolCall`` entry: name and arguments always (``FunctionCall`` requires both)."""
    fragment: dict[str, Any] = {"id": call.token[:9] if first else "null"}
    if first:
        fragment["type"] = "function"
    fragment["function"] = {"name": name, "arguments": arguments}
    return fragment if "unindexed" in quirks else fragment | {"index": k}


def mistral_stream(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """Mistral chunks as its API streams them: each call whole in one fragment, at its own index.

    The last call's chunk carries ``finish_reason`` and the usage, as recorded.
    ``unindexed`` leaves ``index`` out (opik#8362); ``split-arguments`` sends a
    call's arguments over several fragments, the later ones with id "null".
    """
    turn = plan.turns[0]
    events = [mistral_chunk({"role": "assistant", "content": ""})]
    if turn.text:
        events.append(mistral_chunk({"content": turn.text}))
    for k, call in enumerate(turn.calls):
        pieces = call.pieces if "split-arguments" in quirks else (call.arguments,)
        for j, piece in enumerate(pieces):
            fragment = mistral_fragment(call, call.name, k, piece, first=j == 0, quirks=quirks)
            events.append(mistral_chunk({"tool_calls": [fragment]}))
    if turn.calls:
        events[-1]["choices"][0]["finish_reason"] = "tool_calls"
    else:
        events.append(mistral_chunk({"content": ""}, "stop"))
    events[-1]["usage"] = _USAGE
    return events


#: Chunks: one call after the other, each at its own index.
STREAM: Final = Generator(mistral_stream)
