"""Hand-written tool-call streams: a well-formed one per protocol, and each rule's violating trace.

Written from the providers' documented event shapes, not from any recording: two parallel calls
of one tool (get_weather, Paris and Lyon) whose arguments stream in two fragments each.
"""

from __future__ import annotations

import copy
import json
from typing import Any

CALLS = (("fc_1", "call_1", ['{"city":', '"Paris"}']), ("fc_2", "call_2", ['{"city":', '"Lyon"}']))


def response_object(status: str, output: list[dict[str, Any]]) -> dict[str, Any]:
    """An OpenAI Responses ``response`` object with ``status`` and ``output`` (usage once completed)."""
    response: dict[str, Any] = {
        "id": "resp_1",
        "object": "response",
        "created_at": 1767225600,
        "status": status,
        "model": "gpt-test",
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "metadata": {},
        "temperature": 1.0,
        "top_p": 1.0,
    }
    if status == "completed":
        response["usage"] = {
            "input_tokens": 10,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 20,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 30,
        }
    return response


def function_call_item(item_id: str, call_id: str, arguments: str, status: str) -> dict[str, Any]:
    """A ``function_call`` output item of get_weather."""
    return {
        "type": "function_call",
        "id": item_id,
        "call_id": call_id,
        "name": "get_weather",
        "arguments": arguments,
        "status": status,
    }


def responses_stream() -> list[dict[str, Any]]:
    """A well-formed OpenAI Responses stream of two parallel function calls, numbered 0, 1, 2, ..."""
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": response_object("in_progress", [])},
        {"type": "response.in_progress", "response": response_object("in_progress", [])},
    ]
    done = []
    for index, (item_id, call_id, deltas) in enumerate(CALLS):
        arguments = "".join(deltas)
        events.append(
            {
                "type": "response.output_item.added",
                "output_index": index,
                "item": function_call_item(item_id, call_id, "", "in_progress"),
            }
        )
        for delta in deltas:
            events.append(
                {
                    "type": "response.function_call_arguments.delta",
                    "item_id": item_id,
                    "output_index": index,
                    "delta": delta,
                }
            )
        events.append(
            {
                "type": "response.function_call_arguments.done",
                "item_id": item_id,
                "output_index": index,
                "arguments": arguments,
            }
        )
        item = function_call_item(item_id, call_id, arguments, "completed")
        done.append(item)
        events.append({"type": "response.output_item.done", "output_index": index, "item": item})
    events.append({"type": "response.completed", "response": response_object("completed", done)})
    return [event | {"sequence_number": n} for n, event in enumerate(events)]


def rs1a_item_id_is_call_id() -> list[dict[str, Any]]:
    """RS-1a: every argument event carries the call's call_id as its item_id (the item's id is fc_...)."""
    events = responses_stream()
    for event in events:
        if event["type"].startswith("response.function_call_arguments."):
            event["item_id"] = event["item_id"].replace("fc_", "call_")
    return events


#: RS-7e's three versions of the first call's arguments: what the deltas add up to, what
#: function_call_arguments.done says, and what output_item.done (and response.completed) say.
RS7E_DELTAS, RS7E_ARGUMENTS_DONE, RS7E_ITEM_DONE = '{"city":"Paris"}', '{"city":"Lyon"}', '{"city":"Nice"}'


def rs7e_done_differs_from_deltas() -> list[dict[str, Any]]:
    """RS-7e: the first call's arguments.done and output_item.done each differ from its deltas."""
    events = responses_stream()
    for event in events:
        if event.get("output_index") == 0 and event["type"] == "response.function_call_arguments.done":
            event["arguments"] = RS7E_ARGUMENTS_DONE
        elif event.get("output_index") == 0 and event["type"] == "response.output_item.done":
            event["item"] = event["item"] | {"arguments": RS7E_ITEM_DONE}
        elif event["type"] == "response.completed":
            output = copy.deepcopy(event["response"]["output"])
            output[0]["arguments"] = RS7E_ITEM_DONE
            event["response"] = event["response"] | {"output": output}
    return events


def rs8b_numbering_restarts() -> list[dict[str, Any]]:
    """RS-8b: the second call's events are numbered from where the first call's began (a counter
    per item), so sequence_number goes back from 7 to 2; response.completed follows at 12."""
    events = responses_stream()
    first = 2
    per_item = sum(1 for e in events if e.get("output_index") == 0)
    for event in events:
        if event.get("output_index") == 1:
            event["sequence_number"] -= per_item
    assert events[first + per_item]["sequence_number"] == first
    return events


