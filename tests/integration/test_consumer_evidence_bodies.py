"""Severity from evidence (issue 38), body side: real consumers fed each body rule's violating body.

A body rule is an error when a real consumer of the response body loses, duplicates or changes a
call, its arguments or its id, or refuses the body; otherwise a warning whose source names the
consumers run here.  Each test pins exactly what the consumers made of one hand-written body
(tests/helpers/violating_bodies.py) beside the well-formed body it was cut from, and that toolwire
flags the body with the rule alone at the severity this evidence gives.  The consumers
(tests/helpers/body_consumers.py) are pinned in pyproject.toml's dev extra: openai, anthropic,
google-genai, mistralai, botocore, langchain-openai, langchain-anthropic, openai-agents, and
mcp for the MCP session rules (tests/helpers/mcp_consumers.py: its server and its ClientSession).
The same holds for the other rules without a provider error outside the stream set: AI SDK message
lists (the ``ai`` package in node, tests/sdk/message_consumers.mjs) and Open Responses streams (the
Responses clients of tests/helpers/consumers.py).  The node consumers run only where
``npm ci --prefix tests/sdk`` was run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import toolwire
from helpers import body_consumers as consume
from helpers import consumers
from helpers import mcp_consumers as mcp
from helpers import violating_bodies as bodies
from helpers.consumers import Seen
from toolwire.protocols import RULES

pytestmark = pytest.mark.slow

PARIS, LYON = bodies.PARIS, bodies.LYON
#: The two calls as each family's consumers hand them on from the well-formed body.
CHAT = [("call_1", "get_weather", PARIS), ("call_2", "get_weather", LYON)]
#: LangChain re-serialises the parsed arguments with json.dumps' default separators.
LANGCHAIN = [("call_1", "get_weather", '{"city": "Paris"}'), ("call_2", "get_weather", '{"city": "Lyon"}')]
ANTHROPIC = [("toolu_1", "get_weather", "object:" + PARIS), ("toolu_2", "get_weather", "object:" + LYON)]
#: anthropic's tool runner on the well-formed message: both calls run, then one more request.
RAN_BOTH = [("ran", "get_weather", PARIS), ("ran", "get_weather", LYON), ("requests", 2, "end_turn")]


def _flagged(tmp_path: Path, body: Any, protocol: str) -> dict[str, str]:
    path = tmp_path / "body.json"
    path.write_text(json.dumps(body))
    return {f.rule: f.severity for f in toolwire.check_file(path, protocol).findings}


@pytest.mark.parametrize(
    ("rule", "protocol", "good", "trace", "severity"),
    [
        ("CC-9a", "openai-chat-response", bodies.chat_completion, bodies.cc9a_call_without_id, "error"),
        ("CC-9a", "openai-chat-response", bodies.chat_completion, bodies.cc9a_call_without_type, "error"),
        ("CC-9b", "openai-chat-response", bodies.chat_completion, bodies.cc9b_arguments_object, "error"),
        ("RS-10a", "openai-responses-response", bodies.response, bodies.rs10a_item_without_call_id, "error"),
        ("RS-10a", "openai-responses-response", bodies.response, bodies.rs10a_item_without_name, "error"),
        ("RS-10b", "openai-responses-response", bodies.response, bodies.rs10b_arguments_object, "error"),
        (
            "RS-10b",
            "openai-responses-response",
            bodies.response,
            bodies.rs10b_item_without_arguments,
            "error",
        ),
        ("AN-12a", "anthropic-message-response", bodies.message, bodies.an12a_block_without_id, "error"),
        ("AN-12a", "anthropic-message-response", bodies.message, bodies.an12a_input_text, "error"),
        (
            "AN-12b",
            "anthropic-message-response",
            bodies.message,
            bodies.an12b_tool_use_stops_end_turn,
            "error",
        ),
        ("GM-9a", "gemini-response", bodies.generate_content_response, bodies.gm9a_args_text, "error"),
        (
            "GM-9a",
            "gemini-response",
            bodies.generate_content_response,
            bodies.gm9a_call_without_name,
            "error",
        ),
        ("MI-7a", "mistral-chat-response", bodies.mistral_completion, bodies.mi7a_call_without_id, "error"),
        ("MI-7a", "mistral-chat-response", bodies.mistral_completion, bodies.mi7a_call_without_name, "error"),
        (
            "BR-10a",
            "bedrock-converse-response",
            bodies.converse_output,
            bodies.br10a_block_without_id,
            "error",
        ),
        ("BR-10a", "bedrock-converse-response", bodies.converse_output, bodies.br10a_input_text, "error"),
    ],
)
def test_each_body_breaks_its_rule_alone(
    tmp_path: Path, rule: str, protocol: str, good: Any, trace: Any, severity: str
) -> None:
    assert _flagged(tmp_path, good(), protocol) == {}
    assert _flagged(tmp_path, trace(), protocol) == {rule: severity}
    assert RULES[rule].severity == severity
    assert "tests/integration/test_consumer_evidence_bodies.py" in RULES[rule].source


# OpenAI Chat Completions: CC-9a, CC-9b ---------------------------------------------------------


def test_every_chat_consumer_hands_on_both_calls_of_the_well_formed_completion() -> None:
    body = bodies.chat_completion()
    assert consume.openai_chat_validate(body).calls == CHAT
    assert consume.openai_chat_client(body).calls == CHAT
    assert consume.openai_agents_chat(body).calls == CHAT
    assert consume.langchain_openai_chat(body).calls == LANGCHAIN


def test_a_chat_call_without_id_loses_its_id_or_is_refused() -> None:
    body = bodies.cc9a_call_without_id()
    assert "tool_calls.0.ChatCompletionMessageFunctionToolCall.id" in str(
        consume.openai_chat_validate(body).error
    )
    # The client constructs without validating: the call comes out with id None, and so does
    # LangChain's message; a tool result can no longer name the call it answers.
    assert consume.openai_chat_client(body).calls == [(None, "get_weather", PARIS), CHAT[1]]
    assert consume.langchain_openai_chat(body).calls == [(None, *LANGCHAIN[0][1:]), LANGCHAIN[1]]
    agents = consume.openai_agents_chat(body)
    assert agents.calls == []
    assert str(agents.error).startswith(
        "ValidationError: 1 validation error for ResponseFunctionToolCall\ncall_id"
    )


def test_a_chat_call_without_type_is_dropped_by_openai_agents() -> None:
    body = bodies.cc9a_call_without_type()
    assert "ChatCompletionMessageFunctionToolCall.type" in str(consume.openai_chat_validate(body).error)
    assert consume.openai_chat_client(body).calls == CHAT
    assert consume.langchain_openai_chat(body).calls == LANGCHAIN
    # Converter.message_to_output_items keeps only calls typed "function": the first call is lost.
    agents = consume.openai_agents_chat(body)
    assert (agents.calls, agents.error) == ([CHAT[1]], None)


def test_chat_arguments_given_as_an_object_are_refused_or_handed_on_as_an_object() -> None:
    body = bodies.cc9b_arguments_object()
    assert "function.arguments" in str(consume.openai_chat_validate(body).error)
    assert consume.openai_chat_client(body).calls == [("call_1", "get_weather", "object:" + PARIS), CHAT[1]]
    assert "invalid_tool_calls.0.args" in str(consume.langchain_openai_chat(body).error)
    assert "ResponseFunctionToolCall\narguments" in str(consume.openai_agents_chat(body).error)


# OpenAI Responses: RS-10a, RS-10b --------------------------------------------------------------


def test_a_function_call_item_without_call_id_loses_its_id() -> None:
    assert consume.openai_responses_client(bodies.response()).calls == CHAT
    assert consume.langchain_openai_responses(bodies.response()).calls == LANGCHAIN
    body = bodies.rs10a_item_without_call_id()
    assert consume.openai_responses_client(body).calls == [(None, "get_weather", PARIS), CHAT[1]]
    assert consume.langchain_openai_responses(body).calls == [(None, *LANGCHAIN[0][1:]), LANGCHAIN[1]]


def test_a_function_call_item_without_name_is_refused_by_langchain() -> None:
    body = bodies.rs10a_item_without_name()
    assert consume.openai_responses_client(body).calls == [("call_1", None, PARIS), CHAT[1]]
    assert "tool_calls.0.name" in str(consume.langchain_openai_responses(body).error)


def test_function_call_arguments_not_text_are_refused_by_langchain() -> None:
    body = bodies.rs10b_arguments_object()
    assert consume.openai_responses_client(body).calls == [
        ("call_1", "get_weather", "object:" + PARIS),
        CHAT[1],
    ]
    assert consume.langchain_openai_responses(body).error == (
        "TypeError: the JSON object must be str, bytes or bytearray, not dict"
    )
    body = bodies.rs10b_item_without_arguments()
    assert consume.openai_responses_client(body).calls == [("call_1", "get_weather", None), CHAT[1]]
    assert consume.langchain_openai_responses(body).error == (
        "TypeError: the JSON object must be str, bytes or bytearray, not NoneType"
    )


# Anthropic: AN-12a, AN-12b ---------------------------------------------------------------------


def _runner(body: dict[str, Any]) -> Any:
    return consume.anthropic_tool_runner(body, bodies.final_message())


def test_every_anthropic_consumer_hands_on_both_calls_of_the_well_formed_message() -> None:
    body = bodies.message()
    assert consume.anthropic_client(body).calls == ANTHROPIC
    assert consume.langchain_anthropic(body).calls == [
        ("toolu_1", "get_weather", '{"city": "Paris"}'),
        ("toolu_2", "get_weather", '{"city": "Lyon"}'),
    ]
    assert _runner(body).calls == RAN_BOTH


def test_a_tool_use_block_without_id_loses_its_id() -> None:
    body = bodies.an12a_block_without_id()
    assert consume.anthropic_client(body).calls == [(None, *ANTHROPIC[0][1:]), ANTHROPIC[1]]
    assert consume.langchain_anthropic(body).calls[0] == (None, "get_weather", '{"city": "Paris"}')


def test_a_tool_use_input_given_as_text_is_refused_and_its_call_not_run() -> None:
    body = bodies.an12a_input_text()
    assert consume.anthropic_client(body).calls == [("toolu_1", "get_weather", PARIS), ANTHROPIC[1]]
    assert "tool_calls.0.args" in str(consume.langchain_anthropic(body).error)
    # The tool runner's call of the tool raises "Input must be a dictionary, got str": only Lyon runs.
    assert _runner(body).calls == [("ran", "get_weather", LYON), ("requests", 2, "end_turn")]


def test_tool_use_blocks_stopping_end_turn_are_never_run_by_the_tool_runner() -> None:
    body = bodies.an12b_tool_use_stops_end_turn()
    assert consume.anthropic_client(body).calls == ANTHROPIC
    assert [c[0] for c in consume.langchain_anthropic(body).calls] == ["toolu_1", "toolu_2"]
    # The runner steps by stop_reason: end_turn is final, and its tool_use blocks are not executed.
    assert _runner(body).calls == [("requests", 1, "end_turn")]


# Gemini: GM-9a ---------------------------------------------------------------------------------


def test_google_genai_refuses_function_call_args_given_as_text() -> None:
    good = consume.google_genai(bodies.generate_content_response())
    assert good.calls == [(None, "get_weather", "object:" + PARIS), (None, "get_weather", "object:" + LYON)]
    seen = consume.google_genai(bodies.gm9a_args_text())
    assert seen.calls == []
    assert "candidates.0.content.parts.0.functionCall.args" in str(seen.error)
    nameless = consume.google_genai(bodies.gm9a_call_without_name())
    assert nameless.calls == [(None, None, "object:" + PARIS), good.calls[1]]


# Mistral: MI-7a --------------------------------------------------------------------------------


def test_mistralai_turns_a_missing_call_id_into_the_id_null() -> None:
    good = consume.mistralai(bodies.mistral_completion())
    assert good.calls == [("a1b2c3d4e", "get_weather", PARIS), ("f5g6h7i8j", "get_weather", LYON)]
    # ToolCall.id defaults to the string "null": the call gets an id the model never gave it.
    assert consume.mistralai(bodies.mi7a_call_without_id()).calls == [
        ("null", "get_weather", PARIS),
        good.calls[1],
    ]
    nameless = consume.mistralai(bodies.mi7a_call_without_name())
    assert nameless.calls == []
    assert "function.name\n  Field required" in str(nameless.error)


# Bedrock: BR-10a -------------------------------------------------------------------------------


def test_botocore_parses_a_tool_use_without_id_and_refuses_to_send_it_back() -> None:
    good = [("tooluse_1", "get_weather", "object:" + PARIS), ("tooluse_2", "get_weather", "object:" + LYON)]
    assert consume.botocore_converse(bodies.converse_output()).calls == good
    assert consume.botocore_converse_next_turn(bodies.converse_output()).calls == good
    body = bodies.br10a_block_without_id()
    assert consume.botocore_converse(body).calls == [(None, "get_weather", "object:" + PARIS), good[1]]
    assert consume.botocore_converse_next_turn(body).error == (
        "ParamValidationError: Parameter validation failed:\n"
        'Missing required parameter in messages[1].content[0].toolUse: "toolUseId"'
    )


def test_botocore_hands_on_tool_use_input_given_as_text_unchanged() -> None:
    body = bodies.br10a_input_text()
    seen = [("tooluse_1", "get_weather", PARIS), ("tooluse_2", "get_weather", "object:" + LYON)]
    assert consume.botocore_converse(body).calls == seen
    assert consume.botocore_converse_next_turn(body).calls == seen


# MCP sessions: MCP-1, MCP-2a, MCP-2b, MCP-3 ----------------------------------------------------


def _session(tmp_path: Path, trace: list[dict[str, Any]]) -> dict[str, str]:
    path = tmp_path / "session.jsonl"
    handshake = [*mcp.HANDSHAKE[:1], {"jsonrpc": "2.0", "id": 0, "result": mcp.INITIALIZED}, mcp.HANDSHAKE[1]]
    path.write_text("".join(json.dumps(m) + "\n" for m in handshake + trace))
    return {f.rule: f.severity for f in toolwire.check_file(path, "mcp").findings}


@pytest.mark.parametrize(
    ("trace", "flagged"),
    [
        (bodies.mcp1_null_id, {"MCP-1": "error"}),
        (bodies.mcp1_id_reused, {"MCP-1": "error"}),
        # The call the stray response does not answer is still open when the capture ends.
        (bodies.mcp2a_unknown_id, {"MCP-2a": "error", "MCP-2c": "warning"}),
        (bodies.mcp2a_answered_twice, {"MCP-2a": "error"}),
        (bodies.mcp2b_result_and_error, {"MCP-2b": "error"}),
        (bodies.mcp2b_neither, {"MCP-2b": "error"}),
        (bodies.mcp3_arguments_text, {"MCP-3": "error"}),
        (bodies.mcp3_result_without_content, {"MCP-3": "error"}),
    ],
)
def test_each_session_breaks_its_rule(tmp_path: Path, trace: Any, flagged: dict[str, str]) -> None:
    assert _session(tmp_path, bodies.mcp_session()) == {}
    assert _session(tmp_path, trace()) == flagged
    for rule, severity in flagged.items():
        assert RULES[rule].severity == severity
    for rule in ("MCP-1", "MCP-2a", "MCP-2b", "MCP-3"):
        assert "tests/integration/test_consumer_evidence_bodies.py" in RULES[rule].source


def _requests(trace: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in trace if "method" in m]


def _answering(trace: list[dict[str, Any]]) -> Any:
    """The trace's responses, renumbered from its call's id (1) to the id the SDK client gave it."""
    responses = [m for m in trace if "method" not in m]
    return lambda n: [m | {"id": n + m["id"] - 1} for m in responses]


SUNNY = {"content": [{"type": "text", "text": "sunny in Paris"}], "isError": False}


def test_the_mcp_server_runs_the_call_and_the_client_returns_its_result() -> None:
    served = mcp.server_side(_requests(bodies.mcp_session()))
    assert served.ran == ["Paris"]
    assert [(m["id"], m["result"]["content"]) for m in served.wrote] == [(1, SUNNY["content"])]
    assert mcp.client_side(_answering(bodies.mcp_session())) == {"result": SUNNY | {"resultType": "complete"}}


def test_the_mcp_server_reads_a_call_with_id_null_as_a_notification_and_never_runs_it() -> None:
    served = mcp.server_side(_requests(bodies.mcp1_null_id()))
    # jsonrpc_message_adapter reads {"id": null, "method": ...} as a JSONRPCNotification.
    assert (served.ran, served.wrote) == ([], [])


def test_the_mcp_server_runs_and_answers_a_reused_id_as_a_new_call() -> None:
    served = mcp.server_side(_requests(bodies.mcp1_id_reused()))
    assert served.ran == ["Paris", "Lyon"]
    assert [m["id"] for m in served.wrote] == [1, 1]


def test_the_mcp_client_drops_a_response_with_an_unknown_id_and_times_out() -> None:
    assert mcp.client_side(_answering(bodies.mcp2a_unknown_id())) == {
        "error": "MCPError: Request 'tools/call' timed out"
    }


def test_the_mcp_client_keeps_the_first_of_two_responses_to_one_call() -> None:
    seen = mcp.client_side(_answering(bodies.mcp2a_answered_twice()))
    assert seen == {"result": SUNNY | {"resultType": "complete"}}


def test_the_mcp_client_reads_result_and_error_as_the_error_and_loses_the_result() -> None:
    assert mcp.client_side(_answering(bodies.mcp2b_result_and_error())) == {"error": "MCPError: boom"}


def test_the_mcp_client_cannot_read_a_response_with_neither_and_times_out() -> None:
    assert mcp.client_side(_answering(bodies.mcp2b_neither())) == {
        "error": "MCPError: Request 'tools/call' timed out"
    }


def test_the_mcp_server_refuses_arguments_given_as_text() -> None:
    served = mcp.server_side(_requests(bodies.mcp3_arguments_text()))
    assert served.ran == []
    assert served.wrote == [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "error": {"code": -32602, "message": "Invalid request parameters", "data": ""},
        }
    ]
    # The trace's own answer is the one the SDK server gives.
    assert served.wrote[0] == bodies.mcp3_arguments_text()[1]


def test_the_mcp_client_refuses_a_tools_call_result_without_content() -> None:
    seen = mcp.client_side(_answering(bodies.mcp3_result_without_content()))
    assert seen["error"].startswith(
        "ValidationError: 1 validation error for CallToolResult\ncontent\n  Field required"
    )


# AI SDK messages: VM-1, VM-3, VP-2 (node) ------------------------------------------------------


def _node() -> None:
    if reason := consumers.node_missing():
        pytest.skip(reason)


@pytest.mark.parametrize(
    ("protocol", "good", "trace", "rule"),
    [
        ("aisdk-ui-messages", bodies.ui_messages, bodies.vm1_call_id_repeated, "VM-1"),
        ("aisdk-ui-messages", bodies.ui_messages, bodies.vm3_tool_part_in_user_message, "VM-3"),
        ("aisdk-model-messages", bodies.model_messages, bodies.vp2_call_id_repeated, "VP-2"),
    ],
)
def test_each_message_list_breaks_its_rule_alone(
    tmp_path: Path, protocol: str, good: Any, trace: Any, rule: str
) -> None:
    assert _flagged(tmp_path, good(), protocol) == {}
    assert _flagged(tmp_path, trace(), protocol) == {rule: "error"}
    assert RULES[rule].severity == "error"
    assert "tests/integration/test_consumer_evidence_bodies.py" in RULES[rule].source


def test_add_tool_output_writes_one_output_into_every_part_sharing_the_call_id() -> None:
    _node()
    kwargs = {"tool": "get_weather", "toolCallId": "call_1", "output": "sunny"}
    good = consume.ai_messages("add-tool-output", bodies.ui_messages(answered=False), **kwargs)
    assert [p.get("output") for p in good["messages"][1]["parts"]] == ["sunny", None]
    seen = consume.ai_messages("add-tool-output", bodies.vm1_call_id_repeated(), **kwargs)
    # Chat.addToolOutput updates every tool part with the id: the Lyon call gets Paris's output.
    assert [(p["input"]["city"], p["state"], p["output"]) for p in seen["messages"][1]["parts"]] == [
        ("Paris", "output-available", "sunny"),
        ("Lyon", "output-available", "sunny"),
    ]


def _parts(messages: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [
        (m["role"], p["type"], p.get("toolCallId", ""))
        for m in messages
        for p in (m["content"] if isinstance(m["content"], list) else [])
    ]


def test_convert_to_model_messages_loses_a_tool_part_of_a_user_message() -> None:
    _node()
    good = consume.ai_messages("convert", bodies.ui_messages())
    assert _parts(good["messages"]) == [
        ("user", "text", ""),
        ("assistant", "tool-call", "call_1"),
        ("assistant", "tool-call", "call_2"),
        ("tool", "tool-result", "call_1"),
        ("tool", "tool-result", "call_2"),
    ]
    seen = consume.ai_messages("convert", bodies.vm3_tool_part_in_user_message())
    # Only text, file and data parts of a user message are kept: the call and its result are gone.
    assert _parts(seen["messages"]) == [("user", "text", ""), ("assistant", "text", "")]


@pytest.mark.parametrize("model", ["openai-chat", "openai-responses", "anthropic"])
def test_generate_text_answers_two_calls_sharing_an_id_with_one_result(model: str) -> None:
    _node()
    unanswered = consume.ai_messages(f"prompt:{model}", bodies.model_messages(answer_second=False))
    assert unanswered == {"error": "AI_MissingToolResultsError: Tool result is missing for tool call call_2."}
    # The same conversation with the Lyon call numbered call_1: the one result counts for both
    # calls, and the request goes out with the Lyon call unanswered.
    sent = json.dumps(consume.ai_messages(f"prompt:{model}", bodies.vp2_call_id_repeated())["messages"])
    assert sent.count('"call_1"') == 3
    assert "Lyon" in sent and "rain" not in sent


# Open Responses streams: OR-1, OR-3, OR-4a, OR-4b, OR-5a, OR-5b, OR-8 ---------------------------
# An Open Responses server is read by the OpenAI Responses clients: openai-python's
# ResponseStreamState, langchain-openai, pydantic-ai and @ai-sdk/openai (tests/helpers/consumers.py).

OPEN = "open-responses-stream"
#: What the Python consumers hand on from the well-formed stream: both calls, as sent.
CALLS = CHAT


def _open_flagged(tmp_path: Path, text: str) -> dict[str, str]:
    path = tmp_path / "trace.sse"
    path.write_text(text)
    return {f.rule: f.severity for f in toolwire.check_file(path, OPEN).findings}


def _final(seen: Seen) -> list[tuple[str, str, str]]:
    """The calls of openai-python's final response, without their 'final:' mark."""
    return [(i.removeprefix("final:"), n, a) for i, n, a in seen.calls if i.startswith("final:")]


