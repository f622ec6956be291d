"""One group of log records checked where it is: GroupMonitor's feed/finish and check_group, as rows."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from helpers import layout
from helpers.conversations import OPTIONS, write_conversations
from toolwire.engines import LOG_COLUMNS, GroupMonitor, LogRow, check_group, check_log
from toolwire.errors import UsageError

LOGS = layout.DATA / "logs"


def findings_of(rows: list[LogRow]) -> list[tuple[Any, ...]]:
    return sorted(
        (r.source, r.protocol, r.line, r.rule, r.severity, r.message, r.path, r.ids)
        for r in rows
        if r.kind == "finding"
    )


def test_the_columns_are_the_rows_fields_in_order() -> None:
    assert [name for name, _ in LOG_COLUMNS] == [f.name for f in dataclasses.fields(LogRow)]
    row = LogRow("group", "a.jsonl", None, "g", None, None, None, "1 records", records=1)
    assert list(row.to_json()) == [name for name, _ in LOG_COLUMNS]


def test_a_groups_rows_are_the_findings_check_log_gives_with_a_summary() -> None:
    file = LOGS / "litellm" / "changed-id.jsonl"
    records = [json.loads(line) for line in file.read_text().splitlines() if line.strip()]
    rows = check_group(records, preset="litellm", group_by="trace_id", source=str(file))
    reports = check_log([file], presets=["litellm"], group_by="trace_id")
    expected = sorted(
        (r.source, r.protocol, f.line, f.rule, f.severity, f.message, f.path, f.ids)
        for r in reports
        for f in r.findings
    )
    assert findings_of(rows) == expected and [e[3] for e in expected] == ["RT-1"]
    [summary] = [r for r in rows if r.kind == "group"]
    group = records[0]["trace_id"]
    assert (summary.group, summary.records, summary.findings, summary.problems) == (group, 2, 1, 0)
    assert summary.events == sum(r.events for r in reports)


def test_each_group_fed_is_summarised_and_a_clean_one_is_counted(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    write_conversations(log, 30, changed=4, orphaned=1000)
    records = [json.loads(line) for line in log.read_text().splitlines()]
    monitor = GroupMonitor(**OPTIONS)
    for line, record in enumerate(records, 1):
        monitor.feed(record, line)
    rows = monitor.finish()
    summaries = {r.group: r for r in rows if r.kind == "group"}
    assert len(summaries) == 10 and all(s.records == 3 for s in summaries.values())
    # Conversation 3 (and 7) replay their first call with a changed id.
    changed = {r.group for r in rows if r.rule == "RT-1"}
    assert changed == {"conv-000003", "conv-000007"}
    assert {g for g, s in summaries.items() if s.findings} == changed
    # The monitor starts afresh: what it is fed next is a group of its own.
    monitor.feed(records[0], 1)
    assert [r.kind for r in monitor.finish()] == ["group"]


def test_records_fed_out_of_order_are_checked_in_order_by() -> None:
    records = [json.loads(line) for line in (LOGS / "litellm" / "changed-id.jsonl").read_text().splitlines()]
    options = {"preset": "litellm", "group_by": "trace_id", "order_by": "startTime"}
    ordered = check_group(records, lines=[1, 2], **options)
    assert findings_of(check_group(records[::-1], lines=[2, 1], **options)) == findings_of(ordered)
    # Without order_by, as fed: the second turn first, whose response made no call to compare.
    assert findings_of(check_group(records[::-1], lines=[2, 1], preset="litellm", group_by="trace_id")) == []


def test_a_record_without_a_body_or_a_json_text_is_a_problem_row_of_its_group() -> None:
    monitor = GroupMonitor(request="body", group_by="session")
    monitor.feed({"session": "s1", "other": 1}, 4)
    monitor.unreadable("not a JSON record: unexpected end of data", 5)
    rows = monitor.finish()
    problems = [(r.line, r.group, r.severity, r.message) for r in rows if r.kind == "problem"]
    assert problems == [
        (4, "s1", "error", "record at line 4: no body at body; nothing checked"),
        (5, None, "error", "record at line 5: not a JSON record: unexpected end of data; nothing checked"),
    ]
    assert {r.group: (r.records, r.problems) for r in rows if r.kind == "group"} == {
        "s1": (1, 1),
        None: (1, 1),
    }


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({}, "say where each record keeps its bodies"),
        ({"preset": "nope"}, "unknown --log preset 'nope'"),
        ({"request": "body", "protocol": "nope"}, "nope"),
    ],
)
def test_bad_options_are_refused_before_any_record(options: dict[str, Any], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        GroupMonitor(**options)
