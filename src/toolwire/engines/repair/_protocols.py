"""The repair adapters, one per request or conversation protocol (see :mod:`._adapter`)."""

from __future__ import annotations

import json
from typing import Any, Final

from toolwire.engines.repair._adapter import DROP, Adapter, Block, Message, had_text, replaced
from toolwire.models import anthropic, bedrock, gemini, mistral, openai_chat, openai_responses

__all__ = ["ADAPTERS", "NOT_RUN", "adapter_for", "text_of"]

#: What an error result says of a call that was never run.
NOT_RUN: Final = "Error: this tool call was not run (toolwire repair: no result was recorded for it)."


def text_of(value: Any) -> str:
    """A result's content as plain text."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _d(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _role(msg: Any, role: str) -> bool:
    return isinstance(msg, dict) and msg.get("role") == role


# --- OpenAI Chat Completions and Mistral: results are tool messages -----------------------------


def _chat_calls(msg: Any) -> list[tuple[Block, Any, str | None]]:
    if not _role(msg, "assistant") or not isinstance(msg.get("tool_calls"), list):
        return []
    return [
        (k, tc.get("id"), _d(tc.get("function")).get("name"))
        for k, tc in enumerate(msg["tool_calls"])
        if isinstance(tc, dict)
    ]


def _chat_results(msg: Any) -> list[tuple[Block, Any, str | None]]:
    return [(None, msg.get("tool_call_id"), msg.get("name"))] if _role(msg, "tool") else []


def _chat_with_calls(msg: Message, edit: dict[Block, Any]) -> Message | None:
    out = replaced(msg, "tool_calls", edit, lambda tc, new: {**tc, "id": new})
    assert out is not None
    if not out["tool_calls"]:
        # An empty tool_calls array is rejected ("Invalid 'messages[N].tool_calls': empty array").
        del out["tool_calls"]
        if not had_text(out, "content") and not out.get("reasoning_content"):
            return None
    return out


def _chat_answer(msg: Message | None, block: Block, new: Any, name: str | None) -> Message:
    if msg is not None:
        return {**msg, "tool_call_id": new}
    return {"role": "tool", "tool_call_id": new, "content": NOT_RUN}


def _openai_accepts(value: str) -> bool:
    return 0 < len(value) <= openai_chat.CHAT_TOOL_CALL_ID_MAX


def _mistral_accepts(value: str) -> bool:
    return bool(mistral.TOOL_CALL_ID.fullmatch(value))


def _chat(protocol: str, rules: dict[str, str], accepts: Any, fresh: Any) -> Adapter:
    return Adapter(
        protocol=protocol,
        container="messages",
        layout="message",
        rules=rules,
        calls=_chat_calls,
        results=_chat_results,
        call_path=lambda i, b: f"messages[{i}].tool_calls[{b}].id",
        result_path=lambda i, b: f"messages[{i}]",
        with_calls=_chat_with_calls,
        answer=_chat_answer,
        said=lambda m, b: m.get("content"),
        note=lambda text: {"role": "user", "content": text},
        accepts=accepts,
        fresh=fresh,
    )


# --- Anthropic Messages and Bedrock Converse: results are blocks of the next user message -------


def _anthropic_calls(msg: Any) -> list[tuple[Block, Any, str | None]]:
    if not _role(msg, "assistant") or not isinstance(msg.get("content"), list):
        return []
    return [
        (k, b.get("id"), b.get("name"))
        for k, b in enumerate(msg["content"])
        if isinstance(b, dict) and b.get("type") == anthropic.TOOL_USE
    ]


def _anthropic_results(msg: Any) -> list[tuple[Block, Any, str | None]]:
    if not _role(msg, "user") or not isinstance(msg.get("content"), list):
        return []
    return [
        (k, b.get("tool_use_id"), None)
        for k, b in enumerate(msg["content"])
        if isinstance(b, dict) and b.get("type") == anthropic.TOOL_RESULT
    ]


def _blocks_left(out: Message | None) -> Message | None:
    return out if out is not None and out.get("content") else None


def _anthropic_answer(msg: Message | None, block: Block, new: Any, name: str | None) -> Any:
    if msg is not None:
        return {**msg["content"][block], "tool_use_id": new}
    return {"type": "tool_result", "tool_use_id": new, "content": NOT_RUN, "is_error": True}


def _bedrock_calls(msg: Any) -> list[tuple[Block, Any, str | None]]:
    if not _role(msg, "assistant") or not isinstance(msg.get("content"), list):
        return []
    return [
        (k, _d(b["toolUse"]).get("toolUseId"), _d(b["toolUse"]).get("name"))
        for k, b in enumerate(msg["content"])
        if isinstance(b, dict) and "toolUse" in b
    ]


def _bedrock_results(msg: Any) -> list[tuple[Block, Any, str | None]]:
    if not _role(msg, "user") or not isinstance(msg.get("content"), list):
        return []
    return [
        (k, _d(b["toolResult"]).get("toolUseId"), None)
        for k, b in enumerate(msg["content"])
        if isinstance(b, dict) and "toolResult" in b
    ]


def _bedrock_answer(msg: Message | None, block: Block, new: Any, name: str | None) -> Any:
    if msg is not None:
        result = msg["content"][block]["toolResult"]
        return {**msg["content"][block], "toolResult": {**result, "toolUseId": new}}
    # No ``status: error``: botocore says only Nova and Claude 3/4 models take it (BR-7).
    return {"toolResult": {"toolUseId": new, "content": [{"text": NOT_RUN}]}}


def _bedrock_accepts(value: str) -> bool:
    return len(value) <= bedrock.TOOL_USE_ID_MAX and bool(bedrock.TOOL_USE_ID.fullmatch(value))


# --- Gemini contents: functionResponse parts of the next user content --------------------------


def _gemini_calls(msg: Any) -> list[tuple[Block, Any, str | None]]:
    if not _role(msg, "model") or not isinstance(msg.get("parts"), list):
        return []
    return [
        (k, call.get("id"), call.get("name"))
        for k, part in enumerate(msg["parts"])
        if (call := gemini.function_call(part)) is not None
    ]


def _gemini_results(msg: Any) -> list[tuple[Block, Any, str | None]]:
    if not _role(msg, "user") or not isinstance(msg.get("parts"), list):
        return []
    return [
        (k, response.get("id"), response.get("name"))
        for k, part in enumerate(msg["parts"])
        if (response := gemini.function_response(part)) is not None
    ]


def _gemini_key(part: dict[str, Any], camel: str) -> str:
    return camel if camel in part else "function_call" if camel == "functionCall" else "function_response"


def _gemini_put(part: Any, new: Any) -> Any:
    key = _gemini_key(part, "functionCall")
    call = dict(part[key])
    if new is None:
        call.pop("id", None)
    else:
        call["id"] = new
    return {**part, key: call}


def _gemini_answer(msg: Message | None, block: Block, new: Any, name: str | None) -> Any:
    if msg is not None:
        part = msg["parts"][block]
        key = _gemini_key(part, "functionResponse")
        carried = dict(part[key])
        if new is not None:
            carried["id"] = new
        return {**part, key: carried}
    made: dict[str, Any] = {"name": name, "response": {"error": NOT_RUN}}
    if new is not None:
        made["id"] = new
    return {"functionResponse": made}


# --- OpenAI Responses input items ---------------------------------------------------------------


def _responses_calls(item: Any) -> list[tuple[Block, Any, str | None]]:
    if isinstance(item, dict) and item.get("type") == openai_responses.FUNCTION_CALL:
        return [(None, item.get("call_id"), item.get("name"))]
    return []


def _responses_results(item: Any) -> list[tuple[Block, Any, str | None]]:
    if isinstance(item, dict) and item.get("type") == openai_responses.FUNCTION_CALL_OUTPUT:
        return [(None, item.get("call_id"), None)]
    return []


def _responses_with_calls(item: Message, edit: dict[Block, Any]) -> Message | None:
    new = edit.get(None, item.get("call_id"))
    return None if new is DROP else {**item, "call_id": new}


def _responses_answer(item: Message | None, block: Block, new: Any, name: str | None) -> Message:
    if item is not None:
        return {**item, "call_id": new}
    return {"type": openai_responses.FUNCTION_CALL_OUTPUT, "call_id": new, "output": NOT_RUN}


def _responses_renamed(item: Message) -> Message:
    # Its item id is the original's: a second item of that id breaks RS-5 (and it is optional).
    return {k: v for k, v in item.items() if k != "id"}


def _responses_accepts(value: str) -> bool:
    return openai_responses.CALL_ID_MIN <= len(value) <= openai_responses.CALL_ID_MAX


# --- AI SDK model messages and OpenTelemetry GenAI messages -------------------------------------


def _parts(
    msg: Any, role: str, key: str, kind: str, id_key: str, name_key: str
) -> list[tuple[Block, Any, str | None]]:
    if not _role(msg, role) or not isinstance(msg.get(key), list):
        return []
    return [
        (k, p.get(id_key), p.get(name_key))
        for k, p in enumerate(msg[key])
        if isinstance(p, dict) and p.get("type") == kind and not p.get("providerExecuted")
    ]


def _aisdk_answer(msg: Message | None, block: Block, new: Any, name: str | None) -> Any:
    if msg is not None:
        return {**msg["content"][block], "toolCallId": new}
    return {
        "type": "tool-result",
        "toolCallId": new,
        "toolName": name,
        "output": {"type": "error-text", "value": NOT_RUN},
    }


def _otel_answer(msg: Message | None, block: Block, new: Any, name: str | None) -> Any:
    if msg is not None:
        return {**msg["parts"][block], "id": new}
    return {"type": "tool_call_response", "id": new, "response": NOT_RUN}


def _otel_put(part: Any, new: Any) -> Any:
    return {**part, "id": new}


def _nonempty(value: str) -> bool:
    return bool(value)


def _numbered(prefix: str, width: int = 0) -> Any:
    return lambda n: f"{prefix}{n:0{width}d}"


_CHAT_RULES: Final = {
    "unanswered": "CC-4", "orphan": "CC-3", "move": "CC-2", "duplicate": "CC-5b",
    "id": "CC-1", "missing": "CC-1", "second": "CC-5c",
}  # fmt: skip
_MISTRAL_RULES: Final = {
    "unanswered": "MI-4", "orphan": "MI-4", "move": "MI-4", "duplicate": "MI-4",
    "id": "MI-1", "missing": "MI-3", "second": "MI-4",
}  # fmt: skip
_ANTHROPIC_RULES: Final = {
    "unanswered": "AN-3", "orphan": "AN-4", "move": "AN-4", "first": "AN-5", "duplicate": "AN-2",
    "id": "AN-1", "missing": "AN-1", "second": "AN-4",
}  # fmt: skip
_BEDROCK_RULES: Final = {
    "unanswered": "BR-2", "orphan": "BR-3", "move": "BR-2", "duplicate": "BR-4",
    "id": "BR-1", "missing": "BR-1", "second": "BR-4",
}  # fmt: skip
_GEMINI_RULES: Final = {
    "unanswered": "GM-4", "orphan": "GM-3", "move": "GM-3", "duplicate": "GM-1",
    "id": "GM-1", "missing": "GM-1", "second": "GM-4",
}  # fmt: skip
_RESPONSES_RULES: Final = {
    "unanswered": "RS-4", "orphan": "RS-3", "move": "RS-4", "duplicate": "RS-4b",
    "id": "RS-2", "missing": "RS-2", "second": "RS-3b",
}  # fmt: skip
_AISDK_RULES: Final = {
    "unanswered": "VS-6", "orphan": "VP-1", "move": "VP-1", "duplicate": "VP-2",
    "id": "VP-4", "missing": "VP-4", "second": "VP-1",
}  # fmt: skip
_OTEL_RULES: Final = {
    "unanswered": "GA-5", "orphan": "GA-3", "move": "GA-4", "duplicate": "GA-6",
    "id": "GA-1", "missing": "GA-1", "second": "GA-6",
}  # fmt: skip


def _user_text(text: str) -> Message:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


ADAPTERS: Final[dict[str, Adapter]] = {
    "openai-chat": _chat("openai-chat", _CHAT_RULES, _openai_accepts, _numbered("call_tw")),
    "mistral-chat": _chat("mistral-chat", _MISTRAL_RULES, _mistral_accepts, _numbered("tw", 7)),
    "anthropic-messages": Adapter(
        protocol="anthropic-messages",
        container="messages",
        layout="block",
        rules=_ANTHROPIC_RULES,
        calls=_anthropic_calls,
        results=_anthropic_results,
        call_path=lambda i, b: f"messages[{i}].content[{b}].id",
        result_path=lambda i, b: f"messages[{i}].content[{b}]",
        with_calls=lambda m, e: _blocks_left(replaced(m, "content", e, lambda b, new: {**b, "id": new})),
        answer=_anthropic_answer,
        said=lambda m, b: m["content"][b].get("content"),
        note=lambda text: {"type": "text", "text": text},
        accepts=lambda v: bool(anthropic.TOOL_USE_ID.fullmatch(v)),
        fresh=_numbered("toolu_tw"),
    ),
    "bedrock-converse": Adapter(
        protocol="bedrock-converse",
        container="messages",
        layout="block",
        rules=_BEDROCK_RULES,
        calls=_bedrock_calls,
        results=_bedrock_results,
        call_path=lambda i, b: f"messages[{i}].content[{b}].toolUse.toolUseId",
        result_path=lambda i, b: f"messages[{i}].content[{b}]",
        with_calls=lambda m, e: _blocks_left(
            replaced(m, "content", e, lambda b, new: {**b, "toolUse": {**b["toolUse"], "toolUseId": new}})
        ),
        answer=_bedrock_answer,
        said=lambda m, b: _d(m["content"][b].get("toolResult")).get("content"),
        note=lambda text: {"text": text},
        accepts=_bedrock_accepts,
        fresh=_numbered("tooluse_tw"),
    ),
    "gemini-contents": Adapter(
        protocol="gemini-contents",
        container="contents",
        layout="block",
        rules=_GEMINI_RULES,
        calls=_gemini_calls,
        results=_gemini_results,
        call_path=lambda i, b: f"contents[{i}].parts[{b}].functionCall.id",
        result_path=lambda i, b: f"contents[{i}].parts[{b}]",
        with_calls=lambda m, e: _blocks_left_parts(replaced(m, "parts", e, _gemini_put)),
        answer=_gemini_answer,
        said=lambda m, b: _d(gemini.function_response(m["parts"][b])).get("response"),
        note=lambda text: {"text": text},
        accepts=_nonempty,
        fresh=_numbered("tw-call-"),
        blocks_key="parts",
        ids_optional=True,
    ),
    "openai-responses": Adapter(
        protocol="openai-responses",
        container="input",
        layout="message",
        rules=_RESPONSES_RULES,
        calls=_responses_calls,
        results=_responses_results,
        call_path=lambda i, b: f"input[{i}].call_id",
        result_path=lambda i, b: f"input[{i}]",
        with_calls=_responses_with_calls,
        answer=_responses_answer,
        said=lambda m, b: m.get("output"),
        note=lambda text: {"role": "user", "content": [{"type": "input_text", "text": text}]},
        accepts=_responses_accepts,
        fresh=_numbered("call_tw"),
        run_calls=True,
        renamed=_responses_renamed,
    ),
    "aisdk-model-messages": Adapter(
        protocol="aisdk-model-messages",
        container="messages",
        layout="block",
        rules=_AISDK_RULES,
        calls=lambda m: _parts(m, "assistant", "content", "tool-call", "toolCallId", "toolName"),
        results=lambda m: _parts(m, "tool", "content", "tool-result", "toolCallId", "toolName"),
        call_path=lambda i, b: f"messages[{i}].content[{b}].toolCallId",
        result_path=lambda i, b: f"messages[{i}].content[{b}]",
        with_calls=lambda m, e: _blocks_left(
            replaced(m, "content", e, lambda p, new: {**p, "toolCallId": new})
        ),
        answer=_aisdk_answer,
        said=lambda m, b: m["content"][b].get("output"),
        note=lambda text: {"type": "text", "text": text},
        accepts=_nonempty,
        fresh=_numbered("call_tw"),
        carrier_role="tool",
        note_in_place=False,
        note_message=_user_text,
    ),
    "otel-genai": Adapter(
        protocol="otel-genai",
        container="messages",
        layout="block",
        rules=_OTEL_RULES,
        calls=lambda m: _parts(m, "assistant", "parts", "tool_call", "id", "name"),
        results=lambda m: _parts(m, "tool", "parts", "tool_call_response", "id", "name"),
        call_path=lambda i, b: f"messages[{i}].parts[{b}].id",
        result_path=lambda i, b: f"messages[{i}].parts[{b}]",
        with_calls=lambda m, e: _blocks_left_parts(replaced(m, "parts", e, _otel_put)),
        answer=_otel_answer,
        said=lambda m, b: m["parts"][b].get("response"),
        note=lambda text: {"type": "text", "content": text},
        accepts=_nonempty,
        fresh=_numbered("call_tw"),
        carrier_role="tool",
        blocks_key="parts",
        ids_optional=True,
        note_in_place=False,
        note_message=lambda text: {"role": "user", "parts": [{"type": "text", "content": text}]},
    ),
}


def _blocks_left_parts(out: Message | None) -> Message | None:
    return out if out is not None and out.get("parts") else None


def adapter_for(protocol: str) -> Adapter | None:
    """The repair adapter of ``protocol``, or None when it has none."""
    return ADAPTERS.get(protocol)
