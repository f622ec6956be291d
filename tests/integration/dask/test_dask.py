"""toolwire.dask on a generated grouped log of 100k records: the CLI's findings exactly (synchronous)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers.conversations import OPTIONS, cli_findings, finding_keys, numbered, write_conversations

pytestmark = pytest.mark.slow

dask = pytest.importorskip("dask", reason="Dask is not installed: pip install 'toolwire[dask]'")

import dask.bag as db  # noqa: E402 (after the skip)

from toolwire.dask import check_bag  # noqa: E402


def test_a_grouped_log_of_100k_records_gives_the_clis_findings(tmp_path: Path) -> None:
    log = tmp_path / "conversations.jsonl"
    count = write_conversations(log, 100_000)
    records = [(n, json.loads(line)) for n, line in numbered(log)]
    bag = db.from_sequence(records, npartitions=8)
    with dask.config.set(scheduler="synchronous"):
        rows = check_bag(bag, numbered=True, **OPTIONS).compute()
    expected = cli_findings(log)
    assert finding_keys(rows) == expected and len(expected) > 50
    summaries = [r for r in rows if r["kind"] == "group"]
    assert len(summaries) == count // 3 and sum(r["records"] for r in summaries) == count
    assert not [r for r in rows if r["kind"] == "problem"]


def test_without_group_by_each_record_is_checked_alone(tmp_path: Path) -> None:
    log = tmp_path / "small.jsonl"
    write_conversations(log, 300, changed=3)
    records = [json.loads(line) for _, line in numbered(log)]
    options = {"request": "request", "response": "response"}
    with dask.config.set(scheduler="synchronous"):
        rows = check_bag(db.from_sequence(records, npartitions=3), **options).compute()
    # No turn meets the one before it: the changed ids go unseen, each partition is summarised.
    assert [r for r in rows if r["kind"] != "group"] == []
    assert sum(r["records"] for r in rows) == 300 and len(rows) == 3
