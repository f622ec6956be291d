"""Generated OpenAI Chat Completions traffic: stream chunks and request messages.

Where providers differ, a trace draws one provider's shape with
:func:`~toolwire.properties._strategies._render.pick`, keyed by the shape
feature (``shapes.py``) each shows: the commonest in the recorded traffic
(tests/data/traffic) first, unless another takes fewer events (counterexamples
shrink to the first option, and a campaign keeps the one with the fewest events).
"""

from __future__ import annotations

import json
from typing import Any, Final

from hypothesis import strategies as st

from toolwire.properties._strategies._plan import Plan, PlannedCall, PlannedTurn, Tokened, timeline
from toolwire.properties._strategies._render import Generator, Spelling, Wire, conversation, pick

__all__ = [
    "CONVERSATION",
    "RESPONSE",
    "STREAM",
    "add_fragment",
    "chat_fragment",
    "chat_id",
    "chat_message",
    "chunk",
]

#: The usage that ``stream_options.include_usage`` adds, in a last chunk with ``choices: []``.
_USAGE: Final = {
    "prompt_tokens": 106,
    "completion_tokens": 50,
    "total_tokens": 156,
    "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
    "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0},
}
#: How a call's first fragment carries its arguments: the first piece of text (xAI, Mistral, Groq),
#: ``""`` and the text in the fragments after it (OpenAI, Azure, most compatible servers), or null
#: (Writer's palmyra).  The first needs the fewest chunks, so it comes first (see :func:`openai_chat_stream`).
_OPENINGS: Final = {
    "first-fragment-carries-arguments": "piece",
    "first-fragment-arguments-empty": "",
    "first-fragment-without-arguments": None,
}
#: What later fragments carry besides index and arguments: nothing (OpenAI), ``type`` (OpenRouter),
#: or every field, null where unset (Writer's palmyra).
_CONTINUATIONS: Final = {
    "continuation-index-and-arguments-only": "bare",
    "continuation-carries-type": "type",
    "continuation-id-empty": "nulls",
}
#: With ``repeated-ids``: the id alone, or the whole first fragment again (kimi-k2 via OpenRouter).
_REPEATED: Final = {"continuation-repeats-id": "bare", "continuation-carries-name": "named"}


