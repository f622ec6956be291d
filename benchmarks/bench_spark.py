"""PySpark local mode (session start plus job) against ``check --jobs 2`` on the same grouped log.

    python benchmarks/bench_spark.py [--records 100000]      (or: benchmarks/run.py --only spark)

Both are wall seconds of a fresh process: ``toolwire check LOG --request ... --group-by conversation
--jobs 2``, and a Python that starts a ``local[2]`` SparkSession, reads the log with
``spark.read.text`` and collects ``toolwire.spark.check_dataframe``'s rows.  Reported, no target:
Spark pays a JVM's start-up and a shuffle that a single machine does not need.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

_SPARK = """
import sys
from pyspark.sql import SparkSession
from toolwire.spark import check_dataframe
spark = (SparkSession.builder.master("local[2]").config("spark.driver.host", "127.0.0.1")
         .config("spark.driver.bindAddress", "127.0.0.1").config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false").config("spark.sql.shuffle.partitions", "4")
         .getOrCreate())
options = dict(request="request", response="response", group_by="conversation", order_by="turn")
rows = check_dataframe(spark.read.text(sys.argv[1]), partitions=4, **options).collect()
print(sum(row["kind"] == "finding" for row in rows))
spark.stop()
"""


def _wall(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{argv[:4]} failed:\n{done.stderr[-2000:]}")
    return time.perf_counter() - start, done.stdout


def bench_spark(add: Callable[..., None], records: int) -> None:
    """Add the Spark figure to a benchmark table (``add(figure, value, target, met, detail)``)."""
    from helpers.conversations import ARGV, write_conversations

    with tempfile.TemporaryDirectory() as scratch:
        log = Path(scratch) / "conversations.jsonl"
        count = write_conversations(log, records)
        check = [sys.executable, "-m", "toolwire", "check", str(log), *ARGV, "--format", "json"]
        jobs2, out = _wall([*check, "--jobs", "2"])
        env = os.environ | {"PYSPARK_PYTHON": sys.executable, "SPARK_LOCAL_IP": "127.0.0.1"}
        spark, found = _wall([sys.executable, "-c", _SPARK, str(log)], env)
        same = int(found.strip().splitlines()[-1]) == out.count('"rule":')
        add(
            "PySpark local[2] (start + job) / check --jobs 2",
            spark / jobs2,
            "(reported)",
            same,
            f"{spark:.1f} s / {jobs2:.1f} s wall, {count:,} records" + ("" if same else "; findings DIFFER"),
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    args = parser.parse_args()

    def show(figure: str, value: float, target: str, met: bool, detail: str = "") -> None:
        print(f"{figure:<44} {value:.2f}  ({detail})  {target}  {'met' if met else 'MISSED'}")

    bench_spark(show, args.records)