def rs7d_item_done_twice() -> list[dict[str, Any]]:
    """RS-7d: the first call's output_item.done is sent twice (a converter closing the item on the
    upstream's stop and again on its own finish), before response.completed."""
    events = responses_stream()
    position = next(
        n for n, e in enumerate(events) if e["type"] == "response.output_item.done" and e["output_index"] == 0
    )
    events.insert(position + 1, copy.deepcopy(events[position]))
    return [event | {"sequence_number": n} for n, event in enumerate(events)]


def rs7d_delta_after_arguments_done() -> list[dict[str, Any]]:
    """RS-7d: the first call's last delta comes after its function_call_arguments.done (whose
    arguments already hold it), before output_item.done."""
    events = responses_stream()
    deltas = [n for n, e in enumerate(events) if e["type"].endswith(".delta") and e["output_index"] == 0]
    last = events.pop(deltas[-1])
    done = next(
        n for n, e in enumerate(events) if e["type"].endswith("arguments.done") and e["output_index"] == 0
    )
    events.insert(done + 1, last)
    return [event | {"sequence_number": n} for n, event in enumerate(events)]


def rs7b_call_after_completed() -> list[dict[str, Any]]:
    """RS-7b: the second call's events come after response.completed (a converter that completes
    the response on the upstream's finish, then flushes the call it still held), whose output holds
    the first call alone."""
    events = responses_stream()
    completed = events.pop()
    second = [e for e in events if e.get("output_index") == 1]
    events = [e for e in events if e.get("output_index") != 1]
    output = completed["response"]["output"][:1]
    events += [completed | {"response": completed["response"] | {"output": output}}, *second]
    return [event | {"sequence_number": n} for n, event in enumerate(events)]


def rs7b_envelope_after_completed(kind: str) -> list[dict[str, Any]]:
    """RS-7b: after response.completed, the envelope event ``kind`` (``response.completed`` again,
    as a converter closing on the upstream's stop and on its own finish; ``response.in_progress``)."""
    events = responses_stream()
    events.append(copy.deepcopy(next(e for e in events if e["type"] == kind)))
    return [event | {"sequence_number": n} for n, event in enumerate(events)]


def rs7c_call_added_twice() -> list[dict[str, Any]]:
    """RS-7c: after both calls streamed, the first is added again whole as a third item (fc_3 at
    output_index 2, same call_id and arguments), as a converter emitting a call both from its
    streamed and its whole form sends it; response.completed lists the three items."""
    events = responses_stream()
    completed = events.pop()
    arguments = "".join(CALLS[0][2])
    item = function_call_item("fc_3", CALLS[0][1], arguments, "completed")
    events += [
        {"type": "response.output_item.added", "output_index": 2, "item": item | {"status": "in_progress"}},
        {
            "type": "response.function_call_arguments.done",
            "item_id": "fc_3",
            "output_index": 2,
            "arguments": arguments,
        },
        {"type": "response.output_item.done", "output_index": 2, "item": item},
    ]
    output = [*completed["response"]["output"], item]
    events.append(completed | {"response": completed["response"] | {"output": output}})
    return [event | {"sequence_number": n} for n, event in enumerate(events)]


def rs7f_added_item_without_call_id_and_name() -> list[dict[str, Any]]:
    """RS-7f: the first call's output_item.added item has neither call_id nor name (its
    output_item.done and response.completed carry both)."""
    events = responses_stream()
    added = next(e for e in events if e["type"] == "response.output_item.added")
    added["item"] = {k: v for k, v in added["item"].items() if k not in ("call_id", "name")}
    return events


def rs8a_one_event_unnumbered() -> list[dict[str, Any]]:
    """RS-8a: the second call's output_item.added carries no sequence_number (every other event does)."""
    events = responses_stream()
    added = [e for e in events if e["type"] == "response.output_item.added"][1]
    del added["sequence_number"]
    return events


def or8_deltas_without_output_index() -> list[dict[str, Any]]:
    """OR-8: the argument deltas carry item_id but no output_index."""
    events = responses_stream()
    for event in events:
        if event["type"] == "response.function_call_arguments.delta":
            del event["output_index"]
    return events


# OpenAI Chat Completions -------------------------------------------------------------------------


def _chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1767225600,
        "model": "gpt-test",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
    }


