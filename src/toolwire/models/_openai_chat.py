"""OpenAI Chat Completions: the wire shapes that carry tool calls.

Src: openai-openapi ``ChatCompletionMessageToolCall``,
``ChatCompletionRequestToolMessage``, ``ChatCompletionMessageToolCallChunk``;
``openai`` 3.57.0 ``types/chat/chat_completion_chunk.py``, ``chat_completion_message_param.py``.
"""

from __future__ import annotations

from typing import Any, Final

__all__ = [
    "CHAT_TOOL_CALL_ID_MAX",
    "CHOICE_FIELDS",
    "CHUNK_FIELDS",
    "DELTA_FIELDS",
    "FINISH_STOP",
    "FINISH_TOOL_CALLS",
    "FRAGMENT_FIELDS",
    "FUNCTION_FRAGMENT_FIELDS",
    "MESSAGE_FIELDS",
    "MESSAGE_ROLES",
    "MESSAGE_TOOL_CALL_TYPES",
    "NULL_ID_PLACEHOLDER",
    "OBJECT_CHUNK",
    "ROLE_ASSISTANT",
    "ROLE_TOOL",
    "TYPE_CUSTOM",
    "TYPE_FUNCTION",
    "message_tool_calls",
]

#: CC-1: the server rejects longer ``tool_calls[].id`` values (not in the OpenAPI schema).
CHAT_TOOL_CALL_ID_MAX: Final = 40
ROLE_ASSISTANT: Final = "assistant"
ROLE_TOOL: Final = "tool"
FINISH_TOOL_CALLS: Final = "tool_calls"
#: The string some providers put in ``id`` on continuation chunks (CC-6, MI-6).
NULL_ID_PLACEHOLDER: Final = "null"


def message_tool_calls(message: dict[str, Any]) -> list[Any] | None:
    """The ``tool_calls`` of an assistant message, or ``None`` when it has none.

    >>> message_tool_calls({"role": "assistant", "tool_calls": []}) is None
    True
    """
    calls = message.get("tool_calls")
    if message.get("role") != ROLE_ASSISTANT or not isinstance(calls, list) or not calls:
        return None
    return calls


#: A streamed chunk's ``object``, which no body carries.
OBJECT_CHUNK: Final = "chat.completion.chunk"
#: The finish reason of a turn that ended without calling tools.
FINISH_STOP: Final = "stop"
#: ``ChatCompletionMessageCustomToolCall``: ``{id, type: "custom", custom: {name, input}}``.
TYPE_FUNCTION: Final = "function"
TYPE_CUSTOM: Final = "custom"

#: What the stream monitor reads of a ``ChatCompletionChunk``, its ``Choice``, ``ChoiceDelta``,
#: ``ChoiceDeltaToolCall`` and ``ChoiceDeltaToolCallFunction`` (the rest carries no tool call;
#: tests/unit/test_vocabulary.py holds these to the pinned SDK).
CHUNK_FIELDS: Final = frozenset({"choices"})
CHOICE_FIELDS: Final = frozenset({"index", "delta", "finish_reason"})
DELTA_FIELDS: Final = frozenset({"tool_calls"})
FRAGMENT_FIELDS: Final = frozenset({"index", "id", "type", "function"})
FUNCTION_FRAGMENT_FIELDS: Final = frozenset({"name", "arguments"})
#: The roles of ``ChatCompletionMessageParam``'s members: ``tool`` answers, ``assistant`` may call,
#: every other ends a turn of calls.
MESSAGE_ROLES: Final = ("developer", "system", "user", "assistant", ROLE_TOOL, "function")
#: What the conversation monitor reads of a message.
MESSAGE_FIELDS: Final = frozenset({"role", "tool_calls", "tool_call_id"})
#: ``ChatCompletionMessageToolCallUnionParam``: each carries the ``id`` a tool message answers.
MESSAGE_TOOL_CALL_TYPES: Final = (TYPE_FUNCTION, TYPE_CUSTOM)
