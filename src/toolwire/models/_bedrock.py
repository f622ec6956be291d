"""AWS Bedrock Converse: content blocks that carry tool calls, and ConverseStream events.

Src: ``botocore`` 1.44.5 ``data/bedrock-runtime/2023-09-30/service-2.json``
(``ToolUseBlock``, ``ToolResultBlock``, ``ToolUseId``, ``ToolName``,
``ConverseStreamOutput``).
"""

from __future__ import annotations

import re
from typing import Final

__all__ = [
    "BLOCK_DELTA",
    "BLOCK_START",
    "BLOCK_STOP",
    "EXCEPTIONS",
    "MESSAGE_START",
    "MESSAGE_STOP",
    "METADATA",
    "ROLE_ASSISTANT",
    "ROLE_USER",
    "STOP_TOOL_USE",
    "TOOL_NAME",
    "TOOL_NAME_MAX",
    "TOOL_RESULT",
    "TOOL_USE",
    "TOOL_USE_ID",
    "TOOL_USE_ID_MAX",
]

MESSAGE_START: Final = "messageStart"
BLOCK_START: Final = "contentBlockStart"
BLOCK_DELTA: Final = "contentBlockDelta"
BLOCK_STOP: Final = "contentBlockStop"
MESSAGE_STOP: Final = "messageStop"
METADATA: Final = "metadata"
#: ``ConverseStreamOutput`` members that end the stream with an error.
EXCEPTIONS: Final = frozenset(
    {
        "internalServerException",
        "modelStreamErrorException",
        "validationException",
        "throttlingException",
        "serviceUnavailableException",
    }
)
STOP_TOOL_USE: Final = "tool_use"

ROLE_USER: Final = "user"
ROLE_ASSISTANT: Final = "assistant"
TOOL_USE: Final = "toolUse"
TOOL_RESULT: Final = "toolResult"

#: BR-1: shape ``ToolUseId``: 1..64 characters of this pattern.
TOOL_USE_ID: Final = re.compile(r"[a-zA-Z0-9_.:-]+")
TOOL_USE_ID_MAX: Final = 64
#: BR-1: shape ``ToolName``: 1..64 characters of this pattern.
TOOL_NAME: Final = re.compile(r"[a-zA-Z0-9_-]+")
TOOL_NAME_MAX: Final = 64
