"""Hand-written response bodies: a well-formed one per provider, and each body rule's violating body.

Written from the providers' documented response shapes, not from any recording: one assistant turn
with two parallel calls of one tool (get_weather, Paris and Lyon).  Each violating body changes
the first call only, so the second call shows what a consumer does with a well-formed call beside it.
"""

from __future__ import annotations

import copy
from typing import Any

from helpers.consumers import sse
from helpers.violating import function_call_item, response_object, responses_stream

PARIS, LYON = '{"city":"Paris"}', '{"city":"Lyon"}'


# OpenAI Chat Completions -----------------------------------------------------------------------


def chat_completion() -> dict[str, Any]:
    """A well-formed ``chat.completion`` whose one choice calls get_weather twice."""
    calls = [
        {"id": call_id, "type": "function", "function": {"name": "get_weather", "arguments": arguments}}
        for call_id, arguments in (("call_1", PARIS), ("call_2", LYON))
    ]
    message = {"role": "assistant", "content": None, "refusal": None, "tool_calls": calls}
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1767225600,
        "model": "gpt-test",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "logprobs": None, "message": message}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 20, "total_tokens": 30},
    }


def _first_chat_call(body: dict[str, Any]) -> dict[str, Any]:
    call: dict[str, Any] = body["choices"][0]["message"]["tool_calls"][0]
    return call


def cc9a_call_without_id() -> dict[str, Any]:
    """CC-9a: the first call has no id (an accumulator that kept only the later fragments)."""
    body = chat_completion()
    del _first_chat_call(body)["id"]
    return body


def cc9a_call_without_type() -> dict[str, Any]:
    """CC-9a: the first call has no type."""
    body = chat_completion()
    del _first_chat_call(body)["type"]
    return body


def cc9b_arguments_object() -> dict[str, Any]:
    """CC-9b: the first call's function.arguments is the parsed object, not its JSON text."""
    body = chat_completion()
    _first_chat_call(body)["function"]["arguments"] = {"city": "Paris"}
    return body


# OpenAI Responses ------------------------------------------------------------------------------


def response() -> dict[str, Any]:
    """A well-formed completed ``response`` whose output is two function_call items."""
    calls = (("fc_1", "call_1", PARIS), ("fc_2", "call_2", LYON))
    return response_object("completed", [function_call_item(*call, "completed") for call in calls])


def rs10a_item_without_call_id() -> dict[str, Any]:
    """RS-10a: the first function_call item has no call_id."""
    body = response()
    del body["output"][0]["call_id"]
    return body


def rs10a_item_without_name() -> dict[str, Any]:
    """RS-10a: the first function_call item has no name."""
    body = response()
    del body["output"][0]["name"]
    return body


def rs10b_arguments_object() -> dict[str, Any]:
    """RS-10b: the first item's arguments is the parsed object, not its JSON text."""
    body = response()
    body["output"][0]["arguments"] = {"city": "Paris"}
    return body


def rs10b_item_without_arguments() -> dict[str, Any]:
    """RS-10b: the first function_call item has no arguments."""
    body = response()
    del body["output"][0]["arguments"]
    return body


# Anthropic -------------------------------------------------------------------------------------


def message(stop_reason: str = "tool_use") -> dict[str, Any]:
    """A well-formed Anthropic ``message`` with two tool_use blocks."""
    content = [
        {"type": "tool_use", "id": block_id, "name": "get_weather", "input": {"city": city}}
        for block_id, city in (("toolu_1", "Paris"), ("toolu_2", "Lyon"))
    ]
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 20},
    }


def final_message() -> dict[str, Any]:
    """The model's answer once it has the tools' results: text, end_turn."""
    body = message("end_turn") | {"id": "msg_2"}
    body["content"] = [{"type": "text", "text": "Sunny in both."}]
    return body


def an12a_block_without_id() -> dict[str, Any]:
    """AN-12a: the first tool_use block has no id."""
    body = message()
    del body["content"][0]["id"]
    return body


