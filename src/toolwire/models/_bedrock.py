"""AWS Bedrock Converse: content blocks that carry tool calls, and ConverseStream events.

Src: ``botocore`` 1.44.8 ``data/bedrock-runtime/2023-09-30/service-2.json``
(``ToolUseBlock``, ``ToolResultBlock``, ``ToolUseId``, ``ToolName``,
``ConverseStreamOutput``, ``ContentBlockStart``, ``ContentBlockDelta``, ``ContentBlock``,
``ToolUseType``).
"""

from __future__ import annotations

import re
from typing import Final

__all__ = [
    "BLOCK_DELTA",
    "BLOCK_START",
    "BLOCK_STOP",
    "CONTENT_BLOCKS",
    "DELTA_MEMBERS",
    "EXCEPTIONS",
    "MESSAGE_START",
    "MESSAGE_STOP",
    "METADATA",
    "ROLE_ASSISTANT",
    "ROLE_USER",
    "START_MEMBERS",
    "STOP_TOOL_USE",
    "STREAM_EVENTS",
    "TOOL_NAME",
    "TOOL_NAME_MAX",
    "TOOL_RESULT",
    "TOOL_RESULT_FIELDS",
    "TOOL_USE",
    "TOOL_USE_FIELDS",
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

#: The members of ``ConverseStreamOutput``: the stream events the monitor knows.
STREAM_EVENTS: Final = (
    frozenset({MESSAGE_START, BLOCK_START, BLOCK_DELTA, BLOCK_STOP, MESSAGE_STOP, METADATA}) | EXCEPTIONS
)
#: The members of ``ContentBlockStart``: a ``toolUse`` opens a call (a server tool's when it carries
#: ``type``), the others open a block without one.
START_MEMBERS: Final = frozenset({TOOL_USE, TOOL_RESULT, "image"})
#: The members of ``ContentBlockDelta``: a ``toolUse`` delta streams a call's input.
DELTA_MEMBERS: Final = frozenset({"text", TOOL_USE, TOOL_RESULT, "reasoningContent", "citation", "image"})
#: The members of ``ContentBlock`` (a message's content): ``toolUse`` and ``toolResult`` pair, the
#: others carry no call.
CONTENT_BLOCKS: Final = frozenset(
    {
        "text",
        "image",
        "document",
        "video",
        "audio",
        TOOL_USE,
        TOOL_RESULT,
        "guardContent",
        "cachePoint",
        "reasoningContent",
        "citationsContent",
        "searchResult",
        "toolAddition",
        "toolRemoval",
    }
)
#: What the monitors read of ``ToolUseBlock`` (and ``ToolUseBlockStart``) and ``ToolResultBlock``
#: (and ``ToolResultBlockStart``).  A ``type`` (``ToolUseType``: ``server_tool_use``) marks a
#: system tool's call and its result, which Bedrock runs and answers in the same message: they
#: open no call for the client to answer.
TOOL_USE_FIELDS: Final = frozenset({"toolUseId", "name", "input", "type"})
TOOL_RESULT_FIELDS: Final = frozenset({"toolUseId", "type"})
