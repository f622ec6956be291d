"""Engines around the properties: the monitor behind ``check``, the fuzzer, the explorer, the diagrams,
the log check, the gateway target and the live proxy.

They print nothing: results are frozen dataclasses with ``to_json``, and runs report as events
(``Started`` ... ``Finished``, the proxy's ``LiveFinding`` and ``ExchangeChecked``).  Their
renderers (text, JSON, JUnit, JSON Lines, records, summaries) are the command line's handlers
(``toolwire.cli.handlers``), not part of this API, but for the two shown here.

The fuzzer and the explorer import Hypothesis and networkx, so they load on
first use: ``toolwire check`` never pays for them, nor for the diagram, ids
and shapes engines, which load every protocol family.  The log check for a cluster's rows
(:class:`GroupMonitor`, :func:`check_group`) is what ``toolwire.spark`` and ``toolwire.dask`` run.
"""

from typing import TYPE_CHECKING

from toolwire._lazy import lazy
from toolwire.engines._core._results import Problem, Report
from toolwire.engines.checking import check, check_file, check_path

__all__ = [
    "LOG_COLUMNS",
    "Analysis",
    "Counterexample",
    "Diagram",
    "EngineEvent",
    "ExchangeChecked",
    "Exploration",
    "ExploreOptions",
    "FindingFound",
    "FindingShrunk",
    "Finished",
    "FuzzOptions",
    "FuzzRun",
    "GroupMonitor",
    "IdVerdict",
    "LiveFinding",
    "LogRow",
    "Outcome",
    "PrintReport",
    "Problem",
    "Progress",
    "Report",
    "SaveCounterexamples",
    "ShapeReport",
    "ShowProgress",
    "Started",
    "StateSpace",
    "Target",
    "analyse",
    "analyse_machine",
    "check",
    "check_file",
    "check_group",
    "check_id",
    "check_log",
    "check_path",
    "coverage_suite",
    "diagram",
    "explore",
    "fuzz",
    "id_shape",
    "judge",
    "load_counterexample",
    "load_target",
    "paths",
    "replay",
    "shapes_file",
    "state_space",
    "to_dot",
    "to_mermaid",
    "tool_result",
]

if TYPE_CHECKING:
    from toolwire.cli.handlers import PrintReport, ShowProgress
    from toolwire.engines._core._events import (
        EngineEvent,
        ExchangeChecked,
        FindingFound,
        FindingShrunk,
        Finished,
        LiveFinding,
        Progress,
        Started,
    )
    from toolwire.engines.checking import IdVerdict, ShapeReport, check_id, id_shape, shapes_file
    from toolwire.engines.exploring import (
        Analysis,
        Diagram,
        Exploration,
        StateSpace,
        analyse,
        analyse_machine,
        coverage_suite,
        diagram,
        explore,
        paths,
        state_space,
        to_dot,
        to_mermaid,
    )
    from toolwire.engines.fuzzing import (
        Counterexample,
        ExploreOptions,
        FuzzOptions,
        FuzzRun,
        Outcome,
        SaveCounterexamples,
        Target,
        fuzz,
        judge,
        load_counterexample,
        load_target,
        replay,
        tool_result,
    )
    from toolwire.engines.logs import LOG_COLUMNS, GroupMonitor, LogRow, check_group, check_log

_LAZY = {
    **dict.fromkeys(("Diagram", "diagram", "to_dot", "to_mermaid"), "toolwire.engines.exploring"),
    **dict.fromkeys(("IdVerdict", "check_id", "id_shape"), "toolwire.engines.checking"),
    "check_log": "toolwire.engines.logs",
    **dict.fromkeys(("LOG_COLUMNS", "GroupMonitor", "LogRow", "check_group"), "toolwire.engines.logs"),
    **dict.fromkeys(("ShapeReport", "shapes_file"), "toolwire.engines.checking"),
    **dict.fromkeys(("Counterexample", "load_counterexample", "replay"), "toolwire.engines.fuzzing"),
    **dict.fromkeys(
        (
            "EngineEvent",
            "ExchangeChecked",
            "FindingFound",
            "FindingShrunk",
            "Finished",
            "LiveFinding",
            "Progress",
            "Started",
        ),
        "toolwire.engines._core._events",
    ),
    **dict.fromkeys(("FuzzRun", "fuzz"), "toolwire.engines.fuzzing"),
    "SaveCounterexamples": "toolwire.engines.fuzzing",
    # The handlers that print are the CLI's (engines print nothing); shown here, loaded on first use,
    # because ``toolwire.engines`` has always offered them beside the events they take.  This is
    # the one name the engines take from above them, and only as a string: no engine imports it.
    **dict.fromkeys(("PrintReport", "ShowProgress"), "toolwire.cli.handlers"),
    **dict.fromkeys(("Outcome", "judge"), "toolwire.engines.fuzzing"),
    **dict.fromkeys(("ExploreOptions", "FuzzOptions"), "toolwire.engines.fuzzing"),
    **dict.fromkeys(("Analysis", "analyse", "analyse_machine"), "toolwire.engines.exploring"),
    **dict.fromkeys(
        ("Exploration", "StateSpace", "coverage_suite", "explore", "paths", "state_space"),
        "toolwire.engines.exploring",
    ),
    **dict.fromkeys(("Target", "load_target", "tool_result"), "toolwire.engines.fuzzing"),
}


__getattr__ = lazy(__name__, _LAZY, globals())
