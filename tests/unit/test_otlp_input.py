"""OTLP JSON not shaped as its encoding says: a problem at its line, never a traceback or a clean report."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import layout
from toolwire.cli import main
from toolwire.engines.logs import check_log

OTEL = layout.DATA / "logs" / "otel"
SPANS = "semconv-spans-fixed.jsonl"  # two chat spans, clean
LOGS = "logs-changed-id.jsonl"  # two details log records (RT-1)
SPAN = "resourceSpans.0.scopeSpans.0.spans.0"
RECORD = "resourceLogs.0.scopeLogs.0.logRecords.0"
TRACE = "5b8aa5a2d2c872e8321cf37308d69df2"  # the spans' trace


def _document(file: str) -> dict[str, Any]:
    [line] = (OTEL / file).read_text(encoding="utf-8").splitlines()
    document: dict[str, Any] = json.loads(line)
    return document


def _elsewhere(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with its spans in another trace (their turns are not a broken document's)."""
    moved: dict[str, Any] = json.loads(json.dumps(document).replace(TRACE, "0" * 32))
    return moved


def _broken(file: str, path: str, value: Any) -> dict[str, Any]:
    """The one document of ``file`` with ``value`` put at the dotted ``path`` ("+" appends to a list)."""
    document = _document(file)
    *parents, last = path.split(".")
    holder: Any = document
    for step in parents:
        holder = holder[int(step)] if isinstance(holder, list) else holder[step]
    if last == "+":
        holder.append(value)
    elif isinstance(holder, list):
        holder[int(last)] = value
    else:
        holder[last] = value
    return document


def _written(path: Path, *documents: Any) -> Path:
    path.write_text("".join(json.dumps(d) + "\n" for d in documents), encoding="utf-8")
    return path


STRUCTURE = [
    ("resourceSpans", ["x"], 'resourceSpans[0] is "x", not an object'),
    ("resourceSpans", "x", 'resourceSpans is "x", not a list'),
    ("resourceSpans.0.scopeSpans", "x", 'resourceSpans[0].scopeSpans is "x", not a list'),
    ("resourceSpans.0.scopeSpans.0.spans", [1], "resourceSpans[0].scopeSpans[0].spans[0] is 1, not a span"),
    (f"{SPAN}.attributes", "x", 'span 051581bf3cb55c11: attributes is "x", not a list of key-value pairs'),
    (f"{SPAN}.attributes.+", 5, "span 051581bf3cb55c11: attributes[6]: 5 is not a key-value pair"),
    (f"{SPAN}.events", "x", 'span 051581bf3cb55c11: events is "x", not a list'),
    (f"{SPAN}.events", [3], "span 051581bf3cb55c11: events[0] is 3, not an event"),
    (f"{SPAN}.traceId", {"a": 1}, 'span 051581bf3cb55c11 has a traceId of {"a": 1}, not a hex string'),
    (f"{SPAN}.attributes.0.value", "chat", 'attribute gen_ai.operation.name: "chat" is not an AnyValue'),
    (f"{SPAN}.attributes.4.value", {"stringValue": "x"}, 'input.messages is text that is not JSON ("x")'),
]


@pytest.mark.parametrize(("path", "value", "said"), STRUCTURE)
def test_a_span_document_not_shaped_as_otlp_is_an_error_at_its_line(
    path: str, value: Any, said: str, tmp_path: Path
) -> None:
    # The broken document comes second: its line is named, and the first is still checked.
    log = _written(tmp_path / "t.jsonl", _elsewhere(_document(SPANS)), _broken(SPANS, path, value))
    reports = check_log([log])
    problems = [(p.line, p.severity, p.message) for r in reports for p in r.problems]
    assert [(line, severity) for line, severity, message in problems if said in message] == [(2, "error")]
    assert max(r.exit_code for r in reports) == 2
    assert sum(r.events for r in reports) >= 6  # the first document's two calls were checked


