"""OpenAI Chat Completions: the wire shapes that carry tool calls.

Src: openai-openapi ``ChatCompletionMessageToolCall``,
``ChatCompletionRequestToolMessage``, ``ChatCompletionMessageToolCallChunk``;
``openai`` 3.54.0 ``types/chat/chat_completion_chunk.py``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, Literal, NotRequired, TypedDict

import msgspec

from toolwire.models._wire import Int64

__all__ = [
    "CHAT_TOOL_CALL_ID_MAX",
    "FINISH_STOP",
    "FINISH_TOOL_CALLS",
    "NULL_ID_PLACEHOLDER",
    "OBJECT_CHUNK",
    "OBJECT_COMPLETION",
    "ROLE_ASSISTANT",
    "ROLE_TOOL",
    "TYPE_CUSTOM",
    "TYPE_FUNCTION",
    "ArgumentsChunk",
    "ChatFunction",
    "ChatToolCall",
    "ChatToolCallChunk",
    "ChatToolMessage",
    "RequestBody",
    "RequestMessage",
    "message_tool_calls",
]

#: CC-1: the server rejects longer ``tool_calls[].id`` values (not in the OpenAPI schema).
CHAT_TOOL_CALL_ID_MAX: Final = 40
ROLE_ASSISTANT: Final = "assistant"
ROLE_TOOL: Final = "tool"
FINISH_TOOL_CALLS: Final = "tool_calls"
#: The string some providers put in ``id`` on continuation chunks (CC-6, MI-6).
NULL_ID_PLACEHOLDER: Final = "null"


class ChatFunction(TypedDict):
    name: str
    arguments: str


class ChatToolCall(TypedDict):
    """``ChatCompletionMessageToolCall``: ``id``, ``type`` and ``function`` are required."""

    id: str
    type: str
    function: ChatFunction


class ChatToolMessage(TypedDict):
    """``ChatCompletionRequestToolMessage``: all three fields are required."""

    role: str
    tool_call_id: str
    content: Any


class ChatToolCallChunk(TypedDict):
    """``ChatCompletionMessageToolCallChunk``: only ``index`` is required."""

    index: int
    id: NotRequired[str | None]
    type: NotRequired[str | None]
    function: NotRequired[dict[str, Any] | None]


def message_tool_calls(message: dict[str, Any]) -> list[Any] | None:
    """The ``tool_calls`` of an assistant message, or ``None`` when it has none.

    >>> message_tool_calls({"role": "assistant", "tool_calls": []}) is None
    True
    """
    calls = message.get("tool_calls")
    if message.get("role") != ROLE_ASSISTANT or not isinstance(calls, list) or not calls:
        return None
    return calls


#: A response body's ``object`` (``openai`` 3.54.0 ``types/chat/chat_completion.py``).
OBJECT_COMPLETION: Final = "chat.completion"
#: A streamed chunk's ``object``, which no body carries.
OBJECT_CHUNK: Final = "chat.completion.chunk"
#: The finish reason of a turn that ended without calling tools.
FINISH_STOP: Final = "stop"
#: ``ChatCompletionMessageCustomToolCall``: ``{id, type: "custom", custom: {name, input}}``.
TYPE_FUNCTION: Final = "function"
TYPE_CUSTOM: Final = "custom"


class _Arguments(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    arguments: str


class _Continuation(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """A tool_calls fragment that only carries more arguments (no id, name or type)."""

    index: Int64
    function: _Arguments


class _ContinuationDelta(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    tool_calls: list[_Continuation]
    content: None = None


class _ContinuationChoice(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    index: Int64
    delta: _ContinuationDelta
    logprobs: None = None
    finish_reason: None = None


class ArgumentsChunk(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, gc=False):
    """A ``chat.completion.chunk`` that only streams more arguments, decoded typed for
    ``toolwire check``'s hot path.  Any other chunk (an unknown field, an id, a finish_reason)
    is read as a plain dict."""

    id: str
    object: Literal["chat.completion.chunk"]
    created: Int64
    model: str
    choices: list[_ContinuationChoice]
    system_fingerprint: str | None = None
    service_tier: str | None = None
    usage: None = None
    obfuscation: str | None = None


class _RequestFunction(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    name: str
    arguments: str


class _RequestCall(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    id: str
    type: str
    function: _RequestFunction


class RequestMessage(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True, gc=False):
    """A request message of the usual shapes, decoded typed for ``toolwire check``'s hot path.

    Only ``role``, ``tool_call_id`` and the calls' fields are read; ``content`` and ``name`` are
    ``Any`` so that msgspec still validates them as orjson does (UTF-8, ``1e999``), where a
    skipped field would not be.  ``plain`` reads one as a dict with its null fields left out,
    which the conversation rules read alike.
    """

    role: str
    content: Any = None
    name: Any = None
    tool_calls: list[_RequestCall] | None = None
    tool_call_id: str | None = None


class RequestBody(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """A request body of the usual fields, its messages typed (see :class:`RequestMessage`).

    A body with any other field, or any message of another shape, is read as a plain dict.
    Its ``Any`` fields nest freely, so the reader reads it typed only when it cannot nest
    deeper than orjson reads (see ``toolwire.models.typed``).
    """

    nests_freely: ClassVar[bool] = True

    model: Any
    messages: list[RequestMessage]
    tools: Any = None
    tool_choice: Any = None
    parallel_tool_calls: Any = None
    temperature: Any = None
    max_tokens: Any = None
    max_completion_tokens: Any = None
    stream: Any = None
