"""The protocols toolwire checks: their stable names, rules and monitors."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from toolwire.errors import DefinitionError, UsageError
from toolwire.properties import _aisdk as aisdk
from toolwire.properties import _anthropic as anthropic
from toolwire.properties import _bedrock as bedrock
from toolwire.properties import _gemini as gemini
from toolwire.properties import _mcp as mcp
from toolwire.properties import _mistral as mistral
from toolwire.properties import _openai_chat as chat
from toolwire.properties import _openai_responses as responses
from toolwire.properties._monitor import Monitor
from toolwire.properties._openai_chat_rules import RULES as CHAT_RULES
from toolwire.properties._openai_responses_rules import RULES as RESPONSES_RULES
from toolwire.properties._roundtrip import RULES as ROUND_TRIP_RULES
from toolwire.properties._rule import Rule

__all__ = ["PROTOCOLS", "RULES", "Protocol", "get_protocol", "rules_for"]

Shape = Literal["stream", "conversation"]


@dataclass(frozen=True, slots=True)
class Protocol:
    """One wire protocol as ``toolwire check`` reads it.

    ``container`` is the request-body key that holds a conversation's list
    (``messages`` or ``input``); ``follows`` names the stream protocols whose
    calls a request of this protocol replays (``check --after``).
    ``profiles`` are named variants (tokenizer or SDK versions); ``monitor``
    is the default one, listed first.
    """

    name: str
    summary: str
    shape: Shape
    monitor: Callable[[], Monitor]
    container: str | None = None
    follows: tuple[str, ...] = ()
    profiles: Mapping[str, Callable[[], Monitor]] = field(default_factory=dict)
    #: A minimal valid trace in which ``id`` is a call's id and its answer's: ``toolwire ids`` checks it.
    probe: Callable[[str], Any] | None = None

    def make(self, profile: str | None = None) -> Monitor:
        """A fresh monitor, of ``profile`` when given; a :class:`UsageError` lists the profiles."""
        if profile is None:
            return self.monitor()
        if profile not in self.profiles:
            choices = ", ".join(self.profiles) or "none"
            raise UsageError(f"{self.name} has no profile {profile!r}; its profiles: {choices}")
        return self.profiles[profile]()


def _chat_probe(call_id: str) -> dict[str, Any]:
    call = {"id": call_id, "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}
    return {
        "messages": [
            {"role": "user", "content": "Weather?"},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": call_id, "content": "15 degrees"},
        ]
    }


def _responses_probe(call_id: str) -> dict[str, Any]:
    return {
        "input": [
            {"role": "user", "content": "Weather?"},
            {"type": "function_call", "call_id": call_id, "name": "get_weather", "arguments": "{}"},
            {"type": "function_call_output", "call_id": call_id, "output": "15 degrees"},
        ]
    }


def _anthropic_probe(call_id: str) -> dict[str, Any]:
    return {
        "messages": [
            {"role": "user", "content": "Weather?"},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": call_id, "name": "get_weather", "input": {}}],
            },
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call_id, "content": "15"}]},
        ]
    }


def _bedrock_probe(call_id: str) -> dict[str, Any]:
    return {
        "messages": [
            {"role": "user", "content": [{"text": "Weather?"}]},
            {
                "role": "assistant",
                "content": [{"toolUse": {"toolUseId": call_id, "name": "get_weather", "input": {}}}],
            },
            {
                "role": "user",
                "content": [{"toolResult": {"toolUseId": call_id, "content": [{"text": "15"}]}}],
            },
        ]
    }


def _gemini_probe(call_id: str) -> dict[str, Any]:
    return {
        "contents": [
            {"role": "user", "parts": [{"text": "Weather?"}]},
            {
                "role": "model",
                "parts": [{"functionCall": {"id": call_id, "name": "get_weather", "args": {}}}],
            },
            {
                "role": "user",
                "parts": [{"functionResponse": {"id": call_id, "name": "get_weather", "response": {}}}],
            },
        ]
    }


def _aisdk_probe(call_id: str) -> list[dict[str, Any]]:
    return [
        {"type": "tool-input-start", "id": call_id, "toolName": "get_weather"},
        {"type": "tool-input-end", "id": call_id},
        {"type": "tool-call", "toolCallId": call_id, "toolName": "get_weather", "input": "{}"},
    ]


def _mcp_probe(call_id: str) -> list[dict[str, Any]]:
    call = {"name": "get_weather", "arguments": {}}
    return [
        {"jsonrpc": "2.0", "id": call_id, "method": "tools/call", "params": call},
        {"jsonrpc": "2.0", "id": call_id, "result": {"content": []}},
    ]


PROTOCOLS: Final[dict[str, Protocol]] = {
    p.name: p
    for p in (
        Protocol(
            "openai-chat",
            "OpenAI Chat Completions request: the messages list (CC-1 to CC-5)",
            "conversation",
            chat.ConversationMonitor,
            container="messages",
            follows=("openai-chat-stream",),
            probe=_chat_probe,
        ),
        Protocol(
            "openai-chat-stream",
            "OpenAI Chat Completions stream: chat.completion.chunk deltas (CC-6)",
            "stream",
            chat.StreamMonitor,
        ),
        Protocol(
            "openai-responses",
            "OpenAI Responses request: the input items (RS-1 to RS-5)",
            "conversation",
            responses.InputMonitor,
            container="input",
            follows=("openai-responses-stream", "open-responses-stream"),
            probe=_responses_probe,
        ),
        Protocol(
            "openai-responses-stream",
            "OpenAI Responses stream events (RS-1, RS-7 to RS-9)",
            "stream",
            lambda: responses.StreamMonitor(responses.OPENAI_RESPONSES),
        ),
        Protocol(
            "open-responses-stream",
            "Open Responses stream events (RS rules with the OR-1 to OR-8 profile)",
            "stream",
            lambda: responses.StreamMonitor(responses.OPEN_RESPONSES),
        ),
        Protocol(
            anthropic.MESSAGES,
            "Anthropic Messages request: tool_use / tool_result blocks in messages (AN-1 to AN-7)",
            "conversation",
            anthropic.ConversationMonitor,
            container="messages",
            follows=(anthropic.STREAM,),
            probe=_anthropic_probe,
        ),
        Protocol(
            anthropic.STREAM,
            "Anthropic Messages stream: message and content-block events (AN-1, AN-2, AN-10)",
            "stream",
            anthropic.StreamMonitor,
        ),
        Protocol(
            bedrock.CONVERSE,
            "AWS Bedrock Converse request: toolUse / toolResult blocks in messages (BR-1 to BR-4)",
            "conversation",
            bedrock.ConversationMonitor,
            container="messages",
            follows=(bedrock.STREAM,),
            probe=_bedrock_probe,
        ),
        Protocol(
            bedrock.STREAM,
            "AWS Bedrock ConverseStream events (BR-1, BR-9)",
            "stream",
            bedrock.StreamMonitor,
        ),
        Protocol(
            gemini.CONTENTS,
            "Google Gemini request contents, with Google ADK ids (GM-1 to GM-5, GM-7, ADK-1, ADK-2)",
            "conversation",
            gemini.ContentsMonitor,
            container="contents",
            follows=(gemini.STREAM,),
            probe=_gemini_probe,
        ),
        Protocol(
            gemini.STREAM,
            "Google Gemini streamGenerateContent chunks (GM-7)",
            "stream",
            gemini.StreamMonitor,
        ),
        Protocol(
            mistral.CHAT,
            "Mistral chat request: Chat Completions shape, Mistral's id rules (MI-1 to MI-5); "
            "profiles: tokenizer v11 (default, strictest), v3, v13",
            "conversation",
            mistral.ConversationMonitor,
            container="messages",
            follows=("openai-chat-stream",),
            profiles={
                name: functools.partial(mistral.ConversationMonitor, profile)
                for name, profile in mistral.PROFILES.items()
            },
            probe=_chat_probe,
        ),
        Protocol(
            aisdk.STREAM,
            "Vercel AI SDK provider stream parts (VS-1 to VS-5); profiles: v4 (default), v3, v2",
            "stream",
            aisdk.StreamMonitor,
            profiles={version: functools.partial(aisdk.StreamMonitor, version) for version in aisdk.PROFILES},
            probe=_aisdk_probe,
        ),
        Protocol(
            aisdk.UI_STREAM,
            "Vercel AI SDK UI message stream chunks (VU-1 to VU-4)",
            "stream",
            aisdk.UIStreamMonitor,
        ),
        Protocol(
            mcp.MCP,
            "MCP session: JSON-RPC requests and responses, tools/call (MCP-1 to MCP-3)",
            "stream",
            mcp.SessionMonitor,
            probe=_mcp_probe,
        ),
    )
}


def _book(*groups: tuple[Rule, ...]) -> dict[str, Rule]:
    book: dict[str, Rule] = {}
    for rule in (rule for group in groups for rule in group):
        if rule.id in book:
            raise DefinitionError(f"rule {rule.id} is declared twice")
        unknown = set(rule.protocols) - set(PROTOCOLS)
        if unknown:
            raise DefinitionError(f"{rule.id} names unknown protocols {sorted(unknown)}")
        book[rule.id] = rule
    return book


#: Every rule toolwire checks, by id.
RULES: Final = _book(
    CHAT_RULES,
    RESPONSES_RULES,
    anthropic.RULES,
    gemini.RULES,
    aisdk.RULES,
    mistral.RULES,
    bedrock.RULES,
    mcp.RULES,
    ROUND_TRIP_RULES,
)


def get_protocol(name: str) -> Protocol:
    """The protocol called ``name``; a :class:`UsageError` lists the names there are."""
    try:
        return PROTOCOLS[name]
    except KeyError:
        raise UsageError(f"unknown protocol {name!r}; choose one of: {', '.join(PROTOCOLS)}") from None


def rules_for(protocol: str | None = None) -> list[Rule]:
    """The rules of ``protocol`` (every rule when ``None``), in catalogue order."""
    if protocol is not None:
        get_protocol(protocol)
    return [rule for rule in RULES.values() if protocol is None or protocol in rule.protocols]