def an12a_input_text() -> dict[str, Any]:
    """AN-12a: the first block's input is the accumulated partial_json text, not an object."""
    body = message()
    body["content"][0]["input"] = PARIS
    return body


def an12b_tool_use_stops_end_turn() -> dict[str, Any]:
    """AN-12b: a message with tool_use blocks whose stop_reason is end_turn."""
    return message("end_turn")


# Gemini ----------------------------------------------------------------------------------------


def generate_content_response() -> dict[str, Any]:
    """A well-formed ``GenerateContentResponse`` whose candidate has two functionCall parts."""
    parts = [{"functionCall": {"name": "get_weather", "args": {"city": city}}} for city in ("Paris", "Lyon")]
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 20, "totalTokenCount": 30},
        "modelVersion": "gemini-test",
    }


def gm9a_args_text() -> dict[str, Any]:
    """GM-9a: the first functionCall's args is JSON text, not an object."""
    body = generate_content_response()
    body["candidates"][0]["content"]["parts"][0]["functionCall"]["args"] = PARIS
    return body


def gm9a_call_without_name() -> dict[str, Any]:
    """GM-9a: the first functionCall has no name."""
    body = generate_content_response()
    del body["candidates"][0]["content"]["parts"][0]["functionCall"]["name"]
    return body


# Mistral ---------------------------------------------------------------------------------------


def mistral_completion() -> dict[str, Any]:
    """A well-formed Mistral chat completion with two calls (Mistral's nine-character ids)."""
    body = copy.deepcopy(chat_completion())
    body["model"] = "mistral-test"
    message = body["choices"][0]["message"]
    message["content"] = ""
    del message["refusal"]
    del body["choices"][0]["logprobs"]
    for call, call_id in zip(message["tool_calls"], ("a1b2c3d4e", "f5g6h7i8j"), strict=True):
        call["id"] = call_id
    return body


def mi7a_call_without_id() -> dict[str, Any]:
    """MI-7a: the first call has no id."""
    body = mistral_completion()
    del _first_chat_call(body)["id"]
    return body


def mi7a_call_without_name() -> dict[str, Any]:
    """MI-7a: the first call's function has no name."""
    body = mistral_completion()
    del _first_chat_call(body)["function"]["name"]
    return body


# Bedrock Converse ------------------------------------------------------------------------------


def converse_output() -> dict[str, Any]:
    """A well-formed Converse response whose message has two toolUse blocks."""
    content = [
        {"toolUse": {"toolUseId": use_id, "name": "get_weather", "input": {"city": city}}}
        for use_id, city in (("tooluse_1", "Paris"), ("tooluse_2", "Lyon"))
    ]
    return {
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": "tool_use",
        "usage": {"inputTokens": 10, "outputTokens": 20, "totalTokens": 30},
        "metrics": {"latencyMs": 100},
    }


def br10a_block_without_id() -> dict[str, Any]:
    """BR-10a: the first toolUse block has no toolUseId."""
    body = converse_output()
    del body["output"]["message"]["content"][0]["toolUse"]["toolUseId"]
    return body


def br10a_input_text() -> dict[str, Any]:
    """BR-10a: the first toolUse block's input is the concatenated fragments' text, not an object."""
    body = converse_output()
    body["output"]["message"]["content"][0]["toolUse"]["input"] = PARIS
    return body


# MCP session -----------------------------------------------------------------------------------
# A session's messages after the initialize handshake (tests/helpers/mcp_consumers.py HANDSHAKE),
# both directions in order: the client calls get_weather, the server answers.

OK_RESULT: dict[str, Any] = {"content": [{"type": "text", "text": "sunny in Paris"}], "isError": False}


def tools_call(request_id: Any, arguments: Any = None) -> dict[str, Any]:
    """A tools/call request of get_weather (Paris unless ``arguments`` says otherwise)."""
    params = {"name": "get_weather", "arguments": {"city": "Paris"} if arguments is None else arguments}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def result(request_id: Any, value: dict[str, Any] | None = None) -> dict[str, Any]:
    """A response carrying ``value`` (the Paris result unless given) as its result."""
    return {"jsonrpc": "2.0", "id": request_id, "result": OK_RESULT if value is None else value}