def _compact(seen: Seen) -> list[tuple[str, str, str]]:
    return [(i, n, json.dumps(json.loads(a), separators=(",", ":"))) for i, n, a in seen.calls]


@pytest.mark.parametrize(
    ("trace", "rule", "severity"),
    [
        (bodies.or1_added_item_without_id, "OR-1", "error"),
        (bodies.or3_delta_before_added, "OR-3", "error"),
        (bodies.or4a_done_in_progress, "OR-4a", "warning"),
        (bodies.or4b_item_after_incomplete_item, "OR-4b", "warning"),
        (bodies.or5a_event_field_mismatch, "OR-5a", "warning"),
        (bodies.or5b_no_done, "OR-5b", "error"),
        (bodies.or5b_events_after_done, "OR-5b", "error"),
        (bodies.or8_delta_without_delta, "OR-8", "error"),
    ],
)
def test_each_open_responses_stream_breaks_its_rule(
    tmp_path: Path, trace: Any, rule: str, severity: str
) -> None:
    assert _open_flagged(tmp_path, bodies.open_responses_stream()) == {}
    flagged = _open_flagged(tmp_path, trace())
    # A delta moved or emptied also parts the deltas from arguments.done (RS-7e, a stream rule).
    assert set(flagged) - {"RS-7e"} == {rule}
    assert flagged[rule] == RULES[rule].severity == severity
    assert "tests/integration/test_consumer_evidence_bodies.py" in RULES[rule].source


