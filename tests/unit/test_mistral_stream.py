"""Mistral streams to Mistral requests: the stream-to-history converters fuzz and explore drive."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from toolwire.engines import explore, fuzz
from toolwire.properties import Bounds
from toolwire.protocols import ledger


def _request(calls: list[tuple[Any, Any, str]], run: Callable[[str, str], str]) -> list[Any]:
    if not calls:
        return [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]
    wire = [{"id": i, "type": "function", "function": {"name": n, "arguments": a}} for i, n, a in calls]
    tools = [{"role": "tool", "tool_call_id": i, "name": n, "content": run(n, a)} for i, n, a in calls]
    return [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": None, "tool_calls": wire},
        *tools,
    ]


def by_id(trace: list[Any], run: Callable[[str, str], str]) -> list[Any]:
    """Reads the stream as toolwire does: a fragment with a new id is a new call."""
    return _request([(i, n, a or "{}") for i, n, a in ledger(trace, "mistral-chat-stream").calls], run)


def by_index(trace: list[Any], run: Callable[[str, str], str]) -> list[Any]:
    """Accumulates by ``index``, defaulting to 0 as mistralai does: calls without index merge (MI-6a)."""
    merged: dict[int, list[Any]] = {}
    for chunk in trace:
        for choice in chunk.get("choices", []):
            for fragment in (choice.get("delta") or {}).get("tool_calls") or []:
                call = merged.setdefault(fragment.get("index", 0), [fragment.get("id"), None, ""])
                call[1] = call[1] or fragment["function"]["name"]
                arguments = fragment["function"]["arguments"]
                call[2] += arguments if isinstance(arguments, str) else json.dumps(arguments)
    return _request([(i, n, a or "{}") for i, n, a in merged.values()], run)


@pytest.mark.slow
def test_a_converter_that_reads_calls_by_id_keeps_them(tmp_path: Path) -> None:
    for quirks in (None, "unindexed", "split-arguments"):
        run = fuzz(by_id, "mistral-chat-stream", "mistral-chat", max_examples=60, quirks=quirks, out=tmp_path)
        assert run.counterexamples == [], [c.message for c in run.counterexamples]


@pytest.mark.slow
def test_an_index_keyed_converter_merges_unindexed_calls() -> None:
    # Indexed calls (no quirk): keyed by index is right; unindexed ones merge.
    clean = fuzz(by_index, "mistral-chat-stream", "mistral-chat", max_examples=60, out=None, quirks="none")
    assert clean.counterexamples == []
    run = fuzz(
        by_index, "mistral-chat-stream", "mistral-chat", max_examples=100, quirks="unindexed", out=None
    )
    assert "one-to-one" in {c.property for c in run.counterexamples}


def by_fragment(trace: list[Any], run: Callable[[str, str], str]) -> list[Any]:
    """Takes each fragment that carries an id for a call of its own: a "null" continuation too (MI-6b)."""
    calls: list[list[Any]] = []
    for chunk in trace:
        for choice in chunk.get("choices", []):
            for fragment in (choice.get("delta") or {}).get("tool_calls") or []:
                if "id" in fragment or not calls:
                    calls.append([fragment.get("id"), fragment["function"]["name"], ""])
                calls[-1][2] += fragment["function"]["arguments"]
    return _request([(i, n, a or "{}") for i, n, a in calls], run)


@pytest.mark.parametrize(
    ("converter", "quirks", "verdict"),
    [
        (by_id, (), "holds"),
        (by_id, ("split-arguments",), "holds"),
        (by_fragment, ("split-arguments",), "broken"),
    ],
)
def test_explore_proves_or_breaks_the_pair_within_bounds(
    converter: Callable[..., Any], quirks: tuple[str, ...], verdict: str, tmp_path: Path
) -> None:
    bounds = Bounds(calls=2, deltas=2, turns=1, quirks=frozenset(quirks))
    run = explore(converter, "mistral-chat-stream", "mistral-chat", bounds, out=tmp_path)
    assert run.verdict == verdict, run.counterexample
    if verdict == "holds":
        assert run.traces == run.space.traces > 5
    else:
        assert run.counterexample is not None and run.counterexample.property == "one-to-one"


def _nine(call_id: Any) -> str:
    return hashlib.sha256(str(call_id).encode()).hexdigest()[:9]


def to_mistral(trace: list[Any]) -> list[Any]:
    """OpenAI Chat chunks to Mistral chunks: each call whole, at its own index, with a 9-character id."""
    calls = ledger(trace, "openai-chat-stream").calls
    chunk = {
        "id": "378d4d9fd4914db088d7c448257ed0d2",
        "object": "chat.completion.chunk",
        "model": "mistral-large",
    }
    out = [
        chunk
        | {"choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}]}
    ]
    for k, (call_id, name, arguments) in enumerate(calls):
        fragment = {"id": _nine(call_id), "type": "function", "index": k}
        fragment["function"] = {"name": name, "arguments": arguments or "{}"}
        out.append(
            chunk | {"choices": [{"index": 0, "delta": {"tool_calls": [fragment]}, "finish_reason": None}]}
        )
    reason = "tool_calls" if calls else "stop"
    out.append(chunk | {"choices": [{"index": 0, "delta": {"content": ""}, "finish_reason": reason}]})
    return out


@pytest.mark.slow
def test_mistral_chat_stream_is_a_fuzz_output(tmp_path: Path) -> None:
    run = fuzz(to_mistral, "openai-chat-stream", "mistral-chat-stream", max_examples=60, out=tmp_path)
    assert run.counterexamples == [], [c.message for c in run.counterexamples]
    kept = fuzz(
        lambda trace: [dict(c) for c in trace],
        "openai-chat-stream",
        "mistral-chat-stream",
        max_examples=60,
        out=None,
    )
    assert "validity" in {c.property for c in kept.counterexamples}  # call_ ids break MI-1
