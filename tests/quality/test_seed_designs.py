"""toolwire fuzz: the five seed designs caught with their exact minimal counterexamples, fixes survive."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import layout
from toolwire.cli import main
from toolwire.cli.handlers._fuzz import reproduces
from toolwire.engines import fuzz, judge, load_counterexample, replay
from toolwire.engines.fuzzing._targets import load_target

EXAMPLES = layout.ROOT / "examples"
CALL = "call_IivGPLZMz3JdzNpqvFLjxdvd"


def target(seed: str, variant: str) -> str:
    return f"{next(EXAMPLES.glob(seed + '_*.py'))}:{variant}"


def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-E1SkHbn88HxjSI6bWHtP3fS2qHx6k",
        "object": "chat.completion.chunk",
        "created": 1764000000,
        "model": "gpt-4o-2024-08-06",
        "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
    }


ONE_STREAMED_CALL = [
    chunk({"role": "assistant", "content": None}),
    chunk(
        {
            "tool_calls": [
                {
                    "index": 0,
                    "id": CALL,
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": "{}"},
                }
            ]
        }
    ),
    chunk({}, "tool_calls"),
]


def broken(seed: str, variant: str, source: str, destination: str, **options: Any) -> dict[str, Any]:
    """Each finding of a campaign, by name, with its counterexample."""
    run = fuzz(target(seed, variant), source, destination, out=None, **options)
    return {c.finding: c for c in run.counterexamples}


@pytest.mark.slow
def test_seed000_minimal_counterexample_is_a_tool_input_start_then_a_tool_call() -> None:
    found = broken("seed000", "buggy", "aisdk-stream", "open-responses-stream")
    # The duplicated item is one bug seen three ways; the lost arguments of a whole call are another.
    assert list(found) == ["one-to-one:duplicated", "arguments:changed", "validity:RS-7c", "validity:RS-9d"]
    found["one-to-one"] = found["one-to-one:duplicated"]
    # The id is whichever the shrinker settled on (the generator's simplest one, or another when the
    # search shrank towards a different draw); the shape is what is minimal.
    name, call = found["one-to-one"].input[0]["toolName"], found["one-to-one"].input[0]["id"]
    assert found["one-to-one"].input == [
        {"type": "tool-input-start", "id": call, "toolName": name},
        {"type": "tool-call", "toolCallId": call, "toolName": name, "input": "{}"},
    ]
    added = [e for e in found["one-to-one"].output or [] if e["type"] == "response.output_item.added"]
    assert [e["item"]["call_id"] for e in added] == [call, call]
    assert added[0]["item"]["id"] != added[1]["item"]["id"]


@pytest.mark.slow
def test_seed001_name_as_id_is_an_identity_break_on_one_streamed_call() -> None:
    found = broken("seed001", "buggy", "openai-chat-stream", "openai-chat")
    assert "identity:from-tool-name" in found
    identity = found["identity:from-tool-name"]
    (call,) = next(m for m in identity.output or [] if m["role"] == "assistant")["tool_calls"]
    assert identity.message == f"input call {CALL} is replayed with id {call['function']['name']!r}"
    assert len(identity.input) == len(ONE_STREAMED_CALL)
    tool = [m for m in identity.output or [] if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool] == [m["content"] for m in tool]  # the result used as an id


@pytest.mark.slow
def test_seed002_synthesized_id_is_an_identity_break_on_one_streamed_call() -> None:
    found = broken("seed002", "buggy", "openai-chat-stream", "openai-chat")
    # The synthesized id is also longer than OpenAI's 40 characters.
    assert list(found) == ["identity:replaced", "validity:CC-1"]
    assert len(found["identity:replaced"].input) == len(ONE_STREAMED_CALL)
    assert "is replayed with id 'hist_tool_" in found["identity:replaced"].message


@pytest.mark.slow
def test_seed003_name_keyed_map_breaks_correlation_on_two_calls_of_one_tool() -> None:
    # The seed's traffic, ADK's: every call with its id.
    found = broken("seed003", "buggy", "gemini-contents", "aisdk-ui-stream", quirks="none")
    # Its second output for call_1 is VU-4's warning case (it replaces the first and keeps the call:
    # tests/integration/test_consumer_evidence_aisdk.py), so the breaks are the correlation's.
    assert list(found) == ["correlation:crossed", "correlation:lost"]
    crossed = found["correlation:crossed"]
    # Minimal: a user turn, one model content calling one tool twice, one user content answering both
    # (the wire details, such as thoughtSignature or the response wrapper, are drawn like real traffic).
    assert [c["role"] for c in crossed.input] == ["user", "model", "user"]
    calls = [p["functionCall"] for p in crossed.input[1]["parts"] if "functionCall" in p]
    answers = [p["functionResponse"] for p in crossed.input[2]["parts"]]
    assert len(calls) == len(answers) == 2
    assert calls[0]["name"] == calls[1]["name"] and calls[0]["id"] != calls[1]["id"]
    assert [a["id"] for a in answers] == [c["id"] for c in calls]
    assert answers[0]["response"] != answers[1]["response"]  # two different results to tell apart
    outputs = [e["toolCallId"] for e in crossed.output or [] if e["type"] == "tool-output-available"]
    assert outputs == ["call_1", "call_1"]


@pytest.mark.slow
@pytest.mark.parametrize("solution", ["solution_a", "solution_b", "solution_c"])
def test_seed004_solutions_keep_an_unanswered_call(solution: str) -> None:
    found = broken("seed004", solution, "openai-chat", "openai-chat", mutate=True)
    assert {f.split(":")[0] for f in found} == {"validity"}
    cut = found["validity:CC-4"].input
    # A call whose answer was cut off: the sanitizer keeps the call and so breaks CC-4.
    assert [m["role"] for m in cut] == ["user", "assistant"]
    assert len(cut[1]["tool_calls"]) == 1
    assert "CC-4" in found["validity:CC-4"].message


TEST_CASE_4 = [
    {
        "role": "assistant",
        "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
    },
    {"role": "user", "content": "Interrupt"},
    {"role": "tool", "tool_call_id": "call_1", "content": "Result"},
]


@pytest.mark.parametrize("solution", ["solution_a", "solution_b", "solution_c"])
def test_seed004_solutions_fail_the_reports_test_case_4(solution: str) -> None:
    outcome = judge(
        load_target(target("seed004", solution)), TEST_CASE_4, "openai-chat", "openai-chat", mutate=True
    )
    assert outcome.verdict == "validity"
    assert {f.rule for b in outcome.broken for f in b.findings} == {"CC-2", "CC-4"}


def test_seed004_fixed_sanitizer_keeps_every_intact_pair_and_drops_the_rest() -> None:
    sanitize = load_target(target("seed004", "fixed"))
    assert sanitize.run(TEST_CASE_4, 5.0) == [{"role": "user", "content": "Interrupt"}]
    chain = [
        {"role": "user", "content": "Hi"},
        TEST_CASE_4[0]
        | {"tool_calls": [*TEST_CASE_4[0]["tool_calls"], {"id": "call_2", "type": "function"}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "Result"},
        {"role": "user", "content": "Hello"},
    ]
    kept = sanitize.run(chain, 5.0)
    assert [c["id"] for c in kept[1]["tool_calls"]] == ["call_1"]
    assert kept[2:] == chain[2:]


FIXED = [
    ("seed000", "fixed", "aisdk-stream", "open-responses-stream", False),
    ("seed001", "fixed", "openai-chat-stream", "openai-chat", False),
    ("seed002", "fixed", "openai-chat-stream", "openai-chat", False),
    ("seed003", "fixed", "gemini-contents", "aisdk-ui-stream", False),
    ("seed004", "fixed", "openai-chat", "openai-chat", True),
]


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "variant", "source", "destination", "damaged"), FIXED)
def test_fixed_variants_survive_a_thousand_examples(
    seed: str, variant: str, source: str, destination: str, damaged: bool
) -> None:
    run = fuzz(target(seed, variant), source, destination, max_examples=1000, mutate=damaged, out=None)
    assert run.counterexamples == []
    assert run.examples >= 1000


@pytest.mark.slow
def test_fixed_seed003_also_pairs_calls_without_ids() -> None:
    run = fuzz(
        target("seed003", "fixed"), "gemini-contents", "aisdk-ui-stream", quirks="missing-ids", out=None
    )
    assert run.counterexamples == []


@pytest.mark.slow
def test_the_same_seed_gives_the_same_counterexample() -> None:
    runs = [
        fuzz(target("seed003", "buggy"), "gemini-contents", "aisdk-ui-stream", seed=7, out=None) for _ in "ab"
    ]
    assert [c.to_json() for c in runs[0].counterexamples] == [c.to_json() for c in runs[1].counterexamples]


def identity(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return list(events)


def raises(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    raise ValueError("no")


def hangs(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    while True:
        pass


def garbage(events: list[dict[str, Any]]) -> list[Any]:
    return ["not an object"]


async def asynchronous(events: list[dict[str, Any]]) -> Any:
    for event in events:
        yield event


@pytest.mark.slow
@pytest.mark.parametrize(
    ("function", "expected"),
    [
        (identity, None),
        (asynchronous, None),
        (raises, "raises:ValueError@raises"),
        (hangs, "hangs"),
        (garbage, "garbage"),
    ],
)
def test_a_misbehaving_target_is_a_finding_not_a_crash(function: Any, expected: str | None) -> None:
    run = fuzz(function, "anthropic-stream", "anthropic-stream", max_examples=20, timeout=0.2, out=None)
    assert [c.finding for c in run.counterexamples] == ([expected] if expected else [])


TWO_RAISES = """
def convert(events):
    for event in events:
        block = event.get("content_block", {})
        if block.get("type") == "text":
            raise ValueError("a text block")
        if block.get("type") == "tool_use":
            raise KeyError("a tool_use block")
    return events


