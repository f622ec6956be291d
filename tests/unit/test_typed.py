"""Typed decoding of hot events changes nothing a check reports, on good input and bad."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolwire
from toolwire.engines.checking import _check
from toolwire.models import _frames, _sse
from toolwire.models import _openai_chat_hot as openai_chat
from toolwire.protocols import PROTOCOLS


@pytest.fixture(autouse=True, scope="module")
def _typed_however_short() -> Any:
    """These traces are short: read them typed all the same (``check`` does past 4 MiB)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_check, "TYPED_BYTES", 0)
        yield


def responses(calls: int) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = [{"type": "response.created", "response": {"id": "resp_1"}}]
    for k in range(calls):
        item = {
            "type": "function_call",
            "id": f"fc_{k}",
            "call_id": f"call_{k}",
            "name": "f",
            "arguments": "",
        }
        events.append({"type": "response.output_item.added", "output_index": k, "item": item})
        deltas = [f'"{k}:{j}"' for j in range(30)]
        events += [
            {
                "type": "response.function_call_arguments.delta",
                "item_id": f"fc_{k}",
                "output_index": k,
                "delta": d,
            }
            for d in deltas
        ]
        args = "".join(deltas)
        events.append(
            {
                "type": "response.function_call_arguments.done",
                "item_id": f"fc_{k}",
                "output_index": k,
                "arguments": args,
            }
        )
        events.append(
            {"type": "response.output_item.done", "output_index": k, "item": dict(item, arguments=args)}
        )
    events.append({"type": "response.completed", "response": {"id": "resp_1"}})
    for number, event in enumerate(events):
        event["sequence_number"] = number
    return events


def anthropic(calls: int) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = [{"type": "message_start", "message": {"id": "msg_1", "content": []}}]
    for k in range(calls):
        block = {"type": "tool_use", "id": f"toolu_{k}", "name": "f", "input": {}}
        events.append({"type": "content_block_start", "index": k, "content_block": block})
        body = '{"a": [' + ", ".join(str(j) for j in range(28)) + "]}"
        size = -(-len(body) // 30)
        events += [
            {
                "type": "content_block_delta",
                "index": k,
                "delta": {"type": "input_json_delta", "partial_json": body[i : i + size]},
            }
            for i in range(0, len(body), size)
        ]
        events.append({"type": "content_block_stop", "index": k})
    events.append(
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 1}}
    )
    events.append({"type": "message_stop"})
    return events


def chat(calls: int) -> list[dict[str, Any]]:
    head = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o"}
    events: list[dict[str, Any]] = []
    for k in range(calls):
        opening = {
            "index": k,
            "id": f"call_{k}",
            "type": "function",
            "function": {"name": "f", "arguments": ""},
        }
        events.append(
            dict(head, choices=[{"index": 0, "delta": {"tool_calls": [opening]}, "finish_reason": None}])
        )
        for j in range(30):
            more = {"index": k, "function": {"arguments": "[1" if j == 0 else ("]" if j == 29 else ",1")}}
            events.append(
                dict(head, choices=[{"index": 0, "delta": {"tool_calls": [more]}, "logprobs": None}])
            )
    events.append(dict(head, choices=[{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]))
    return events


STREAMS = {
    "openai-responses-stream": responses(12),
    "anthropic-stream": anthropic(12),
    "openai-chat-stream": chat(12),
}

# What a mutation puts into a hot event (after line 256, where typed decoding starts).
BAD: list[tuple[str, Any]] = [
    ("unknown", "extra field"),
    ("delta", 7),
    ("partial_json", None),
    ("index", 1.0),
    ("index", True),
    ("output_index", 2**70),
    ("sequence_number", 2**64 - 1),
    ("sequence_number", -1),
    ("item_id", "fc_other"),
    ("index", 99),
    ("fragment.index", 99),
    ("fragment.id", "call_x"),
    ("fragment.id", "null"),
    ("function.arguments", 5),
    ("choice.finish_reason", "stop"),
    ("choice.index", 3),
    ("delta.content", "hi"),
    ("delta.tool_calls", []),
    ("delta.tool_calls", [{"index": 0, "function": {"arguments": ","}}] * 2),
    ("delta.tool_calls", [{"index": 0, "function": {"arguments": ","}}, {"index": 1, "function": {}}]),
    ("choices", []),
    (
        "choices",
        [
            {"index": i, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "1"}}]}}
            for i in (0, 1)
        ],
    ),
]


