"""Mistral chat: the Chat Completions shape with Mistral's id rules, per tokenizer version.

Src: ``mistral-common`` 1.13.1 ``protocol/instruct/validator.py``
(``MistralRequestValidatorV3/V5/V11/V13``); ``mistralai`` 3.7.0
``client/models/toolcall.py``; the stream: ``client/models/completionchunk.py``,
``completionresponsestreamchoice.py``, ``deltamessage.py``, ``functioncall.py``.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = [
    "CHOICE_FIELDS",
    "CHUNK_FIELDS",
    "DEFAULT_INDEX",
    "DELTA_FIELDS",
    "FINISH_TOOL_CALLS",
    "FUNCTION_NAME",
    "MESSAGE_FIELDS",
    "NULL_ID",
    "ROLES",
    "TOOL_CALL_FIELDS",
    "TOOL_CALL_ID",
]

#: MI-1 (tokenizer v3 to v11): every tool call id.
TOOL_CALL_ID: Final = re.compile(r"[a-zA-Z0-9]{9}")
#: MI-3: ``ToolCall.id`` defaults to this sentinel.
NULL_ID: Final = "null"
#: MI-5: function names.
FUNCTION_NAME: Final = re.compile(r"[a-zA-Z0-9_-]{1,64}")
ROLES: Final = ("system", "user", "assistant", "tool")

#: MI-6: the ``finish_reason`` of a choice that ends with calls.
FINISH_TOOL_CALLS: Final = "tool_calls"
#: MI-6: ``ToolCall.index`` defaults to this when a fragment carries none.
DEFAULT_INDEX: Final = 0

#: What the stream monitor reads of ``CompletionChunk``, ``CompletionResponseStreamChoice``,
#: ``DeltaMessage`` and ``ToolCall`` (``FunctionCall``: ``name`` and ``arguments``, both read); the
#: rest carries no tool call (tests/unit/test_vocabulary.py holds these to the pinned SDK).
CHUNK_FIELDS: Final = frozenset({"choices"})
CHOICE_FIELDS: Final = frozenset({"index", "delta", "finish_reason"})
DELTA_FIELDS: Final = frozenset({"tool_calls"})
TOOL_CALL_FIELDS: Final = frozenset({"function", "id", "index"})
#: What the conversation monitor reads of a message (``ChatCompletionRequest.messages``).
MESSAGE_FIELDS: Final = frozenset({"role", "tool_calls", "tool_call_id"})
