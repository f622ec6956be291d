"""``toolwire fuzz``: a campaign of generated traffic through a target (in-process, a worker
process, a command), judged by the relations and the target protocol's rules, each failure shrunk
to a counterexample saved to disk; ``replay`` of one.
"""

from typing import TYPE_CHECKING

from toolwire._lazy import lazy

__all__ = [
    "MAX_OUTPUT",
    "MUTATIONS",
    "NO_QUIRKS",
    "PROPERTIES",
    "TARGET_FAILURES",
    "TRIES",
    "Campaign",
    "CommandTarget",
    "Counterexample",
    "Coverage",
    "Example",
    "ExploreOptions",
    "Fault",
    "FuzzOptions",
    "FuzzRun",
    "InProcessTarget",
    "MachineCoverage",
    "Outcome",
    "PythonName",
    "SaveCounterexamples",
    "Signature",
    "Steering",
    "Target",
    "TargetFailure",
    "TargetRecipe",
    "Watch",
    "Worker",
    "WorkerTarget",
    "cause",
    "check_timeout",
    "collect",
    "deviated",
    "duration",
    "file_name",
    "fuzz",
    "fuzz_with",
    "hypothesis_folder",
    "hypothesis_home",
    "judge",
    "load_counterexample",
    "load_module",
    "load_target",
    "marks",
    "not_json",
    "raised",
    "replay",
    "round_trip",
    "save",
    "smaller",
    "spelling",
    "steered",
    "tool_result",
    "waiting",
]

if TYPE_CHECKING:
    from toolwire.engines.fuzzing._campaign import Campaign, FuzzRun, fuzz, fuzz_with, hypothesis_home
    from toolwire.engines.fuzzing._child import (
        MAX_OUTPUT,
        cause,
        collect,
        load_module,
        not_json,
        raised,
        tool_result,
    )
    from toolwire.engines.fuzzing._counterexample import (
        Counterexample,
        file_name,
        load_counterexample,
        replay,
        save,
        smaller,
    )
    from toolwire.engines.fuzzing._coverage import Coverage, MachineCoverage, Watch
    from toolwire.engines.fuzzing._handlers import SaveCounterexamples
    from toolwire.engines.fuzzing._judge import (
        MUTATIONS,
        PROPERTIES,
        TARGET_FAILURES,
        Fault,
        Outcome,
        judge,
        round_trip,
    )
    from toolwire.engines.fuzzing._options import (
        NO_QUIRKS,
        ExploreOptions,
        FuzzOptions,
        check_timeout,
        deviated,
        duration,
        hypothesis_folder,
        waiting,
    )
    from toolwire.engines.fuzzing._steer import TRIES, Example, Signature, Steering, marks, steered
    from toolwire.engines.fuzzing._targets import (
        CommandTarget,
        InProcessTarget,
        PythonName,
        Target,
        TargetFailure,
        TargetRecipe,
        Worker,
        WorkerTarget,
        load_target,
        spelling,
    )

# Each loads on first use: a check imports none of what it does not run.
_LAZY = {
    **dict.fromkeys(
        ("Campaign", "FuzzRun", "fuzz", "fuzz_with", "hypothesis_home"), "toolwire.engines.fuzzing._campaign"
    ),
    **dict.fromkeys(
        ("MAX_OUTPUT", "cause", "collect", "load_module", "not_json", "raised", "tool_result"),
        "toolwire.engines.fuzzing._child",
    ),
    **dict.fromkeys(
        ("Counterexample", "file_name", "load_counterexample", "replay", "save", "smaller"),
        "toolwire.engines.fuzzing._counterexample",
    ),
    **dict.fromkeys(("Coverage", "MachineCoverage", "Watch"), "toolwire.engines.fuzzing._coverage"),
    "SaveCounterexamples": "toolwire.engines.fuzzing._handlers",
    **dict.fromkeys(
        ("Fault", "MUTATIONS", "Outcome", "PROPERTIES", "TARGET_FAILURES", "judge", "round_trip"),
        "toolwire.engines.fuzzing._judge",
    ),
    **dict.fromkeys(
        (
            "ExploreOptions",
            "FuzzOptions",
            "NO_QUIRKS",
            "check_timeout",
            "deviated",
            "duration",
            "hypothesis_folder",
            "waiting",
        ),
        "toolwire.engines.fuzzing._options",
    ),
    **dict.fromkeys(
        ("Example", "Signature", "Steering", "TRIES", "marks", "steered"), "toolwire.engines.fuzzing._steer"
    ),
    **dict.fromkeys(
        (
            "CommandTarget",
            "InProcessTarget",
            "PythonName",
            "Target",
            "TargetFailure",
            "TargetRecipe",
            "Worker",
            "WorkerTarget",
            "load_target",
            "spelling",
        ),
        "toolwire.engines.fuzzing._targets",
    ),
}

__getattr__ = lazy(__name__, _LAZY, globals())
