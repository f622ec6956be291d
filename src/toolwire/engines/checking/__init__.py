"""``toolwire check``: a trace, a file, a folder or a recording checked against its protocol's
monitor; ``ids`` and ``shapes`` (what ``check`` would say of one id, and which shapes a recording
shows); the rule across exchanges the proxy shares; the transition tables ``check`` runs on.
"""

from typing import TYPE_CHECKING

from toolwire._lazy import lazy

__all__ = [
    "COMMAND",
    "PROXY_RECORD",
    "STDIN_TWICE",
    "TARGET",
    "Conversations",
    "IdVerdict",
    "ShapeReport",
    "check",
    "check_file",
    "check_id",
    "check_messages",
    "check_path",
    "check_paths",
    "check_range",
    "check_recording",
    "check_usage",
    "choose",
    "emitted_ids",
    "exchange_reports",
    "first_error",
    "id_shape",
    "is_recording",
    "learned",
    "read_traces",
    "render",
    "render_ids",
    "render_shapes",
    "shapes_file",
    "shipped_machines",
]

if TYPE_CHECKING:
    from toolwire.engines.checking._across import PROXY_RECORD, Conversations, emitted_ids
    from toolwire.engines.checking._check import check, check_messages, first_error, is_recording
    from toolwire.engines.checking._exchanges import check_recording, choose, exchange_reports
    from toolwire.engines.checking._ids import IdVerdict, check_id, id_shape, render_ids
    from toolwire.engines.checking._paths import (
        STDIN_TWICE,
        check_file,
        check_path,
        check_paths,
        check_range,
        check_usage,
    )
    from toolwire.engines.checking._shapes import (
        ShapeReport,
        learned,
        read_traces,
        render_shapes,
        shapes_file,
    )
    from toolwire.engines.checking._tables import COMMAND, TARGET, render, shipped_machines

# Each loads on first use: a check imports none of what it does not run.
_LAZY = {
    **dict.fromkeys(("Conversations", "PROXY_RECORD", "emitted_ids"), "toolwire.engines.checking._across"),
    **dict.fromkeys(
        ("check", "check_messages", "first_error", "is_recording"), "toolwire.engines.checking._check"
    ),
    **dict.fromkeys(
        ("check_recording", "choose", "exchange_reports"), "toolwire.engines.checking._exchanges"
    ),
    **dict.fromkeys(("IdVerdict", "check_id", "id_shape", "render_ids"), "toolwire.engines.checking._ids"),
    **dict.fromkeys(
        ("STDIN_TWICE", "check_file", "check_path", "check_paths", "check_range", "check_usage"),
        "toolwire.engines.checking._paths",
    ),
    **dict.fromkeys(
        ("ShapeReport", "learned", "read_traces", "render_shapes", "shapes_file"),
        "toolwire.engines.checking._shapes",
    ),
    **dict.fromkeys(("COMMAND", "TARGET", "render", "shipped_machines"), "toolwire.engines.checking._tables"),
}

__getattr__ = lazy(__name__, _LAZY, globals())
