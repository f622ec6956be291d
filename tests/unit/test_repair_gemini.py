"""Gemini's thought signature through a repair: Gemini 3 requires it on the first functionCall part
of each step (https://ai.google.dev/gemini-api/docs/thought-signatures; without it, 400 "Function
call is missing a thought_signature"), so dropping the call that carried it moves it on."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.engines.repair import repair

QUESTION = {"role": "user", "parts": [{"text": "Weather in Paris and Lyon?"}]}


def _call(ident: str, city: str, **extra: Any) -> dict[str, Any]:
    return {"functionCall": {"id": ident, "name": "get_weather", "args": {"city": city}}, **extra}


def _answer(ident: str) -> dict[str, Any]:
    return {
        "role": "user",
        "parts": [{"functionResponse": {"id": ident, "name": "get_weather", "response": {}}}],
    }


@pytest.mark.parametrize("key", ["thoughtSignature", "thought_signature"])
def test_dropping_the_signed_first_call_moves_its_signature_to_the_next_call(key: str) -> None:
    turn = {
        "role": "model",
        "parts": [{"text": "Checking."}, _call("a", "Paris", **{key: "c2ln"}), _call("b", "Lyon")],
    }
    fixed = repair([QUESTION, turn, _answer("b")], "gemini-contents", unanswered_calls="drop")
    assert [(c.action, c.path) for c in fixed.changes] == [
        ("drop-call", "contents[1].parts[1].functionCall.id")
    ]
    assert fixed.history[1]["parts"] == [{"text": "Checking."}, _call("b", "Lyon", **{key: "c2ln"})]
    assert turn["parts"][1][key] == "c2ln"  # the input is left as it was


def test_dropping_every_call_leaves_the_signature_on_the_last_part_left() -> None:
    turn = {"role": "model", "parts": [{"text": "Checking."}, _call("a", "Paris", thoughtSignature="c2ln")]}
    later = {"role": "user", "parts": [{"text": "Never mind."}]}
    fixed = repair([QUESTION, turn, later], "gemini-contents", unanswered_calls="drop")
    assert fixed.history[1]["parts"] == [{"text": "Checking.", "thoughtSignature": "c2ln"}]


def test_a_turn_whose_signed_call_is_kept_is_unchanged_and_no_second_signature_is_made() -> None:
    turn = {"role": "model", "parts": [_call("a", "Paris", thoughtSignature="c2ln"), _call("b", "Lyon")]}
    fixed = repair([QUESTION, turn, _answer("a")], "gemini-contents", unanswered_calls="drop")
    assert fixed.history[1]["parts"] == [_call("a", "Paris", thoughtSignature="c2ln")]
    kept = repair([QUESTION, turn, _answer("a")], "gemini-contents")
    assert kept.history[1] == turn  # the unanswered call is answered, the turn itself untouched


def test_a_turn_left_with_text_alone_merges_into_the_call_turn_after_it() -> None:
    """A duplicated model turn whose calls are dropped leaves text right before the call turn: GM-2."""
    from toolwire import check

    turn = {
        "role": "model",
        "parts": [{"text": "Let me check."}, _call("a", "Paris", thoughtSignature="c2ln")],
    }
    history = [QUESTION, turn, dict(turn), _answer("a")]
    fixed = repair(history, "gemini-contents", unanswered_calls="drop")
    # The first copy's call (the repeated id renamed) has no answer: dropped, its text kept, merged.
    assert [(c.rule, c.action) for c in fixed.changes] == [
        ("GM-1", "rename"),
        ("GM-4", "drop-call"),
        ("GM-2", "merge"),
    ]
    assert fixed.history[1]["parts"] == [
        {"text": "Let me check.", "thoughtSignature": "c2ln"},
        {"text": "Let me check."},
        _call("a", "Paris", thoughtSignature="c2ln"),
    ]
    assert check(fixed.history, "gemini-contents").exit_code == 0