def _fragment(index: int, arguments: str, call_id: str | None = None) -> dict[str, Any]:
    fragment: dict[str, Any] = {"index": index, "function": {"arguments": arguments}}
    if call_id is not None:
        fragment |= {"id": call_id, "type": "function"}
        fragment["function"]["name"] = "get_weather"
    return _chunk({"tool_calls": [fragment]})


def chat_stream() -> list[dict[str, Any]]:
    """A well-formed Chat Completions stream of two parallel tool calls (end it with ``data: [DONE]``):
    each call's first fragment carries index, id, type and name, its continuations the index alone."""
    events = [_chunk({"role": "assistant", "content": None})]
    for index, (_, call_id, deltas) in enumerate(CALLS):
        events.append(_fragment(index, "", call_id))
        events += [_fragment(index, delta) for delta in deltas]
    events.append(_chunk({}, "tool_calls"))
    return events


def _fragments(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [fragment for event in events for fragment in event["choices"][0]["delta"].get("tool_calls", [])]


def cc6a_first_fragment_without_id() -> list[dict[str, Any]]:
    """CC-6a: the first call's first fragment carries its name but no id (nor does any later one)."""
    events = chat_stream()
    first = _fragments(events)[0]
    del first["id"]
    return events


def cc6b_null_string_ids() -> list[dict[str, Any]]:
    """CC-6b: every continuation fragment carries the string "null" as its id."""
    events = chat_stream()
    for fragment in _fragments(events):
        fragment.setdefault("id", "null")
    return events


def cc6b_id_repeated() -> list[dict[str, Any]]:
    """CC-6b (its warning half): every continuation fragment repeats its call's id."""
    events = chat_stream()
    ids: dict[int, str] = {}
    for fragment in _fragments(events):
        fragment["id"] = ids.setdefault(fragment["index"], fragment.get("id", ""))
    return events


def cc6c_calls_share_an_index() -> list[dict[str, Any]]:
    """CC-6c: both calls stream at index 0 (the second call's first fragment has its own id)."""
    events = chat_stream()
    for fragment in _fragments(events):
        fragment["index"] = 0
    return events


def cc6d_fragment_after_finish() -> list[dict[str, Any]]:
    """CC-6d: the second call's last fragment comes after the finish_reason chunk."""
    events = chat_stream()
    events.append(events.pop(-2))
    return events


def cc6d_no_finish_reason() -> list[dict[str, Any]]:
    """CC-6d: the stream stops after the last fragment, with no finish_reason chunk (and no [DONE])."""
    return chat_stream()[:-1]


def cc6d_finish_reason_stop() -> list[dict[str, Any]]:
    """CC-6d (its warning half): the choice finishes "stop", as a forced tool_choice answers."""
    events = chat_stream()
    events[-1]["choices"][0]["finish_reason"] = "stop"
    return events


# The Vercel AI SDK ----------------------------------------------------------------------------------


def aisdk_stream() -> list[dict[str, Any]]:
    """A well-formed AI SDK provider stream (LanguageModelV4 stream parts, one JSON object a line)
    of the two calls: per call tool-input-start, its deltas, tool-input-end, then tool-call."""
    parts: list[dict[str, Any]] = [{"type": "stream-start", "warnings": []}]
    for _, call_id, deltas in CALLS:
        parts.append({"type": "tool-input-start", "id": call_id, "toolName": "get_weather"})
        parts += [{"type": "tool-input-delta", "id": call_id, "delta": delta} for delta in deltas]
        parts.append({"type": "tool-input-end", "id": call_id})
        parts.append(
            {"type": "tool-call", "toolCallId": call_id, "toolName": "get_weather", "input": "".join(deltas)}
        )
    usage = {"inputTokens": {"total": 10}, "outputTokens": {"total": 20}}
    parts.append(
        {"type": "finish", "finishReason": {"unified": "tool-calls", "raw": "tool_calls"}, "usage": usage}
    )
    return parts


def _moved(parts: list[dict[str, Any]], part: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    parts.remove(part)
    parts.insert(parts.index(after) + 1, part)
    return parts


def vs2_delta_after_end() -> list[dict[str, Any]]:
    """VS-2: the first call's last tool-input-delta comes after its tool-input-end."""
    parts = aisdk_stream()
    last = [p for p in parts if p["type"] == "tool-input-delta" and p["id"] == "call_1"][-1]
    return _moved(parts, last, next(p for p in parts if p["type"] == "tool-input-end"))


def vs2_delta_after_call() -> list[dict[str, Any]]:
    """VS-2: the first call's last tool-input-delta comes after its tool-call."""
    parts = aisdk_stream()
    last = [p for p in parts if p["type"] == "tool-input-delta" and p["id"] == "call_1"][-1]
    return _moved(parts, last, next(p for p in parts if p["type"] == "tool-call"))


def vs5_whole_call_without_id() -> list[dict[str, Any]]:
    """VS-5: the first call comes whole, a tool-call without toolCallId (no tool-input-* parts)."""
    parts = [p for p in aisdk_stream() if p.get("id") != "call_1"]
    first = next(p for p in parts if p["type"] == "tool-call")
    del first["toolCallId"]
    return parts


def ui_stream() -> list[dict[str, Any]]:
    """A well-formed AI SDK UI message stream (its SSE ends with ``data: [DONE]``) of the two calls,
    each streamed, then available, then answered."""
    chunks: list[dict[str, Any]] = [{"type": "start", "messageId": "msg_1"}, {"type": "start-step"}]
    for n, (_, call_id, deltas) in enumerate(CALLS):
        chunks.append({"type": "tool-input-start", "toolCallId": call_id, "toolName": "get_weather"})
        chunks += [{"type": "tool-input-delta", "toolCallId": call_id, "inputTextDelta": d} for d in deltas]
        arguments = json.loads("".join(deltas))
        chunks.append(
            {
                "type": "tool-input-available",
                "toolCallId": call_id,
                "toolName": "get_weather",
                "input": arguments,
            }
        )
        chunks.append({"type": "tool-output-available", "toolCallId": call_id, "output": {"celsius": 20 + n}})
    return [*chunks, {"type": "finish-step"}, {"type": "finish"}]


def vu3_start_repeated(after: str) -> list[dict[str, Any]]:
    """VU-3: the first call's tool-input-start is sent again after its first chunk of type ``after``
    (``tool-input-delta``: mid-input; ``tool-output-available``: once answered, as a converter
    re-announcing each call at the step's end sends it)."""
    chunks = ui_stream()
    start = chunks[2]
    at = next(n for n, c in enumerate(chunks) if c["type"] == after and c["toolCallId"] == "call_1")
    chunks.insert(at + 1, copy.deepcopy(start))
    return chunks


# Anthropic Messages ---------------------------------------------------------------------------------


def anthropic_stream() -> list[dict[str, Any]]:
    """A well-formed Anthropic Messages stream of the two calls: one tool_use block each (index 0, 1),
    started with input {}, its input in input_json_delta fragments, stopped; stop_reason tool_use."""
    message = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1},
    }
    events: list[dict[str, Any]] = [{"type": "message_start", "message": message}]
    for index, (_, call_id, deltas) in enumerate(CALLS):
        block = {
            "type": "tool_use",
            "id": call_id.replace("call_", "toolu_"),
            "name": "get_weather",
            "input": {},
        }
        events.append({"type": "content_block_start", "index": index, "content_block": block})
        events += [
            {
                "type": "content_block_delta",
                "index": index,
                "delta": {"type": "input_json_delta", "partial_json": d},
            }
            for d in deltas
        ]
        events.append({"type": "content_block_stop", "index": index})
    events.append(
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use", "stop_sequence": None},
            "usage": {"output_tokens": 20},
        }
    )
    return [*events, {"type": "message_stop"}]


