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
from toolwire.engines.checking._check import Problem, Report, check
from toolwire.engines.checking._paths import check_file, check_path

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
    from toolwire.engines.checking._ids import IdVerdict, check_id, id_shape
    from toolwire.engines.checking._shapes import ShapeReport, shapes_file
    from toolwire.engines.exploring._analysis import Analysis, analyse, analyse_machine
    from toolwire.engines.exploring._diagram import Diagram, diagram, to_dot, to_mermaid
    from toolwire.engines.exploring._explore import (
        Exploration,
        StateSpace,
        coverage_suite,
        explore,
        paths,
        state_space,
    )
    from toolwire.engines.fuzzing._campaign import FuzzRun, fuzz
    from toolwire.engines.fuzzing._counterexample import Counterexample, load_counterexample, replay
    from toolwire.engines.fuzzing._handlers import PrintReport, SaveCounterexamples, ShowProgress
    from toolwire.engines.fuzzing._judge import Outcome, judge
    from toolwire.engines.fuzzing._options import ExploreOptions, FuzzOptions
    from toolwire.engines.fuzzing._targets import Target, load_target, tool_result
    from toolwire.engines.logs._groups import LOG_COLUMNS, GroupMonitor, LogRow, check_group
    from toolwire.engines.logs._logs import check_log

_LAZY = {
    **dict.fromkeys(("Diagram", "diagram", "to_dot", "to_mermaid"), "toolwire.engines.exploring._diagram"),
    **dict.fromkeys(("IdVerdict", "check_id", "id_shape"), "toolwire.engines.checking._ids"),
    "check_log": "toolwire.engines.logs._logs",
    **dict.fromkeys(
        ("LOG_COLUMNS", "GroupMonitor", "LogRow", "check_group"), "toolwire.engines.logs._groups"
    ),
    **dict.fromkeys(("ShapeReport", "shapes_file"), "toolwire.engines.checking._shapes"),
    **dict.fromkeys(
        ("Counterexample", "load_counterexample", "replay"), "toolwire.engines.fuzzing._counterexample"
    ),
    **dict.fromkeys(
        ("EngineEvent", "FindingFound", "FindingShrunk", "Finished", "Progress", "Started"),
        "toolwire.engines._core._events",
    ),
    **dict.fromkeys(("FuzzRun", "fuzz"), "toolwire.engines.fuzzing._campaign"),
    **dict.fromkeys(
        ("PrintReport", "SaveCounterexamples", "ShowProgress"), "toolwire.engines.fuzzing._handlers"
    ),
    **dict.fromkeys(("Outcome", "judge"), "toolwire.engines.fuzzing._judge"),
    **dict.fromkeys(("ExploreOptions", "FuzzOptions"), "toolwire.engines.fuzzing._options"),
    **dict.fromkeys(("Analysis", "analyse", "analyse_machine"), "toolwire.engines.exploring._analysis"),
    **dict.fromkeys(
        ("Exploration", "StateSpace", "coverage_suite", "explore", "paths", "state_space"),
        "toolwire.engines.exploring._explore",
    ),
    **dict.fromkeys(("Target", "load_target", "tool_result"), "toolwire.engines.fuzzing._targets"),
}


__getattr__ = lazy(__name__, _LAZY, globals())
