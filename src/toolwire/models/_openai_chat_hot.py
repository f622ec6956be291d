"""OpenAI Chat Completions: the events its ``check`` hot path decodes typed (``msgspec.Struct`` classes).

Imported only when a trace is long enough to decode typed (``Monitor.load_hot``), so that a
short check never imports msgspec.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import msgspec

from toolwire.models._typed import Int64

__all__ = ["ArgumentsChunk", "RequestBody", "RequestMessage"]


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