def an10b_index_reused() -> list[dict[str, Any]]:
    """AN-10b: the second tool_use block streams at index 0 again, after the first one stopped."""
    events = anthropic_stream()
    for event in events:
        if event.get("index") == 1:
            event["index"] = 0
    return events


def an10b_indexes_from_one() -> list[dict[str, Any]]:
    """AN-10b: the blocks are numbered from 1 (a gateway counting Claude's blocks after a text block
    it dropped)."""
    events = anthropic_stream()
    for event in events:
        if "index" in event:
            event["index"] += 1
    return events


def an10c_delta_after_stop() -> list[dict[str, Any]]:
    """AN-10c: the first block's last input_json_delta comes after its content_block_stop."""
    events = anthropic_stream()
    deltas = [e for e in events if e["type"] == "content_block_delta" and e["index"] == 0]
    stop = next(e for e in events if e["type"] == "content_block_stop")
    events.remove(deltas[-1])
    events.insert(events.index(stop) + 1, deltas[-1])
    return events


def an10e_stop_reason_end_turn() -> list[dict[str, Any]]:
    """AN-10e: the message with the two calls ends with stop_reason end_turn."""
    events = anthropic_stream()
    events[-2]["delta"]["stop_reason"] = "end_turn"
    return events


def an10c_block_never_stopped() -> list[dict[str, Any]]:
    """AN-10c: the first tool_use block gets no content_block_stop (the second one does)."""
    events = anthropic_stream()
    events.remove(next(e for e in events if e["type"] == "content_block_stop"))
    return events


