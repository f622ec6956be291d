"""Typed decoding of hot events changes nothing a check reports, on good input and bad."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolwire
from toolwire.properties import PROTOCOLS


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
            patch.setattr(type(PROTOCOLS[protocol].make()), "hot", ())
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


@pytest.mark.parametrize("protocol", sorted(STREAMS))
def test_the_clean_streams_are_clean(tmp_path: Path, protocol: str) -> None:
    path = tmp_path / "t.jsonl"
    write(path, [json.dumps(e).encode() for e in STREAMS[protocol]], sse=False)
    assert toolwire.check_file(path, protocol).exit_code == 0
