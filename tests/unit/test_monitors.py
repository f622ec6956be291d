"""Monitors: never crash on any JSON, and the hot path agrees with event-by-event feeding."""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolwire
from helpers.corpus import DATA, corpus
from toolwire.engines import Report
from toolwire.models import read_frames
from toolwire.properties import Monitor
from toolwire.protocols import PROTOCOLS
from toolwire.protocols.aisdk.rules import MODELLED_SDK as AISDK_SDK
from toolwire.protocols.openai_responses.rules import MODELLED_SDK as OPENAI_SDK

STREAMS = [e for e in corpus() if PROTOCOLS[e["protocol"]].shape == "stream"]


def frames_of(entry: dict[str, Any]) -> list[tuple[int | None, Any, str | None]]:
    """A stream's events, or a request's messages / input items, as frames."""
    with (DATA / entry["file"]).open("rb") as handle:
        frames = list(read_frames(handle, lambda line, message: None))
    container = PROTOCOLS[entry["protocol"]].container
    if container is None:
        return frames
    return [(None, item, None) for item in frames[0][1][container]]


def one_by_one(monitor: Monitor, frames: list[tuple[int | None, Any, str | None]]) -> None:
    for index, (line, value, event) in enumerate(frames):
        monitor.feed(value, index, line, event)
    monitor.finish(len(frames), frames[-1][0] if frames else None)


def consumed(monitor: Monitor, frames: list[tuple[int | None, Any, str | None]]) -> None:
    index, line = monitor.consume(iter(frames))
    monitor.finish(index, line)


@pytest.mark.parametrize("entry", STREAMS, ids=[e["file"] for e in STREAMS])
def test_consume_reports_what_feeding_event_by_event_reports(entry: dict[str, Any]) -> None:
    frames = frames_of(entry)
    slow, fast = PROTOCOLS[entry["protocol"]].monitor(), PROTOCOLS[entry["protocol"]].monitor()
    one_by_one(slow, frames)
    consumed(fast, frames)
    assert fast.findings == slow.findings


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


@st.composite
def mutated_trace(draw: st.DrawFn) -> tuple[str, list[tuple[int | None, Any, str | None]]]:
    """A corpus trace with events (or messages) dropped, duplicated, swapped, or fields replaced by junk."""
    entry = draw(st.sampled_from(corpus()))
    frames = frames_of(entry)
    for _ in range(draw(st.integers(0, 4))):
        if not frames:
            break
        k = draw(st.integers(0, len(frames) - 1))
        action = draw(st.sampled_from(["drop", "dup", "swap", "junk-field", "junk-event"]))
        line, value, event = frames[k]
        if action == "drop":
            del frames[k]
        elif action == "dup":
            frames.insert(k, frames[k])
        elif action == "swap" and k + 1 < len(frames):
            frames[k], frames[k + 1] = frames[k + 1], frames[k]
        elif action == "junk-field" and isinstance(value, dict) and value:
            value = json.loads(json.dumps(value))
            value[draw(st.sampled_from(sorted(value)))] = draw(json_values)
            frames[k] = (line, value, event)
        elif action == "junk-event":
            frames[k] = (line, draw(json_values), event)
    return entry["protocol"], frames


@given(mutated_trace())
def test_monitors_never_raise_and_both_paths_agree_on_mutated_traces(
    case: tuple[str, list[tuple[int | None, Any, str | None]]],
) -> None:
    protocol, frames = case
    slow, fast = PROTOCOLS[protocol].monitor(), PROTOCOLS[protocol].monitor()
    one_by_one(slow, frames)
    consumed(fast, frames)
    assert fast.findings == slow.findings


@given(st.sampled_from(sorted(PROTOCOLS)), st.lists(json_values, max_size=6))
def test_monitors_never_raise_on_arbitrary_json(protocol: str, values: list[Any]) -> None:
    monitor = PROTOCOLS[protocol].monitor()
    for index, value in enumerate(values):
        monitor.feed(value, index, index + 1, None)
    monitor.finish(len(values), None)