def mcp_session() -> list[dict[str, Any]]:
    """A well-formed session: one tools/call and its result."""
    return [tools_call(1), result(1)]


def mcp1_null_id() -> list[dict[str, Any]]:
    """MCP-1: a tools/call whose id is null (the SDK server answers nothing, so nothing follows)."""
    return [tools_call(None)]


def mcp1_id_reused() -> list[dict[str, Any]]:
    """MCP-1: the client numbers its second tools/call 1 again, after the first was answered."""
    return [tools_call(1), result(1), tools_call(1, {"city": "Lyon"}), result(1, OK_RESULT | {"content": []})]


def mcp2a_unknown_id() -> list[dict[str, Any]]:
    """MCP-2a: the result carries an id no request has (the call's own id plus 100)."""
    return [tools_call(1), result(101)]


def mcp2a_answered_twice() -> list[dict[str, Any]]:
    """MCP-2a: the call is answered twice, the second time with another result."""
    return [tools_call(1), result(1), result(1, {"content": [{"type": "text", "text": "rain"}]})]


BOOM: dict[str, Any] = {"code": -32603, "message": "boom"}


def mcp2b_result_and_error() -> list[dict[str, Any]]:
    """MCP-2b: the response sets both result and error."""
    return [tools_call(1), result(1) | {"error": BOOM}]


def mcp2b_neither() -> list[dict[str, Any]]:
    """MCP-2b: the response sets neither result nor error."""
    return [tools_call(1), {"jsonrpc": "2.0", "id": 1}]


def mcp3_arguments_text() -> list[dict[str, Any]]:
    """MCP-3: the tools/call arguments are JSON text, not an object; the server answers -32602."""
    error = {"code": -32602, "message": "Invalid request parameters", "data": ""}
    return [tools_call(1, '{"city":"Paris"}'), {"jsonrpc": "2.0", "id": 1, "error": error}]


def mcp3_result_without_content() -> list[dict[str, Any]]:
    """MCP-3: the tools/call result has no content list."""
    return [tools_call(1), result(1, {"isError": False})]


# AI SDK messages -------------------------------------------------------------------------------

USER_ASKS: dict[str, Any] = {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "Weather?"}]}


def tool_part(call_id: str, city: str, output: str | None = None) -> dict[str, Any]:
    """A get_weather UI tool part: input-available, or output-available when ``output`` is given."""
    part: dict[str, Any] = {"type": "tool-get_weather", "toolCallId": call_id, "input": {"city": city}}
    if output is None:
        return part | {"state": "input-available"}
    return part | {"state": "output-available", "output": output}


def ui_messages(*, answered: bool = True) -> list[dict[str, Any]]:
    """Well-formed UIMessage[]: the user asks, the assistant calls get_weather for Paris and Lyon
    (answered, or both waiting for their outputs)."""
    parts = [tool_part("call_1", "Paris", "sunny" if answered else None)]
    parts.append(tool_part("call_2", "Lyon", "rain" if answered else None))
    return [USER_ASKS, {"id": "a1", "role": "assistant", "parts": parts}]


def vm1_call_id_repeated() -> list[dict[str, Any]]:
    """VM-1: both calls, waiting for their outputs, carry the toolCallId call_1."""
    messages = ui_messages(answered=False)
    messages[1]["parts"][1]["toolCallId"] = "call_1"
    return messages


def vm3_tool_part_in_user_message() -> list[dict[str, Any]]:
    """VM-3: the answered Paris call sits in the user's message; the assistant then answers."""
    user = USER_ASKS | {"parts": [*USER_ASKS["parts"], tool_part("call_1", "Paris", "sunny")]}
    return [user, {"id": "a1", "role": "assistant", "parts": [{"type": "text", "text": "Sunny."}]}]


def _tool_call(call_id: str, city: str) -> dict[str, Any]:
    return {"type": "tool-call", "toolCallId": call_id, "toolName": "get_weather", "input": {"city": city}}