def place(event: dict[str, Any], field: str) -> tuple[dict[str, Any], str] | None:
    """Where ``field`` (``part.name`` for a part of a Chat chunk) goes in ``event``, if anywhere."""
    if field == "partial_json":
        delta = event.get("delta")
        return (delta, field) if isinstance(delta, dict) else None
    if "." not in field:
        return event, field
    part, name = field.split(".")
    try:
        choice = event["choices"][0]
        fragment = choice["delta"]["tool_calls"][0]
    except (KeyError, IndexError, TypeError):
        return None
    where = {
        "choice": choice,
        "delta": choice["delta"],
        "fragment": fragment,
        "function": fragment["function"],
    }
    return where[part], name


RAW: list[bytes] = [
    b'"\xff"',  # invalid UTF-8 in a value
    b"1e999",
    rb'"\ud800"',
    b"[" * 1100 + b"]" * 1100,
    b'"caf\xc3\xa9"',
]


def write(path: Path, events: list[bytes], sse: bool) -> None:
    if sse:
        path.write_bytes(b"".join(b"data: " + e + b"\n\n" for e in events))
    else:
        path.write_bytes(b"\n".join(events) + b"\n")


def report(path: Path, protocol: str, typed: bool, monkeypatch: pytest.MonkeyPatch) -> Any:
    with monkeypatch.context() as patch:
        if not typed:
            patch.setattr(type(PROTOCOLS[protocol].make()), "hot", None)
        return toolwire.check_file(path, protocol).to_json()


def mutated(protocol: str, mutations: list[tuple[int, int]]) -> list[bytes]:
    """The stream of ``protocol`` with ``BAD`` or ``RAW`` mutation ``which`` at each ``position``."""
    events = [json.dumps(e).encode() for e in STREAMS[protocol]]
    for position, which in mutations:
        k = position % len(events)
        try:
            event = json.loads(events[k])
        except ValueError:
            continue  # made unreadable by an earlier mutation
        if which < len(BAD):
            field, value = BAD[which]
            spot = place(event, field)
            if spot is None:
                continue
            spot[0][spot[1]] = value
            events[k] = json.dumps(event).encode()
        else:
            events[k] = events[k][:-1] + b', "x": ' + RAW[which - len(BAD)] + b"}"
    return events


@pytest.mark.parametrize("sse", [False, True], ids=["jsonl", "sse"])
@pytest.mark.parametrize("which", range(len(BAD) + len(RAW)))
@pytest.mark.parametrize("protocol", sorted(STREAMS))
def test_each_bad_hot_event_is_reported_as_plain_reading_reports_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, protocol: str, which: int, sse: bool
) -> None:
    path = tmp_path / ("t.sse" if sse else "t.jsonl")
    write(path, mutated(protocol, [(300, which)]), sse)
    assert report(path, protocol, True, monkeypatch) == report(path, protocol, False, monkeypatch)


@settings(max_examples=40)
@given(
    st.sampled_from(sorted(STREAMS)),
    st.lists(st.tuples(st.integers(200, 400), st.integers(0, len(BAD) + len(RAW) - 1)), max_size=4),
    st.booleans(),
)
def test_typed_reading_reports_what_plain_reading_reports(
    tmp_path_factory: pytest.TempPathFactory,
    protocol: str,
    mutations: list[tuple[int, int]],
    sse: bool,
) -> None:
    events = mutated(protocol, mutations)
    path = tmp_path_factory.mktemp("t") / ("t.sse" if sse else "t.jsonl")
    write(path, events, sse)
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert report(path, protocol, True, monkeypatch) == report(path, protocol, False, monkeypatch)


def named_sse(events: list[bytes]) -> bytes:
    """``events`` as SSE with an ``event:`` line naming each one's type, as Responses and Anthropic send."""
    out = []
    for raw in events:
        try:
            kind = json.loads(raw).get("type")
        except ValueError:
            kind = None
        head = b"event: " + kind.encode() + b"\n" if isinstance(kind, str) else b""
        out.append(head + b"data: " + raw + b"\n\n")
    return b"".join(out)


