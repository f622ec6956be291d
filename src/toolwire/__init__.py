"""toolwire: LLM tool-call lifecycles as explicit state machines, and traffic checked against them.

>>> import toolwire
>>> report = toolwire.check(
...     [{"role": "assistant", "tool_calls": [
...         {"id": "call_1", "type": "function",
...          "function": {"name": "search", "arguments": "{}"}}]},
...      {"role": "user", "content": "Interrupt"},
...      {"role": "tool", "tool_call_id": "call_1", "content": "Result"}],
...     "openai-chat")
>>> [(f.rule, f.path) for f in report.findings]
[('CC-4', 'messages[1].role'), ('CC-2', 'messages[2].role')]
"""

from typing import TYPE_CHECKING

from toolwire._lazy import lazy
from toolwire.errors import DefinitionError, ToolwireError, UsageError

if TYPE_CHECKING:
    from toolwire.engines import Problem, Report, check, check_file, check_path
    from toolwire.engines.repair import Repair, repair
    from toolwire.properties import Finding, Rule
    from toolwire.protocols import PROTOCOLS, RULES, rules_for

__version__ = "0.1.0"

__all__ = [
    "PROTOCOLS",
    "RULES",
    "DefinitionError",
    "Finding",
    "Problem",
    "Repair",
    "Report",
    "Rule",
    "ToolwireError",
    "UsageError",
    "__version__",
    "check",
    "check_file",
    "check_path",
    "repair",
    "rules_for",
]

# The engines and the registry load on first use: ``python -m toolwire check -p P`` imports P's family alone.
_LAZY = {
    **dict.fromkeys(("Problem", "Report", "check", "check_file", "check_path"), "toolwire.engines"),
    **dict.fromkeys(("Repair", "repair"), "toolwire.engines.repair"),
    **dict.fromkeys(("Finding", "Rule"), "toolwire.properties"),
    **dict.fromkeys(("PROTOCOLS", "RULES", "rules_for"), "toolwire.protocols"),
}

__getattr__ = lazy(__name__, _LAZY, globals())
