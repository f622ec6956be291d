"""toolwire's log check on a Spark DataFrame: each group's records meet in one monitor, on the Arrow path.

For logs that already live in a cluster (a Databricks inference table, a Delta or Parquet export, a
folder of JSON Lines).  :func:`check_dataframe` groups the records as ``check --group-by`` does, by
``repartition(key)`` and ``sortWithinPartitions(key, order)``, and runs a
:class:`~toolwire.engines.GroupMonitor` per group inside ``mapInArrow`` (Arrow record batches in
and out: ``applyInPandas`` was measured 15-20x slower).  The result is a DataFrame of
:data:`SCHEMA`: a row per finding and per input problem, and a summary row per group
(``kind = 'group'``), so clean groups are counted.  Without ``group_by`` each record is checked
alone, and each Arrow batch of them has one summary row (group null).

    from pyspark.sql import SparkSession
    from toolwire.spark import check_dataframe

    spark = SparkSession.builder.getOrCreate()
    records = spark.read.text("logs/")                   # one JSON record per line, in `value`
    rows = check_dataframe(records, request="request", response="response",
                           group_by="conversation", order_by="turn")
    rows.where("kind = 'finding'").show(truncate=False)

Needs ``pip install 'toolwire[spark]'`` (PySpark with its Arrow support) where the executors run.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Final

from toolwire._extras import extra
from toolwire.engines.logs import LOG_COLUMNS, GroupMonitor, LogRow
from toolwire.errors import UsageError

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql import Column, DataFrame

__all__ = ["SCHEMA", "arrow_schema", "check_batches", "check_dataframe"]

_SQL_TYPES: Final = {"string": "string", "int64": "bigint", "list<string>": "array<string>"}
#: The rows' schema as Spark DDL (:data:`toolwire.engines.LOG_COLUMNS`, in order).
SCHEMA: Final = ", ".join(f"`{name}` {_SQL_TYPES[kind]}" for name, kind in LOG_COLUMNS)
#: The helper columns check_dataframe adds for grouping (dropped before the records reach a monitor).
_KEY: Final = "__toolwire_group"
#: Rows per Arrow batch handed back to Spark.
_BATCH: Final = 4096
#: No group yet (None is a group: the records without one).
_START: Final = object()


def arrow_schema() -> pa.Schema:
    """The rows' schema as Arrow's (what :func:`check_batches` yields)."""
    with extra("spark"):
        import pyarrow as pa

    types = {"string": pa.string(), "int64": pa.int64(), "list<string>": pa.list_(pa.string())}
    return pa.schema([(name, types[kind]) for name, kind in LOG_COLUMNS])


def check_dataframe(
    frame: DataFrame,
    *,
    record: str | None = "value",
    line: str | None = None,
    source: str | None = None,
    partitions: int | None = None,
    **options: Any,
) -> DataFrame:
    """The rows of :data:`SCHEMA` that checking ``frame``'s records gives (a lazy DataFrame).

    ``record`` is the string column holding each record as JSON text (``spark.read.text``'s
    ``value``); None: each row is the record, its columns the record's fields (nested structs as
    objects; a JSON string met on a path is decoded, as ``check`` does).  ``line`` names a column
    of each record's line or index, ``source`` a column of its file (``input_file_name()``, say),
    both carried into the rows.  ``options`` are :class:`~toolwire.engines.GroupMonitor`'s:
    ``preset``, ``request``, ``response``, ``body``, ``group_by``, ``order_by``, ``protocol``,
    ``profile``; ``partitions`` how many groups of groups Spark makes (default: its shuffle
    partitions).  The paths are checked here, before Spark runs anything.
    """
    with extra("spark"):
        from pyspark.sql import functions as sql

    GroupMonitor(**options)
    for name in (record, line, source):
        if name is not None and name not in frame.columns:
            raise UsageError(f"the DataFrame has no column {name!r}; its columns: {', '.join(frame.columns)}")
    group_by, order_by = options.get("group_by"), options.get("order_by")
    if group_by is not None:
        frame = frame.withColumn(_KEY, _key(record, group_by))
        frame = frame.repartition(partitions, _KEY) if partitions else frame.repartition(_KEY)
        within = [sql.col(_KEY)]
        if order_by is not None:
            within.append(_key(record, order_by))
        if line is not None:
            within.append(sql.col(line))
        frame = frame.sortWithinPartitions(*within)
    grouped = group_by is not None

    def run(batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        return check_batches(batches, options, record=record, line=line, source=source, grouped=grouped)

    return frame.mapInArrow(run, SCHEMA)


def _key(record: str | None, path: str) -> Column:
    """The column of the value at dotted ``path`` in each record (JSON text in ``record``, or the row)."""
    with extra("spark"):
        from pyspark.sql import functions as sql

    steps = path.split(".")
    if record is not None:
        json_path = "$" + "".join(f"[{s}]" if s.isdigit() else f"['{s}']" for s in steps)
        return sql.get_json_object(sql.col(record), json_path)
    column = sql.col(steps[0])
    for step in steps[1:]:
        column = column[int(step)] if step.isdigit() else column[step]
    return column


def check_batches(
    batches: Iterable[pa.RecordBatch],
    options: dict[str, Any],
    *,
    record: str | None = "value",
    line: str | None = None,
    source: str | None = None,
    grouped: bool = True,
) -> Iterator[pa.RecordBatch]:
    """The ``mapInArrow`` function: the records of ``batches`` (each group's consecutive when
    ``grouped``, its key in :data:`_KEY`) fed to a monitor that finishes where its group ends;
    rows in batches of :func:`arrow_schema`."""
    import orjson

    with extra("spark"):
        import pyarrow as pa

    schema = arrow_schema()
    monitor = GroupMonitor(**options)
    helpers = [name for name in (_KEY, line, source) if name is not None]
    rows: list[LogRow] = []
    current: Any = _START
    for batch in batches:
        count = batch.num_rows
        keys = batch.column(_KEY).to_pylist() if grouped else [None] * count
        lines = batch.column(line).to_pylist() if line is not None else [None] * count
        sources = batch.column(source).to_pylist() if source is not None else [None] * count
        if record is not None:
            values: list[Any] = batch.column(record).to_pylist()
        else:
            values = batch.drop_columns([h for h in helpers if h in batch.schema.names]).to_pylist()
        for key, value, number, name in zip(keys, values, lines, sources, strict=True):
            if key != current and current is not _START:
                rows.extend(monitor.finish())
                if len(rows) >= _BATCH:
                    yield pa.RecordBatch.from_pylist([r.to_json() for r in rows], schema=schema)
                    rows = []
            current = key
            if record is None:
                monitor.feed(value, number, name)
                continue
            if value is None or not value.strip():
                continue
            try:
                parsed = orjson.loads(value)
            except orjson.JSONDecodeError as exc:
                monitor.unreadable(f"not a JSON record: {exc}", number, name)
                continue
            monitor.feed(parsed, number, name)
        if not grouped:
            # Each record is checked alone: nothing needs to wait for the next batch.
            rows.extend(monitor.finish())
    rows.extend(monitor.finish())
    if rows:
        yield pa.RecordBatch.from_pylist([r.to_json() for r in rows], schema=schema)
