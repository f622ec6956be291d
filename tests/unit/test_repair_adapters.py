"""The protocol adapters of the repairer (``protocols/<family>/repair.py``) on histories the review
found them wrong on: each comes out as ``check`` passes it, its intact parts as they were, no
orphan's content lost, and repairing it again changes nothing."""

from __future__ import annotations

import copy
from typing import Any

from toolwire import check
from toolwire.engines.repair import repair
from toolwire.properties._change import Repair


def _repaired(history: list[Any], protocol: str) -> Repair:
    """``repair(history)``, checked: the input left as it was, the output clean, a fixed point."""
    before = copy.deepcopy(history)
    fixed = repair(history, protocol)
    assert history == before, "the input was changed"
    assert check(fixed.history, protocol).exit_code == 0, [(c.rule, c.action, c.path) for c in fixed.changes]
    assert fixed.exit_code == 1
    again = repair(fixed.history, protocol)
    assert again.history == fixed.history and again.changes == ()
    return fixed


# Gemini: a content without role is a user content (check reads it so: the monitor's role default).

GEMINI = "gemini-contents"
NOT_RUN = "Error: this tool call was not run (toolwire repair: no result was recorded for it)."


def _fc(name: str) -> dict[str, Any]:
    return {"functionCall": {"name": name, "args": {}}}


def _fr(name: str, response: Any) -> dict[str, Any]:
    return {"functionResponse": {"name": name, "response": response}}


def _model(*parts: Any) -> dict[str, Any]:
    return {"role": "model", "parts": list(parts)}


def test_gemini_responses_in_a_content_without_role_answer_their_calls() -> None:
    history = [
        {"parts": [{"text": "Weather?"}]},
        _model(_fc("f")),
        {"parts": [_fr("f", {"temp": 18})]},
        _model(_fc("g")),
        {"role": "user", "parts": [{"text": "Thanks"}]},
    ]
    fixed = _repaired(history, GEMINI)
    # Only g is unanswered: f's response, in a content without role, answers f where it is.
    assert [(c.rule, c.action, c.path) for c in fixed.changes] == [
        ("GM-4", "answer", "contents[3].parts[0].functionCall.id")
    ]
    assert [fixed.history[k] for k in (0, 1, 3)] == [history[k] for k in (0, 1, 3)]
    # The content answering f keeps its parts; the repairer writes the user contents it rebuilds
    # with their role said.
    assert fixed.history[2] == {"role": "user", "parts": history[2]["parts"]}
    assert fixed.history[4] == {
        "role": "user",
        "parts": [_fr("g", {"error": NOT_RUN}), {"text": "Thanks"}],
    }


def test_gemini_a_content_without_role_carries_the_answer_of_the_call_before_it() -> None:
    history = [{"parts": [{"text": "Weather?"}]}, _model(_fc("f")), {"parts": [{"text": "Never mind."}]}]
    fixed = _repaired(history, GEMINI)
    # The not-run response goes first in that user content (as into one with role user), not into
    # a content of its own before it; the content is left without role, as it came.
    assert fixed.history == [*history[:2], {"parts": [_fr("f", {"error": NOT_RUN}), {"text": "Never mind."}]}]


def test_gemini_an_orphan_in_a_content_without_role_is_kept_as_a_note() -> None:
    history = [{"parts": [{"text": "Weather?"}]}, _model({"text": "I see."}), {"parts": [_fr("f", {"t": 1})]}]
    fixed = _repaired(history, GEMINI)
    assert [(c.rule, c.action) for c in fixed.changes] == [("GM-3", "note")]
    assert fixed.history[2] == {
        "parts": [{"text": "[toolwire repair] Result of tool call None (f), kept as text because its call "
                   'is not in this history: {"t":1}'}]
    }  # fmt: skip
