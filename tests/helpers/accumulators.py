"""Stream accumulators, as every SDK ships one: a stream in, the response body it adds up to out.

Each correct accumulator has a buggy twin with a bug seen in the wild; ``unit/test_bodies.py`` fuzzes
both against the stream -> body pairs.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from typing import Any

from toolwire.models._gemini import set_partial

Body = dict[str, Any]
Events = Iterable[dict[str, Any]]


# OpenAI Chat Completions: chunks -> chat.completion --------------------------------------------


def chat_completion(chunks: Events, *, key_by_name: bool = False) -> Body:
    """Fragments accumulated per (choice, index), as openai's ChatCompletionStreamState does.

    ``key_by_name`` is the bug: calls keyed by their tool's name merge two calls of one tool.
    """
    head: Body = {}
    calls: dict[tuple[int, Any], Body] = {}
    names: dict[tuple[int, int], str] = {}
    texts: dict[int, str] = {}
    finish: dict[int, str] = {}
    for chunk in chunks:
        head = head or chunk
        for choice in chunk.get("choices") or []:
            number = choice.get("index", 0)
            delta = choice.get("delta") or {}
            if delta.get("content"):
                texts[number] = texts.get(number, "") + delta["content"]
            for fragment in delta.get("tool_calls") or []:
                function = fragment.get("function") or {}
                position = fragment.get("index", 0)
                if function.get("name"):
                    names[number, position] = function["name"]
                key = (number, names.get((number, position)) if key_by_name else position)
                call = calls.setdefault(key, {"id": None, "type": "function", "function": {"name": None}})
                call["id"] = call["id"] or fragment.get("id")
                call["function"]["name"] = call["function"]["name"] or function.get("name")
                call["function"]["arguments"] = call["function"].get("arguments", "") + (
                    function.get("arguments") or ""
                )
            if choice.get("finish_reason"):
                finish[number] = choice["finish_reason"]
    choices = []
    for number in sorted({*texts, *finish, *(n for n, _ in calls)}):
        made = [call for (n, _), call in calls.items() if n == number]
        message: Body = {"role": "assistant", "content": texts.get(number)}
        if made:
            message["tool_calls"] = made
        choices.append({"index": number, "message": message, "finish_reason": finish.get(number, "stop")})
    fields = {k: head[k] for k in ("id", "created", "model") if k in head}
    return fields | {"object": "chat.completion", "choices": choices}


def chat_completion_by_name(chunks: Events) -> Body:
    """The bug: calls keyed by tool name (two parallel calls of one tool become one)."""
    return chat_completion(chunks, key_by_name=True)


# OpenAI Responses: events -> response ----------------------------------------------------------


def response(events: Events, *, from_added: bool = False) -> Body:
    """The response of ``response.completed`` with the items of ``response.output_item.done``.

    ``from_added`` is the bug: items taken from ``output_item.added`` (status in_progress, no arguments).
    """
    final: Body = {}
    items: dict[int, Body] = {}
    wanted = "response.output_item.added" if from_added else "response.output_item.done"
    for event in events:
        kind = event.get("type")
        if kind == wanted:
            items[event["output_index"]] = copy.deepcopy(event["item"])
        elif kind in ("response.completed", "response.incomplete", "response.failed"):
            final = copy.deepcopy(event["response"])
    return final | {"output": [items[k] for k in sorted(items)]}


def response_from_added(events: Events) -> Body:
    """The bug: the items as ``output_item.added`` announced them."""
    return response(events, from_added=True)


# Anthropic: events -> message -------------------------------------------------------------------


def message(events: Events, *, last_tool_only: bool = False) -> Body:
    """Blocks by index, partial_json parsed at their stop, stop_reason from message_delta (the SDK's way).

    ``last_tool_only`` is the bug: one tool_use per message assumed, each start replacing the last.
    """
    body: Body = {}
    blocks: dict[int, Body] = {}
    buffers: dict[int, str] = {}
    for event in events:
        kind = event.get("type")
        if kind == "message_start":
            body = copy.deepcopy(event["message"])
        elif kind == "content_block_start":
            block = copy.deepcopy(event["content_block"])
            if last_tool_only and block.get("type") == "tool_use":
                for k in [k for k, b in blocks.items() if b.get("type") == "tool_use"]:
                    del blocks[k]
            blocks[event["index"]] = block
            buffers[event["index"]] = ""
        elif kind == "content_block_delta" and event["index"] in blocks:
            _anthropic_delta(blocks[event["index"]], event["delta"], buffers, event["index"])
        elif kind == "content_block_stop" and buffers.get(event["index"]):
            blocks[event["index"]]["input"] = json.loads(buffers[event["index"]])
        elif kind == "message_delta":
            body |= {k: v for k, v in event["delta"].items() if k in ("stop_reason", "stop_sequence")}
    return body | {"content": [blocks[k] for k in sorted(blocks)]}


def _anthropic_delta(block: Body, delta: Body, buffers: dict[int, str], index: int) -> None:
    kind = delta.get("type")
    if kind == "input_json_delta":
        buffers[index] += delta["partial_json"]
    elif kind == "text_delta":
        block["text"] = block.get("text", "") + delta["text"]
    elif kind == "thinking_delta":
        block["thinking"] = block.get("thinking", "") + delta["thinking"]
    elif kind == "signature_delta":
        block["signature"] = delta["signature"]
    elif kind == "citations_delta":
        block.setdefault("citations", []).append(delta["citation"])


def message_last_tool_only(events: Events) -> Body:
    """The bug: only the last tool_use of a message survives."""
    return message(events, last_tool_only=True)


# Gemini: chunks -> GenerateContentResponse ------------------------------------------------------


def assembled_calls(parts: Iterable[Body]) -> list[Body]:
    """Gemini parts with each streamed call (Gemini 3: a part naming it with ``willContinue``, then
    parts of ``partialArgs`` pieces, closed by a part without ``willContinue`` or the end) as one
    ``functionCall`` part with its arguments assembled; every other part as it came."""
    out: list[Body] = []
    streaming: tuple[Body, set[str]] | None = None  # the open call's functionCall and open paths
    for part in parts:
        call = part.get("functionCall")
        if not isinstance(call, dict):
            out.append(part)
            continue
        if call.get("name"):
            made = {k: v for k, v in call.items() if k not in ("willContinue", "partialArgs")}
            made["args"] = dict(made.get("args") or {})
            out.append({**part, "functionCall": made})
            streaming = (made, set()) if call.get("willContinue") else None
            continue
        if streaming is None:
            out.append(part)
            continue
        args, open_paths = streaming
        for piece in call.get("partialArgs") or []:
            path = piece.get("jsonPath")
            set_partial(args["args"], piece, path in open_paths)
            (open_paths.add if piece.get("willContinue") else open_paths.discard)(path)
        if not call.get("willContinue"):
            streaming = None
    return out


def generate_content_response(chunks: Events, *, last_chunk_only: bool = False) -> Body:
    """The last chunk, its candidate's parts being every chunk's parts in order.

    ``last_chunk_only`` is the bug: the last chunk taken as the response (calls in earlier chunks lost).
    """
    chunks = list(chunks)
    if not chunks:
        return {"candidates": []}
    body = copy.deepcopy(chunks[-1])
    if last_chunk_only:
        return body
    parts = [p for c in chunks for cand in c.get("candidates") or [] for p in cand["content"]["parts"]]
    candidate = body["candidates"][0]
    candidate["content"]["parts"] = [p for p in assembled_calls(parts) if p != {"text": ""}] or [{"text": ""}]
    for c in chunks:
        for cand in c.get("candidates") or []:
            if "finishReason" in cand:
                candidate["finishReason"] = cand["finishReason"]
    return body


def generate_content_last_chunk(chunks: Events) -> Body:
    """The bug: the last chunk stands for the whole response."""
    return generate_content_response(chunks, last_chunk_only=True)


# Bedrock: ConverseStream events -> Converse response --------------------------------------------


def converse_response(events: Events, *, key_by_name: bool = False) -> Body:
    """Blocks by contentBlockIndex, toolUse input fragments parsed at the end, stopReason of messageStop.

    ``key_by_name`` is the bug: toolUse blocks keyed by tool name merge two calls of one tool.
    """
    role = "assistant"
    blocks: dict[Any, Body] = {}
    names: dict[int, str] = {}
    body: Body = {}
    for event in events:
        if "messageStart" in event:
            role = event["messageStart"].get("role", role)
        elif "contentBlockStart" in event:
            start = event["contentBlockStart"]
            use = (start.get("start") or {}).get("toolUse")
            if use is not None:
                names[start["contentBlockIndex"]] = use["name"]
                key = use["name"] if key_by_name else start["contentBlockIndex"]
                blocks.setdefault(key, {"toolUse": {**use, "input": ""}})
        elif "contentBlockDelta" in event:
            delta = event["contentBlockDelta"]
            index = delta["contentBlockIndex"]
            key = names.get(index, index) if key_by_name else index
            if "text" in delta["delta"]:
                block = blocks.setdefault(key, {"text": ""})
                block["text"] += delta["delta"]["text"]
            elif "toolUse" in delta["delta"]:
                blocks[key]["toolUse"]["input"] += delta["delta"]["toolUse"]["input"]
        elif "messageStop" in event:
            body["stopReason"] = event["messageStop"]["stopReason"]
        elif "metadata" in event:
            body |= {k: v for k, v in event["metadata"].items() if k in ("usage", "metrics")}
    content = []
    for block in blocks.values():
        if "toolUse" in block:
            block["toolUse"]["input"] = json.loads(block["toolUse"]["input"] or "{}")
        content.append(block)
    return {"output": {"message": {"role": role, "content": content}}} | body


def converse_response_by_name(events: Events) -> Body:
    """The bug: toolUse blocks keyed by tool name."""
    return converse_response(events, key_by_name=True)


# The SDKs' own accumulators ----------------------------------------------------------------------


def openai_sdk(chunks: Events) -> Body:
    """openai 3.54.0's ``ChatCompletionStreamState`` (what ``client.chat.completions.stream`` uses)."""
    from openai.lib.streaming.chat._completions import ChatCompletionStreamState
    from openai.types.chat import ChatCompletionChunk

    state: Any = ChatCompletionStreamState()
    for chunk in chunks:
        state.handle_chunk(ChatCompletionChunk.model_validate(chunk))
    body: Body = state.get_final_completion().model_dump(mode="json", exclude_unset=True)
    return body


def anthropic_sdk(events: Events) -> Body:
    """anthropic 2.12.0's ``accumulate_event`` (what ``client.messages.stream`` uses)."""
    from anthropic.lib.streaming._messages import accumulate_event
    from anthropic.types import RawMessageStreamEvent
    from pydantic import TypeAdapter

    adapter: Any = TypeAdapter(RawMessageStreamEvent)
    snapshot: Any = None
    buffers: dict[int, bytes] = {}
    for event in events:
        if event.get("type") not in ("ping", "error"):  # the SDK's Stream drops these before typing
            event_model = adapter.validate_python(event)
            snapshot = accumulate_event(event=event_model, current_snapshot=snapshot, json_bufs=buffers)
    body: Body = snapshot.model_dump(mode="json", exclude_unset=True)
    return body