LOG_RECORDS = [
    ("resourceLogs", "x", 'resourceLogs is "x", not a list'),
    ("resourceLogs.0.scopeLogs.0.logRecords", [1], "resourceLogs[0].scopeLogs[0].logRecords[0] is 1"),
    (f"{RECORD}.body", "x", 'logRecords[0]: body: "x" is not an AnyValue'),
    (f"{RECORD}.attributes.+", {"key": "k", "value": {"kvlistValue": 1}}, "attribute k: kvlistValue is 1"),
    (f"{RECORD}.attributes.+", {"key": "k", "value": {"arrayValue": {"values": 1}}}, "arrayValue.values is"),
]


@pytest.mark.parametrize(("path", "value", "said"), LOG_RECORDS)
def test_a_log_record_document_not_shaped_as_otlp_is_an_error_at_its_line(
    path: str, value: Any, said: str, tmp_path: Path
) -> None:
    log = _written(tmp_path / "t.jsonl", _broken(LOGS, path, value))
    reports = check_log([log])
    assert [(p.line, p.severity) for r in reports for p in r.problems if said in p.message] == [(1, "error")]
    assert max(r.exit_code for r in reports) in (1, 2)  # the RT-1 of the records still read, or input errors


@pytest.mark.parametrize("line", [{"hello": 1}, [], "text", {}])
def test_a_line_that_is_no_traces_or_logs_data_is_an_error(line: Any, tmp_path: Path) -> None:
    log = _written(tmp_path / "t.jsonl", _document(SPANS), line)
    reports = check_log([log])
    [problem] = [p for r in reports for p in r.problems]
    assert problem.line == 2 and "is not an OTLP TracesData or LogsData object" in problem.message
    assert max(r.exit_code for r in reports) == 2


@pytest.mark.parametrize("value", ["abc", {"a": 1}])
def test_an_unreadable_start_time_is_a_warning_and_the_call_is_ordered_as_logged(
    value: Any, tmp_path: Path
) -> None:
    log = _written(tmp_path / "t.jsonl", _broken(SPANS, f"{SPAN}.startTimeUnixNano", value))
    reports = check_log([log])
    [problem] = [p for r in reports for p in r.problems]
    assert problem.line == 1 and problem.severity == "warning"
    assert problem.message.startswith("span 051581bf3cb55c11: startTimeUnixNano is ")
    assert "ordered as logged" in problem.message
    assert max(r.exit_code for r in reports) == 0


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("resourceSpans.0.scopeSpans", None),
        ("resourceSpans.0.scopeSpans.0.spans.0.events", None),
        ("resourceSpans.0.scopeSpans.0.spans.0.attributes.+", {"key": "k"}),
        ("resourceSpans.0.scopeSpans.0.spans.0.attributes.+", {"key": "k", "value": None}),
    ],
)
def test_a_null_where_the_encoding_allows_an_absent_field_is_no_problem(
    path: str, value: Any, tmp_path: Path
) -> None:
    log = _written(tmp_path / "t.jsonl", _document(SPANS), _broken(SPANS, path, value))
    assert not [p for r in check_log([log]) for p in r.problems]


def test_a_malformed_otlp_file_prints_the_same_at_every_jobs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _written(tmp_path / "bad.jsonl", {"resourceSpans": ["x"]}, _document(SPANS))
    words = ["check", str(bad), str(OTEL / SPANS)]
    printed = []
    for jobs in ("1", "2"):
        code = main([*words, "--jobs", jobs])
        out = capsys.readouterr()
        printed.append((code, out.out, out.err))
    assert printed[0] == printed[1]
    code, out, _ = printed[0]
    assert code == 2
    assert f'{bad}:1: input error: resourceSpans[0] is "x", not an object' in out
    assert "Traceback" not in out and "failed" not in out