#: Azure OpenAI's first chunk: no choices, the prompt's content-filter results (Azure OpenAI
#: "Content filtering", streaming; deepset-ai/haystack#8780 is a converter it broke).
_PROMPT_FILTER: Final[dict[str, Any]] = {
    "choices": [],
    "created": 0,
    "id": "",
    "model": "",
    "object": "",
    "prompt_filter_results": [
        {
            "prompt_index": 0,
            "content_filter_results": {
                kind: {"filtered": False, "severity": "safe"}
                for kind in ("hate", "self_harm", "sexual", "violence")
            },
        }
    ],
}


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
    """Chat Completions chunks: fragments accumulate by ``index`` (CC-6).

    Each trace draws one provider's shape: how a call's first fragment carries
    its arguments, what later fragments repeat, ``refusal`` in the role chunk,
    ``finish_reason`` in the last fragment's chunk or in one of its own, and a
    usage-only last chunk.  ``omitted-finish-reason`` leaves ``finish_reason`` out.
    Where shapes differ in how many chunks they take, the one with fewest comes
    first, even when it is not the commonest: a campaign keeps the counterexample
    with the fewest events, and Hypothesis shrinks towards the first choice; when
    the two disagree, shrinking stalls.
    """
    turn = plan.turns[0]
    refusal = pick(draw, {"no-refusal-field": False, "refusal-field": True}, quirks)
    opening = pick(draw, _OPENINGS, quirks)
    later = pick(draw, _REPEATED if "repeated-ids" in quirks else _CONTINUATIONS, quirks)
    joined = pick(draw, {"finish-reason-in-calls-chunk": True, "finish-reason-tool-calls": False}, quirks)
    usage = pick(draw, {"no-usage-chunk": False, "usage-only-chunk": True}, quirks)
    # Switched on only (a swarm, --like): a recording without them must not be given them.
    filtered = "prompt-filter-chunk" in quirks
    blank = "empty-string-arguments" in quirks
    role: dict[str, Any] = {"role": "assistant", "content": None if not turn.text else ""}
    events: Wire = [_PROMPT_FILTER] if filtered else []
    events.append(chunk(role | {"refusal": None} if refusal else role))
    if turn.text:
        events.append(chunk({"content": turn.text}))
    indexes = _chat_indexes(draw, len(turn.calls), quirks)
    merged: dict[str, Any] | None = None
    opened: dict[str, Any] | None = None
    for filler, k, j, _ in timeline(turn):
        call = turn.calls[k]
        if filler:
            events.append(chunk({}))
            merged = None
        piece = call.pieces[j]
        if blank and call.arguments == "{}":
            piece = ""  # a call without arguments, sent as "" (vLLM, Ollama; simonw/llm#1521)
        if j == 0 and opening != "piece":
            first = chat_fragment(call, call.name, "", 0, indexes[k], quirks)
            first["function"]["arguments"] = opening
            merged = add_fragment(events, merged, first, quirks)
            opened = events[-1] if opened is None else opened
            j += 1
        fragment = chat_fragment(call, call.name, piece, j, indexes[k], quirks, later)
        merged = add_fragment(events, merged, fragment, quirks)
        opened = events[-1] if opened is None else opened
    if "omitted-finish-reason" not in quirks:
        # Not in the chunk that opens the first call (Mistral sends a one-fragment call so): a trace
        # cut just after that chunk (the truncate mutation) must leave the call unfinished.
        if turn.calls and joined and events[-1] is not opened:
            events[-1]["choices"][0]["finish_reason"] = "tool_calls"
        else:
            events.append(chunk({}, "tool_calls" if turn.calls else "stop"))
    if usage:
        events.append(chunk({}) | {"choices": [], "usage": _USAGE})
    return events


def chat_fragment(
    call: Tokened,
    name: str,
    piece: str,
    j: int,
    index: int,
    quirks: frozenset[str],
    later: str = "bare",
) -> dict[str, Any]:
    """Fragment ``j`` of a call: the first carries id, type and name; quirks shape the others' ids.

    ``later`` is what fragments after the first carry besides index and
    arguments: nothing (``bare``), ``type``, the name and type again
    (``named``), or every field, null where unset (``nulls``).
    """
    fragment: dict[str, Any] = {"index": index}
    if j == 0:
        fragment |= {"id": chat_id(call), "type": "function"}
        fragment["function"] = {"name": name, "arguments": piece}
        return fragment
    function: dict[str, Any] = {}
    if later == "nulls":
        fragment |= {"id": None, "type": None}
        function["name"] = None
    elif later in ("type", "named"):
        fragment["type"] = "function"
        if later == "named":
            function["name"] = name
    if "repeated-ids" in quirks:
        fragment["id"] = chat_id(call)
    elif "null-ids" in quirks:
        fragment["id"] = "null"
    fragment["function"] = function | {"arguments": piece}
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
    if "block-index" in quirks:
        return list(range(1, count + 1))  # the text or thinking block ahead of the calls is 0
    indexes = list(range(count))
    if "index-reuse" in quirks:
        for k in range(1, count):
            if draw(st.booleans()):
                indexes[k] = indexes[k - 1]
    return indexes


