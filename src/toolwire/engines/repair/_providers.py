"""Provider profiles: the stricter providers behind a shared wire, each rule with its recorded
rejection and where it was read.

A rule either narrows the ids a provider takes (the repairer remaps others), or is a rule of the
wire's own rule book that this provider is recorded enforcing (``same_as``: ``check`` already says
it, and the repairer's output already keeps it).  A rule with no recorded error text is a warning.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal

from toolwire.errors import UsageError
from toolwire.models import mistral

__all__ = ["PROVIDERS", "Provider", "ProviderRule", "lint", "provider_for"]


@dataclass(frozen=True, slots=True)
class ProviderRule:
    """One provider's rule: its id, statement, source and the error text recorded for it."""

    id: str
    statement: str
    source: str
    error: str | None
    severity: Literal["error", "warning"]
    #: The wire's rule this one coincides with (``check`` reports it), or None.
    same_as: str | None = None
    #: For id rules: whether the provider takes an id.
    accepts: Callable[[str], bool] | None = None


@dataclass(frozen=True, slots=True)
class Provider:
    """A provider reached over ``wire``, with the rules it adds to the wire's."""

    name: str
    wire: tuple[str, ...]
    rules: tuple[ProviderRule, ...]

    def accepts(self, value: str) -> bool:
        """Whether every id rule of this provider takes ``value``."""
        return all(r.accepts(value) for r in self.rules if r.accepts is not None)


_CC4_DEEPSEEK = ProviderRule(
    "DS-1",
    "Every assistant tool_calls id is answered by a tool message before the next non-tool message.",
    "https://github.com/TurixAI/TuriX-CUA/issues/15; https://github.com/NousResearch/hermes-agent/issues/56980",
    "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
    "'tool_call_id'. (insufficient tool messages following tool_calls message)",
    "error",
    same_as="CC-4",
)
_CC2_DEEPSEEK = ProviderRule(
    "DS-2",
    "Every tool message answers a preceding assistant message with tool_calls.",
    "https://github.com/itmisx/deepx-code/issues/94; https://github.com/FoundationAgents/OpenManus/issues/23",
    "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
    "error",
    same_as="CC-2",
)
_EMPTY_ARRAY = ProviderRule(
    "DS-3",
    "An assistant message carries no empty tool_calls array (the key is left out instead).",
    "https://github.com/NousResearch/hermes-agent/issues/74101; https://github.com/NousResearch/hermes-agent/pull/59110",
    "Invalid 'messages[N].tool_calls': empty array. Expected an array with minimum length 1, "
    "but got an empty array instead.",
    "error",
)
_MISSING_ID_DEEPSEEK = ProviderRule(
    "DS-4",
    "Every tool call carries an id.",
    "https://github.com/esengine/DeepSeek-Reasonix/pull/713",
    "failed to deserialize the json body into the target type: messages[n]: missing field id",
    "error",
    same_as="CC-1",
)
_EMPTY_ID = ProviderRule(
    "KM-2",
    "Every tool_call_id and tool call id is a non-empty string.",
    "https://github.com/NousResearch/hermes-agent/issues/78071 "
    "(reported for DeepSeek and Kimi; no error text recorded)",
    None,
    "warning",
    accepts=bool,
)
_CC4_MOONSHOT = ProviderRule(
    "KM-1",
    "Every assistant tool_calls id is answered by a tool message before the next non-tool message.",
    "https://github.com/MoonshotAI/kimi-cli/issues/1977; https://github.com/MoonshotAI/kimi-cli/issues/2405",
    "an assistant message with 'tool_calls' must be followed by tool messages responding to each "
    "'tool_call_id'. The following tool_call_ids did not have response messages: Shell:58",
    "error",
    same_as="CC-4",
)
_ADJACENT_MOONSHOT = ProviderRule(
    "KM-3",
    "Each tool message follows its own assistant message (a global set of called ids is not enough).",
    "https://github.com/NousResearch/hermes-agent/issues/24328, PR #24405 (no error text recorded)",
    None,
    "warning",
    same_as="CC-3",
)
_MISTRAL_ID = ProviderRule(
    "MS-1",
    "Every tool_calls[].id and tool_call_id matches ^[a-zA-Z0-9]{9}$ (tokenizers v3 to v11).",
    "mistral-common 1.13.1 validator.py; https://github.com/langchain-ai/langchain/pull/24668; "
    "https://github.com/nearai/ironclaw/issues/1241",
    "Tool call id was {id} but must be a-z, A-Z, 0-9, with a length of 9.",
    "error",
    same_as="MI-1",
    accepts=lambda v: bool(mistral.TOOL_CALL_ID.fullmatch(v)),
)
_MISSING_TOOL_CALL_ID_GROQ = ProviderRule(
    "GQ-1",
    "Every tool message carries a tool_call_id.",
    "https://github.com/hackclub/ai/issues/22 (a proxy in front of Groq; the text is the upstream's)",
    "'messages.3' : for 'role:tool' the following must be satisfied[('messages.3.tool_call_id' : "
    "property 'tool_call_id' is missing)]",
    "error",
    same_as="CC-3",
)
_OPENAI_MISSING_TOOL_CALL_ID = ProviderRule(
    "OA-1",
    "Every tool message carries a tool_call_id.",
    "https://github.com/MadcowD/ell/issues/325",
    "Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'.",
    "error",
    same_as="CC-3",
)
_OPENROUTER_PASSES_ON = ProviderRule(
    "OR-P1",
    "OpenRouter passes the upstream's 400 on as 'Provider returned error' with metadata.raw: the "
    "rules are the routed provider's (OpenAI's, seen here).",
    "https://github.com/ymichael/open-codex/issues/5; https://github.com/cline/cline/issues/269",
    "Provider returned error",
    "error",
    same_as="CC-3",
)
_AZURE_ORPHAN = ProviderRule(
    "AZ-1",
    "Every tool message answers a preceding assistant message with tool_calls.",
    "https://github.com/Nikunj2003/LLaMa-MCP-Streamlit/issues/1",
    "Invalid parameter: messages with role 'tool' must be a response to a preceeding message "
    "with 'tool_calls'.",
    "error",
    same_as="CC-2",
)
_AZURE_TYPE = ProviderRule(
    "AZ-2",
    "Every assistant tool call carries type 'function' (Azure AI inference answers 424).",
    "https://github.com/langchain-ai/langchain-azure/issues/35",
    "Missing required parameter: 'messages[2].tool_calls[0].type'.",
    "error",
)