def test_every_responses_consumer_hands_on_both_calls_of_the_open_responses_stream() -> None:
    body = bodies.open_responses_stream()
    assert _final(consumers.openai_responses_stream(body)) == CALLS
    assert _compact(consumers.langchain_openai_responses(body)) == CALLS
    assert consumers.pydantic_ai_responses(body).calls == CALLS


def test_pydantic_ai_duplicates_a_call_whose_added_item_has_no_id() -> None:
    body = bodies.or1_added_item_without_id()
    assert _final(consumers.openai_responses_stream(body)) == CALLS
    assert _compact(consumers.langchain_openai_responses(body)) == CALLS
    # Its deltas are keyed by the item id the added item lacked: the call is started twice.
    assert consumers.pydantic_ai_responses(body).calls == [("call_1", "get_weather", "{}"), *CALLS]
    _node()
    seen = consumers.ai_sdk("ai-sdk-openai-responses", body)
    assert seen.calls == CALLS and str(seen.error).startswith("Type validation failed")


def test_a_delta_before_its_added_item_is_refused_or_changes_the_arguments() -> None:
    body = bodies.or3_delta_before_added()
    seen = consumers.openai_responses_stream(body)
    assert (
        seen.error
        == "RuntimeError: Received a content event for output index 0 before receiving its output item"
    )
    assert consumers.pydantic_ai_responses(body).calls == [
        ("call_1", "get_weather", '{"INVALID_JSON":"\\"Paris\\"}"}'),
        CALLS[1],
    ]
    assert _compact(consumers.langchain_openai_responses(body)) == CALLS