#: A role of any JSON shape, a list and an object too (a list crashed the set lookup once).
ODD = ([], {}, 1, 1.5, None, True, "nope")


@pytest.mark.parametrize(
    ("protocol", "message"),
    [
        ("aisdk-model-messages", {"content": "Hi"}),
        ("aisdk-ui-messages", {"id": "m", "parts": [{"type": "text", "text": "Hi"}]}),
    ],
)
@pytest.mark.parametrize("odd", ODD, ids=repr)
def test_a_role_of_any_json_shape_is_a_problem_naming_its_message_not_a_crash(
    protocol: str, message: dict[str, Any], odd: Any
) -> None:
    import toolwire

    clean = {**message, "role": "user"}
    report = toolwire.check([{**message, "role": odd}, clean], protocol)
    assert [p.index for p in report.problems] == [0]
    assert "messages.0 is not a" in report.problems[0].message


@pytest.mark.parametrize("odd", ODD, ids=repr)
def test_an_output_type_of_any_json_shape_is_a_finding_not_a_crash(odd: Any) -> None:
    import toolwire

    call = {"type": "tool-call", "toolCallId": "c", "toolName": "f", "input": {}}
    result = {
        "type": "tool-result",
        "toolCallId": "c",
        "toolName": "f",
        "output": {"type": odd, "value": "x"},
    }
    messages = [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": [call]},
        {"role": "tool", "content": [result]},
    ]
    report = toolwire.check(messages, "aisdk-model-messages")
    assert [(f.rule, f.path) for f in report.findings] == [("VP-4", "messages.2.content.0")]
    assert report.problems == ()


# Any JSON value in any field -----------------------------------------------------------------------

#: Every JSON value: scalars as often as containers, since a scalar where a list or an object belongs
#: (``"content": true``) is what crashed a monitor before.
any_json = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
        max_leaves=6,
    )
)


@cache
def values_of(file: str) -> list[Any]:
    """The values of a corpus file as ``toolwire check`` reads them (events, or one request body)."""
    with (DATA / file).open("rb") as handle:
        return [value for _, value, _ in read_frames(handle, lambda line, message: None)]


#: The clean traces of the corpus: (protocol, file, the stream a request followed or None).
CLEAN = [(e["protocol"], e["file"], e.get("after")) for e in corpus() if not e["expect"]]
Case = tuple[str, list[Any], list[Any] | None]


def replaced(file: str, path: tuple[Any, ...], value: Any) -> list[Any]:
    """A copy of a corpus file's values with the field at ``path`` replaced by ``value``."""
    values = copy.deepcopy(values_of(file))
    node: Any = values
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return values


@st.composite
def any_json_anywhere(draw: st.DrawFn) -> Case:
    """A clean corpus trace (every protocol alike often) with one to three fields, at any depth,
    replaced by any JSON value; for a request, fields of the stream it followed too."""
    protocol = draw(st.sampled_from(sorted({p for p, _, _ in CLEAN})))
    _, file, after = draw(st.sampled_from([c for c in CLEAN if c[0] == protocol]))
    root: dict[str, Any] = {"trace": copy.deepcopy(values_of(file))}
    if after is not None:
        root["after"] = copy.deepcopy(values_of(after))
    for _ in range(draw(st.integers(1, 3))):
        parent: Any = root
        key: Any = draw(st.sampled_from(sorted(root)))
        # Walk down from an event (or body) at random, stopping anywhere: a whole event, a field, a
        # field of a field.
        while True:
            node = parent[key]
            keys = (
                list(node)
                if isinstance(node, dict)
                else list(range(len(node)))
                if isinstance(node, list)
                else []
            )
            if not keys or (parent is not root and draw(st.booleans())):
                break
            parent, key = node, draw(st.sampled_from(keys))
        if parent is not root:
            parent[key] = draw(any_json)
    return protocol, root["trace"], root.get("after")


