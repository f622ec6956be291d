"""Production logs: bodies inside log records, conversations across records, OTLP JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import layout
from toolwire.cli import _plain_check, main
from toolwire.cli.handlers._check import render_text
from toolwire.engines.logs import check_log
from toolwire.engines.logs._envelopes import PRESETS, dig
from toolwire.errors import UsageError
from toolwire.protocols import RULES

LOGS = layout.DATA / "logs"
OTEL = LOGS / "otel"
#: What each preset's records are grouped by (the conversation), as the README shows.
GROUPS = {
    "litellm": "trace_id",
    "portkey": "metadata.trace_id",
    "helicone": "request_properties.Helicone-Session-Id",
    "langfuse": "traceId",
    "bedrock-invocations": "operation",
}


def rules(reports: list[Any]) -> list[str]:
    return sorted({f.rule for report in reports for f in report.findings})


def _lines(name: str, file: str) -> list[Any]:
    return [json.loads(line) for line in (LOGS / name / file).read_text().splitlines()]


def test_every_preset_has_a_clean_record_file_and_its_provenance() -> None:
    assert (LOGS / "PROVENANCE.md").is_file()
    provenance = (LOGS / "PROVENANCE.md").read_text()
    for name in PRESETS:
        assert (LOGS / name / "clean.jsonl").is_file(), name
        assert f"`{name}`" in provenance, name


@pytest.mark.parametrize("name", [p for p in PRESETS if not p.startswith("openai-batch")])
def test_each_preset_reads_its_clean_records_as_clean(name: str) -> None:
    reports = check_log([LOGS / name / "clean.jsonl"], presets=[name], group_by=GROUPS.get(name))
    assert [r.exit_code for r in reports] == [0] * len(reports), [r.problems for r in reports]
    assert all(r.events for r in reports)


def test_a_batch_input_and_output_are_joined_on_custom_id() -> None:
    given = [LOGS / "openai-batch-input" / "clean.jsonl", LOGS / "openai-batch-output" / "clean.jsonl"]
    reports = check_log(given, presets=["openai-batch-input", "openai-batch-output"])
    assert [(Path(r.source).parent.name, r.exit_code) for r in reports] == [
        ("openai-batch-input", 0),
        ("openai-batch-output", 0),
    ]
    assert not reports[0].problems


def test_a_batchs_violations_name_their_file_and_line() -> None:
    given = [
        LOGS / "openai-batch-input" / "violating.jsonl",
        LOGS / "openai-batch-output" / "violating.jsonl",
    ]
    reports = check_log(given, presets=["openai-batch-input", "openai-batch-output"])
    found = [(Path(r.source).parent.name, f.rule, f.line, f.path) for r in reports for f in r.findings]
    assert found == [
        ("openai-batch-input", "CC-2", 3, "body.messages[1].role"),
        ("openai-batch-output", "CC-9a", 3, "response.body.choices[0].message.tool_calls[0]"),
    ]


def test_two_batches_inputs_are_never_joined_with_each_other(tmp_path: Path) -> None:
    clean = _lines("openai-batch-input", "clean.jsonl")
    violating = _lines("openai-batch-input", "violating.jsonl")
    for record in violating:
        record["custom_id"] = clean[0]["custom_id"]  # each batch's own custom_id, met in the other too
    given = [LOGS / "openai-batch-input" / "clean.jsonl", _written(tmp_path / "other.jsonl", violating[2:])]
    reports = check_log(given, presets=["openai-batch-input"])
    assert [(Path(r.source).name, f.rule, f.line) for r in reports for f in r.findings] == [
        ("other.jsonl", "CC-2", 1)
    ]
    assert [p for r in reports for p in r.problems] == []


def test_a_custom_id_twice_in_one_batch_is_a_problem_naming_both_lines(tmp_path: Path) -> None:
    records = _lines("openai-batch-input", "violating.jsonl")
    records[2]["custom_id"] = records[0]["custom_id"]
    reports = check_log([_written(tmp_path / "in.jsonl", records)], presets=["openai-batch-input"])
    assert [(p.line, p.severity, p.message) for r in reports for p in r.problems] == [
        (3, "error", f"record at line 3: custom_id {records[0]['custom_id']!r} again (line 1 has it); "
         "it must be unique: both lines are checked"),
    ]  # fmt: skip
    assert [(f.rule, f.line) for r in reports for f in r.findings] == [("CC-2", 3)]


def test_an_output_line_no_input_line_has_is_checked_with_a_warning(tmp_path: Path) -> None:
    outputs = _lines("openai-batch-output", "violating.jsonl")
    outputs[2]["custom_id"] = "request-99"
    given = [LOGS / "openai-batch-input" / "violating.jsonl", _written(tmp_path / "out.jsonl", outputs)]
    reports = check_log(given, presets=["openai-batch-input", "openai-batch-output"])
    assert [(Path(r.source).name, p.line, p.severity) for r in reports for p in r.problems] == [
        ("violating.jsonl", 3, "warning"),
        ("out.jsonl", 3, "warning"),
    ]
    assert "no batch output line given has custom_id 'request-3'" in reports[0].problems[0].message
    assert "no batch input line given has custom_id 'request-99'" in reports[-1].problems[0].message
    assert rules(reports) == ["CC-2", "CC-9a"]
    # Given alone, an output has no input to miss.
    assert [p for r in check_log([given[1]], presets=["openai-batch-output"]) for p in r.problems] == []


def test_a_batch_line_with_no_custom_id_is_a_problem_with_its_line(tmp_path: Path) -> None:
    outputs = _lines("openai-batch-output", "violating.jsonl")
    del outputs[2]["custom_id"]
    given = [_written(tmp_path / "out.jsonl", outputs), LOGS / "openai-batch-input" / "violating.jsonl"]
    reports = check_log(given, presets=["openai-batch-output", "openai-batch-input"])
    assert [(Path(r.source).name, p.line, p.severity) for r in reports for p in r.problems] == [
        ("out.jsonl", 3, "error"),
        ("violating.jsonl", 3, "warning"),  # its output line is the one with no custom_id
    ]
    assert rules(reports) == ["CC-2", "CC-9a"]


def test_one_log_preset_per_file_or_one_for_all() -> None:
    given = [LOGS / "litellm" / "clean.jsonl"] * 3
    with pytest.raises(UsageError, match="one --log per FILE"):
        check_log(given, presets=["litellm", "portkey"])
    with pytest.raises(UsageError, match="unknown --log preset 'nope'"):
        check_log(given, presets=["nope"])


@pytest.mark.parametrize(
    ("name", "file", "expect"),
    [
        ("litellm", "orphan-tool-message.jsonl", ["CC-2"]),
        ("anthropic-batch", "violating.jsonl", ["AN-1"]),
        ("bedrock-invocations", "orphan-result.jsonl", ["BR-3"]),
        ("databricks-inference", "violating.jsonl", ["CC-2"]),
    ],
)
def test_each_violating_record_set_is_flagged_with_its_rules(name: str, file: str, expect: list[str]) -> None:
    reports = check_log([LOGS / name / file], presets=[name])
    assert rules(reports) == expect
    assert max(r.exit_code for r in reports) == 1


def test_a_litellm_records_response_is_checked(tmp_path: Path) -> None:
    record = json.loads((LOGS / "litellm" / "clean.jsonl").read_text().splitlines()[0])
    record["response"]["choices"][0]["message"]["tool_calls"][0]["id"] = ""
    log = tmp_path / "litellm.jsonl"
    log.write_text(json.dumps(record) + "\n")
    [request, response] = check_log([log], presets=["litellm"])
    assert (request.exit_code, [f.rule for f in response.findings]) == (0, ["CC-9a"])
    assert response.findings[0].path == "response.choices[0].message.tool_calls[0]"


def test_a_record_no_path_reads_is_a_problem_with_its_line() -> None:
    [report] = check_log([LOGS / "openai-batch-input" / "no-body.jsonl"], presets=["openai-batch-input"])
    assert report.exit_code == 2
    assert [(p.line, p.severity) for p in report.problems] == [(2, "error")]
    assert "no body at body" in report.problems[0].message


def test_a_failed_call_is_a_warning_not_a_problem() -> None:
    reports = check_log([LOGS / "anthropic-batch" / "clean.jsonl"], presets=["anthropic-batch"])
    assert [(p.line, p.severity) for r in reports for p in r.problems] == [(2, "warning")]
    assert reports[0].exit_code == 0


#: Where each gateway says the HTTP status of the call it logged, and its error body's path.
FAILED = {
    "portkey": ("response", "status", "body"),  # Portkey log: response.status, response.body
    "helicone": (None, "response_status", "response_body"),  # Helicone export: response_status
}


@pytest.mark.parametrize("name", sorted(FAILED))
def test_a_gateways_429_is_a_warning_naming_its_status_and_its_request_is_still_checked(
    name: str, tmp_path: Path
) -> None:
    records = _lines(name, "changed-id.jsonl")
    outer, status, body = FAILED[name]
    logged = records[1] if outer is None else records[1][outer]
    logged[status] = 429
    logged[body] = {"error": {"message": "Rate limit reached", "type": "rate_limit_error"}}
    log = _written(tmp_path / "log.jsonl", records)
    reports = check_log([log], presets=[name], group_by=GROUPS[name])
    said = f"record at line 2 logged a failed call ({'.'.join(filter(None, (outer, status)))} 429)"
    assert [(p.line, p.severity, p.message) for r in reports for p in r.problems] == [
        (2, "warning", f"{said}; its response is not checked")
    ]
    # The refused call's request still replays the first turn's call with a changed id.
    assert [(f.rule, f.line) for r in reports for f in r.findings] == [("RT-1", 2)]


def test_a_batch_output_line_of_an_http_failure_is_a_warning_its_input_checked(tmp_path: Path) -> None:
    given = [LOGS / "openai-batch-input" / "violating.jsonl", tmp_path / "output.jsonl"]
    outputs = _lines("openai-batch-output", "violating.jsonl")
    for record in outputs[:2]:
        # How an HTTP failure shows in a batch's output: a status code, an error body, error null.
        record["response"]["status_code"] = 500
        record["response"]["body"] = {"error": {"message": "The server had an error", "type": "server_error"}}
        record["error"] = None
    _written(given[1], outputs)
    reports = check_log(given, presets=["openai-batch-input", "openai-batch-output"])
    assert [(Path(r.source).name, p.line, p.severity) for r in reports for p in r.problems] == [
        ("output.jsonl", 1, "warning"),
        ("output.jsonl", 2, "warning"),
    ]
    assert "(response.status_code 500)" in reports[-1].problems[0].message
    assert [(f.rule, f.line) for r in reports for f in r.findings] == [("CC-2", 3), ("CC-9a", 3)]
    assert [r.exit_code for r in reports] == [1, 1]


def test_a_failed_litellm_calls_request_is_still_checked(tmp_path: Path) -> None:
    [record] = _lines("litellm", "orphan-tool-message.jsonl")
    record["status"], record["response"] = "failure", None
    reports = check_log([_written(tmp_path / "log.jsonl", [record])], presets=["litellm"])
    assert rules(reports) == ["CC-2"]
    assert [(p.line, p.severity) for r in reports for p in r.problems] == [(1, "warning")]


def test_the_retry_of_a_failed_call_answers_the_turn_before_it(tmp_path: Path) -> None:
    first, second = _lines("litellm", "changed-id.jsonl")
    refused = json.loads(json.dumps(second))
    refused["status"], refused["response"], refused["startTime"] = "failure", None, second["startTime"] - 0.5
    log = _written(tmp_path / "log.jsonl", [first, refused, second])
    reports = check_log([log], presets=["litellm"], group_by="trace_id", order_by="startTime")
    # Both the refused call and its retry replay the first turn's call with a changed id.
    assert [(f.rule, f.line) for r in reports for f in r.findings] == [("RT-1", 2), ("RT-1", 3)]


def test_langfuse_observations_other_than_generations_are_skipped(tmp_path: Path) -> None:
    first, second = _lines("langfuse", "changed-id.jsonl")
    # What a trace's export holds between its two model calls: the tool's span, an event.
    tool = {**first, "id": "obs-tool", "type": "SPAN", "name": "get_weather", "model": None}
    tool |= {"input": {"location": "Paris"}, "output": "rainy, 57°F"}
    event = {**first, "id": "obs-event", "type": "EVENT", "name": "log", "input": None, "output": None}
    log = _written(tmp_path / "trace.jsonl", [first, tool, event, second])
    reports = check_log([log], presets=["langfuse"], group_by="traceId", order_by="startTime")
    assert [(f.rule, f.line) for r in reports for f in r.findings] == [("RT-1", 4)]
    assert [p.severity for r in reports for p in r.problems] == ["warning"]  # recorded, not the wire
    only_spans = check_log([_written(tmp_path / "spans.jsonl", [tool, event])], presets=["langfuse"])
    assert [r.exit_code for r in only_spans] == [2]


def test_a_langfuse_generations_text_output_is_an_answer_with_no_calls(tmp_path: Path) -> None:
    first, second = _lines("langfuse", "clean.jsonl")
    second["output"] = "It is rainy in Paris, 57°F."
    log = _written(tmp_path / "trace.jsonl", [first, second])
    reports = check_log([log], presets=["langfuse"], group_by="traceId")
    assert [r.exit_code for r in reports] == [0, 0]
    assert [r.events for r in reports if r.protocol == "openai-chat-response"] == [2]


def test_a_bedrock_log_of_invoke_model_beside_converse_reads_each_response_as_its_own(tmp_path: Path) -> None:
    converse = _lines("bedrock-invocations", "clean.jsonl")
    # InvokeModel of an Anthropic model: the body is Anthropic's Messages request and response.
    invoke = json.loads(json.dumps(converse[0])) | {"operation": "InvokeModel"}
    invoke["input"]["inputBodyJson"] = {
        "anthropic_version": "bedrock-2023-05-31",
        "max_tokens": 512,
        "messages": [{"role": "user", "content": "Weather in Paris?"}],
    }
    invoke["output"]["outputBodyJson"] = {
        "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-3-5-sonnet-20240620",
        "content": [{"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"q": "Paris"}}],
        "stop_reason": "tool_use", "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 5},
    }  # fmt: skip
    reports = check_log(
        [_written(tmp_path / "log.jsonl", [invoke, *converse])], presets=["bedrock-invocations"]
    )
    assert [(r.protocol, r.exit_code) for r in reports] == [
        ("anthropic-messages", 0),
        ("anthropic-message-response", 0),
        ("bedrock-converse", 0),
        ("bedrock-converse-response", 0),
    ]
    assert [p for r in reports for p in r.problems] == []


@pytest.mark.parametrize("name", sorted(GROUPS))
def test_a_call_id_changed_between_a_response_and_the_next_request_names_its_group(name: str) -> None:
    file = LOGS / name / "changed-id.jsonl"
    reports = check_log([file], presets=[name], group_by=GROUPS[name])
    findings = [f for r in reports for f in r.findings]
    assert [(f.rule, f.line) for f in findings] == [("RT-1", 2)]
    group = dig(json.loads(file.read_text().splitlines()[1]), GROUPS[name])
    assert findings[0].message.startswith(f"group {group}: ")
    # Without --group-by, the records are not one conversation: nothing is compared across them.
    assert rules(check_log([file], presets=[name])) == []


def test_a_log_whose_first_record_was_cut_short_is_checked_from_its_second_line(tmp_path: Path) -> None:
    text = (LOGS / "litellm" / "changed-id.jsonl").read_text()
    log = tmp_path / "log.jsonl"
    log.write_text(text[:300] + "\n" + text)  # a writer that died mid-record, then the log
    reports = check_log([log], presets=["litellm"], group_by="trace_id")
    assert [(f.rule, f.line) for r in reports for f in r.findings] == [("RT-1", 3)]
    [problem] = [p for r in reports for p in r.problems if p.severity == "error"]
    assert (problem.line, problem.message.split(" (")[0]) == (1, "JSON ends early")


def test_a_json_finding_of_a_grouped_log_has_its_group(capsys: pytest.CaptureFixture[str]) -> None:
    words = [
        "check",
        str(LOGS / "litellm" / "changed-id.jsonl"),
        "--log",
        "litellm",
        "--group-by",
        "trace_id",
    ]
    assert main([*words, "--format", "json"]) == 1
    [finding] = [f for r in json.loads(capsys.readouterr().out)["reports"] for f in r["findings"]]
    assert (finding["rule"], finding["group"]) == ("RT-1", "sess-7f3a")
    # Without --group-by, there is none.
    main([*words[:4], "--format", "json"])
    assert all(
        "group" not in f for r in json.loads(capsys.readouterr().out)["reports"] for f in r["findings"]
    )


def test_shuffled_records_ordered_by_order_by_give_the_same_findings(tmp_path: Path) -> None:
    lines = (LOGS / "litellm" / "changed-id.jsonl").read_text().splitlines()
    other = [json.loads(line) for line in (LOGS / "litellm" / "clean.jsonl").read_text().splitlines()]
    for record in other:
        record["trace_id"] = "sess-other"
    records = [json.loads(line) for line in lines] + other
    ordered = check_log([_written(tmp_path / "a.jsonl", records)], presets=["litellm"], group_by="trace_id")
    # Each conversation's second turn first, the other's records in between.
    shuffled = [records[1], records[3], records[2], records[0]]
    again = check_log(
        [_written(tmp_path / "b.jsonl", shuffled)],
        presets=["litellm"],
        group_by="trace_id",
        order_by="startTime",
    )

    def seen(reports: list[Any]) -> list[tuple[str, str, list[str]]]:
        return [(f.rule, f.message, sorted(f.ids)) for r in reports for f in r.findings]

    assert seen(again) == seen(ordered) == [(
        "RT-1",
        "group sess-7f3a: messages[1] replays streamed call call_VSPygqKTWdrhaFErNvMV18Yl (get_weather) "
        "with id 'call_VSPygqKTWdrhaFErNvMV18YI'",
        ["call_VSPygqKTWdrhaFErNvMV18YI", "call_VSPygqKTWdrhaFErNvMV18Yl"],
    )]  # fmt: skip
    # As logged, the second turn comes first: its response made no call, so nothing is compared.
    assert seen(check_log([tmp_path / "b.jsonl"], presets=["litellm"], group_by="trace_id")) == []


def _written(path: Path, records: list[Any]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_custom_paths_read_an_envelope_and_decode_json_text(tmp_path: Path) -> None:
    body = {"messages": [{"role": "tool", "tool_call_id": "call_1", "content": "72F"}]}
    log = _written(tmp_path / "log.jsonl", [{"entry": {"payload": json.dumps(body)}}])
    [report] = check_log([log], request="entry.payload")
    assert [(f.rule, f.line, f.path) for f in report.findings] == [
        ("CC-2", 1, "entry.payload.messages[0].role")
    ]
    [same] = check_log([log], body="entry.payload")
    assert same.findings == report.findings


def test_body_reads_each_records_body_as_a_request_or_a_response(tmp_path: Path) -> None:
    bodies = [
        {"sid": "s1", "payload": record[side]["body"]}
        for record in _lines("portkey", "changed-id.jsonl")
        for side in ("request", "response")
    ]
    log = _written(tmp_path / "log.jsonl", bodies)
    reports = check_log([log], body="payload", group_by="sid")
    assert [(r.protocol, r.exit_code) for r in reports] == [("openai-chat", 1), ("openai-chat-response", 0)]
    assert [(f.rule, f.line, f.path) for r in reports for f in r.findings] == [
        ("RT-1", 3, "payload.messages[1]")
    ]
    responses = _written(tmp_path / "responses.jsonl", bodies[1::2])
    [report] = check_log([responses], body="payload")
    assert (report.protocol, report.exit_code, report.events, report.problems) == (
        "openai-chat-response",
        0,
        2,
        (),
    )


def test_a_folder_is_every_file_under_it() -> None:
    reports = check_log([LOGS / "portkey"], presets=["portkey"], group_by="metadata.trace_id")
    assert sorted({Path(r.source).name for r in reports}) == ["changed-id.jsonl", "clean.jsonl"]
    assert rules(reports) == ["RT-1"]


# OpenTelemetry


@pytest.mark.parametrize(
    ("file", "expect"),
    [
        # The attribute registry's example: a leading space in the answered id, 'result' for 'response'.
        ("semconv-attribute-example.jsonl", ["GA-2", "GA-4", "GA-5"]),
        ("semconv-spans-example.jsonl", ["GA-4", "GA-5"]),
        ("semconv-spans-fixed.jsonl", []),
        ("details-event.jsonl", []),
        ("details-event-null-ids.jsonl", []),
        ("logs-changed-id.jsonl", ["RT-1"]),
        ("openinference-clean.jsonl", []),
        ("openinference-changed-id.jsonl", ["RT-1"]),
        ("openinference-flattened-changed-id.jsonl", ["RT-1"]),
        ("legacy-prompt-orphan.jsonl", ["GA-3", "RT-1"]),
    ],
)
def test_otlp_files_are_read_without_a_flag(file: str, expect: list[str]) -> None:
    reports = check_log([OTEL / file])
    assert rules(reports) == expect
    assert not [p for r in reports for p in r.problems], [r.problems for r in reports]
    # The GA rules are warnings (issue 38): only RT-1 fails the check.
    errors = [rule for rule in expect if RULES[rule].severity == "error"]
    assert max(r.exit_code for r in reports) == (1 if errors else 0)


def test_the_attribute_examples_findings_name_the_span_and_the_part() -> None:
    reports = check_log([OTEL / "semconv-attribute-example.jsonl"])
    paths = {f.rule: f.path for r in reports for f in r.findings}
    where = "span 051581bf3cb55c12 gen_ai.input.messages"
    assert paths == {"GA-2": f"{where}[2].parts[0]", "GA-4": f"{where}[2].parts[0].id", "GA-5": f"{where}[1]"}


def test_otlp_log_records_are_grouped_by_conversation_and_ordered_by_time() -> None:
    [finding] = [f for r in check_log([OTEL / "logs-changed-id.jsonl"]) for f in r.findings]
    assert finding.message.startswith("group conv_5j66UpCpwteGg4YSxUnt7lPY: ")


def test_a_file_of_unrelated_spans_is_a_problem(tmp_path: Path) -> None:
    span = {"traceId": "ab" * 16, "spanId": "cd" * 8, "name": "GET /", "attributes": []}
    log = _written(tmp_path / "t.jsonl", [{"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}])
    [report] = check_log([log])
    assert report.exit_code == 2
    assert "no span or log record holds GenAI messages" in report.problems[0].message


# The command line


def run(*words: str) -> tuple[int, str]:
    out = subprocess.run(
        [sys.executable, "-m", "toolwire", *words], capture_output=True, text=True, check=False
    )
    return out.returncode, out.stdout + out.stderr


@pytest.mark.slow
def test_the_cli_checks_a_gateway_log_with_a_preset_and_a_group() -> None:
    code, out = run(
        "check", str(LOGS / "litellm" / "changed-id.jsonl"), "--log", "litellm",
        "--group-by", "trace_id", "--order-by", "startTime", "--jobs", "2", "--format", "json",
    )  # fmt: skip
    assert code == 1, out
    document = json.loads(out)
    assert [(f["rule"], f["line"]) for r in document["reports"] for f in r["findings"]] == [("RT-1", 2)]


def test_the_cli_recognises_otlp_json_without_a_flag(capsys: pytest.CaptureFixture[str]) -> None:
    # The GA rules are warnings (issue 38): the trace is clean, and its findings are shown.
    assert main(["check", str(OTEL / "semconv-attribute-example.jsonl")]) == 0
    out = capsys.readouterr().out
    assert (
        "GA-2 warning" in out
        and "otel-genai, 4 messages, " in out
        and "checked: clean (0 errors, 3 warnings" in out
    )


@pytest.mark.slow
def test_the_cli_refuses_after_with_a_log() -> None:
    code, out = run("check", str(LOGS / "litellm" / "clean.jsonl"), "--log", "litellm", "--after", "x.sse")
    assert code == 2 and "--group-by" in out


@pytest.mark.parametrize(
    "words",
    [
        ["check", "a.jsonl", "--log", "litellm"],
        ["check", "a.jsonl", "--request", "body"],
        ["check", "a.jsonl", "--group-by", "trace_id"],
        ["check", "a.jsonl", "--jobs", "2"],
    ],
)
def test_log_options_take_the_parsers_path(words: list[str]) -> None:
    assert _plain_check(words) is None


def test_past_fifty_unreadable_records_only_their_count_is_listed(tmp_path: Path) -> None:
    good = {"body": {"messages": [{"role": "system", "content": "Be brief."}]}}
    log = _written(tmp_path / "log.jsonl", [good, *({"other": n} for n in range(60))])
    [report] = check_log([log], request="body", protocol="openai-chat")
    assert len(report.problems) == 51
    assert report.problems[-1].message == "10 more input problems, not listed"
    assert report.exit_code == 2
    # The summary counts every unreadable record, the unlisted ones too.
    assert render_text([report]).endswith("input errors (0 errors, 0 warnings, 60 unreadable parts)")
    assert report.problems[-1].to_json()["unlisted_errors"] == 10


def _changed_id(tmp_path: Path, *edits: dict[str, Any]) -> Path:
    """The LiteLLM log of two turns whose second request changes a call's id (RT-1 at line 2),
    each record updated with its edit (a key set to None is dropped)."""
    lines = (LOGS / "litellm" / "changed-id.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    for record, edit in zip(records, edits, strict=False):
        record.update(edit)
        for key in [k for k, v in edit.items() if v is None]:
            del record[key]
    return _written(tmp_path / "log.jsonl", records)


def test_a_record_with_no_group_is_checked_alone_and_said_so(tmp_path: Path) -> None:
    reports = check_log([_changed_id(tmp_path)], presets=["litellm"], group_by="no.such.path")
    assert rules(reports) == []
    assert [(p.line, p.severity, p.message) for r in reports for p in r.problems] == [
        (n, "warning", "no value at --group-by no.such.path: checked alone, as no conversation's turn")
        for n in (1, 2)
    ]
    assert max(r.exit_code for r in reports) == 0


@pytest.mark.parametrize(
    ("edits", "warning"),
    [
        # The first turn has no time: it goes last, and the turns cannot be compared.
        (({"startTime": None},), (1, "no value at --order-by startTime")),
        (({}, {"startTime": None}), (2, "no value at --order-by startTime")),
        (
            ({"startTime": "2024-11-20T10:00:01Z"},),
            (2, "the values at --order-by startTime mix numbers and other values"),
        ),
    ],
)
def test_records_that_cannot_be_put_in_order_are_said_so(
    edits: tuple[dict[str, Any], ...], warning: tuple[int, str], tmp_path: Path
) -> None:
    log = _changed_id(tmp_path, *edits)
    reports = check_log([log], presets=["litellm"], group_by="trace_id", order_by="startTime")
    [problem] = [p for r in reports for p in r.problems]
    assert (problem.line, problem.severity) == (warning[0], "warning")
    assert problem.message.startswith(f"group sess-7f3a: {warning[1]}")
    assert problem.to_json()["group"] == "sess-7f3a"


def test_numbers_written_as_text_are_ordered_as_numbers(tmp_path: Path) -> None:
    # "10" sorts before "9" as text: the turns would be compared the wrong way round.
    log = _changed_id(tmp_path, {"turn": "9"}, {"turn": "10"})
    reports = check_log([log], presets=["litellm"], group_by="trace_id", order_by="turn")
    assert [(f.rule, f.line) for r in reports for f in r.findings] == [("RT-1", 2)]
    assert [p for r in reports for p in r.problems] == []


def test_order_by_without_group_by_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="--order-by orders the records of each conversation"):
        check_log([_changed_id(tmp_path)], presets=["litellm"], order_by="startTime")
    # OpenTelemetry files are grouped without it.
    assert check_log([OTEL / "logs-changed-id.jsonl"], order_by="gen_ai.request.model")


@pytest.mark.parametrize(
    ("groups", "named"),
    [
        # Equal objects, their keys in another order: one conversation, named by its JSON text.
        (({"b": 1, "a": [2]}, {"a": [2], "b": 1}), '{"a":[2],"b":1}'),
        ((7, 7), "7"),
        # A log written through a float column: 7.0 is 7.
        ((7, 7.0), "7"),
        # true is not 1 (Python takes them for one key): two groups, nothing compared.
        ((True, 1), None),
    ],
)
def test_a_group_that_is_not_text_is_one_by_its_json(
    groups: tuple[Any, Any], named: str | None, tmp_path: Path
) -> None:
    log = _changed_id(tmp_path, *({"trace_id": group} for group in groups))
    findings = [f for r in check_log([log], presets=["litellm"], group_by="trace_id") for f in r.findings]
    assert [f.message.split(": ")[0] for f in findings] == ([] if named is None else [f"group {named}"])


def test_a_group_under_a_key_with_dots_is_found(tmp_path: Path) -> None:
    # OpenTelemetry-style attribute names ("session.id") kept as keys of a gateway's metadata.
    log = _changed_id(tmp_path, *({"metadata": {"session.id": "s1"}},) * 2)
    reports = check_log([log], presets=["litellm"], group_by="metadata.session.id")
    assert [(f.rule, f.group) for r in reports for f in r.findings] == [("RT-1", "s1")]


def test_a_log_checked_without_log_options_says_which_preset_reads_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Nothing reads a batch input line as a body: the error says what would.
    assert main(["check", str(LOGS / "openai-batch-input" / "violating.jsonl")]) == 2
    assert (
        capsys.readouterr()
        .out.splitlines()[0]
        .endswith("the records look like those of --log openai-batch-input (OpenAI Batch input line): try it")
    )
    # A LiteLLM record's messages read as a Chat request, its response unchecked: said so.
    assert main(["check", str(LOGS / "litellm" / "clean.jsonl")]) == 0
    assert "only what reads as openai-chat was checked; --log litellm checks" in capsys.readouterr().out


def test_a_turn_logged_with_one_side_only_is_said(tmp_path: Path) -> None:
    # The first turn's response is missing: the second turn's replay cannot be compared with it.
    log = _changed_id(tmp_path, {"response": None})
    reports = check_log([log], presets=["litellm"], group_by="trace_id")
    assert rules(reports) == []
    [problem] = [p for r in reports for p in r.problems]
    assert (problem.line, problem.severity) == (1, "warning")
    assert problem.message == "record at line 1: no body at response; only its request is checked"


def test_otlp_spans_keep_their_conversation_when_group_by_names_no_attribute_of_theirs() -> None:
    # --group-by meant for a gateway log given beside it: the spans keep their own grouping.
    given = [OTEL / "logs-changed-id.jsonl", LOGS / "litellm" / "clean.jsonl"]
    reports = check_log(given, presets=["litellm"], group_by="trace_id")
    assert "RT-1" in rules(reports)
    assert not [p for r in reports for p in r.problems if "--group-by" in p.message]


def test_a_folders_hidden_files_are_not_read(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "x.jsonl").write_text("not a log\n")
    (tmp_path / "log.jsonl").write_text((LOGS / "litellm" / "clean.jsonl").read_text())
    reports = check_log([tmp_path], presets=["litellm"])
    assert {Path(r.source).name for r in reports} == {"log.jsonl"}
    assert max(r.exit_code for r in reports) == 0


def test_an_output_line_whose_custom_id_two_input_files_have_is_joined_with_the_first_and_said(
    tmp_path: Path,
) -> None:
    inputs = [_written(tmp_path / f"in-{k}.jsonl", _lines("openai-batch-input", "clean.jsonl")) for k in "ab"]
    given = [*inputs, LOGS / "openai-batch-output" / "clean.jsonl"]
    reports = check_log(given, presets=["openai-batch-input", "openai-batch-input", "openai-batch-output"])
    said = [(Path(r.source).name, p.message) for r in reports for p in r.problems]
    assert {name for name, _ in said} == {"in-b.jsonl", "clean.jsonl"}  # in-b's lines wait unanswered
    joins = [message for name, message in said if name == "clean.jsonl"]
    assert joins and all("is in more than one file of the other half given; joined with" in m for m in joins)
    assert all(f"{inputs[0]} line" in m for m in joins)


def test_a_failed_calls_warning_in_a_grouped_log_has_its_group(tmp_path: Path) -> None:
    log = _changed_id(tmp_path, {"status": "failure"})
    reports = check_log([log], presets=["litellm"], group_by="trace_id")
    [problem] = [p for r in reports for p in r.problems]
    assert (problem.line, problem.group) == (1, "sess-7f3a")


def test_two_input_files_with_one_key_are_said_whichever_file_comes_first(tmp_path: Path) -> None:
    inputs = [_written(tmp_path / f"in-{k}.jsonl", _lines("openai-batch-input", "clean.jsonl")) for k in "ab"]
    output = LOGS / "openai-batch-output" / "clean.jsonl"
    reports = check_log([output, *inputs], presets=["openai-batch-output", *["openai-batch-input"] * 2])
    said = [p.message for r in reports if Path(r.source).name == "in-b.jsonl" for p in r.problems]
    assert said and all(f"joined {inputs[0]}:" in m and "read before this one" in m for m in said)
