"""toolwire.spark in PySpark's local mode: a generated grouped log of 100k records, the CLI's findings.

One SparkSession (``local[2]``, bound to 127.0.0.1, no UI) for the module, stopped at its end.
Skips, saying why, only where PySpark or a Java runtime is missing.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import layout
from helpers.conversations import OPTIONS, cli_findings, finding_keys, numbered, write_conversations

pytestmark = [
    pytest.mark.slow,
    # py4j leaves its gateway's sockets to the collector: not toolwire's to close.
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]

pytest.importorskip("pyspark", reason="PySpark is not installed: pip install 'toolwire[spark]'")
if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    pytest.skip("no Java runtime (java on PATH or JAVA_HOME): PySpark runs on a JVM", allow_module_level=True)

from pyspark.sql import SparkSession  # noqa: E402 (after the skips)

from toolwire.spark import SCHEMA, check_dataframe  # noqa: E402


@pytest.fixture(scope="module")
def spark(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SparkSession]:
    scratch = tmp_path_factory.mktemp("spark")
    with pytest.MonkeyPatch.context() as patch:
        # The executors' Python is this one (toolwire and pyarrow installed), on loopback only.
        patch.setenv("PYSPARK_PYTHON", sys.executable)
        patch.setenv("SPARK_LOCAL_IP", "127.0.0.1")
        session = (
            SparkSession.builder.master("local[2]")
            .appName("toolwire-test")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.shuffle.partitions", "4")
            .config("spark.sql.execution.arrow.pyspark.enabled", "true")
            .config("spark.local.dir", str(scratch))
            .config("spark.sql.warehouse.dir", str(scratch / "warehouse"))
            .getOrCreate()
        )
        session.sparkContext.setLogLevel("ERROR")
        try:
            yield session
        finally:
            session.stop()


def _rows(frame: Any) -> list[dict[str, Any]]:
    return [row.asDict() for row in frame.collect()]


def test_a_grouped_log_of_100k_records_gives_the_clis_findings(spark: SparkSession, tmp_path: Path) -> None:
    import pandas as pd

    log = tmp_path / "conversations.jsonl"
    count = write_conversations(log, 100_000)
    lines = numbered(log)
    frame = spark.createDataFrame(
        pd.DataFrame({"line": [n for n, _ in lines], "value": [v for _, v in lines]})
    )
    rows = _rows(check_dataframe(frame, line="line", partitions=4, **OPTIONS))
    expected = cli_findings(log)
    assert finding_keys(rows) == expected
    assert {key[2] for key in expected} >= {"RT-1"} and len(expected) > 50
    summaries = [r for r in rows if r["kind"] == "group"]
    assert len(summaries) == count // 3 and sum(r["records"] for r in summaries) == count
    assert sum(r["findings"] for r in summaries) == len(expected)
    assert not [r for r in rows if r["kind"] == "problem"]


def test_rows_of_columns_and_unreadable_text_are_checked_too(spark: SparkSession, tmp_path: Path) -> None:
    log = tmp_path / "small.jsonl"
    write_conversations(log, 600, changed=7, orphaned=11)
    expected = {key[2:] for key in cli_findings(log)}
    # Each row the record (spark.read.json's columns): no line numbers, the same findings.
    frame = spark.read.json(str(log))
    rows = _rows(check_dataframe(frame, record=None, partitions=2, **OPTIONS))
    assert {key[2:] for key in finding_keys(rows)} == expected and expected
    # JSON text with a line that is not JSON: a problem row, the rest as before.
    with log.open("a") as handle:
        handle.write('{"conversation": "conv-000001", "turn": \n\n')
    rows = _rows(check_dataframe(spark.read.text(str(log)), partitions=2, **OPTIONS))
    assert {key[2:] for key in finding_keys(rows)} == expected
    [problem] = [r for r in rows if r["kind"] == "problem"]
    assert problem["message"].startswith("record: not a JSON record")
    assert frame.sparkSession.createDataFrame([], SCHEMA).columns[:3] == ["kind", "source", "line"]


def test_a_batch_joined_in_spark_gives_the_clis_findings(spark: SparkSession) -> None:
    """An OpenAI batch's input and output files, joined on ``custom_id`` by Spark (the output's lines
    come in another order), each joined row checked as the CLI checks the two files given together."""
    import json

    from pyspark.sql import functions as sql

    from toolwire.engines import check_log

    logs = layout.DATA / "logs"
    files = [
        logs / "openai-batch-input" / "violating.jsonl",
        logs / "openai-batch-output" / "violating.jsonl",
    ]
    halves = [
        spark.read.text(str(path)).select(
            sql.get_json_object("value", "$.custom_id").alias("custom_id"), sql.col("value").alias(side)
        )
        for path, side in zip(files, ("input", "output"), strict=True)
    ]
    joined = (
        halves[0]
        .join(halves[1], "custom_id")
        .select(
            sql.concat(sql.lit('{"input": '), "input", sql.lit(', "output": '), "output", sql.lit("}")).alias(
                "value"
            )
        )
    )
    rows = _rows(check_dataframe(joined, request="input.body", response="output.response.body", partitions=2))
    reports = check_log([str(f) for f in files], presets=["openai-batch-input", "openai-batch-output"])
    expected = sorted((f.rule, f.path, tuple(f.ids)) for r in reports for f in r.findings)
    found = sorted(
        (r["rule"], r["path"].split(".", 1)[1], tuple(r["ids"]))  # ("input." or "output." the join's)
        for r in rows
        if r["kind"] == "finding"
    )
    assert found == expected and {rule for rule, _, _ in expected} == {"CC-2", "CC-9a"}, json.dumps(rows)
    assert not [r for r in rows if r["kind"] == "problem"]