def test_every_protocol_has_a_clean_trace_to_damage() -> None:
    assert {p for p, _, _ in CLEAN} == set(PROTOCOLS)


@given(any_json_anywhere())
def test_every_monitor_survives_any_json_value_in_any_field(case: Case) -> None:
    protocol, trace, after = case
    report = toolwire.check(trace, protocol, after=after)  # a traceback here is the bug
    assert isinstance(report, Report)
    assert {f.rule for f in report.findings} <= {r.id for r in toolwire.rules_for(protocol)}


#: Each crash the test above (or a sweep of every field of every clean trace) found once, replayed on
#: every run: (protocol, corpus file, path of the replaced field, its value, the stream it followed).
CRASHED = [
    ("anthropic-message-response", "anthropic-message-response/good-parallel-same-tool.json", (0, "content"), True, None),  # noqa: E501
    ("anthropic-message-response", "anthropic-message-response/good-parallel-same-tool.json", (0, "content"), 1.5, None),  # noqa: E501
    ("aisdk-full-stream", "aisdk-full-stream/good-two-calls.jsonl", (0, "type"), ["start"], None),
    ("aisdk-full-stream", "aisdk-full-stream/good-two-calls.jsonl", (0, "type"), {}, None),
    ("aisdk-ui-messages", "aisdk-ui-messages/good-two-calls.json", (0, "messages", 1, "parts", 2, "state"), ["x"], None),  # noqa: E501
    ("openai-chat", "openai-chat/seed004-tc2-valid-chain.json", (0, "messages", 0, "role"), [], None),
    ("openai-chat", "openai-chat/seed002-fixed.json", (0, "messages", 1, "tool_calls", 0, "id"), ["x"], "openai-chat-stream/seed002-provider-stream.sse"),  # noqa: E501
    ("bedrock-converse", "bedrock-converse/replay-good.json", (0, "messages", 1, "content", 0, "toolUse", "toolUseId"), ["x"], None),  # noqa: E501
    ("openai-responses", "openai-responses/good-two-calls.json", (0, "input", 0, "role"), ["x"], None),
    ("open-responses-stream", "open-responses-stream/good-parallel-same-tool.sse", (2, "item", "name"), ["x"], None),  # noqa: E501
    ("open-responses-stream", "open-responses-stream/good-parallel-same-tool.sse", (11, "item", "name"), {}, None),  # noqa: E501
    ("anthropic-stream", "anthropic-stream/good-parallel-same-tool.sse", (1, "content_block", "type"), [], None),  # noqa: E501
    ("anthropic-stream", "anthropic-stream/good-parallel-same-tool.sse", (2, "delta", "type"), ["x"], None),
    ("openai-responses-stream", "openai-responses-stream/good-parallel-same-tool.sse", (2, "item", "type"), [], None),  # noqa: E501
    ("gemini-stream", "gemini-stream/good-streamed-args.sse", (1, "candidates", 0, "content", "parts", 0, "functionCall", "partialArgs", 0, "jsonPath"), [], None),  # noqa: E501
    ("aisdk-model-messages", "aisdk-model-messages/good-two-calls.json", (0, "messages", 2, "content", 1, "input"), 10**30, None),  # noqa: E501
]  # fmt: skip


@pytest.mark.parametrize(("protocol", "file", "path", "value", "after"), CRASHED)
def test_a_field_that_once_crashed_a_monitor_is_checked(
    protocol: str, file: str, path: tuple[Any, ...], value: Any, after: str | None
) -> None:
    report = toolwire.check(
        replaced(file, path, value), protocol, after=None if after is None else values_of(after)
    )
    assert report.events > 0  # it was read and checked, not a traceback
    assert {f.rule for f in report.findings} <= {r.id for r in toolwire.rules_for(protocol)}


