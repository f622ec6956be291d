"""Provider profiles of the OpenAI Chat Completions wire: the stricter providers behind it, each rule
with its recorded rejection and where it was read.

A rule either narrows the ids a provider takes (the repairer remaps others), or is a rule of the
wire's own rule book that this provider is recorded enforcing (``same_as``: ``check`` already says
it, and the repairer's output already keeps it).  A rule with no recorded error text is a warning.
Mistral's profile is in Mistral's package (its id rule is Mistral's).
"""

from __future__ import annotations

from typing import Any, Final

from toolwire.properties._change import Change
from toolwire.properties._repair import Provider, ProviderRule

__all__ = ["PROVIDERS", "fixes", "lint"]


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
    "ORT-1",
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


def fixes(messages: list[Any], profile: Provider, changes: list[Change]) -> list[Any]:
    """The profile's own repairs: no empty tool_calls array (DS-3), every call typed (AZ-2)."""
    own = {r.id for r in profile.rules}
    out: list[Any] = []
    for i, msg in enumerate(messages):
        if (
            isinstance(msg, dict)
            and msg.get("role") == "assistant"
            and isinstance(msg.get("tool_calls"), list)
        ):
            calls = msg["tool_calls"]
            if "DS-3" in own and not calls:
                msg = {k: v for k, v in msg.items() if k != "tool_calls"}
                changes.append(
                    Change(
                        "DS-3",
                        f"messages[{i}].tool_calls",
                        "drop-call",
                        [],
                        None,
                        "an empty tool_calls array left out",
                    )
                )
            elif "AZ-2" in own and any(isinstance(c, dict) and "type" not in c for c in calls):
                msg = {
                    **msg,
                    "tool_calls": [
                        {**c, "type": "function"} if isinstance(c, dict) and "type" not in c else c
                        for c in calls
                    ],
                }
                changes.append(
                    Change(
                        "AZ-2",
                        f"messages[{i}].tool_calls",
                        "fill-id",
                        None,
                        "function",
                        "tool calls typed 'function'",
                    )
                )
        out.append(msg)
    return out


def _profile(name: str, *rules: ProviderRule) -> Provider:
    return Provider(name, ("openai-chat",), rules, lint=lint, fixes=fixes)


PROVIDERS: Final[tuple[Provider, ...]] = (
    _profile("openai", _OPENAI_MISSING_TOOL_CALL_ID, _EMPTY_ARRAY),
    _profile("azure", _AZURE_ORPHAN, _AZURE_TYPE),
    _profile("deepseek", _CC4_DEEPSEEK, _CC2_DEEPSEEK, _EMPTY_ARRAY, _MISSING_ID_DEEPSEEK, _EMPTY_ID),
    _profile("moonshot", _CC4_MOONSHOT, _ADJACENT_MOONSHOT, _EMPTY_ID),
    _profile("groq", _MISSING_TOOL_CALL_ID_GROQ),
    _profile("openrouter", _OPENROUTER_PASSES_ON),
)
