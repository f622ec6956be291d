"""Bad input: a clear message naming the line, the rest still checked, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import toolwire
from helpers.corpus import DATA
from toolwire.models import detect_format

GOOD = DATA / "openai-responses-stream" / "good-parallel-same-tool.jsonl"
RS = "openai-responses-stream"


def lines() -> list[bytes]:
    return GOOD.read_bytes().splitlines(keepends=True)


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def duplicate_added(rows: list[bytes]) -> list[bytes]:
    """Append a second output_item.added for output_index 0 before response.completed."""
    added = json.loads(rows[2])
    added["sequence_number"] = 10_000
    return [*rows[:-1], json.dumps(added).encode() + b"\n", rows[-1].replace(b'"sequence_number":', b'"x":')]


def test_a_malformed_line_is_reported_by_number_and_the_rest_is_still_checked(tmp_path: Path) -> None:
    rows = lines()
    rows.insert(3, b'{"type": "response.function_call_arguments.delta", "delta": \n')
    rows = duplicate_added(rows)
    report = toolwire.check_file(write(tmp_path, "t.jsonl", b"".join(rows)), RS)
    assert [(p.line, p.severity) for p in report.problems] == [(4, "error")]
    assert "malformed JSON" in report.problems[0].message or "ends early" in report.problems[0].message
    assert "RS-9a" in {f.rule for f in report.findings}
    assert report.exit_code == 1


def test_bytes_that_are_not_utf8_name_their_line_and_column(tmp_path: Path) -> None:
    rows = lines()
    rows.insert(5, b'{"type": "caf\xe9"}\n')
    report = toolwire.check_file(write(tmp_path, "t.jsonl", b"".join(rows)), RS)
    assert [p.line for p in report.problems] == [6]
    assert report.problems[0].message == "not valid UTF-8 (byte 0xe9 at column 14)"
    assert report.exit_code == 2


def test_a_truncated_sse_capture_is_reported_and_what_came_before_is_kept(tmp_path: Path) -> None:
    text = (DATA / "openai-responses-stream" / "good-parallel-same-tool.sse").read_bytes()
    cut = text[: text.rindex(b"data: ") + 60]
    report = toolwire.check_file(write(tmp_path, "t.sse", cut), RS)
    assert len(report.problems) == 1
    assert "truncated" in report.problems[0].message
    assert {f.rule for f in report.findings} == {"RS-9e"}
    assert report.events > 10


def test_an_unknown_event_type_is_a_warning_and_not_a_failure(tmp_path: Path) -> None:
    rows = lines()
    rows.insert(2, b'{"type": "response.telepathy.delta", "sequence_number": 1}\n')
    report = toolwire.check_file(write(tmp_path, "t.jsonl", b"".join(rows)), RS)
    assert {f.rule for f in report.findings} == {"RS-8b"}
    assert [(p.line, p.severity) for p in report.problems] == [(3, "warning")]
    assert "response.telepathy.delta" in report.problems[0].message


def test_extension_events_with_a_slug_prefix_are_accepted(tmp_path: Path) -> None:
    rows = lines()
    event = json.loads(rows[-1])
    rows.insert(-1, json.dumps({"type": "acme:trace", "sequence_number": event["sequence_number"]}).encode())
    rows[-1] = rows[-1].replace(b'"sequence_number":', b'"ignored":')
    rows[-1] = rows[-1][:-2] + b',"sequence_number":100000}\n'
    rows[-2] += b"\n"
    report = toolwire.check_file(write(tmp_path, "t.jsonl", b"".join(rows)), RS)
    assert report.problems == ()
    assert report.findings == ()


def test_missing_fields_are_findings_not_crashes(tmp_path: Path) -> None:
    events = [json.loads(row) for row in lines()]
    for event in events:
        if event["type"] == "response.function_call_arguments.delta":
            del event["output_index"]
            break
    data = b"".join(json.dumps(e).encode() + b"\n" for e in events)
    report = toolwire.check_file(write(tmp_path, "t.jsonl", data), RS)
    assert "OR-8" in {f.rule for f in report.findings}


def test_values_that_are_not_events_are_skipped_with_a_warning(tmp_path: Path) -> None:
    rows = lines()
    rows[3:3] = [b"[1, 2]\n", b'"text"\n', b'{"sequence_number": 3}\n']
    report = toolwire.check_file(write(tmp_path, "t.jsonl", b"".join(rows)), RS)
    assert [p.line for p in report.problems] == [4, 5, 6]


@pytest.mark.slow
def test_a_50_mb_arguments_string_is_checked(tmp_path: Path) -> None:
    big = "x" * (50 * 1024 * 1024)
    events = [json.loads(row) for row in lines()]
    for event in events:
        if event["type"] == "response.function_call_arguments.delta":
            event["delta"] = big + event["delta"]
            break
    data = b"".join(json.dumps(e).encode() + b"\n" for e in events)
    report = toolwire.check_file(write(tmp_path, "t.jsonl", data), RS)
    assert {f.rule for f in report.findings} == {"RS-7e"}
    assert "(52428" in report.findings[0].message  # the length is named, the string is not printed


def test_json_nested_100000_deep_is_refused_by_line(tmp_path: Path) -> None:
    rows = lines()
    rows.insert(1, b"[" * 100_000 + b"]" * 100_000 + b"\n")
    report = toolwire.check_file(write(tmp_path, "t.jsonl", b"".join(rows)), RS)
    assert [p.line for p in report.problems] == [2]
    assert "nested deeper than 1024" in report.problems[0].message
    assert report.findings == ()


def test_a_deeply_nested_document_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "t.json", b'{"messages": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    report = toolwire.check_file(path, "openai-chat")
    assert "nested deeper" in report.problems[0].message
    assert report.exit_code == 2


@pytest.mark.parametrize("content", [b"", b"  \n\n\t\n", b"\xef\xbb\xbf\n"])
@pytest.mark.parametrize("protocol", [RS, "openai-chat", "anthropic-stream", "gemini-stream"])
def test_an_empty_input_exits_2_and_says_so(tmp_path: Path, content: bytes, protocol: str) -> None:
    report = toolwire.check_file(write(tmp_path, "t.jsonl", content), protocol)
    assert (report.exit_code, report.findings) == (2, ())
    assert "the input is empty" in report.problems[-1].message


def test_messages_that_is_not_a_list_is_an_input_error(tmp_path: Path) -> None:
    report = toolwire.check_file(write(tmp_path, "t.json", b'{"messages": {"role": "user"}}'), "openai-chat")
    assert report.exit_code == 2
    assert "'messages' is not a list" in report.problems[0].message


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (b": keep-alive\n\nevent: x\n", "sse"),
        (b"data: {}\n\n", "sse"),
        (b'{"a": 1}\n{"a": 2}\n', "jsonl"),
        (b'{\n  "messages": [\n', "json"),
        (b"[\n", "json"),
        (b"", "jsonl"),
        # A first record cut short, or an array, before lines of JSON Lines: JSON Lines.
        (b'{"model": "gpt-4o", "mess\n{"a": 1}\n{"a": 2}\n', "jsonl"),
        (b'{"model": "gpt-4o", "mess\n{"a": 1}', "jsonl"),
        (b'[1, 2, 3]\n{"a": 1}\n', "jsonl"),
        # Pretty-printed documents, some of whose lines are whole values.
        (b'[\n  {"a": 1}\n]', "json"),
        (b'[{"a": 1}, {"b": 2}]\n', "json"),
        (b'{\n  "messages": [\n    {"role": "user"}\n  ]\n}\n', "json"),
        (b'{\n  "a": 1\n}', "json"),
    ],
)
def test_the_input_format_is_detected_from_the_first_bytes(head: bytes, expected: str) -> None:
    assert detect_format(head) == expected


def run_cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "toolwire", *args], input=stdin, capture_output=True, check=False
    )


def test_a_missing_file_is_a_usage_error_without_traceback() -> None:
    result = run_cli("check", "no-such-file.jsonl", "-p", RS)
    assert result.returncode == 2
    assert b"Traceback" not in result.stderr
    assert b"cannot read no-such-file.jsonl" in result.stderr


def test_an_unknown_protocol_lists_the_names_there_are() -> None:
    result = run_cli("check", str(GOOD), "-p", "openai")
    assert result.returncode == 2
    assert b"choose one of: openai-chat, openai-chat-stream" in result.stderr


def test_a_folder_is_a_usage_error() -> None:
    result = run_cli("check", str(DATA), "-p", RS)
    assert result.returncode == 2
    assert b"is a folder" in result.stderr


def test_stdin_is_read_with_a_dash() -> None:
    result = run_cli("check", "-", "-p", RS, stdin=GOOD.read_bytes())
    assert result.returncode == 0, result.stdout
    assert b"clean" in result.stdout


def test_binary_garbage_is_unusable_input_and_exits_2(tmp_path: Path) -> None:
    path = write(tmp_path, "t.bin", bytes(range(256)) * 4)
    result = run_cli("check", str(path), "-p", RS)
    assert result.returncode in (1, 2)
    assert b"Traceback" not in result.stderr
    assert b"input error" in result.stdout


def test_each_request_body_of_a_jsonl_log_is_its_own_conversation(tmp_path: Path) -> None:
    good = {"messages": [{"role": "user", "content": "hi"}]}
    orphan = {"messages": [{"role": "tool", "tool_call_id": "call_1", "content": "x"}]}
    data = b"".join(json.dumps(body).encode() + b"\n" for body in (good, orphan, good))
    report = toolwire.check_file(write(tmp_path, "requests.jsonl", data), "openai-chat")
    assert [(f.rule, f.line, f.path) for f in report.findings] == [("CC-2", 2, "messages[0].role")]
    assert report.events == 3