@pytest.mark.parametrize(
    "trace",
    [bodies.or4a_done_in_progress, bodies.or4b_item_after_incomplete_item, bodies.or5a_event_field_mismatch],
)
def test_no_consumer_reads_item_status_or_the_event_field(trace: Any) -> None:
    body = trace()
    good = consumers.openai_responses_stream(bodies.open_responses_stream())
    assert consumers.openai_responses_stream(body) == good
    assert _compact(consumers.langchain_openai_responses(body)) == CALLS
    seen = consumers.pydantic_ai_responses(body)
    assert (seen.calls, seen.error, seen.warnings) == (CALLS, None, [])
    _node()
    assert consumers.ai_sdk("ai-sdk-openai-responses", body).calls == CALLS


def test_a_stream_without_done_loses_nothing() -> None:
    body = bodies.or5b_no_done()
    assert _final(consumers.openai_responses_stream(body)) == CALLS
    assert _compact(consumers.langchain_openai_responses(body)) == CALLS
    assert consumers.pydantic_ai_responses(body).calls == CALLS


def test_events_after_done_are_lost_by_the_python_consumers() -> None:
    body = bodies.or5b_events_after_done()
    seen = consumers.openai_responses_stream(body)
    assert seen.calls == [("done:call_1", "get_weather", PARIS)]
    assert seen.error == "RuntimeError: Didn't receive a `response.completed` event."
    assert _compact(consumers.langchain_openai_responses(body)) == CALLS[:1]
    assert consumers.pydantic_ai_responses(body).calls == CALLS[:1]
    _node()
    assert consumers.ai_sdk("ai-sdk-openai-responses", body).calls == CALLS


def test_a_delta_without_its_delta_is_refused_or_loses_the_arguments() -> None:
    body = bodies.or8_delta_without_delta()
    assert consumers.openai_responses_stream(body).error == (
        'TypeError: can only concatenate str (not "NoneType") to str'
    )
    assert (
        consumers.pydantic_ai_responses(body).error
        == "TypeError: sequence item 1: expected str instance, NoneType found"
    )
    seen = consumers.langchain_openai_responses(body)
    assert seen.calls == [
        ("call_2", "get_weather", '{"city": "Lyon"}'),
        ("call_1", "get_weather", 'invalid:"Paris"}'),
    ]
    _node()
    seen = consumers.ai_sdk("ai-sdk-openai-responses", body)
    assert seen.calls == CALLS and str(seen.error).startswith("Type validation failed")