PROVIDERS: Final[dict[str, Provider]] = {
    "openai": Provider("openai", ("openai-chat",), (_OPENAI_MISSING_TOOL_CALL_ID, _EMPTY_ARRAY)),
    "azure": Provider("azure", ("openai-chat",), (_AZURE_ORPHAN, _AZURE_TYPE)),
    "deepseek": Provider(
        "deepseek",
        ("openai-chat",),
        (_CC4_DEEPSEEK, _CC2_DEEPSEEK, _EMPTY_ARRAY, _MISSING_ID_DEEPSEEK, _EMPTY_ID),
    ),
    "moonshot": Provider("moonshot", ("openai-chat",), (_CC4_MOONSHOT, _ADJACENT_MOONSHOT, _EMPTY_ID)),
    "mistral": Provider("mistral", ("openai-chat", "mistral-chat"), (_MISTRAL_ID,)),
    "groq": Provider("groq", ("openai-chat",), (_MISSING_TOOL_CALL_ID_GROQ,)),
    "openrouter": Provider("openrouter", ("openai-chat",), (_OPENROUTER_PASSES_ON,)),
}


def provider_for(name: str | None, protocol: str) -> Provider | None:
    """The profile ``name`` for histories of ``protocol``; a :class:`UsageError` when there is none."""
    if name is None:
        return None
    found = PROVIDERS.get(name)
    if found is None:
        raise UsageError(f"no provider profile {name!r}; choose among: {', '.join(PROVIDERS)}")
    if protocol not in found.wire:
        raise UsageError(
            f"the {name} profile is for {', '.join(found.wire)} histories, not {protocol}; drop --for"
        )
    return found


def lint(messages: list[Any], provider: Provider) -> list[tuple[ProviderRule, str, str]]:
    """The profile's own rules ``messages`` break (those ``check`` does not say): (rule, path, what)."""
    broken: list[tuple[ProviderRule, str, str]] = []
    own = {r.id: r for r in provider.rules}
    for i, msg in enumerate(messages):
        if not isinstance(msg, dict) or msg.get("role") != "assistant":
            continue
        calls = msg.get("tool_calls")
        if "DS-3" in own and isinstance(calls, list) and not calls:
            broken.append((own["DS-3"], f"messages[{i}].tool_calls", "an empty tool_calls array"))
        for k, call in enumerate(calls if isinstance(calls, list) else []):
            if not isinstance(call, dict):
                continue
            if "AZ-2" in own and "type" not in call:
                broken.append(
                    (own["AZ-2"], f"messages[{i}].tool_calls[{k}].type", "a tool call without type")
                )
            ident = call.get("id")
            if isinstance(ident, str) and not provider.accepts(ident):
                rule = next(r for r in provider.rules if r.accepts is not None and not r.accepts(ident))
                broken.append((rule, f"messages[{i}].tool_calls[{k}].id", f"id {ident!r}"))
    return broken