# Gemini -----------------------------------------------------------------------------------------------


def gemini_stream() -> list[dict[str, Any]]:
    """A well-formed Gemini streamGenerateContent stream (alt=sse) of the two calls, one chunk each,
    args as objects; the last chunk finishes STOP."""
    chunks = []
    for n, (_, _, deltas) in enumerate(CALLS):
        call = {"name": "get_weather", "args": json.loads("".join(deltas))}
        candidate: dict[str, Any] = {
            "content": {"parts": [{"functionCall": call}], "role": "model"},
            "index": 0,
        }
        if n == len(CALLS) - 1:
            candidate["finishReason"] = "STOP"
        chunks.append(
            {
                "candidates": [candidate],
                "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 20, "totalTokenCount": 30},
                "modelVersion": "gemini-test",
                "responseId": "resp_1",
            }
        )
    return chunks


def gm7_args_as_string() -> list[dict[str, Any]]:
    """GM-7: the first call's args are the JSON text of the object (as OpenAI sends arguments)."""
    chunks = gemini_stream()
    call = chunks[0]["candidates"][0]["content"]["parts"][0]["functionCall"]
    call["args"] = json.dumps(call["args"], separators=(",", ":"))
    return chunks


def gm7_call_without_name() -> list[dict[str, Any]]:
    """GM-7 (its warning half): the first functionCall has args but no name, outside a streamed call."""
    chunks = gemini_stream()
    del chunks[0]["candidates"][0]["content"]["parts"][0]["functionCall"]["name"]
    return chunks


# Amazon Bedrock ConverseStream ----------------------------------------------------------------------


def bedrock_stream() -> list[dict[str, Any]]:
    """A well-formed Bedrock ConverseStream (one event object per frame) of the two calls: one toolUse
    block each (index 0, 1), its input in fragments, stopped; stopReason tool_use, then metadata."""
    events: list[dict[str, Any]] = [{"messageStart": {"role": "assistant"}}]
    for index, (_, call_id, deltas) in enumerate(CALLS):
        start = {"toolUse": {"toolUseId": call_id.replace("call_", "tooluse_"), "name": "get_weather"}}
        events.append({"contentBlockStart": {"start": start, "contentBlockIndex": index}})
        events += [
            {"contentBlockDelta": {"delta": {"toolUse": {"input": d}}, "contentBlockIndex": index}}
            for d in deltas
        ]
        events.append({"contentBlockStop": {"contentBlockIndex": index}})
    events.append({"messageStop": {"stopReason": "tool_use"}})
    usage = {"inputTokens": 10, "outputTokens": 20, "totalTokens": 30}
    return [*events, {"metadata": {"usage": usage, "metrics": {"latencyMs": 100}}}]


def _bedrock_index(event: dict[str, Any]) -> int | None:
    (body,) = event.values()
    return body.get("contentBlockIndex")


def br9b_index_reused() -> list[dict[str, Any]]:
    """BR-9b: the second toolUse block streams at contentBlockIndex 0 again, after the first stopped."""
    events = bedrock_stream()
    for event in events:
        if _bedrock_index(event) == 1:
            next(iter(event.values()))["contentBlockIndex"] = 0
    return events


def br9c_delta_after_stop() -> list[dict[str, Any]]:
    """BR-9c: the first block's last input fragment comes after its contentBlockStop."""
    events = bedrock_stream()
    deltas = [e for e in events if "contentBlockDelta" in e and _bedrock_index(e) == 0]
    stop = next(e for e in events if "contentBlockStop" in e)
    events.remove(deltas[-1])
    events.insert(events.index(stop) + 1, deltas[-1])
    return events


def br9e_stop_reason_end_turn() -> list[dict[str, Any]]:
    """BR-9e: the message with the two calls stops with stopReason end_turn."""
    events = bedrock_stream()
    next(e for e in events if "messageStop" in e)["messageStop"]["stopReason"] = "end_turn"
    return events


def br9c_block_never_stopped() -> list[dict[str, Any]]:
    """BR-9c: the first toolUse block gets no contentBlockStop (the second one does)."""
    events = bedrock_stream()
    events.remove(next(e for e in events if "contentBlockStop" in e))
    return events