@settings(max_examples=40)
@given(
    st.sampled_from(sorted(STREAMS)),
    st.lists(st.tuples(st.integers(150, 400), st.integers(0, len(BAD) + len(RAW) - 1)), max_size=4),
    st.booleans(),
    st.sampled_from([333, 4096]),
)
def test_typed_sse_reading_reports_what_plain_reading_reports(
    tmp_path_factory: pytest.TempPathFactory,
    protocol: str,
    mutations: list[tuple[int, int]],
    named: bool,
    chunk: int,
) -> None:
    # Chunks far smaller than the stream, so the SSE reader's typed path reads most of it.
    events = mutated(protocol, mutations)
    path = tmp_path_factory.mktemp("t") / "t.sse"
    if named:
        path.write_bytes(named_sse(events))
    else:
        write(path, events, sse=True)
    with pytest.MonkeyPatch.context() as monkeypatch:
        for reading in (_frames, _sse):
            monkeypatch.setattr(reading, "_CHUNK", chunk)
        assert report(path, protocol, True, monkeypatch) == report(path, protocol, False, monkeypatch)


@pytest.mark.parametrize("protocol", sorted(STREAMS))
def test_the_clean_streams_are_clean(tmp_path: Path, protocol: str) -> None:
    path = tmp_path / "t.jsonl"
    write(path, [json.dumps(e).encode() for e in STREAMS[protocol]], sse=False)
    assert toolwire.check_file(path, protocol).exit_code == 0


def request(number: int) -> dict[str, Any]:
    """A Chat request body: two tool rounds (the second with two calls), then a closing turn."""

    def calls(*ids: str) -> dict[str, Any]:
        entries = [
            {"id": i, "type": "function", "function": {"name": "f", "arguments": '{"a": 1}'}} for i in ids
        ]
        return {"role": "assistant", "content": None, "tool_calls": entries}

    first, second, third = (f"call_{number}_{k}" for k in range(3))
    messages = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": f"Question {number}"},
        calls(first),
        {"role": "tool", "tool_call_id": first, "content": "1"},
        calls(second, third),
        {"role": "tool", "tool_call_id": third, "content": "2"},
        {"role": "tool", "tool_call_id": second, "content": "3"},
        {"role": "assistant", "content": "Done.", "name": "bot"},
        {"role": "user", "content": [{"type": "text", "text": "Thanks."}]},
    ]
    return {"model": "gpt-4o", "messages": messages, "tools": [{"type": "function"}], "stream": False}


# What a mutation puts into a field of a message (``-1``: of the body), after line 256.
REQUEST_BAD: list[tuple[str, Any]] = [
    ("role", "tool"),
    ("role", "user"),
    ("role", "assistant"),
    ("role", None),
    ("role", 3),
    ("tool_call_id", None),
    ("tool_call_id", 7),
    ("tool_call_id", "call_x"),
    ("tool_call_id", "c" * 41),
    ("tool_call_id", ""),
    ("tool_calls", []),
    ("tool_calls", "junk"),
    ("tool_calls", [{"id": "", "type": "function", "function": {"name": "f", "arguments": "{}"}}]),
    ("tool_calls", [{"id": "c" * 41, "type": "function", "function": {"name": "f", "arguments": "{}"}}]),
    ("tool_calls", [{"id": "d", "type": "function", "function": {"name": "f", "arguments": "{}"}}] * 2),
    ("tool_calls", [{"id": "e", "function": {"name": "f", "arguments": "{}"}}]),
    ("tool_calls", [{"id": 5, "type": "function", "function": {"name": "f", "arguments": "{}"}}]),
    ("tool_calls", [{"id": "g", "type": "function", "function": {"name": "f", "arguments": {}}}]),
    ("content", 2**70),
    ("refusal", None),
    ("messages", "junk"),
    ("messages", []),
    ("messages", ["junk", {"role": "tool", "tool_call_id": "call_1"}]),
    ("temperature", 2**64),
    ("x", 1),
]
REQUEST_RAW: list[bytes] = [
    *RAW,
    b'null, "role": "tool"',  # a key twice: the last one counts, for orjson and msgspec alike
    b"123456789012345678901234567890",
    b"1e-999",
]
REQUEST_MUTATIONS = len(REQUEST_BAD) + len(REQUEST_RAW)


def mutated_requests(mutations: list[tuple[int, int, int]]) -> list[bytes]:
    """300 request bodies, with ``REQUEST_BAD`` or ``REQUEST_RAW`` mutation ``which`` at each
    (body, message) place; message -1 is the body itself (raw bytes go in its ``model``)."""
    bodies = [request(n) for n in range(300)]
    raws: dict[int, bytes] = {}
    for position, message, which in mutations:
        body = bodies[position % len(bodies)]
        messages = body["messages"]
        target = body if message < 0 or not isinstance(messages, list) else messages[message % len(messages)]
        if not isinstance(target, dict):
            continue
        if which < len(REQUEST_BAD):
            field, value = REQUEST_BAD[which]
            # A copy: a value put in two places must not end up holding itself.
            target["model" if field == "messages" and target is not body else field] = copy.deepcopy(value)
        else:
            marker = f"__raw_{len(raws)}__"
            target["model" if target is body else "content"] = marker
            raws[len(raws)] = REQUEST_RAW[which - len(REQUEST_BAD)]
    lines = []
    for body in bodies:
        line = json.dumps(body).encode()
        for k, raw in raws.items():
            line = line.replace(f'"__raw_{k}__"'.encode(), raw)
        lines.append(line)
    return lines


