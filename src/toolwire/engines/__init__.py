"""Engines around the properties: the monitor behind ``check``, the fuzzer, the explorer, the diagrams.

The renderers of their results (text, JSON, JUnit, diagram files) are the command line's, each in
its engine's module (``_report``, ``_fuzz_report``, ``_explore_report``, ``_diagram`` ...), not
part of this API: results are frozen dataclasses with ``to_json``.

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
    "Exploration",
    "ExploreOptions",
    "FindingFound",
    "FindingShrunk",
    "Finished",
    "FuzzOptions",
    "FuzzRun",
    "GroupMonitor",
    "IdVerdict",
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
    from toolwire.engines._core._events import (
        EngineEvent,
        FindingFound,
        FindingShrunk,
        Finished,
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
        PrintReport,
        SaveCounterexamples,
        ShowProgress,
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
        ("EngineEvent", "FindingFound", "FindingShrunk", "Finished", "Progress", "Started"),
        "toolwire.engines._core._events",
    ),
    **dict.fromkeys(("FuzzRun", "fuzz"), "toolwire.engines.fuzzing"),
    **dict.fromkeys(("PrintReport", "SaveCounterexamples", "ShowProgress"), "toolwire.engines.fuzzing"),
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