def _printed(capsys: pytest.CaptureFixture[str], *words: str) -> tuple[int, str, str]:
    code = main(["check", *words])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_folder_of_otlp_files_is_checked_as_when_each_is_named(
    jobs: str, capsys: pytest.CaptureFixture[str]
) -> None:
    each = _printed(capsys, *sorted(str(p) for p in OTEL.iterdir()), "--jobs", "1")
    assert _printed(capsys, str(OTEL), "--jobs", jobs) == each
    assert each[0] == 1 and "semconv-attribute-example.jsonl:1" in each[1]


def test_a_folder_with_a_file_that_is_not_otlp_is_still_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _written(tmp_path / "spans.jsonl", _document(SPANS))
    (tmp_path / "notes.txt").write_text("not telemetry\n")
    code, _, err = _printed(capsys, str(tmp_path))
    assert code == 2 and f"{tmp_path} is a folder; name a trace file" in err


def test_otlp_on_standard_input_is_read_as_otlp(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    file = OTEL / "semconv-spans-example.jsonl"
    named = _printed(capsys, str(file), "--format", "json")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(file.read_bytes())))
    piped = _printed(capsys, "-", "--format", "json")
    assert piped == (named[0], named[1].replace(str(file), "-"), named[2])
    # GA-4 is a warning (issue 38): the check passes and names it.
    assert piped[0] == 0 and '"rule": "GA-4"' in piped[1]


def test_order_by_that_some_spans_lack_is_said_never_mixed_with_start_times(tmp_path: Path) -> None:
    # The second turn alone has the attribute: the first has no value (a warning), not its start
    # time in nanoseconds sorted after turn 2 (which hid the changed id, silently).
    lines = (OTEL / "openinference-changed-id.jsonl").read_text(encoding="utf-8").splitlines()
    documents = [json.loads(line) for line in lines]
    attributes = documents[1]["resourceSpans"][0]["scopeSpans"][0]["spans"][0]["attributes"]
    attributes.append({"key": "turn", "value": {"intValue": "2"}})
    log = _written(tmp_path / "spans.jsonl", *documents)
    reports = check_log([log], order_by="turn")
    said = [p for r in reports for p in r.problems]
    assert [(p.line, p.severity) for p in said] == [(1, "warning")]
    assert "no value at --order-by turn" in said[0].message
    # No span has it (it is meant for another file): start times, as without it.
    plain = [
        f.rule
        for r in check_log([OTEL / "openinference-changed-id.jsonl"], order_by="turn")
        for f in r.findings
    ]
    assert plain == ["RT-1"]


@pytest.mark.parametrize("key", [1, None, True, 2.5])
def test_an_attribute_whose_key_is_not_text_is_a_problem(key: Any, tmp_path: Path) -> None:
    document = _broken(SPANS, f"{SPAN}.attributes.+", {"key": key, "value": {"stringValue": "x"}})
    [report, *_] = check_log([_written(tmp_path / "spans.jsonl", document)])
    assert any("is not a key-value pair" in p.message for r in [report] for p in r.problems)


@pytest.mark.parametrize(("holder", "severity"), [(SPAN, "error"), (RECORD, "warning")])
def test_a_call_with_no_trace_and_no_conversation_is_checked_alone_and_said(
    holder: str, severity: str, tmp_path: Path
) -> None:
    # A span must have a traceId; a log record may have none: either way its turns meet no others.
    file = SPANS if holder == SPAN else LOGS
    document = _broken(file, f"{holder}.traceId", "")
    for scope in document.get("resourceLogs", [{}])[0].get("scopeLogs", []):
        for record in scope["logRecords"]:
            record["traceId"] = ""
            record["attributes"] = [a for a in record["attributes"] if a["key"] != "gen_ai.conversation.id"]
    [*reports] = check_log([_written(tmp_path / "calls.jsonl", document)])
    said = [p for r in reports for p in r.problems if "has no traceId" in p.message]
    assert said and all(p.severity == severity for p in said)
