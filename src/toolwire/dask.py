"""toolwire's log check on a Dask bag of records: grouped by a task shuffle, a monitor per group.

    import json
    import dask.bag as db
    from toolwire.dask import check_bag

    records = db.read_text("logs/*.jsonl").map(json.loads)
    rows = check_bag(records, request="request", response="response",
                     group_by="conversation", order_by="turn")
    findings = rows.filter(lambda row: row["kind"] == "finding").compute()

The rows are dicts of :data:`toolwire.engines.LOG_COLUMNS` (``rows.to_dataframe()`` makes a Dask
DataFrame of them): a row per finding and per input problem, and a summary row per group.
Needs ``pip install 'toolwire[dask]'``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, cast

from toolwire.engines.logs import GroupMonitor, group_key, value_at

if TYPE_CHECKING:
    from dask.bag import Bag

__all__ = ["check_bag"]


def check_bag(bag: Bag, *, numbered: bool = False, **options: Any) -> Bag:
    """A bag of row dicts: what checking ``bag``'s records gives.

    Each item is a record (a parsed JSON value), or with ``numbered`` a ``(line, record)`` pair
    (its line or index in its log, carried into the rows, and the order of records the
    ``order_by`` path leaves tied).  ``options`` are :class:`~toolwire.engines.GroupMonitor`'s
    (``preset``, ``request``, ``response``, ``body``, ``group_by``, ``order_by``, ``protocol``,
    ``profile``, ``source``), checked here.  With ``group_by`` the records of a group meet in one
    task (``Bag.groupby`` with a task shuffle: no disk, any scheduler); without, each record is
    checked alone, a summary row per partition.  One monitor checks a partition's groups, one after
    the other.
    """
    GroupMonitor(**options)
    group_by = options.get("group_by")
    # Dask's bag methods are untyped.
    items: Any = bag
    if group_by is None:
        return cast("Bag", items.map_partitions(lambda part: _checked([part], numbered, options)))

    def key(item: Any) -> Any:
        record = item[1] if numbered else item
        return group_key(value_at(record, group_by)) if isinstance(record, dict) else None

    groups = items.groupby(key, shuffle="tasks")
    return cast("Bag", groups.map_partitions(lambda part: _checked((g for _, g in part), numbered, options)))


def _checked(
    groups: Iterable[Iterable[Any]], numbered: bool, options: dict[str, Any]
) -> list[dict[str, Any]]:
    """The rows of ``groups``, each checked as it ends by one monitor (which keeps what it detects)."""
    monitor = GroupMonitor(**options)
    rows: list[dict[str, Any]] = []
    for items in groups:
        if numbered:
            for line, record in sorted(items, key=lambda pair: (pair[0] is None, pair[0] or 0)):
                monitor.feed(record, line)
        else:
            for record in items:
                monitor.feed(record)
        rows.extend(row.to_json() for row in monitor.finish())
    return rows
