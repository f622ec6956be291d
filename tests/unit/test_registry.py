"""The registry is the only coupling: a toy protocol defined in tests/ gets every verb toolwire has."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import layout
from helpers import toy_protocol as toy
from toolwire.cli import main
from toolwire.engines import check, explore, fuzz
from toolwire.engines.exploring._diagram import render_diagrams
from toolwire.errors import DefinitionError
from toolwire.properties import Bounds
from toolwire.protocols import (
    BREAKS,
    EXPLORED,
    GENERATED,
    PROTOCOLS,
    RULES,
    machines,
    mutate,
    register,
    rules_for,
    traces,
    unregister,
)


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    register(toy.FAMILY)
    yield
    unregister(toy.FAMILY.name)


def test_registering_a_family_adds_its_protocol_rules_and_machine_everywhere() -> None:
    assert toy.TOY in PROTOCOLS
    assert [rule.id for rule in rules_for(toy.TOY)] == ["TOY-1"]
    assert "TOY-1" in RULES
    assert toy.TOY in GENERATED
    assert toy.TOY in EXPLORED
    assert BREAKS[toy.TOY]["drop-id"] == "TOY-1"
    assert machines()["ToyCall"] is toy.ToyCall


def test_unregistering_removes_every_trace_of_it() -> None:
    unregister(toy.FAMILY.name)
    try:
        assert toy.TOY not in PROTOCOLS
        assert "TOY-1" not in RULES
        assert toy.TOY not in GENERATED
        assert "ToyCall" not in machines()
    finally:
        register(toy.FAMILY)


def test_a_family_cannot_be_registered_twice() -> None:
    with pytest.raises(DefinitionError, match="clashes"):
        register(toy.FAMILY)


def test_check_runs_the_toy_monitor() -> None:
    clean = [
        {"op": "call", "id": "t1", "tool": "search", "args": "{}"},
        {"op": "result", "id": "t1", "value": "ok"},
    ]
    assert check(clean, toy.TOY).findings == ()
    orphan = check([{"op": "result", "id": "t9", "value": "ok"}], toy.TOY)
    assert [(f.rule, f.index, f.provider_error) for f in orphan.findings] == [
        ("TOY-1", 0, "no call t9 to answer")
    ]


def test_the_cli_checks_a_toy_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = tmp_path / "toy.jsonl"
    trace.write_text('{"op": "call", "id": "t1", "tool": "search", "args": "{}"}\n')
    assert main(["check", str(trace), "-p", toy.TOY, "--format", "json"]) == 1
    (report,) = json.loads(capsys.readouterr().out)["reports"]
    assert [f["rule"] for f in report["findings"]] == ["TOY-1"]


@settings(max_examples=30, deadline=None)
@given(st.deferred(lambda: traces(toy.TOY)))  # drawn while the toy is registered
def test_generated_toy_traces_are_valid(trace: list[dict[str, object]]) -> None:
    assert check(trace, toy.TOY).findings == ()


def test_mutators_break_toy_traces_as_declared() -> None:
    trace = [
        {"op": "call", "id": "t1", "tool": "search", "args": "{}"},
        {"op": "result", "id": "t1", "value": "ok"},
    ]
    for mutator, rule in BREAKS[toy.TOY].items():
        broken = mutate(trace, toy.TOY, mutator)
        assert broken is not None
        assert rule in {f.rule for f in check(broken, toy.TOY).findings}, mutator


def test_fuzz_from_the_toy_into_an_existing_protocol(tmp_path: Path) -> None:
    good = fuzz(toy.toy_to_chat, toy.TOY, "openai-chat", max_examples=40, out=tmp_path)
    assert good.exit_code == 0, [c.message for c in good.counterexamples]
    bad = fuzz(toy.toy_to_chat_renamed, toy.TOY, "openai-chat", max_examples=40, out=tmp_path)
    assert [c.property for c in bad.counterexamples] == ["identity"]


def test_fuzz_from_an_existing_protocol_into_the_toy(tmp_path: Path) -> None:
    run = fuzz(toy.chat_to_toy, "openai-chat", toy.TOY, max_examples=40, out=tmp_path)
    assert run.exit_code == 0, [c.message for c in run.counterexamples]


def test_explore_proves_the_toy_converter_within_bounds(tmp_path: Path) -> None:
    run = explore(toy.toy_to_chat, toy.TOY, "openai-chat", Bounds(calls=2), out=tmp_path)
    assert run.verdict == "holds"
    # No call, one call, two calls one after the other: every ToyCall transition fired.
    assert (run.traces, run.space.traces, run.space.uncovered) == (3, 3, [])
    broken = explore(toy.toy_to_chat_renamed, toy.TOY, "openai-chat", Bounds(calls=2), out=tmp_path)
    assert broken.verdict == "broken"


def test_diagram_draws_the_toy_machine(tmp_path: Path) -> None:
    written = render_diagrams(["ToyCall"], ["dot", "mermaid"], tmp_path)
    assert sorted(p.name for p in written) == ["ToyCall.dot", "ToyCall.mmd"]
    dot = (tmp_path / "ToyCall.dot").read_text()
    assert "called" in dot
    assert "TOY-1" in dot


def test_the_toy_lives_entirely_outside_src() -> None:
    source = Path(toy.__file__).read_text()
    src = layout.ROOT / "src"
    assert "toy-stream" in source
    names = re.compile(r"toy-stream|toy_protocol|ToyCall|ToyMonitor|TOY-1")
    assert not [path.name for path in src.rglob("*.py") if names.search(path.read_text())]


def test_every_request_that_follows_a_stream_gets_the_round_trip_rules() -> None:
    followers = [name for name, spec in PROTOCOLS.items() if spec.follows]
    assert "mistral-chat" in followers
    for name in followers:
        assert {"RT-1", "RT-2"} <= {rule.id for rule in rules_for(name)}, name
    stream = [
        {"choices": [{"index": 0, "delta": {"role": "assistant", "content": None}, "finish_reason": None}]},
        {
            "choices": [
                {
                    "index": 0,
                    "delta": {
                        "tool_calls": [
                            {
                                "index": 0,
                                "id": "abcDEF123",
                                "type": "function",
                                "function": {"name": "get_weather", "arguments": "{}"},
                            }
                        ]
                    },
                    "finish_reason": None,
                }
            ]
        },
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
    ]
    call = {"id": "zzzZZZ999", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}
    request = [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "zzzZZZ999", "name": "get_weather", "content": "15"},
    ]
    # Once a DefinitionError: mistral-chat followed a stream, yet RT-1 did not list it.
    assert [f.rule for f in check(request, "mistral-chat", after=stream).findings] == ["RT-1"]
