"""The public surface: pinned ``__all__`` per package, and the layers' one-way imports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import toolwire
import toolwire.engines
import toolwire.machines
import toolwire.models
import toolwire.properties

SRC = Path(toolwire.__file__).parent

PUBLIC = {
    toolwire: [
        "PROTOCOLS", "RULES", "DefinitionError", "Finding", "Problem", "Report", "Rule",
        "ToolwireError", "UsageError", "__version__", "check", "check_file", "check_path", "rules_for",
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
        "StreamToolCall", "UIToolPart",
        "FullStream", "FullStreamToolCall", "ModelConversation",
        "ChatConversation", "ChatToolCallStream", "CheckingMachine",
        "FunctionCallItem", "FunctionCallPairing", "OutputItem", "ResponseBody", "ResponseStream", "Table",
        "compile_machine",
    ],
    toolwire.properties: [
        "OPENAI_RESPONSES", "OPEN_RESPONSES", "PROTOCOLS", "RULES", "Call",
        "ChatConversationMonitor", "ChatStreamMonitor", "Finding", "Kind", "Monitor", "Notice",
        "Protocol", "ResponsesInputMonitor", "ResponsesStreamMonitor", "Rule", "Severity",
        "StreamProfile", "Turn", "Violations", "check_round_trip", "get_protocol", "rules_for",
        "BREAKS", "GENERATED", "MUTATORS", "QUIRKS", "Quirk", "mutate", "mutated", "quirks_for", "traces",
        "RELATIONS", "Broken", "Ledger", "intact", "ledger", "relate",
        "EXPLORED", "Bounds", "Space", "space_for",
        "Family", "Generator", "LaneSpace", "Lanes", "Plan", "Sites", "envelope_ids", "id_shapes", "load",
        "machines", "register", "unregister",
    ],
    toolwire.engines: [
        "IdVerdict", "Lifecycle", "Problem", "check_id", "id_shape",
        "Report", "check", "check_file", "check_path", "lifecycle", "to_dot", "to_mermaid",
        "Counterexample", "FuzzRun", "Outcome", "fuzz", "judge", "load_counterexample", "replay",
        "load_target", "tool_result",
        "Analysis", "Exploration", "StateSpace", "analyse", "analyse_machine", "coverage_suite", "explore",
        "paths", "state_space",
        "ShapeReport", "shapes_file",
    ],
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
    "engines": {"models", "machines", "properties"},
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


def test_checking_does_not_import_hypothesis_networkx_or_graphviz() -> None:
    import subprocess
    import sys

    code = (
        "import sys, toolwire; toolwire.check([], 'openai-chat');"
        "print(sorted(m for m in ('hypothesis', 'networkx', 'graphviz') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
