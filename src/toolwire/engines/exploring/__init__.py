"""``toolwire explore``, ``analyse`` and ``diagram``: every input trace within bounds run through a
converter (or a protocol's state space walked), the machines analysed, lifecycle diagrams drawn.
"""

from typing import TYPE_CHECKING

from toolwire._lazy import lazy

__all__ = [
    "Analysis",
    "Diagram",
    "DiagramFormat",
    "Expansions",
    "Exploration",
    "StateSpace",
    "analyse",
    "analyse_machine",
    "counterexample_dot",
    "counterexample_mermaid",
    "coverage_suite",
    "diagram",
    "exchange_dot",
    "exchange_legs",
    "exchange_mermaid",
    "explore",
    "explore_with",
    "mutations",
    "paths",
    "render_counterexample",
    "render_diagrams",
    "state_space",
    "state_spaces",
    "suite",
    "summary",
    "to_dot",
    "to_mermaid",
]

if TYPE_CHECKING:
    from toolwire.engines.exploring._analysis import Analysis, analyse, analyse_machine, suite
    from toolwire.engines.exploring._diagram import (
        Diagram,
        DiagramFormat,
        counterexample_dot,
        counterexample_mermaid,
        diagram,
        exchange_dot,
        exchange_legs,
        exchange_mermaid,
        render_counterexample,
        render_diagrams,
        summary,
        to_dot,
        to_mermaid,
    )
    from toolwire.engines.exploring._explore import (
        Expansions,
        Exploration,
        StateSpace,
        coverage_suite,
        explore,
        explore_with,
        mutations,
        paths,
        state_space,
        state_spaces,
    )

# Each loads on first use: a check imports none of what it does not run.
_LAZY = {
    **dict.fromkeys(
        ("Analysis", "analyse", "analyse_machine", "suite"), "toolwire.engines.exploring._analysis"
    ),
    **dict.fromkeys(
        (
            "Diagram",
            "DiagramFormat",
            "counterexample_dot",
            "counterexample_mermaid",
            "diagram",
            "exchange_dot",
            "exchange_legs",
            "exchange_mermaid",
            "render_counterexample",
            "render_diagrams",
            "summary",
            "to_dot",
            "to_mermaid",
        ),
        "toolwire.engines.exploring._diagram",
    ),
    **dict.fromkeys(
        (
            "Exploration",
            "StateSpace",
            "Expansions",
            "coverage_suite",
            "explore",
            "explore_with",
            "mutations",
            "paths",
            "state_space",
            "state_spaces",
        ),
        "toolwire.engines.exploring._explore",
    ),
}

__getattr__ = lazy(__name__, _LAZY, globals())