def test_an_unknown_type_is_one_notice_but_every_event_of_it_counts_as_skipped() -> None:
    # One notice per type keeps the report short; detection still weighs every skipped event.
    monitor = PROTOCOLS["openai-responses-stream"].make(None)
    for index in range(3):
        event = {"type": "response.future.thing", "sequence_number": index}
        monitor.feed(event, index, index + 1, None)
    monitor.feed({"type": "response.other.thing", "sequence_number": 3}, 3, 4, None)
    assert [n.message.split(" is not")[0] for n in monitor.notices] == [
        "event type 'response.future.thing'",
        "event type 'response.other.thing'",
    ]
    assert f"(toolwire models {OPENAI_SDK})" in monitor.notices[0].message
    assert monitor.noticed == 2
    assert monitor.skipped == 4
    assert [f.rule for f in monitor.findings] == ["RS-7a"]  # no response.created: not the type's fault


def test_an_unknown_responses_input_item_is_one_notice_and_its_id_still_counts() -> None:
    items = [
        {"type": "future_call", "id": "x_1"},
        {"type": "future_call", "id": "x_1"},
        {"role": "user", "content": "hi"},
        {"type": "item_reference", "id": "msg_1"},
    ]
    report = toolwire.check([{"input": items}], "openai-responses")
    assert [f.rule for f in report.findings] == ["RS-5"]
    assert [p.message.split(" is not")[0] for p in report.problems] == ["input item type 'future_call'"]


SYSTEM_TOOL_STREAM = [
    {"messageStart": {"role": "assistant"}},
    {"contentBlockStart": {"contentBlockIndex": 0, "start": {"toolUse": {
        "toolUseId": "tooluse_1", "name": "nova_grounding", "type": "server_tool_use"}}}},
    {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"toolUse": {"input": "{\"q\": 1}"}}}},
    {"contentBlockStop": {"contentBlockIndex": 0}},
    {"contentBlockStart": {"contentBlockIndex": 1, "start": {"toolResult": {
        "toolUseId": "tooluse_1", "type": "nova_grounding", "status": "success"}}}},
    {"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"toolResult": [{"text": "found"}]}}},
    {"contentBlockStop": {"contentBlockIndex": 1}},
    {"contentBlockDelta": {"contentBlockIndex": 2, "delta": {"text": "It is sunny."}}},
    {"contentBlockDelta": {"contentBlockIndex": 2, "delta": {"futureThing": {}}}},
    {"contentBlockStop": {"contentBlockIndex": 2}},
    {"messageStop": {"stopReason": "end_turn"}},
    {"futureEvent": {}},
]  # fmt: skip


def test_a_bedrock_system_tool_call_is_not_the_clients_to_answer() -> None:
    # botocore ToolUseType server_tool_use: Bedrock runs the call and streams its toolResult itself.
    report = toolwire.check(SYSTEM_TOOL_STREAM, "bedrock-converse-stream")
    assert not report.findings
    assert [p.message.split(" is not")[0] for p in report.problems] == [
        "contentBlockDelta member type 'futureThing'",
        "event type 'futureEvent'",
    ]
    use = {"toolUseId": "tooluse_1", "name": "nova_grounding", "input": {}, "type": "server_tool_use"}
    result = {"toolUseId": "tooluse_1", "type": "nova_grounding", "content": [{"text": "found"}]}
    messages = [
        {"role": "user", "content": [{"text": "Weather?"}]},
        {"role": "assistant", "content": [{"toolUse": use}, {"toolResult": result}, {"text": "Sunny."}]},
        {"role": "user", "content": [{"text": "Thanks"}, {"futureBlock": {}}]},
    ]  # fmt: skip
    report = toolwire.check([{"messages": messages}], "bedrock-converse")
    assert not report.findings
    assert [p.message.split(" is not")[0] for p in report.problems] == ["content block type 'futureBlock'"]