def _tool_result(call_id: str, value: str) -> dict[str, Any]:
    output = {"type": "text", "value": value}
    return {"type": "tool-result", "toolCallId": call_id, "toolName": "get_weather", "output": output}


def model_messages(*, second_id: str = "call_2", answer_second: bool = True) -> list[dict[str, Any]]:
    """ModelMessage[]: the user asks, the assistant calls get_weather for Paris (call_1) and Lyon
    (``second_id``), and the tool message answers Paris, and Lyon when ``answer_second``."""
    results = [_tool_result("call_1", "sunny")] + ([_tool_result(second_id, "rain")] if answer_second else [])
    return [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": [_tool_call("call_1", "Paris"), _tool_call(second_id, "Lyon")]},
        {"role": "tool", "content": results},
    ]


def vp2_call_id_repeated() -> list[dict[str, Any]]:
    """VP-2: both calls carry call_1, and the one result answers call_1 (the Lyon call is unanswered)."""
    return model_messages(second_id="call_1", answer_second=False)


# Open Responses streams ------------------------------------------------------------------------
# The well-formed OpenAI Responses stream of tests/helpers/violating.py (two parallel calls), as
# Open Responses frames it: named events and a closing data: [DONE].  Each function gives SSE text.


def _stream() -> list[dict[str, Any]]:
    return responses_stream()


def _sse(events: list[dict[str, Any]], *, done: bool = True) -> str:
    return sse(events, done=done)


def _renumbered(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [event | {"sequence_number": n} for n, event in enumerate(events)]


def open_responses_stream() -> str:
    """A well-formed Open Responses stream of two parallel function calls."""
    return _sse(_stream())


def or1_added_item_without_id() -> str:
    """OR-1: the first call's output_item.added item has no id (its done item has it)."""
    events = _stream()
    added = next(e for e in events if e["type"] == "response.output_item.added")
    del added["item"]["id"]
    return _sse(events)


def or3_delta_before_added() -> str:
    """OR-3: the first call's first argument delta comes before its output_item.added."""
    events = _stream()
    delta = next(e for e in events if e["type"] == "response.function_call_arguments.delta")
    events.remove(delta)
    events.insert(next(k for k, e in enumerate(events) if e["type"] == "response.output_item.added"), delta)
    return _sse(_renumbered(events))


def or4a_done_in_progress() -> str:
    """OR-4a: the first call's output_item.done item still says in_progress."""
    events = _stream()
    done = next(e for e in events if e["type"] == "response.output_item.done")
    done["item"] = done["item"] | {"status": "in_progress"}
    return _sse(events)


def or4b_item_after_incomplete_item() -> str:
    """OR-4b: the first call is done incomplete, yet the second call follows and the response completes."""
    events = _stream()
    done = next(e for e in events if e["type"] == "response.output_item.done")
    done["item"] = done["item"] | {"status": "incomplete"}
    completed = events[-1]
    output = copy.deepcopy(completed["response"]["output"])
    output[0]["status"] = "incomplete"
    completed["response"] = completed["response"] | {"output": output}
    return _sse(events)


def or5a_event_field_mismatch() -> str:
    """OR-5a: the first argument delta is named response.output_text.delta in its event: field."""
    text = open_responses_stream()
    return text.replace(
        "event: response.function_call_arguments.delta", "event: response.output_text.delta", 1
    )


def or5b_no_done() -> str:
    """OR-5b: the stream ends after response.completed without data: [DONE]."""
    return _sse(_stream(), done=False)


def or5b_events_after_done() -> str:
    """OR-5b: a data: [DONE] after the first call's output_item.done, and the rest of the stream after it."""
    events = _stream()
    cut = next(k for k, e in enumerate(events) if e["type"] == "response.output_item.done") + 1
    return _sse(events[:cut]) + _sse(events[cut:])


def or8_delta_without_delta() -> str:
    """OR-8: the first call's first argument delta event has no delta field."""
    events = _stream()
    delta = next(e for e in events if e["type"] == "response.function_call_arguments.delta")
    del delta["delta"]
    return _sse(events)
