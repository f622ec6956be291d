"""The public surface: pinned ``__all__`` per package, and the layers' one-way imports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import toolwire
import toolwire.dask
import toolwire.engines
import toolwire.machines
import toolwire.models
import toolwire.properties
import toolwire.protocols
import toolwire.spark

SRC = Path(toolwire.__file__).parent

PUBLIC = {
    toolwire: [
        "PROTOCOLS", "RULES", "DefinitionError", "Finding", "Problem", "Report", "Rule",
        "ToolwireError", "UsageError", "__version__", "check", "check_file", "check_path", "rules_for",
        "Repair", "repair",
    ],
    toolwire.models: [
        "DONE", "MAX_LINE_BYTES", "Frame", "InputFormat", "ProblemSink", "aisdk", "anthropic", "bedrock",
        "decode_json", "gemini", "mcp", "mistral",
        "detect_format", "openai_chat", "openai_responses", "read_frames", "read_jsonl", "read_sse", "sniff",
        "Exchange", "Hot", "RecordingError", "encode_frame", "is_eventstream", "plain", "read_eventstream",
        "read_recording", "recording_kind",
    ],
    toolwire.machines: [
        "ILLEGAL", "MACHINES", "AnthropicConversation", "ContentBlock", "ConverseConversation",
        "ConverseStream", "GeminiContents", "JsonRpcRequest", "MessageStream", "MistralConversation",
        "StreamToolCall", "UIToolPart", "GenAIConversation",
        "FullStream", "FullStreamToolCall", "ModelConversation",
        "ChatConversation", "ChatToolCallStream", "CheckingMachine",
        "FunctionCallItem", "FunctionCallPairing", "OutputItem", "ResponseBody", "ResponseStream", "Table",
        "compile_machine",
    ],
    toolwire.properties: [
        "BlockRules", "BlockStreamMonitor", "BodyMonitor", "BodyRules", "Bounds", "Call", "Family", "Feature",
        "Finding", "FragmentMonitor", "Generator", "Item", "KeyedMonitor", "Kind", "LaneSpace", "Lanes",
        "Lifecycle", "Monitor", "Notice", "Plan", "Protocol", "Quirk", "Result", "Rule", "SENDERS",
        "Severity", "Shapes", "Sites", "Space", "Turn", "Violations", "load",
    ],
    toolwire.protocols: [
        "BREAKS", "EXPLORED", "GENERATED", "MUTATORS", "PROTOCOLS", "QUIRKS", "RELATIONS", "RULES", "Broken",
        "Ledger", "check_round_trip", "envelope_ids", "get_protocol", "id_shapes", "intact", "ledger",
        "machines", "matching_quirks", "mutate", "mutated", "quirks_for", "register", "relate", "rules_for",
        "shapes_of", "space_for", "traces", "unregister",
    ],
    toolwire.engines: [
        "IdVerdict", "Diagram", "Problem", "check_id", "id_shape",
        "Report", "check", "check_file", "check_path", "diagram", "to_dot", "to_mermaid",
        "Counterexample", "FuzzRun", "Outcome", "fuzz", "judge", "load_counterexample", "replay",
        "load_target", "tool_result", "Target",
        "FuzzOptions", "ExploreOptions", "EngineEvent", "Started", "Progress", "FindingFound",
        "FindingShrunk", "Finished", "SaveCounterexamples", "ShowProgress", "PrintReport",
        "LiveFinding", "ExchangeChecked",
        "Analysis", "Exploration", "StateSpace", "analyse", "analyse_machine", "coverage_suite", "explore",
        "paths", "state_space",
        "ShapeReport", "shapes_file", "check_log",
        "GroupMonitor", "LOG_COLUMNS", "LogRow", "check_group",
    ],
    toolwire.spark: ["SCHEMA", "arrow_schema", "check_batches", "check_dataframe"],
    toolwire.dask: ["check_bag"],
}  # fmt: skip


@pytest.mark.parametrize("module", list(PUBLIC), ids=lambda m: m.__name__)
def test_all_is_pinned(module: object) -> None:
    assert sorted(module.__all__) == sorted(PUBLIC[module])  # type: ignore[attr-defined]
    for name in module.__all__:  # type: ignore[attr-defined]
        assert hasattr(module, name)


#: Which sibling layers each layer may import.
ALLOWED = {
    "models": set(),
    "machines": {"models"},
    "properties": {"models", "machines"},
    "protocols": {"models", "machines", "properties"},
    "engines": {"models", "machines", "properties", "protocols"},
}


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layers_import_only_downwards(layer: str) -> None:
    for path in (SRC / layer).rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("toolwire."):
                sibling = node.module.split(".")[1]
                if sibling in ALLOWED and sibling != layer:
                    assert sibling in ALLOWED[layer], f"{path.name} imports {node.module}"


@pytest.mark.slow
def test_checking_does_not_import_hypothesis_networkx_or_graphviz() -> None:
    import subprocess
    import sys

    code = (
        "import sys, toolwire; toolwire.check([], 'openai-chat');"
        "print(sorted(m for m in ('hypothesis', 'networkx', 'graphviz') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def _imports(path: Path) -> set[str]:
    """The toolwire modules ``path`` imports, at any depth, except under ``if TYPE_CHECKING``."""
    tree = ast.parse(path.read_text())
    skipped = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for child in node.body
        for inner in ast.walk(child)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("toolwire"):
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("toolwire"))
    return found


def test_no_module_imports_itself_back_through_others() -> None:
    import networkx as nx

    modules = {}
    for path in SRC.rglob("*.py"):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = nx.DiGraph()
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for target in _imports(path):
            if target in modules and target not in (name, package):
                graph.add_edge(name, target)
    # A package's own __init__ re-exporting its modules is not a cycle of concepts.
    cycles = [c for c in nx.simple_cycles(graph) if not any(modules[m].name == "__init__.py" for m in c)]
    assert cycles == []
