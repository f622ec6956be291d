"""Response bodies: stream -> body accumulators, body -> request, a body checked as another protocol."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import toolwire
from helpers import accumulators as acc
from helpers import layout
from toolwire.engines import explore, fuzz
from toolwire.properties import Bounds

TRAFFIC = layout.DATA / "traffic"
DATA = layout.DATA

#: Each stream, the body its SDK's accumulator adds it up to, the right accumulator, a buggy one,
#: and the findings the buggy one must show.
PAIRS = [
    ("openai-chat-stream", "openai-chat-response", acc.chat_completion, acc.chat_completion_by_name,
     {"one-to-one:lost"}),
    ("openai-responses-stream", "openai-responses-response", acc.response, acc.response_from_added,
     # RS-10c is a warning since issue 29 (no rejection documented): not a validity finding.
     {"arguments:changed"}),
    ("anthropic-stream", "anthropic-message-response", acc.message, acc.message_last_tool_only,
     {"one-to-one:lost"}),
    ("gemini-stream", "gemini-response", acc.generate_content_response, acc.generate_content_last_chunk,
     {"one-to-one:lost"}),
    ("bedrock-converse-stream", "bedrock-converse-response", acc.converse_response,
     acc.converse_response_by_name, {"one-to-one:lost"}),
]  # fmt: skip
_IDS = [p[1] for p in PAIRS]


@pytest.mark.slow
@pytest.mark.parametrize(("source", "body", "right", "buggy", "found"), PAIRS, ids=_IDS)
def test_the_right_accumulator_keeps_every_relation(
    source: str, body: str, right: Callable[..., Any], buggy: Callable[..., Any], found: set[str]
) -> None:
    # OpenAI's own shapes: an index-keyed accumulator is right for them (not for index-0 traffic).
    run = fuzz(right, source, body, max_examples=150, out=None, quirks="none")
    assert [c.finding for c in run.counterexamples] == []


@pytest.mark.slow
@pytest.mark.parametrize(("source", "body", "right", "buggy", "found"), PAIRS, ids=_IDS)
def test_a_buggy_accumulator_is_caught(
    source: str, body: str, right: Callable[..., Any], buggy: Callable[..., Any], found: set[str]
) -> None:
    run = fuzz(buggy, source, body, max_examples=150, out=None)
    assert found <= {c.finding for c in run.counterexamples}


def _renumbered(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    """An accumulator that mints its own ids (call_0, call_1, ...), as some proxies do."""
    body = acc.chat_completion(chunks)
    for choice in body["choices"]:
        for k, call in enumerate(choice["message"].get("tool_calls") or []):
            call["id"] = f"call_{k}"
    return body


@pytest.mark.slow
def test_an_accumulator_that_mints_ids_breaks_identity() -> None:
    run = fuzz(_renumbered, "openai-chat-stream", "openai-chat-response", max_examples=60, out=None)
    assert "identity" in {c.finding.split(":")[0] for c in run.counterexamples}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("source", "body", "right", "buggy"),
    [
        ("openai-chat-stream", "openai-chat-response", acc.chat_completion, acc.chat_completion_by_name),
        ("openai-responses-stream", "openai-responses-response", acc.response, acc.response_from_added),
    ],
)
def test_explore_proves_the_right_accumulator_and_refutes_the_buggy_one(
    source: str, body: str, right: Callable[..., Any], buggy: Callable[..., Any]
) -> None:
    bounds = Bounds(calls=2, deltas=2)
    assert explore(right, source, body, bounds, out=None, compare=False).verdict == "holds"
    assert explore(buggy, source, body, bounds, out=None, compare=False).verdict == "broken"


@pytest.mark.parametrize("body", ["openai-chat-response", "openai-responses-response", "gemini-response"])
def test_every_explored_body_checks_clean(body: str) -> None:
    run = explore(lambda trace: trace, body, body, Bounds(calls=2, names=2), out=None, compare=False)
    assert run.verdict == "holds"
    assert run.traces > 1


def next_request(bodies: list[dict[str, Any]], tool_result: Callable[..., str]) -> list[dict[str, Any]]:
    """The next request's messages: the body's assistant message, then each call's result."""
    message = bodies[0]["choices"][0]["message"]
    messages = [{"role": "user", "content": "Weather?"}, message]
    for call in message.get("tool_calls") or []:
        result = tool_result(call["function"]["name"], call["function"]["arguments"])
        messages.append({"role": "tool", "tool_call_id": call["id"], "content": result})
    return messages


def next_request_first_result(bodies: list[dict[str, Any]], tool_result: Callable[..., str]) -> list[Any]:
    """The bug: every call answered with the first call's result."""
    messages = next_request(bodies, tool_result)
    first = next((m["content"] for m in messages if m.get("role") == "tool"), None)
    return [m | {"content": first} if m.get("role") == "tool" else m for m in messages]


@pytest.mark.slow
def test_a_body_replayed_in_the_next_request_keeps_ids_and_results() -> None:
    run = fuzz(next_request, "openai-chat-response", "openai-chat", max_examples=100, out=None)
    assert [c.finding for c in run.counterexamples] == []
    crossed = fuzz(
        next_request_first_result, "openai-chat-response", "openai-chat", max_examples=100, out=None
    )
    assert "correlation:crossed" in {c.finding for c in crossed.counterexamples}


