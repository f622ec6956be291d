"""Lifecycle machines, authored with python-statemachine: the source of truth.

Engines never ``send`` to these classes on hot paths; they run the tables that
:func:`compile_machine` builds from them.  Those tables ship compiled in
``_compiled.py`` (``make tables`` regenerates it; a test fails on drift), so the
names below are :class:`~toolwire.machines._handle.Handle` objects that import
python-statemachine only when a class is really used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolwire.machines._handle import Handle
from toolwire.machines._table import ILLEGAL, Table, compile_machine

if TYPE_CHECKING:
    from toolwire.machines._aisdk import (
        FullStream,
        FullStreamToolCall,
        ModelConversation,
        StreamToolCall,
        UIToolPart,
    )
    from toolwire.machines._anthropic import AnthropicConversation, MessageStream
    from toolwire.machines._base import CheckingMachine
    from toolwire.machines._bedrock import ConverseConversation, ConverseStream
    from toolwire.machines._blocks import ContentBlock
    from toolwire.machines._body import ResponseBody
    from toolwire.machines._gemini import GeminiContents
    from toolwire.machines._mcp import JsonRpcRequest
    from toolwire.machines._mistral import MistralConversation
    from toolwire.machines._openai_chat import ChatConversation, ChatToolCallStream
    from toolwire.machines._openai_responses import (
        FunctionCallItem,
        FunctionCallPairing,
        OutputItem,
        ResponseStream,
    )
    from toolwire.machines._otel import GenAIConversation

    #: Every machine toolwire ships, by class name.
    MACHINES: dict[str, type[CheckingMachine]]

#: The module of every machine toolwire ships, by class name (``MACHINES`` imports them all).
HOMES: dict[str, str] = {
    "ResponseStream": "_openai_responses",
    "FunctionCallItem": "_openai_responses",
    "OutputItem": "_openai_responses",
    "FunctionCallPairing": "_openai_responses",
    "ChatToolCallStream": "_openai_chat",
    "ChatConversation": "_openai_chat",
    "MessageStream": "_anthropic",
    "ContentBlock": "_blocks",
    "AnthropicConversation": "_anthropic",
    "ConverseStream": "_bedrock",
    "ConverseConversation": "_bedrock",
    "GeminiContents": "_gemini",
    "MistralConversation": "_mistral",
    "StreamToolCall": "_aisdk",
    "UIToolPart": "_aisdk",
    "JsonRpcRequest": "_mcp",
    "ResponseBody": "_body",
    "FullStreamToolCall": "_aisdk",
    "FullStream": "_aisdk",
    "ModelConversation": "_aisdk",
    "GenAIConversation": "_otel",
}


def __getattr__(name: str) -> Any:
    if name in HOMES:
        handle = globals()[name] = Handle(name, f"{__name__}.{HOMES[name]}")
        return handle
    if name == "MACHINES":
        found = globals()["MACHINES"] = {machine: __getattr__(machine).resolve() for machine in HOMES}
        return found
    if name == "CheckingMachine":
        from toolwire.machines._base import CheckingMachine

        return CheckingMachine
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ILLEGAL",
    "MACHINES",
    "AnthropicConversation",
    "ChatConversation",
    "ChatToolCallStream",
    "CheckingMachine",
    "ContentBlock",
    "ConverseConversation",
    "ConverseStream",
    "FullStream",
    "FullStreamToolCall",
    "FunctionCallItem",
    "FunctionCallPairing",
    "GeminiContents",
    "GenAIConversation",
    "JsonRpcRequest",
    "MessageStream",
    "MistralConversation",
    "ModelConversation",
    "OutputItem",
    "ResponseBody",
    "ResponseStream",
    "StreamToolCall",
    "Table",
    "UIToolPart",
    "compile_machine",
]
