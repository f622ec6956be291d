"""Production logs: bodies inside envelopes (gateway logs, batch files, OpenTelemetry), read as
records, grouped into conversations and checked turn by turn, on one process or many (and the
row-wise checker the Spark and Dask helpers run).

The check is a pipeline, a module a stage: ``_reader`` (a file's records) -> ``_records`` (each
record's model call) -> ``_checker`` (groups checked turn by turn; ``_detector`` tells each body's
protocol) -> ``_report``; ``_pipeline`` runs them in one process, ``_plans`` on a pool (its workers
in ``_groups_jobs``), ``_check_log`` is the entry point, ``_groups`` the row-wise checker.
"""

from typing import TYPE_CHECKING

from toolwire._lazy import lazy

__all__ = [
    "LOG_COLUMNS",
    "PRESETS",
    "GroupMonitor",
    "LogRow",
    "Preset",
    "Recorded",
    "bucket_of",
    "check_group",
    "check_log",
    "check_log_input",
    "check_log_range",
    "dig",
    "digest_of",
    "envelope",
    "files_under",
    "group_key",
    "is_otlp",
    "is_otlp_file",
    "looks_like",
    "preset",
    "recorded_calls",
    "run_bucket_part",
    "run_clustered_part",
    "run_spill_part",
    "value_at",
]

if TYPE_CHECKING:
    from toolwire.engines.logs._check_log import check_log, check_log_input, envelope
    from toolwire.engines.logs._envelopes import PRESETS, Preset, dig, looks_like, preset
    from toolwire.engines.logs._groups import LOG_COLUMNS, GroupMonitor, LogRow, check_group
    from toolwire.engines.logs._groups_jobs import (
        bucket_of,
        digest_of,
        run_bucket_part,
        run_clustered_part,
        run_spill_part,
    )
    from toolwire.engines.logs._otlp import Recorded, is_otlp, recorded_calls
    from toolwire.engines.logs._pipeline import check_log_range
    from toolwire.engines.logs._reader import files_under, is_otlp_file
    from toolwire.engines.logs._records import group_key, value_at

# Each loads on first use: a check imports none of what it does not run.
_LAZY = {
    **dict.fromkeys(("check_log", "check_log_input", "envelope"), "toolwire.engines.logs._check_log"),
    **dict.fromkeys(("PRESETS", "Preset", "dig", "looks_like", "preset"), "toolwire.engines.logs._envelopes"),
    **dict.fromkeys(
        ("GroupMonitor", "LOG_COLUMNS", "LogRow", "check_group"), "toolwire.engines.logs._groups"
    ),
    **dict.fromkeys(
        ("bucket_of", "digest_of", "run_bucket_part", "run_clustered_part", "run_spill_part"),
        "toolwire.engines.logs._groups_jobs",
    ),
    **dict.fromkeys(("Recorded", "is_otlp", "recorded_calls"), "toolwire.engines.logs._otlp"),
    "check_log_range": "toolwire.engines.logs._pipeline",
    **dict.fromkeys(("files_under", "is_otlp_file"), "toolwire.engines.logs._reader"),
    **dict.fromkeys(("group_key", "value_at"), "toolwire.engines.logs._records"),
}

__getattr__ = lazy(__name__, _LAZY, globals())