@pytest.mark.parametrize(
    ("path", "wrong"),
    [
        ("openai-chat-response/good-parallel-same-tool.json", "anthropic-message-response"),
        ("anthropic-message-response/good-parallel-same-tool.json", "openai-chat-response"),
        ("gemini-response/good-parallel-same-tool.json", "bedrock-converse-response"),
        ("bedrock-converse-response/good-parallel-same-tool.json", "openai-responses-response"),
        ("openai-responses-response/good-parallel-same-tool.json", "gemini-response"),
        ("openai-chat-stream/cc6b-null-string-id.sse", "openai-chat-response"),
    ],
)
def test_a_body_of_another_protocol_is_never_clean(path: str, wrong: str) -> None:
    report = toolwire.check_file(DATA / path, wrong)
    assert report.exit_code == 2
    assert "nothing in the input is" in " ".join(p.message for p in report.problems)


def test_the_cli_checks_a_recorded_body(capsys: pytest.CaptureFixture[str]) -> None:
    from toolwire.cli import main

    body = next(TRAFFIC.glob("*/anthropic-message-response/*.json"))
    assert main(["check", str(body), "-p", "anthropic-message-response", "--format", "json"]) == 0
    (report,) = json.loads(capsys.readouterr().out)["reports"]
    assert (report["events"], report["findings"]) == (1, [])


EXAMPLE = layout.ROOT / "examples" / "stream_to_body.py"


@pytest.mark.slow
def test_the_examples_accumulators_are_caught_and_cleared() -> None:
    buggy = fuzz(f"{EXAMPLE}:buggy", "openai-chat-stream", "openai-chat-response", max_examples=100, out=None)
    fixed = fuzz(f"{EXAMPLE}:fixed", "openai-chat-stream", "openai-chat-response", max_examples=100, out=None)
    assert "one-to-one:lost" in {c.finding for c in buggy.counterexamples}
    assert fixed.counterexamples == []


@pytest.mark.slow
def test_anthropics_own_accumulator_keeps_every_relation() -> None:
    # The SDK's first call imports it and builds its pydantic adapter: seconds on a loaded machine,
    # which the default 5 s per example would call a hang.
    run = fuzz(
        acc.anthropic_sdk,
        "anthropic-stream",
        "anthropic-message-response",
        max_examples=150,
        out=None,
        timeout=60,
    )
    assert [c.finding for c in run.counterexamples] == []


#: OpenAI's own stream shape: later fragments carry index and arguments only.
_OPENAI_SHAPE = ["several-calls", "interleaved-fragments", "first-fragment-arguments-empty"]


@pytest.mark.slow
def test_openais_own_accumulator_keeps_every_relation_on_openais_stream_shape() -> None:
    like = [*_OPENAI_SHAPE, "continuation-index-and-arguments-only"]
    run = fuzz(
        acc.openai_sdk,
        "openai-chat-stream",
        "openai-chat-response",
        max_examples=150,
        out=None,
        like=like,
        timeout=60,  # as above: the SDK's first call imports it
    )
    assert [c.finding for c in run.counterexamples] == []


@pytest.mark.slow
def test_openais_own_accumulator_raises_on_continuations_that_carry_type_null() -> None:
    # Writer's palmyra sends every field on later fragments, null where unset (tests/data/traffic
    # traceloop__openllmetry openai-chat-stream); with two calls, openai 3.57.0's
    # ChatCompletionStreamState asserts that a call's type is still "function" and fails.
    like = [*_OPENAI_SHAPE, "continuation-id-empty"]
    run = fuzz(
        acc.openai_sdk,
        "openai-chat-stream",
        "openai-chat-response",
        max_examples=150,
        out=None,
        like=like,
        timeout=60,  # as above: the SDK's first call imports it
    )
    (found,) = run.counterexamples
    assert found.finding.startswith("raises:AssertionError@"), found.finding
    assert found.message.split(" at ")[0] == "AssertionError: "


def test_openais_own_accumulator_raises_on_writers_recorded_stream() -> None:
    from toolwire.models import DONE, read_frames

    path = TRAFFIC / "traceloop__openllmetry/openai-chat-stream"
    with (path / "test_writer_async_streaming_chat_multiple_tool_call_requests_legacy.sse").open("rb") as f:
        chunks = [value for _, value, _ in read_frames(f, lambda *_: None) if value is not DONE]
    with pytest.raises(AssertionError):
        acc.openai_sdk(chunks)
    assert len(acc.chat_completion(chunks)["choices"][0]["message"]["tool_calls"]) > 1


def test_a_log_of_bodies_is_checked_body_by_body(tmp_path: Path) -> None:
    good = json.loads((DATA / "anthropic-message-response/good-parallel-same-tool.json").read_text())
    bad = json.loads((DATA / "anthropic-message-response/end-turn-with-tool-use.json").read_text())
    log = tmp_path / "responses.jsonl"
    log.write_text("".join(json.dumps(body) + "\n" for body in (good, bad, good)))
    report = toolwire.check_file(log, "anthropic-message-response")
    assert report.events == 3
    assert [(f.rule, f.line, f.path) for f in report.findings] == [("AN-12b", 2, "stop_reason")]
