"""Issue 38: a rule about a 2025-2026 provider feature that no real recording shows is a warning.

What is known of OpenAI's hosted tool items other than MCP (tool search, custom tools, shell ...)
and of Anthropic's programmatic tool calls comes from SDK types and docs only; a finding about
them warns.  The same finding about a recorded type (a function call, an MCP call) stays an error.
"""

from __future__ import annotations

from pathlib import Path

import toolwire
from helpers.corpus import DATA
from toolwire.models import openai_responses as wire

RECORDED_MCP = DATA / "openai-responses-stream" / "good-mcp-calls-recorded.sse"


def _severities(path: Path, protocol: str) -> tuple[int, list[tuple[str, str]]]:
    report = toolwire.check_file(path, protocol)
    return report.exit_code, [(f.rule, f.severity) for f in report.findings]


def test_a_tool_search_item_done_with_another_id_is_a_warning() -> None:
    path = DATA / "openai-responses-stream" / "rs9c-tool-search-done-changes-id.sse"
    assert _severities(path, "openai-responses-stream") == (0, [("RS-9c", "warning")])


def test_a_function_call_done_with_another_call_id_stays_an_error() -> None:
    path = DATA / "openai-responses-stream" / "rs9c-done-changes-call-id.sse"
    assert _severities(path, "openai-responses-stream") == (1, [("RS-9c", "error")])


def test_a_recorded_mcp_call_done_with_another_id_stays_an_error(tmp_path: Path) -> None:
    lines = RECORDED_MCP.read_text().splitlines(keepends=True)
    done = next(i for i, line in enumerate(lines) if '"sequence_number":11,' in line)
    lines[done] = lines[done].replace("mcp_68be4503", "mcp_00000000")
    changed = tmp_path / "mcp-done-changes-id.sse"
    changed.write_text("".join(lines))
    assert _severities(changed, "openai-responses-stream") == (1, [("RS-9c", "error")])


def test_a_recorded_mcp_call_left_open_at_completed_stays_an_error(tmp_path: Path) -> None:
    text = RECORDED_MCP.read_text()
    events = text.split("\n\n")
    done = next(i for i, event in enumerate(events) if '"sequence_number":11,' in event)
    changed = tmp_path / "mcp-left-open.sse"
    changed.write_text("\n\n".join(events[:done] + events[done + 1 :]))
    assert _severities(changed, "openai-responses-stream") == (1, [("RS-9d", "error")])


def test_the_recorded_types_are_modelled_types() -> None:
    assert wire.RECORDED_STREAM_ITEM_TYPES < wire.OUTPUT_ITEM_TYPES


def test_a_programmatic_call_streaming_fragments_after_its_whole_input_is_a_warning() -> None:
    path = DATA / "anthropic-stream" / "an10d-whole-input-then-deltas.sse"
    assert _severities(path, "anthropic-stream") == (0, [("AN-10d", "warning")])


def test_a_direct_call_streaming_fragments_after_its_whole_input_stays_an_error(tmp_path: Path) -> None:
    text = (DATA / "anthropic-stream" / "an10d-whole-input-then-deltas.sse").read_text()
    start = text.index('"caller":{"type":"code_execution_20250825"')
    end = text.index("}", start) + 1
    direct = tmp_path / "direct-whole-then-deltas.sse"
    direct.write_text(text[:start] + '"caller":{"type":"direct"}' + text[end:])
    assert _severities(direct, "anthropic-stream") == (1, [("AN-10d", "error")])
