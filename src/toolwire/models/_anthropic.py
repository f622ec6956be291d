"""Anthropic Messages: content blocks that carry tool calls, and stream events.

Src: ``anthropic`` 2.12.0 ``types/tool_use_block.py``, ``tool_result_block_param.py``,
``types/raw_message_stream_event.py`` and ``raw_content_block_*_event.py``,
``input_json_delta.py``; https://platform.claude.com/docs/en/build-with-claude/streaming.
"""

from __future__ import annotations

import re
from typing import Any, Final

__all__ = [
    "BLOCK_DELTA",
    "BLOCK_START",
    "BLOCK_STOP",
    "BLOCK_TYPES",
    "DELTA_TYPES",
    "ERROR",
    "INPUT_JSON_DELTA",
    "MESSAGE_DELTA",
    "MESSAGE_START",
    "MESSAGE_STOP",
    "PING",
    "ROLE_ASSISTANT",
    "ROLE_USER",
    "SERVER_TOOL_USE",
    "SERVER_TOOL_USE_ID",
    "STOP_TOOL_USE",
    "TOOL_RESULT",
    "TOOL_USE",
    "TOOL_USE_ID",
    "UNFINISHED_STOP_REASONS",
    "is_server_result",
]

MESSAGE_START: Final = "message_start"
MESSAGE_DELTA: Final = "message_delta"
MESSAGE_STOP: Final = "message_stop"
BLOCK_START: Final = "content_block_start"
BLOCK_DELTA: Final = "content_block_delta"
BLOCK_STOP: Final = "content_block_stop"
PING: Final = "ping"
ERROR: Final = "error"
INPUT_JSON_DELTA: Final = "input_json_delta"
STOP_TOOL_USE: Final = "tool_use"
#: Stop reasons of a message the model did not finish: cut off at ``max_tokens`` or the context
#: window, a server-tool loop paused (``pause_turn``, beta ``compaction``), or a refusal.  A tool
#: block may then be incomplete, and the message need not say ``tool_use``.  ``anthropic`` 2.14.0
#: ``types/stop_reason.py``; https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons.
UNFINISHED_STOP_REASONS: Final = frozenset(
    {"compaction", "max_tokens", "model_context_window_exceeded", "pause_turn", "refusal"}
)
#: Content block types of ``anthropic`` 2.14.0 ``ContentBlock`` and ``BetaContentBlock``; any other
#: type is passed over with a notice.
BLOCK_TYPES: Final = frozenset(
    {
        "advisor_tool_result",
        "bash_code_execution_tool_result",
        "code_execution_tool_result",
        "compaction",
        "container_upload",
        "fallback",
        "mcp_tool_listing",
        "mcp_tool_result",
        "mcp_tool_use",
        "redacted_thinking",
        "server_tool_use",
        "text",
        "text_editor_code_execution_tool_result",
        "thinking",
        "tool_search_tool_result",
        "tool_use",
        "web_fetch_tool_result",
        "web_search_tool_result",
    }
)
#: Delta types of ``RawContentBlockDelta`` and ``BetaRawContentBlockDelta``.
DELTA_TYPES: Final = frozenset(
    {
        "citations_delta",
        "compaction_delta",
        "input_json_delta",
        "signature_delta",
        "text_delta",
        "thinking_delta",
    }
)

ROLE_USER: Final = "user"
ROLE_ASSISTANT: Final = "assistant"
TOOL_USE: Final = "tool_use"
SERVER_TOOL_USE: Final = "server_tool_use"
TOOL_RESULT: Final = "tool_result"

#: AN-1: the pattern the API enforces on ``tool_use.id``.
TOOL_USE_ID: Final = re.compile(r"[a-zA-Z0-9_-]+")
#: AN-1: server tools' ids.
SERVER_TOOL_USE_ID: Final = re.compile(r"srvtoolu_[a-zA-Z0-9_]+")


def is_server_result(block: Any) -> bool:
    """A server tool's ``*_tool_result`` block (it sits in the assistant message).

    >>> is_server_result({"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1"})
    True
    >>> is_server_result({"type": "tool_result", "tool_use_id": "toolu_1"})
    False
    """
    if not isinstance(block, dict):
        return False
    kind = block.get("type")
    return isinstance(kind, str) and kind != TOOL_RESULT and kind.endswith("_tool_result")