@pytest.mark.parametrize("message", [-1, 1, 2, 3, 4, 7, 8])
@pytest.mark.parametrize("which", range(REQUEST_MUTATIONS))
def test_each_bad_request_body_is_reported_as_plain_reading_reports_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, which: int, message: int
) -> None:
    path = tmp_path / "t.jsonl"
    write(path, mutated_requests([(280, message, which)]), sse=False)
    assert report(path, "openai-chat", True, monkeypatch) == report(path, "openai-chat", False, monkeypatch)


@settings(max_examples=40)
@given(
    st.lists(
        st.tuples(st.integers(250, 299), st.integers(-1, 8), st.integers(0, REQUEST_MUTATIONS - 1)),
        max_size=6,
    ),
    st.booleans(),
)
def test_typed_request_bodies_report_what_plain_ones_report(
    tmp_path_factory: pytest.TempPathFactory, mutations: list[tuple[int, int, int]], after: bool
) -> None:
    folder = tmp_path_factory.mktemp("t")
    path = folder / "t.jsonl"
    write(path, mutated_requests(mutations), sse=False)
    stream = folder / "stream.jsonl"
    write(stream, [json.dumps(e).encode() for e in STREAMS["openai-chat-stream"]], sse=False)
    previous = stream if after else None  # calls kept for the round trip: fewer take the hot path
    typed = toolwire.check_file(path, "openai-chat", after=previous).to_json()
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(type(PROTOCOLS["openai-chat"].make()), "hot", None)
        assert toolwire.check_file(path, "openai-chat", after=previous).to_json() == typed


def test_the_clean_request_log_is_clean_and_read_typed(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    write(path, mutated_requests([]), sse=False)
    assert toolwire.check_file(path, "openai-chat").exit_code == 0
    decode = msgspec.json.Decoder(openai_chat.RequestBody).decode
    assert all(type(decode(line)) is openai_chat.RequestBody for line in mutated_requests([]))


def test_a_request_body_nested_past_1024_levels_is_unreadable_whatever_the_recursion_limit(
    tmp_path: Path,
) -> None:
    # msgspec nests as deep as the recursion limit lets it; orjson stops at 1024 levels.
    path = tmp_path / "t.jsonl"
    write(path, mutated_requests([(280, 1, len(REQUEST_BAD) + RAW.index(b"[" * 1100 + b"]" * 1100))]), False)
    sys.setrecursionlimit(20_000)
    try:
        found = toolwire.check_file(path, "openai-chat").to_json()
    finally:
        sys.setrecursionlimit(1000)
    assert [p["line"] for p in found["problems"]] == [281]


# A hot event's string fields, each of which a typed decoder reads as ``str``.
TYPED_STRINGS = {
    "openai-responses-stream": b'"fc_11"',
    "anthropic-stream": b'"input_json_delta"',
    "openai-chat-stream": b'"chatcmpl-1"',
}


@pytest.mark.parametrize("sse", [False, True], ids=["jsonl", "sse"])
@pytest.mark.parametrize("protocol", sorted(TYPED_STRINGS))
def test_invalid_utf8_in_a_typed_string_is_reported_as_plain_reading_reports_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, protocol: str, sse: bool
) -> None:
    # msgspec raises UnicodeDecodeError there, not a DecodeError.
    events = [json.dumps(e, separators=(",", ":")).encode() for e in STREAMS[protocol]]
    k = next(k for k in range(300, len(events)) if TYPED_STRINGS[protocol] in events[k])
    events[k] = events[k].replace(TYPED_STRINGS[protocol], b'"\xff"', 1)
    path = tmp_path / "t.jsonl"
    write(path, events, sse=sse)
    typed = report(path, protocol, True, monkeypatch)
    assert typed == report(path, protocol, False, monkeypatch)
    assert [p["line"] for p in typed["problems"]] == [2 * k + 1 if sse else k + 1]
