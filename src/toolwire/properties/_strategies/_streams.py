"""Render a :class:`Plan`'s first turn as the stream events each provider sends."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any, Final

from hypothesis import strategies as st

from toolwire.properties._strategies._plan import Call, Plan, Tokened, timeline

__all__ = ["STREAMS"]

Wire = list[dict[str, Any]]
Renderer = Callable[[st.DrawFn, Plan, frozenset[str]], Wire]


def _uuid(token: str) -> str:
    hexa = "".join(f"{ord(c) % 16:x}" for c in (token * 2)[:32])
    return f"{hexa[:8]}-{hexa[8:12]}-4{hexa[13:16]}-8{hexa[17:20]}-{hexa[20:32]}"


def chat_id(call: Tokened) -> str:
    """``call_`` and 24 characters, as OpenAI's Chat Completions ids look."""
    return f"call_{call.token}"


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
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
    events = [_chunk({"role": "assistant", "content": None if not turn.text else ""})]
    if turn.text:
        events.append(_chunk({"content": turn.text}))
    indexes = _chat_indexes(draw, len(turn.calls), quirks)
    merged: dict[str, Any] | None = None
    for filler, k, j, _ in timeline(turn):
        call = turn.calls[k]
        if filler:
            events.append(_chunk({}))
            merged = None
        fragment = chat_fragment(call, call.name, call.pieces[j], j, indexes[k], quirks)
        merged = add_fragment(events, merged, fragment, quirks)
    events.append(_chunk({}, "tool_calls" if turn.calls else "stop"))
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
    events.append(_chunk({"tool_calls": [fragment]}))
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