def fixed(events):
    return events
"""


@pytest.mark.slow
def test_two_exception_types_are_two_findings_each_shrunk_saved_and_replayed_on_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A converter's own error on one shape must not hide another error on another shape (Haystack
    # 2.11.1 raises a ValueError of its own beside the assert on Azure's prompt-filter chunk).
    module = tmp_path / "two_raises.py"
    module.write_text(TWO_RAISES)
    out = tmp_path / "found"
    run = fuzz(f"{module}:convert", "anthropic-stream", "anthropic-stream", max_examples=200, out=out)
    found = {c.finding: c for c in run.counterexamples}
    assert set(found) == {"raises:KeyError@convert", "raises:ValueError@convert"}, set(found)
    assert found["raises:ValueError@convert"].message.startswith("ValueError: a text block at two_raises.py:")
    assert found["raises:KeyError@convert"].kind == "KeyError@convert"
    assert all(c.input and len(c.input) <= 8 for c in found.values())  # each shrunk on its own
    capsys.readouterr()
    for finding, saved in run.saved.items():
        assert f".{finding.replace(':', '-').replace('@', '-')}." in saved.name
        assert load_counterexample(saved).finding == finding
        assert main(["replay", str(saved), f"{module}:convert"]) == 1
        assert f"saved as {finding}\nFAIL raises [{finding.split(':')[1]}]" in capsys.readouterr().out
        assert main(["replay", str(saved), f"{module}:fixed"]) == 0
    argv = ["fuzz", f"{module}:convert", "--from", "anthropic-stream", "--to", "anthropic-stream"]
    assert main([*argv, "--ignore", "raises:ValueError", "--out", str(out)]) == 1
    assert "FAIL raises [KeyError@convert]" in capsys.readouterr().out


def test_a_replay_that_raises_another_exception_does_not_reproduce_the_saved_one(tmp_path: Path) -> None:
    module = tmp_path / "other.py"
    module.write_text("def convert(events):\n    raise TypeError('another bug')\n")
    path = _saved_raise(tmp_path)
    saved, outcome = replay(path, f"{module}:convert")
    assert [f.finding for f in outcome.faults()] == ["raises:TypeError@convert"]
    assert not reproduces(saved, outcome)
    # A file saved before raises carried the exception's type still matches any exception.
    old = json.loads(path.read_text()) | {"kind": "", "finding": "raises"}
    (tmp_path / "old.json").write_text(json.dumps(old))
    assert reproduces(load_counterexample(tmp_path / "old.json"), outcome)


def _saved_raise(folder: Path) -> Path:
    from toolwire.engines.fuzzing._counterexample import Counterexample, save

    found = Counterexample(
        target="conv.py:f", source="openai-chat", destination="openai-chat", property="raises",
        kind="ValueError", message="ValueError: boom", input=[{"role": "user", "content": "hi"}], output=None,
    )  # fmt: skip
    return save(found, folder)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cat", None),
        (f"{sys.executable} -c 'import sys; sys.exit(3)'", "crashes"),
        (f"{sys.executable} -c 'print(\"oops\")'", "garbage"),
        (f"{sys.executable} -c 'import time; time.sleep(5)'", "hangs"),
    ],
)
def test_command_targets_read_and_write_json_lines(command: str, expected: str | None) -> None:
    run = fuzz(command, "mcp", "mcp", max_examples=5, timeout=0.5, out=None)
    assert [c.property for c in run.counterexamples] == ([expected] if expected else [])


@pytest.mark.slow
def test_cli_saves_replays_and_reports_in_every_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "found"
    args = [
        target("seed000", "buggy"),
        "--from",
        "aisdk-stream",
        "--to",
        "open-responses-stream",
        "--out",
        str(out),
    ]
    assert main(["fuzz", *args]) == 1
    text = capsys.readouterr().out
    assert "FAIL one-to-one [duplicated]" in text and "tool-input-start" in text
    assert "stopped by max-examples: 4 distinct findings" in text
    files = sorted(out.glob("*.json"))
    findings = {load_counterexample(path).finding: path for path in files}
    assert sorted(findings) == [
        "arguments:changed",
        "one-to-one:duplicated",
        "validity:RS-7c",
        "validity:RS-9d",
    ]
    assert not list(out.glob(".*.tmp"))
    saved = findings["one-to-one:duplicated"]
    for path in files:
        assert main(["replay", str(path), target("seed000", "buggy")]) == 1
        assert main(["replay", str(path), target("seed000", "fixed")]) == 0
    capsys.readouterr()
    assert main(["fuzz", *args, "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert next(c["finding"] for c in report["counterexamples"]) == "one-to-one:duplicated"
    assert report["stopped"] == "max-examples"
    assert main(["fuzz", *args, "--format", "junit"]) == 1
    assert 'failures="4"' in capsys.readouterr().out
    # A second campaign into the same folder keeps the first one's files (names carry a content hash).
    assert len(list(out.glob("*.json"))) == len(files)
    saved_case, outcome = replay(saved, target("seed000", "fixed"))
    assert outcome.verdict is None and saved_case.source == "aisdk-stream"


@pytest.mark.parametrize(
    "argv",
    [
        ["fuzz", "no_such_module:f", "--from", "mcp", "--to", "mcp"],
        ["fuzz", "cat", "--from", "carrier-pigeon", "--to", "mcp"],
        ["fuzz", "cat", "--from", "mcp", "--to", "mcp", "--quirks", "null-ids"],
        ["replay", "no-such-file.json", "cat"],
    ],
)
def test_usage_mistakes_exit_2_with_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("toolwire: ") and err.count("\n") == 1