def chat_messages(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """A request's ``messages``: a system prompt, then each turn; one client library's shape per trace.

    The assistant message of a turn without text leaves ``content`` out (the
    openai SDKs' own message objects, replayed) or sends null; tool messages
    carry ``name`` or not, and text or JSON.  Nearly every recorded request has
    a system message, but a trace without one comes first: it has fewer events
    (see :func:`openai_chat_stream`).
    """
    system = pick(draw, {"no-system-message": False, "system-message": True}, quirks)
    empty = pick(draw, {"content-omitted-with-calls": False, "content-null-with-calls": True}, quirks)
    named = pick(draw, {"no-tool-message-name": False, "tool-message-name": True}, quirks)
    as_json = pick(draw, {"plain-tool-content": False, "json-tool-content": True}, quirks)

    def spelling(_: frozenset[str]) -> Spelling:
        def assistant(turn: PlannedTurn) -> Wire:
            if not turn.calls:
                return []
            calls = [
                {"id": chat_id(c), "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                for c in turn.calls
            ]
            message: dict[str, Any] = {"role": "assistant"}
            if turn.text or empty:
                message["content"] = turn.text or None
            return [message | {"tool_calls": calls}]

        def results(calls: list[PlannedCall], _: str) -> Wire:
            out = []
            for call in calls:
                message = {"role": "tool", "tool_call_id": chat_id(call)}
                if named:
                    message["name"] = call.name
                out.append(message | {"content": tool_content(call.result, as_json)})
            return out

        return (
            lambda text: {"role": "user", "content": text},
            assistant,
            results,
            lambda text: {"role": "assistant", "content": text},
        )

    messages = conversation(spelling, any_order=True)(draw, plan, quirks)
    if system:
        messages.insert(0, {"role": "system", "content": "You are a helpful assistant."})
    return messages


def tool_content(result: str, as_json: bool) -> str:
    """A tool's result as a tool message carries it: the text, or (``as_json``) a JSON object."""
    return json.dumps({"result": result}, ensure_ascii=False) if as_json else result


def chat_message(draw: st.DrawFn, turn: PlannedTurn, quirks: frozenset[str]) -> dict[str, Any]:
    """The assistant message of a ``chat.completion``: its text and its whole calls.

    With calls and no text, ``content`` is null (OpenAI) or "" (Groq, some compatible servers);
    OpenAI adds ``refusal`` and ``annotations``; some providers number the calls with ``index``.
    """
    empty = pick(draw, {"content-null-with-calls": None, "content-empty-with-calls": ""}, quirks)
    refusal = pick(draw, {"refusal-field": True, "no-refusal-field": False}, quirks)
    indexed = pick(draw, {"no-call-index-field": False, "call-index-field": True}, quirks)
    message: dict[str, Any] = {
        "role": "assistant",
        "content": turn.text or (empty if turn.calls else "Done."),
    }
    if refusal:
        message |= {"refusal": None, "annotations": []}
    calls = []
    for k, call in enumerate(turn.calls):
        entry: dict[str, Any] = {"index": k} if indexed else {}
        function = {"name": call.name, "arguments": call.arguments}
        calls.append(entry | {"id": chat_id(call), "type": "function", "function": function})
    if calls:
        message["tool_calls"] = calls
    return message


def openai_chat_response(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """A ``chat.completion`` of the first turn; ``forced-tool-choice`` finishes a calling choice "stop"."""
    turn = plan.turns[0]
    reason = "tool_calls" if turn.calls else "stop"
    if turn.calls and "forced-tool-choice" in quirks:
        reason = "stop"
    choice = {
        "index": 0,
        "message": chat_message(draw, turn, quirks),
        "logprobs": None,
        "finish_reason": reason,
    }
    body = chunk({}) | {"object": "chat.completion", "choices": [choice]}
    return [body | {"usage": {k: v for k, v in _USAGE.items() if k.endswith("tokens")}}]


#: A ``chat.completion`` body: whole calls.
RESPONSE: Final = Generator(openai_chat_response, fragments=False)
#: Chunks: fragments of concurrent calls interleave, by ``index``.
STREAM: Final = Generator(openai_chat_stream, interleave=True)
#: The ``messages`` of a request; tool messages answer a turn's calls in any order.
CONVERSATION: Final = Generator.conversation(chat_messages)
