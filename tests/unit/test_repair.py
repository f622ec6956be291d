"""The repairer: each repair action on a small history, the corpus repaired, the file pieces, and
the repairer explored as a converter of damaged history."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import toolwire.engines.repair as repair_api
from helpers.layout import DATA, ROOT
from toolwire import check
from toolwire.engines import explore
from toolwire.engines.repair import PROVIDERS, REPAIRABLE, lint, repair, repair_path
from toolwire.errors import UsageError
from toolwire.properties import Bounds

#: toolwire's repairer as a converter, as explore and fuzz load one.
EXAMPLE = str(ROOT / "examples" / "toolwire_repair.py") + ":{}"


def call(ident: Any, name: str = "get_weather") -> dict[str, Any]:
    return {"id": ident, "type": "function", "function": {"name": name, "arguments": "{}"}}


def assistant(*calls: dict[str, Any], content: Any = None) -> dict[str, Any]:
    return {"role": "assistant", "content": content, "tool_calls": list(calls)}


def tool(ident: Any, content: str = "15 degrees") -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": ident, "content": content}


USER = {"role": "user", "content": "Weather?"}


def test_the_api_is_pinned() -> None:
    assert repair_api.__all__ == [
        "ACTIONS", "CONTEXT", "PROVIDERS", "REPAIRABLE", "Action", "Body", "Change", "OrphanPolicy",
        "Provider", "ProviderRule", "Repair", "UnansweredPolicy", "lint", "provider_of_wire", "read_body",
        "repair", "repair_body", "repair_path", "write_body",
    ]  # fmt: skip


def test_a_clean_history_comes_back_as_it_was() -> None:
    history = [USER, assistant(call("call_1")), tool("call_1")]
    fixed = repair(history, "openai-chat")
    assert fixed.history is history
    assert fixed.changes == () and fixed.exit_code == 0 and fixed.ids == {}


def test_an_unanswered_call_gets_an_error_result_saying_it_was_not_run() -> None:
    history = [USER, assistant(call("call_1")), {"role": "user", "content": "Hello?"}]
    snapshot = copy.deepcopy(history)
    fixed = repair(history, "openai-chat")
    assert history == snapshot  # the input is not changed
    assert [m["role"] for m in fixed.history] == ["user", "assistant", "tool", "user"]
    assert fixed.history[2]["tool_call_id"] == "call_1"
    assert "not run" in fixed.history[2]["content"]
    assert [(c.rule, c.action, c.path) for c in fixed.changes] == [
        ("CC-4", "answer", "messages[1].tool_calls[0].id")
    ]
    assert fixed.exit_code == 1 and check(fixed.history, "openai-chat").exit_code == 0


def test_an_unanswered_call_may_be_dropped_keeping_the_assistant_text() -> None:
    history = [USER, assistant(call("call_1"), call("call_2"), content="Let me look."), tool("call_2"), USER]
    fixed = repair(history, "openai-chat", unanswered_calls="drop")
    assert fixed.history[1] == {
        "role": "assistant",
        "content": "Let me look.",
        "tool_calls": [call("call_2")],
    }
    assert [c.action for c in fixed.changes] == ["drop-call"]
    alone = repair([USER, assistant(call("call_1")), USER], "openai-chat", unanswered_calls="drop")
    assert alone.history == [USER, USER]  # nothing left of it, not even an empty tool_calls array


def test_an_orphaned_result_is_kept_as_a_note_naming_its_call() -> None:
    history = [USER, tool("call_9", "Transfer completed, transaction 123"), USER]
    fixed = repair(history, "openai-chat")
    note = fixed.history[1]
    assert note["role"] == "user"
    assert "call_9" in note["content"] and "Transfer completed, transaction 123" in note["content"]
    assert [(c.rule, c.action, c.before) for c in fixed.changes] == [
        ("CC-3", "note", "Transfer completed, transaction 123")
    ]


def test_an_orphaned_result_may_be_dropped_and_the_change_keeps_what_it_said() -> None:
    fixed = repair([USER, tool("call_9", "42"), USER], "openai-chat", orphan_results="drop")
    assert fixed.history == [USER, USER]
    assert [(c.action, c.before) for c in fixed.changes] == [("drop-result", "42")]


def test_a_result_out_of_place_moves_next_to_its_call() -> None:
    later = {"role": "user", "content": "Interrupt"}
    history = [USER, assistant(call("call_1")), later, tool("call_1")]
    fixed = repair(history, "openai-chat")
    assert fixed.history == [USER, assistant(call("call_1")), tool("call_1"), later]
    assert [(c.rule, c.action) for c in fixed.changes] == [("CC-2", "move")]


def test_a_repeated_id_is_renamed_in_the_call_and_in_its_result() -> None:
    blocks = [
        {"role": "user", "content": [{"type": "text", "text": "Hi"}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "a"}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "b"}]},
    ]
    fixed = repair(blocks, "anthropic-messages")
    second_call, second_result = fixed.history[3]["content"][0], fixed.history[4]["content"][0]
    assert second_call["id"] == second_result["tool_use_id"] != "toolu_1"
    assert second_result["content"] == "b" and fixed.history[2] == blocks[2]
    assert {(c.rule, c.action) for c in fixed.changes} == {("AN-2", "rename")}
    assert check(fixed.history, "anthropic-messages").exit_code == 0


def test_two_calls_of_one_id_in_one_message_are_answered_first_to_first() -> None:
    # Results follow their calls in order: the one result answers the first call, which keeps the
    # id; the second is renamed and, unanswered, gets its error result (Mistral takes neither id).
    pay, notify = call("call_1", "pay"), call("call_1", "notify")
    history = [USER, assistant(pay, notify), tool("call_1", "Paid"), {"role": "user", "content": "Thanks"}]
    fixed = repair(history, "mistral-chat")
    calls = fixed.history[1]["tool_calls"]
    results = {m["tool_call_id"]: m["content"] for m in fixed.history if m["role"] == "tool"}
    assert results[calls[0]["id"]] == "Paid"
    assert results[calls[1]["id"]].startswith("Error: this tool call was not run")
    assert check(fixed.history, "mistral-chat").exit_code == 0
    # Across turns, a result answers the closest call of its id before it.
    again = [USER, assistant(pay), tool("call_1", "Paid"), assistant(notify), tool("call_1", "Sent")]
    fixed = repair(again, "mistral-chat")
    out = fixed.history
    assert out[2]["tool_call_id"] == out[1]["tool_calls"][0]["id"] != out[3]["tool_calls"][0]["id"]
    assert out[4]["tool_call_id"] == out[3]["tool_calls"][0]["id"] and out[4]["content"] == "Sent"


def test_ids_the_target_will_not_take_are_remapped_injectively() -> None:
    history = [USER, assistant(call("call_abc"), call("call_def")), tool("call_def"), tool("call_abc")]
    fixed = repair(history, "mistral-chat")
    assert set(fixed.ids) == {"call_abc", "call_def"}
    assert len(set(fixed.ids.values())) == 2
    assert all(len(v) == 9 and v.isalnum() for v in fixed.ids.values())
    assert [m["tool_call_id"] for m in fixed.history[2:]] == [fixed.ids["call_def"], fixed.ids["call_abc"]]
    assert check(fixed.history, "mistral-chat").exit_code == 0


def test_a_provider_profile_narrows_the_ids_of_a_shared_wire() -> None:
    history = {"model": "m", "messages": [USER, assistant(call("call_abc")), tool("call_abc")]}
    assert repair(history, "openai-chat").changes == ()
    fixed = repair(history, "openai-chat", provider="mistral")
    assert fixed.history["model"] == "m"  # a body stays a body
    # The wire takes call_abc; the change cites the provider's rule, which does not.
    assert [(c.rule, c.action) for c in fixed.changes] == [("MS-1", "remap"), ("MS-1", "remap")]
    assert "mistral will not take" in fixed.changes[0].reason
    assert lint(fixed.history["messages"], PROVIDERS["mistral"]) == []


def test_deepseek_takes_no_empty_tool_calls_array() -> None:
    history = [USER, {"role": "assistant", "content": "Hi", "tool_calls": []}, USER]
    assert check(history, "openai-chat").exit_code == 0
    fixed = repair(history, "openai-chat", provider="deepseek")
    assert fixed.history[1] == {"role": "assistant", "content": "Hi"}
    assert [(c.rule, c.action) for c in fixed.changes] == [("DS-3", "drop-call")]


def test_every_provider_rule_names_its_source_and_says_its_error_or_is_a_warning() -> None:
    for profile in PROVIDERS.values():
        for rule in profile.rules:
            assert rule.source.startswith(("http", "mistral-common"))
            assert rule.error is not None or rule.severity == "warning"


def test_no_repair_is_right_for_a_rule_that_is_not_about_pairing() -> None:
    history = json.loads((DATA / "gemini-contents" / "args-as-string.json").read_text())
    fixed = repair(history, "gemini-contents")
    assert fixed.history is history
    assert [(c.rule, c.action) for c in fixed.changes] == [("GM-7", "unrepaired")]
    assert fixed.exit_code == 2


UI_USER = {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "Weather?"}]}
UI_LATER = {"id": "u2", "role": "user", "parts": [{"type": "text", "text": "Hello?"}]}


def ui_part(ident: Any = "call_1", state: str = "input-available", **fields: Any) -> dict[str, Any]:
    return {"type": "tool-get_weather", "toolCallId": ident, "state": state, "input": {}, **fields}


def ui_assistant(*parts: dict[str, Any], ident: str = "a1") -> dict[str, Any]:
    return {"id": ident, "role": "assistant", "parts": [{"type": "step-start"}, *parts]}


def test_a_ui_part_with_no_outcome_before_a_user_message_is_answered_with_an_error() -> None:
    history = [UI_USER, ui_assistant(ui_part()), UI_LATER]
    fixed = repair(history, "aisdk-ui-messages")
    part = fixed.history[1]["parts"][1]
    assert part["state"] == "output-error" and "not run" in part["errorText"]
    assert part["toolCallId"] == "call_1" and part["input"] == {}
    assert [(c.rule, c.action, c.path) for c in fixed.changes] == [("VM-4", "answer", "messages[1].parts[1]")]
    assert check(fixed.history, "aisdk-ui-messages").exit_code == 0


def test_a_ui_part_waiting_at_the_end_is_the_clients_state_and_left_alone() -> None:
    history = [UI_USER, ui_assistant(ui_part())]
    assert repair(history, "aisdk-ui-messages").history is history


def test_a_ui_part_with_no_outcome_may_be_dropped_and_with_it_a_message_left_empty() -> None:
    said = {"type": "text", "text": "Let me look.", "state": "done"}
    history = [UI_USER, ui_assistant(said, ui_part()), UI_LATER]
    fixed = repair(history, "aisdk-ui-messages", unanswered_calls="drop")
    assert fixed.history[1]["parts"] == [{"type": "step-start"}, said]
    assert [c.action for c in fixed.changes] == ["drop-call"]
    alone = repair([UI_USER, ui_assistant(ui_part()), UI_LATER], "aisdk-ui-messages", unanswered_calls="drop")
    assert alone.history == [UI_USER, UI_LATER]


def test_a_ui_tool_part_in_a_user_message_is_kept_as_text_naming_its_call() -> None:
    done = ui_part(state="output-available", output="Transfer completed, transaction 123")
    history = [{**UI_USER, "parts": [*UI_USER["parts"], done]}]
    fixed = repair(history, "aisdk-ui-messages")
    note = fixed.history[0]["parts"][1]
    assert note["type"] == "text" and "call_1" in note["text"] and "transaction 123" in note["text"]
    assert [(c.rule, c.action) for c in fixed.changes] == [("VM-3", "note")]
    dropped = repair(history, "aisdk-ui-messages", orphan_results="drop")
    assert dropped.history == [UI_USER]
    assert [(c.action, c.before) for c in dropped.changes] == [
        ("drop-result", "Transfer completed, transaction 123")
    ]


def test_a_repeated_ui_tool_call_id_is_renamed_in_its_one_part() -> None:
    first = ui_part(state="output-available", output="18")
    history = [UI_USER, ui_assistant(first), UI_LATER, ui_assistant(first, ident="a2")]
    fixed = repair(history, "aisdk-ui-messages")
    renamed = fixed.history[3]["parts"][1]
    assert renamed["toolCallId"] != "call_1" and renamed["output"] == "18"
    assert fixed.history[1] == history[1]
    assert [(c.rule, c.action) for c in fixed.changes] == [("VM-1", "rename")]


def test_a_ui_part_without_an_id_gets_one() -> None:
    history = [
        UI_USER,
        ui_assistant(
            {k: v for k, v in ui_part(state="output-available", output="1").items() if k != "toolCallId"}
        ),
    ]
    fixed = repair(history, "aisdk-ui-messages")
    assert isinstance(fixed.history[1]["parts"][1]["toolCallId"], str)
    assert [(c.rule, c.action) for c in fixed.changes] == [("VM-2", "fill-id")]


def test_a_ui_part_takes_the_state_its_fields_fit_and_is_left_when_none_fits() -> None:
    history = [UI_USER, ui_assistant(ui_part(output="18"))]
    fixed = repair(history, "aisdk-ui-messages")
    assert fixed.history[1]["parts"][1]["state"] == "output-available"
    assert [(c.rule, c.action, c.before, c.after) for c in fixed.changes] == [
        ("VM-2", "restate", "input-available", "output-available")
    ]
    both = [UI_USER, ui_assistant(ui_part(output="18", errorText="failed"))]
    left = repair(both, "aisdk-ui-messages")
    assert [(c.rule, c.action) for c in left.changes] == [("VM-2", "unrepaired")] and left.exit_code == 2


@pytest.mark.parametrize(
    ("kwargs", "said"),
    [
        ({"orphan_results": "delete"}, "orphan_results"),
        ({"unanswered_calls": "ignore"}, "unanswered_calls"),
        ({"provider": "nobody"}, "no provider profile"),
        ({"provider": "mistral", "protocol": "anthropic-messages"}, "the mistral profile is for"),
        ({"protocol": "mcp"}, "cannot repair mcp"),
    ],
)
def test_bad_usage_is_a_usage_error(kwargs: dict[str, Any], said: str) -> None:
    protocol = kwargs.pop("protocol", "openai-chat")
    with pytest.raises(UsageError, match=said):
        repair([USER], protocol, **kwargs)


def test_input_that_is_not_the_protocols_is_a_usage_error() -> None:
    with pytest.raises(UsageError):
        repair({"contents": []}, "openai-chat")
    with pytest.raises(UsageError, match="cannot be repaired"):
        repair([{"type": "response.created"}], "openai-chat")


CORPUS = sorted(p for name in REPAIRABLE for p in (DATA / name).glob("*.json"))


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_corpus_comes_out_clean_or_says_what_no_repair_is_right_for(path: Path) -> None:
    protocol = path.parent.name
    history = json.loads(path.read_text())
    fixed = repair(history, protocol)
    after = check(fixed.history, protocol)
    if fixed.exit_code == 2:
        assert {c.rule for c in fixed.unrepaired} == {f.rule for f in after.errors}
    else:
        assert after.exit_code == 0, [(f.rule, f.path) for f in after.errors]
    if not check(history, protocol).findings:
        assert fixed.history is history and fixed.changes == ()
    again = repair(fixed.history, protocol)
    assert again.history == fixed.history
    assert all(c.action == "unrepaired" for c in again.changes)


def test_a_clean_file_is_written_back_byte_for_byte(tmp_path: Path) -> None:
    source = DATA / "openai-chat" / "seed004-tc2-valid-chain.json"
    done, out = repair_path(source)
    assert out == source.read_bytes() and done.exit_code == 0 and done.protocol == "openai-chat"


def test_a_repaired_file_keeps_its_shape_and_its_json_result_says_each_change(tmp_path: Path) -> None:
    source = DATA / "openai-chat" / "seed004-tc1-orphan-tool-message.json"
    done, out = repair_path(source)
    written = json.loads(out)
    assert set(written) == set(json.loads(source.read_text()))  # a whole body stays a whole body
    assert done.protocol == "openai-chat"  # detected as check detects it
    result = done.to_json()
    assert result["exit_code"] == 1 and result["history"] == written
    assert [set(c) >= {"rule", "path", "action", "before", "after"} for c in result["changes"]] == [True]


def test_json_lines_of_messages_are_one_history(tmp_path: Path) -> None:
    lines = tmp_path / "history.jsonl"
    lines.write_text("".join(json.dumps(m) + "\n" for m in [USER, assistant(call("call_1")), USER]))
    done, out = repair_path(lines, "openai-chat")
    written = [json.loads(line) for line in out.decode().splitlines()]
    assert [m["role"] for m in written] == ["user", "assistant", "tool", "user"] and done.exit_code == 1


def test_a_file_s_protocol_is_detected_as_check_detects_it() -> None:
    # Detection ranks readings by the calls and results each judges: Anthropic's tool_result
    # blocks make this one Anthropic's, as naming the protocol does.
    detected, _ = repair_path(DATA / "anthropic-messages" / "orphan-result.json")
    done, _ = repair_path(DATA / "anthropic-messages" / "orphan-result.json", "anthropic-messages")
    assert detected.protocol == "anthropic-messages"
    assert [(c.rule, c.action) for c in detected.changes] == [(c.rule, c.action) for c in done.changes]
    assert [(c.rule, c.action) for c in done.changes] == [("AN-4", "note")]


def test_an_unreadable_file_is_a_usage_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json\n")
    with pytest.raises(UsageError, match="not JSON"):
        repair_path(bad, "openai-chat")


def test_explore_proves_the_repairer_keeps_every_intact_pair_of_damaged_history() -> None:
    run = explore(
        EXAMPLE.format("openai_chat"),
        "openai-chat",
        "openai-chat",
        Bounds(calls=2, turns=2),
        mutate=True,
        out=None,
    )
    assert run.verdict == "holds", run.counterexample
    assert run.inputs > run.traces > 0  # the damaged inputs were fed too


@pytest.mark.slow
@pytest.mark.parametrize(
    ("function", "protocol", "mutate"),
    [
        ("openai_chat", "openai-chat", True),
        ("openai_chat_drop", "openai-chat", True),
        ("gemini_contents", "gemini-contents", False),
        ("aisdk_model_messages", "aisdk-model-messages", False),
        ("aisdk_ui_messages", "aisdk-ui-messages", False),
    ],
)
def test_explore_holds_within_larger_bounds(function: str, protocol: str, mutate: bool) -> None:
    bounds = Bounds(calls=3, turns=3) if mutate else Bounds(calls=2, turns=2, names=2)
    run = explore(EXAMPLE.format(function), protocol, protocol, bounds, mutate=mutate, out=None)
    assert run.verdict == "holds", run.counterexample


def test_the_docs_table_names_each_adapters_rules() -> None:
    from toolwire.properties._repair import Adapter
    from toolwire.protocols import get_protocol

    text = (ROOT / "docs" / "repair.md").read_text().split("## What the repairer does")[1]
    rows = {
        cells[0].strip("` "): [c.strip() for c in cells[1:8]]
        for line in text.split("\n## ")[0].splitlines()
        if line.startswith("| `") and (cells := line.strip("|").split("|"))
    }
    assert set(rows) == set(REPAIRABLE)
    situations = ("unanswered", "orphan", "move", "duplicate", "id", "missing", "second")
    for name in REPAIRABLE:
        load = get_protocol(name).repair
        assert load is not None
        if isinstance(adapter := load(), Adapter):
            assert rows[name] == [adapter.rules[k] for k in situations], name


def test_a_result_before_its_call_does_not_take_it_from_the_result_in_place() -> None:
    history = [USER, tool("call_a", "stale"), assistant(call("call_a")), tool("call_a", "fresh"), USER]
    fixed = repair(history, "openai-chat")
    assert fixed.history[2:4] == history[2:4]  # the intact pair, kept
    assert [(c.rule, c.action, c.path) for c in fixed.changes] == [("CC-5c", "note", "messages[1]")]
    assert "stale" in fixed.history[1]["content"]


@pytest.mark.parametrize("ident", ["", None])
def test_a_call_and_its_result_both_without_an_id_get_one_id_together(ident: Any) -> None:
    bare = call("x")
    bare.pop("id") if ident is None else bare.update(id=ident)
    result = {"role": "tool", "content": "15 degrees"} if ident is None else tool(ident)
    fixed = repair([USER, assistant(bare), result], "openai-chat")
    new = fixed.history[1]["tool_calls"][0]["id"]
    assert fixed.history[2] == {**result, "tool_call_id": new}
    assert [(c.rule, c.action) for c in fixed.changes] == [("CC-1", "fill-id"), ("CC-1", "fill-id")]


def test_otel_calls_and_responses_without_ids_pair_in_order() -> None:
    def message(role: str, *parts: dict[str, Any]) -> dict[str, Any]:
        return {"role": role, "parts": list(parts)}

    user = message("user", {"type": "text", "content": "hi"})
    history = [
        user,
        message("assistant", {"type": "tool_call", "name": "f", "arguments": {}}),
        message("tool", {"type": "tool_call_response", "response": "r"}),
        message("assistant", {"type": "text", "content": "ok"}),
        user,
        message("assistant", {"type": "tool_call", "name": "g", "id": "b", "arguments": {}}),
        user,
    ]
    fixed = repair(history, "otel-genai")
    said = [(c.rule, c.action, c.path) for c in fixed.changes]
    assert said == [("GA-5", "answer", "messages[5].parts[0].id")]
    assert fixed.history[:6] == history[:6]


def test_an_empty_history_needs_no_repair_so_dropping_everything_is_idempotent() -> None:
    assert repair([], "openai-chat").exit_code == 0
    assert repair({"model": "m", "messages": []}, "openai-chat").exit_code == 0
    dropped = repair([tool("call_9")], "openai-chat", orphan_results="drop")
    assert dropped.history == [] and dropped.exit_code == 1
    assert repair(dropped.history, "openai-chat", orphan_results="drop").history == []