def _responses(open_responses: bool) -> Renderer:
    def render(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
        turn = plan.turns[0]
        response = {
            "id": "resp_a4c123b1612dd272d1371c17149d439536b3216fdaeeb975",
            "object": "response",
            "created_at": 1764000000,
            "status": "in_progress",
            "model": "gpt-4.1-2025-04-14",
            "output": [],
        }
        events: Wire = [
            {"type": "response.created", "response": response},
            {"type": "response.in_progress", "response": response},
        ]
        position = 0
        if turn.text:
            events.extend(_responses_message(position, turn.text))
            position += 1
        for filler, k, j, last in timeline(turn):
            call = turn.calls[k]
            item_id = f"fc_{call.token * 2}"
            if filler and j == 0:
                events.extend(_responses_reasoning(position, call.token))
                position += 1
            item = {
                "id": item_id,
                "type": "function_call",
                "status": "in_progress",
                "arguments": "",
                "call_id": chat_id(call),
                "name": call.name,
            }
            if j == 0:
                events.append({"type": "response.output_item.added", "output_index": position, "item": item})
            events.append(
                {
                    "type": "response.function_call_arguments.delta",
                    "item_id": item_id,
                    "output_index": position,
                    "delta": call.pieces[j],
                }
            )
            if last:
                done = {
                    "type": "response.function_call_arguments.done",
                    "item_id": item_id,
                    "output_index": position,
                    "arguments": call.arguments,
                }
                if not open_responses:
                    done["name"] = call.name
                events.append(done)
                item = item | {"status": "completed", "arguments": call.arguments}
                events.append({"type": "response.output_item.done", "output_index": position, "item": item})
                position += 1
        events.append({"type": "response.completed", "response": response | {"status": "completed"}})
        for number, event in enumerate(events):
            event["sequence_number"] = number
        return events

    return render


def _responses_message(position: int, text: str) -> Wire:
    item_id = "msg_34d6608697a8d41bed440e50454f31af3176813e02ea68ef"
    part = {"type": "output_text", "annotations": [], "text": text}
    where = {"item_id": item_id, "output_index": position, "content_index": 0}
    item = {"id": item_id, "type": "message", "role": "assistant", "status": "in_progress", "content": []}
    return [
        {"type": "response.output_item.added", "output_index": position, "item": item},
        {"type": "response.content_part.added", **where, "part": part | {"text": ""}},
        {"type": "response.output_text.delta", **where, "delta": text},
        {"type": "response.output_text.done", **where, "text": text},
        {"type": "response.content_part.done", **where, "part": part},
        {
            "type": "response.output_item.done",
            "output_index": position,
            "item": item | {"status": "completed", "content": [part]},
        },
    ]


def _responses_reasoning(position: int, token: str) -> Wire:
    item = {"id": f"rs_{token * 2}", "type": "reasoning", "summary": [], "status": "in_progress"}
    return [
        {"type": "response.output_item.added", "output_index": position, "item": item},
        {
            "type": "response.output_item.done",
            "output_index": position,
            "item": item | {"status": "completed"},
        },
    ]


def anthropic_stream(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """Anthropic Messages events: one ``tool_use`` content block per call, blocks in order."""
    turn = plan.turns[0]
    message: dict[str, Any] = {
        "id": "msg_014p7gG3wDgGV9EUtLvnow3U",
        "type": "message",
        "role": "assistant",
        "content": [],
        "model": "claude-opus-4-6",
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 472, "output_tokens": 2},
    }
    events: Wire = [{"type": "message_start", "message": message}]
    block = 0
    if turn.text:
        events.extend(
            _anthropic_block(block, {"type": "text", "text": ""}, "text_delta", "text", [turn.text])
        )
        block += 1
    for filler, k, j, last in timeline(turn):
        call = turn.calls[k]
        if filler:
            events.append({"type": "ping"})
        if j == 0:
            start = {"type": "tool_use", "id": f"toolu_01{call.token[:22]}", "name": call.name, "input": {}}
            events.append({"type": "content_block_start", "index": block, "content_block": start})
        delta = {"type": "input_json_delta", "partial_json": call.pieces[j]}
        events.append({"type": "content_block_delta", "index": block, "delta": delta})
        if last:
            events.append({"type": "content_block_stop", "index": block})
            block += 1
    reason = "tool_use" if turn.calls else "end_turn"
    events.append(
        {
            "type": "message_delta",
            "delta": {"stop_reason": reason, "stop_sequence": None},
            "usage": {"output_tokens": 89},
        }
    )
    events.append({"type": "message_stop"})
    return events


def _anthropic_block(index: int, start: dict[str, Any], kind: str, field: str, pieces: list[str]) -> Wire:
    return [
        {"type": "content_block_start", "index": index, "content_block": start},
        *({"type": "content_block_delta", "index": index, "delta": {"type": kind, field: p}} for p in pieces),
        {"type": "content_block_stop", "index": index},
    ]


def bedrock_stream(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """Bedrock ConverseStream events: a ``toolUse`` content block per call, blocks in order."""
    turn = plan.turns[0]
    events: Wire = [{"messageStart": {"role": "assistant"}}]
    block = 0
    if turn.text:
        events.append({"contentBlockDelta": {"delta": {"text": turn.text}, "contentBlockIndex": block}})
        events.append({"contentBlockStop": {"contentBlockIndex": block}})
        block += 1
    for _, k, j, last in timeline(turn):
        call = turn.calls[k]
        if j == 0:
            start = {"toolUse": {"toolUseId": f"tooluse_{call.token[:22]}", "name": call.name}}
            events.append({"contentBlockStart": {"start": start, "contentBlockIndex": block}})
        delta = {"toolUse": {"input": call.pieces[j]}}
        events.append({"contentBlockDelta": {"delta": delta, "contentBlockIndex": block}})
        if last:
            events.append({"contentBlockStop": {"contentBlockIndex": block}})
            block += 1
    events.append({"messageStop": {"stopReason": "tool_use" if turn.calls else "end_turn"}})
    events.append({"metadata": {"usage": {"inputTokens": 375, "outputTokens": 76, "totalTokens": 451}}})
    return events


def gemini_id(call: Tokened) -> str:
    """Google ADK's client-side id: ``adk-`` and a UUID4."""
    return f"adk-{_uuid(call.token)}"


def gemini_call(call: Call, quirks: frozenset[str]) -> dict[str, Any]:
    """A ``functionCall`` part; Gemini sends whole calls, never argument fragments."""
    body: dict[str, Any] = {"name": call.name, "args": call.input}
    if "missing-ids" not in quirks:
        body["id"] = gemini_id(call)
    return {"functionCall": body}


def gemini_stream(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """``streamGenerateContent`` chunks: whole calls, split over chunks at drawn points."""
    turn = plan.turns[0]
    parts: list[dict[str, Any]] = [{"text": turn.text}] if turn.text else []
    parts.extend(gemini_call(call, quirks) for call in turn.calls)
    if not parts:
        parts.append({"text": "Hello"})
    cuts = sorted(set(draw(st.lists(st.integers(1, max(1, len(parts) - 1)), max_size=2))))
    bounds = [0, *(c for c in cuts if c < len(parts)), len(parts)]
    events = []
    for a, b in itertools.pairwise(bounds):
        candidate: dict[str, Any] = {"content": {"parts": parts[a:b], "role": "model"}, "index": 0}
        if b == len(parts):
            candidate["finishReason"] = "STOP"
        events.append(
            {
                "candidates": [candidate],
                "modelVersion": "gemini-2.5-flash",
                "responseId": "jr1qaLbPO8Ga1MkP2qXwuAU",
            }
        )
    return events


def aisdk_stream(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """AI SDK provider stream parts: ``tool-input-start`` .. ``tool-input-end``, then ``tool-call``.

    A call is announced by ``tool-input-start`` and completed by ``tool-call``
    without input deltas, or arrives whole as one ``tool-call`` (providers
    without input streaming), or streams its input in deltas, optionally
    closed by ``tool-input-end``, before ``tool-call``.
    """
    turn = plan.turns[0]
    events: Wire = []
    if draw(st.booleans()):
        events.append({"type": "stream-start", "warnings": []})
    if turn.text:
        events.append({"type": "text-start", "id": "txt-0"})
        events.append({"type": "text-delta", "id": "txt-0", "delta": turn.text})
        events.append({"type": "text-end", "id": "txt-0"})
    modes = [draw(st.sampled_from(("announced", "whole", "streamed"))) for _ in turn.calls]
    ended = [draw(st.booleans()) for _ in turn.calls]
    for filler, k, j, last in timeline(turn):
        call = turn.calls[k]
        call_id = chat_id(call)
        if filler:
            events.append({"type": "raw", "rawValue": {}})
        if modes[k] != "whole" and j == 0:
            events.append({"type": "tool-input-start", "id": call_id, "toolName": call.name})
        if modes[k] == "streamed":
            events.append({"type": "tool-input-delta", "id": call_id, "delta": call.pieces[j]})
            if last and ended[k]:
                events.append({"type": "tool-input-end", "id": call_id})
        if last:
            events.append(
                {"type": "tool-call", "toolCallId": call_id, "toolName": call.name, "input": call.arguments}
            )
    if draw(st.booleans()):
        reason = "tool-calls" if turn.calls else "stop"
        events.append({"type": "finish", "finishReason": {"unified": reason, "raw": reason}, "usage": {}})
    return events


def aisdk_ui_stream(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """AI SDK UI message chunks: ``tool-input-start``, ``-available``, then ``tool-output-available``."""
    turn = plan.turns[0]
    events: Wire = [{"type": "start", "messageId": "msg_5f2a"}, {"type": "start-step"}]
    if turn.text:
        events.append({"type": "text-start", "id": "txt-0"})
        events.append({"type": "text-delta", "id": "txt-0", "delta": turn.text})
        events.append({"type": "text-end", "id": "txt-0"})
    answered = [draw(st.booleans()) for _ in turn.calls]
    for _, k, j, last in timeline(turn):
        call = turn.calls[k]
        call_id = chat_id(call)
        if j == 0:
            events.append({"type": "tool-input-start", "toolCallId": call_id, "toolName": call.name})
        events.append({"type": "tool-input-delta", "toolCallId": call_id, "inputTextDelta": call.pieces[j]})
        if last:
            events.append(
                {
                    "type": "tool-input-available",
                    "toolCallId": call_id,
                    "toolName": call.name,
                    "input": call.input,
                }
            )
    for k, call in enumerate(turn.calls):
        if answered[k]:
            events.append(
                {"type": "tool-output-available", "toolCallId": chat_id(call), "output": call.result}
            )
    events.extend([{"type": "finish-step"}, {"type": "finish"}])
    return events


def mcp_session(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """An MCP session: ``initialize``, then one ``tools/call`` per call, answered in a drawn order."""
    turn = plan.turns[0]
    events: Wire = [
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {
            "jsonrpc": "2.0",
            "id": 0,
            "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}},
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    for k, call in enumerate(turn.calls, start=1):
        params = {"name": call.name, "arguments": call.input}
        events.append({"jsonrpc": "2.0", "id": k, "method": "tools/call", "params": params})
    order = draw(st.permutations(range(1, len(turn.calls) + 1)))
    for k in order:
        content = [{"type": "text", "text": turn.calls[k - 1].result}]
        events.append({"jsonrpc": "2.0", "id": k, "result": {"content": content, "isError": False}})
    return events


STREAMS: Final[dict[str, Renderer]] = {
    "openai-chat-stream": openai_chat_stream,
    "openai-responses-stream": _responses(open_responses=False),
    "open-responses-stream": _responses(open_responses=True),
    "anthropic-stream": anthropic_stream,
    "bedrock-converse-stream": bedrock_stream,
    "gemini-stream": gemini_stream,
    "aisdk-stream": aisdk_stream,
    "aisdk-ui-stream": aisdk_ui_stream,
    "mcp": mcp_session,
}