@pytest.mark.parametrize("role", [["user"], 7, {"name": "user"}])
def test_a_chat_message_whose_role_is_not_a_string_is_an_input_problem_with_its_line(
    role: Any, tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from toolwire.cli import main

    path = tmp_path / "messages.jsonl"
    lines = [
        {"role": role, "content": "hi"},
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "x"},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    main(["check", str(path), "-p", "openai-chat"])
    out = capsys.readouterr().out
    assert f"{path}:1: input warning: messages[0].role is {role!r}, not a string; skipped" in out


def test_an_mcp_input_required_result_needs_no_content_and_new_methods_are_notices() -> None:
    # mcp 2.3.0 InputRequiredResult: returned in place of a tools/call's CallToolResult.
    session = [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "book", "arguments": {}}},
        {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "input_required", "requestState": "s1"}},
        {"jsonrpc": "2.0", "id": 2, "method": "future/thing"},
        {"jsonrpc": "2.0", "id": 2, "result": {}},
        {"jsonrpc": "2.0", "method": "notifications/future"},
    ]
    report = toolwire.check(session, "mcp")
    assert not report.findings
    assert [p.message.split(" is not")[0] for p in report.problems] == [
        "request type 'future/thing'",
        "notification type 'notifications/future'",
    ]
    session[1]["result"] = {"requestState": "s1"}
    assert [f.rule for f in toolwire.check(session, "mcp").findings] == ["MCP-3"]


def test_a_reset_step_forgets_the_steps_tool_parts() -> None:
    # ai 7.0.173 processUIMessageStream: reset-step removes the parts since the last start-step.
    chunks = [
        {"type": "start"},
        {"type": "start-step"},
        {"type": "tool-input-start", "toolCallId": "c1", "toolName": "f"},
        {"type": "tool-input-available", "toolCallId": "c1", "toolName": "f", "input": {}},
        {"type": "tool-output-available", "toolCallId": "c1", "output": 1},
        {"type": "finish-step"},
        {"type": "start-step"},
        {"type": "tool-input-start", "toolCallId": "c2", "toolName": "f"},
        {"type": "reset-step"},
        {"type": "tool-input-start", "toolCallId": "c2", "toolName": "f"},
        {"type": "tool-input-available", "toolCallId": "c2", "toolName": "f", "input": {}},
        {"type": "tool-output-available", "toolCallId": "c2", "output": 2},
        {"type": "finish-step"},
        {"type": "finish"},
    ]
    assert not toolwire.check(chunks, "aisdk-ui-stream").findings
    assert [f.rule for f in toolwire.check(chunks[:8] + chunks[9:], "aisdk-ui-stream").findings] == ["VU-3"]


def test_an_unknown_ai_sdk_message_part_is_one_notice_naming_the_sdk() -> None:
    ui = [{"id": "m1", "role": "user", "parts": [{"type": "hologram"}, {"type": "data-x", "data": 1}]}]
    report = toolwire.check([{"messages": ui}], "aisdk-ui-messages")
    assert [p.message for p in report.problems] == [
        f"UI message part type 'hologram' is not modelled (toolwire models {AISDK_SDK}); passed over"
    ]
    model = [{"role": "user", "content": [{"type": "hologram"}, {"type": "image", "image": "x"}]}]
    report = toolwire.check([{"messages": model}], "aisdk-model-messages")
    assert [p.message.split(" is not")[0] for p in report.problems] == ["model message part type 'hologram'"]


def test_a_chat_message_of_an_unknown_role_is_passed_over_with_one_notice() -> None:
    messages = [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
                                              "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "ipython", "content": "log"},
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
    ]  # fmt: skip
    report = toolwire.check([{"messages": messages}], "openai-chat")
    assert not report.findings
    assert [p.message for p in report.problems] == [
        f"message role type 'ipython' is not modelled (toolwire models {OPENAI_SDK}); skipped"
    ]
    messages[2]["role"] = "user"
    assert [f.rule for f in toolwire.check([{"messages": messages}], "openai-chat").findings] == [
        "CC-4",
        "CC-2",
    ]
