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


# Anthropic: a repeated server_tool_use id is renamed to an id no block of the history holds.

ANTHROPIC = "anthropic-messages"
QUESTION = {"role": "user", "content": "Search it"}


def _use(ident: str) -> dict[str, Any]:
    return {"type": "server_tool_use", "id": ident, "name": "web_search", "input": {"query": "q"}}


def _found(ident: str, url: str = "https://example.com") -> dict[str, Any]:
    return {"type": "web_search_tool_result", "tool_use_id": ident, "content": [{"url": url}]}


def _searched(*blocks: Any) -> dict[str, Any]:
    return {"role": "assistant", "content": [*blocks, {"type": "text", "text": "found"}]}


def _server_ids(history: list[Any]) -> list[tuple[str, Any]]:
    return [
        (b["type"], b.get("id", b.get("tool_use_id")))
        for m in history
        if m["role"] == "assistant"
        for b in m["content"]
        if b["type"] != "text"
    ]


def test_anthropic_repairing_twice_with_a_turn_repeated_between_renames_to_new_ids() -> None:
    first = _repaired([QUESTION, _searched(_use("srvtoolu_01"), _found("srvtoolu_01"))] * 2, ANTHROPIC)
    assert _server_ids(first.history)[2:] == [
        ("server_tool_use", "srvtoolu_tw1"),
        ("web_search_tool_result", "srvtoolu_tw1"),
    ]
    repeated = [QUESTION, _searched(_use("srvtoolu_02"), _found("srvtoolu_02"))] * 2
    second = _repaired([*first.history, *repeated], ANTHROPIC)
    assert [(c.rule, c.action, c.before, c.after) for c in second.changes] == [
        ("AN-2", "rename", "srvtoolu_02", "srvtoolu_tw2")
    ]


def test_anthropic_a_renamed_server_id_is_none_the_history_holds() -> None:
    history = [
        QUESTION,
        _searched(_use("srvtoolu_tw1"), _found("srvtoolu_tw1")),
        *[QUESTION, _searched(_use("srvtoolu_1"), _found("srvtoolu_1"))] * 2,
    ]
    fixed = _repaired(history, ANTHROPIC)
    assert [(c.path, c.after) for c in fixed.changes] == [("messages[5].content[0].id", "srvtoolu_tw2")]


def test_anthropic_repeats_in_one_message_each_get_an_id_their_results_follow_in_order() -> None:
    one = "srvtoolu_1"
    history = [
        QUESTION,
        _searched(_use(one), _found(one, "a"), _use(one), _found(one, "b"), _use(one), _found(one, "c")),
        QUESTION,
        _searched(_use(one), _use(one), _found(one, "d"), _found(one, "e")),
    ]
    fixed = _repaired(history, ANTHROPIC)
    assert _server_ids(fixed.history) == [
        ("server_tool_use", one),
        ("web_search_tool_result", one),
        ("server_tool_use", "srvtoolu_tw1"),
        ("web_search_tool_result", "srvtoolu_tw1"),
        ("server_tool_use", "srvtoolu_tw2"),
        ("web_search_tool_result", "srvtoolu_tw2"),
        ("server_tool_use", "srvtoolu_tw3"),
        ("server_tool_use", "srvtoolu_tw4"),
        ("web_search_tool_result", "srvtoolu_tw3"),
        ("web_search_tool_result", "srvtoolu_tw4"),
    ]
    assert [b["content"][0]["url"] for b in fixed.history[3]["content"][2:4]] == ["d", "e"]


def test_anthropic_a_result_in_the_next_message_follows_the_renamed_use_before_it() -> None:
    """A server-tool loop paused (``pause_turn``) and resumed: the result comes in the next message."""
    one = "srvtoolu_1"
    history = [
        QUESTION,
        _searched(_use(one), _found(one, "a")),
        QUESTION,
        {"role": "assistant", "content": [_use(one)]},
        _searched(_found(one, "b")),
    ]
    fixed = _repaired(history, ANTHROPIC)
    assert _server_ids(fixed.history)[2:] == [
        ("server_tool_use", "srvtoolu_tw1"),
        ("web_search_tool_result", "srvtoolu_tw1"),
    ]


# Bedrock: an orphaned toolResult keeps what it said, whatever its shape.

BEDROCK = "bedrock-converse"


def test_bedrock_an_orphan_whose_tool_result_is_not_of_the_api_shape_keeps_what_it_said() -> None:
    asked = {"toolUse": {"toolUseId": "t1", "name": "pay", "input": {}}}
    for result, said in [
        ("Transfer done 123", "Transfer done 123"),
        ([{"text": "Transfer done 123"}], '[{"text":"Transfer done 123"}]'),
        ({"toolUseId": "t9", "json": {"done": 123}}, '{"json":{"done":123}}'),
    ]:
        history = [
            {"role": "user", "content": [{"text": "Pay"}]},
            {"role": "assistant", "content": [asked]},
            {"role": "user", "content": [{"toolResult": result}]},
        ]
        fixed = _repaired(history, BEDROCK)
        note = fixed.history[2]["content"][1]["text"]
        assert note.endswith(f"kept as text because its call is not in this history: {said}"), note


def test_bedrock_a_system_tools_call_and_result_are_left_alone() -> None:
    """A toolUse with a type is a system tool's: Bedrock answered it in its message (BR-2's scope)."""
    grounding = {"toolUseId": "s1", "name": "nova_grounding", "input": {}, "type": "server_tool_use"}
    found = {"toolUseId": "s1", "content": [{"text": "x"}], "type": "nova_grounding_result"}
    asked = {"toolUse": {"toolUseId": "t1", "name": "pay", "input": {}}}
    turn = {"role": "assistant", "content": [{"toolUse": grounding}, {"toolResult": found}, asked]}
    later = {"role": "user", "content": [{"text": "Thanks"}]}
    fixed = _repaired([{"role": "user", "content": [{"text": "Pay"}]}, turn, later], BEDROCK)
    assert [(c.action, c.path) for c in fixed.changes] == [
        ("answer", "messages[1].content[2].toolUse.toolUseId")
    ]
    assert fixed.history[1] == turn
    assert fixed.history[2]["content"][0]["toolResult"]["toolUseId"] == "t1"
    assert fixed.history[2]["content"][1:] == later["content"]
