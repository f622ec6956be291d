"""Lifecycle machines, authored with python-statemachine: the source of truth.

Engines never ``send`` to these classes on hot paths; they run the tables that
:func:`compile_machine` builds from them.
"""

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
from toolwire.machines._table import ILLEGAL, Table, compile_machine

#: Every machine toolwire ships, by class name.
MACHINES: dict[str, type[CheckingMachine]] = {
    machine.__name__: machine
    for machine in (
        ResponseStream,
        FunctionCallItem,
        OutputItem,
        FunctionCallPairing,
        ChatToolCallStream,
        ChatConversation,
        MessageStream,
        ContentBlock,
        AnthropicConversation,
        ConverseStream,
        ConverseConversation,
        GeminiContents,
        MistralConversation,
        StreamToolCall,
        UIToolPart,
        JsonRpcRequest,
        ResponseBody,
        FullStreamToolCall,
        FullStream,
        ModelConversation,
    )
}

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
