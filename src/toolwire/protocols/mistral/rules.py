"""The rules of Mistral chat requests (MI-1 to MI-5), as mistral-common validates them, and of its
streams (MI-6a to MI-6e, with the stream forms of MI-1 to MI-3)."""

from __future__ import annotations

from typing import Final

from toolwire.properties._rule import Rule

__all__ = ["CHAT", "CHAT_STREAM", "MODELLED_SDK", "RESPONSE", "RULES"]

#: The SDK release whose types this family's model follows (pinned in pyproject.toml's dev
#: extra): a type outside it is passed over with one notice naming this, never a finding.
MODELLED_SDK: Final = "mistralai 3.7.0"
_EVIDENCE: Final = "tests/integration/test_consumer_evidence_streams.py"

CHAT: Final = "mistral-chat"
CHAT_STREAM: Final = "mistral-chat-stream"
RESPONSE: Final = "mistral-chat-response"

_VALIDATOR = "mistral-common 1.13.1 src/mistral_common/protocol/instruct/validator.py"
_SDK = "mistralai 3.7.0 client/models"

RULES: Final = (
    Rule(
        "MI-1",
        "always",
        (CHAT, CHAT_STREAM, RESPONSE),
        "Tokenizer v3 to v11: every tool_calls[].id and tool_call_id matches ^[a-zA-Z0-9]{9}$.",
        source=f"{_VALIDATOR} (MistralRequestValidatorV3/V5/V11); "
        "langchain-ai/langchain#24668, editor-code-assistant/eca#233",
        error="Tool call id was {id} but must be a-z, A-Z, 0-9, with a length of 9.",
        fix="Map ids from other providers injectively onto 9 alphanumeric characters and keep the "
        "map to answer results; call_..., toolu_... and adk-<uuid> ids all fail here.",
    ),
    Rule(
        "MI-2",
        "always",
        (CHAT, CHAT_STREAM),
        'Tokenizer v13 and later: a tool call id is a non-empty string other than "null".',
        source=f"{_VALIDATOR} (V13/V15)",
        error="Tool call id must be a non-empty string other than 'null' for tokenizer version 13 or newer.",
        fix="Send the id of the call; keep producing 9-character alphanumeric ids, since which "
        "hosted models use v13 is unconfirmed.",
    ),
    Rule(
        "MI-3",
        "always",
        (CHAT, CHAT_STREAM, RESPONSE),
        'In serving, a tool call id is defined: not the "null" sentinel of mistralai\'s ToolCall.id '
        "default, and present on every tool message.",
        source=f'mistralai 3.7.0 client/models/toolcall.py (id defaults to "null"); {_VALIDATOR}',
        error="Tool call id has to be defined in serving mode.",
        fix='Carry the real id; a "null" id comes from a parsed streaming continuation '
        "(langchain-ai/langchainjs#11373) or a default.",
    ),
    Rule(
        "MI-4",
        "always",
        (CHAT,),
        "The tool messages after an assistant with tool_calls number len(tool_calls) before the "
        "next assistant message; from v11 their ids are the calls' ids, each once.",
        source=f"{_VALIDATOR} (_validate_tool_calls_followed_by_tool_messages)",
        error="Not the same number of function calls and responses",
        fix="Answer every call exactly once, right after the assistant message; drop orphaned tool messages.",
    ),
    Rule(
        "MI-5",
        "always",
        (CHAT,),
        "Roles follow each other as Mistral allows (tool -> assistant, tool, user; assistant -> "
        "assistant, user, tool; user -> assistant, system, user; system -> user, assistant, "
        "system), and function names match ^[a-zA-Z0-9_-]{1,64}$.",
        source=f"{_VALIDATOR} (_validate_message_order)",
        error="Unexpected role '{current}' after role '{previous}'",
        fix="Keep tool messages right after their assistant message; never put a user or system "
        "message between a call and its results.",
    ),
    Rule(
        "MI-7a",
        "always",
        (RESPONSE,),
        "Every tool_calls entry of a Mistral chat completion carries id and function.name, and "
        "function.arguments is JSON text or a JSON object.",
        source="mistralai 3.7.0 client/models/chatcompletionresponse.py, toolcall.py, functioncall.py "
        "(FunctionCall: name, arguments: Union[Dict[str, Any], str]). "
        "An error from consumers (issue 38, tests/integration/test_consumer_evidence_bodies.py): "
        "mistralai 3.7.0 ChatCompletionResponse gives a call "
        "without id the id 'null' and refuses a call without function.name.",
        fix="Copy id and function.name of every call; keep the arguments as the model's JSON text.",
    ),
    Rule(
        "MI-7b",
        "always",
        (RESPONSE,),
        "The ids of one message's tool_calls are distinct.",
        source=f"{_VALIDATOR} (tokenizer v11+)",
        error="Duplicate tool call id {id} in assistant message",
        fix="Give each call its own 9-character id; a repeated id is rejected when the message is replayed.",
    ),
    Rule(
        "MI-7c",
        "always",
        (RESPONSE,),
        'A choice whose message has tool_calls finishes with finish_reason "tool_calls", and one that '
        'finishes "tool_calls" has some (a forced tool_choice may finish "stop": a warning).',
        source="mistralai 3.7.0 client/models/chatcompletionchoice.py (finish_reason: stop, length, "
        "model_length, error, tool_calls); OpenAI function-calling guide, streaming "
        "(https://platform.openai.com/docs/guides/function-calling#streaming)",
        fix='Finish a choice that calls tools with "tool_calls"; take the stream\'s own finish_reason.',
        severity="warning",
    ),
    Rule(
        "MI-6a",
        "always",
        (CHAT_STREAM,),
        "Every tool_calls fragment carries its index, and parallel calls carry distinct indexes: "
        "mistralai parses a missing index as 0, so index-keyed accumulators merge the calls.",
        source=f"{_SDK}/toolcall.py (index: Optional[int] = 0); comet-ml/opik#8362. An error from "
        f"consumers (issue 38, {_EVIDENCE}): on two calls without index, openai-python's "
        "ChatCompletionStreamState raises TypeError (no call) and @ai-sdk/openai's chat model fails "
        "type validation (no call); langchain-openai and pydantic-ai hand both over",
        fix="Send index on every fragment, a distinct one per call; when reading, key a fragment "
        "without index by its id, never by the default 0.",
    ),
    Rule(
        "MI-6b",
        "always",
        (CHAT_STREAM,),
        'A continuation fragment carries no id (or the call\'s own id), not the string "null": '
        "a reader that takes each fragment's id opens a call with the sentinel id.",
        source=f'{_SDK}/toolcall.py (id: Optional[str] = "null"); langchain-ai/langchainjs#11373',
        error="Tool call id has to be defined in serving mode.",
        fix='Read a "null" id as a continuation of the call at that index; never replay it as an id.',
    ),
    Rule(
        "MI-6c",
        "always",
        (CHAT_STREAM,),
        "Every tool_calls fragment carries function.name and function.arguments (mistralai's "
        "FunctionCall requires both).",
        source=f"{_SDK}/functioncall.py (name: str, arguments: Dict | str)",
        error="data.choices.0.delta.tool_calls.nullable[list[ToolCall]].0.function.name Field required",
        fix="Send each call whole (name and arguments) in its fragment, as Mistral's API does.",
    ),
    Rule(
        "MI-6d",
        "always",
        (CHAT_STREAM,),
        'A choice that streamed calls ends with finish_reason "tool_calls", and no fragment follows it.',
        source=f"{_SDK}/completionresponsestreamchoice.py "
        "(finish_reason: stop, length, error, tool_calls); "
        "OpenAI function-calling guide, streaming "
        "(https://platform.openai.com/docs/guides/function-calling#streaming). A warning from "
        f"consumers (issue 38, {_EVIDENCE}): Mistral streams each call whole, so a call after the "
        "finish, or a choice that never finishes (with or without [DONE]), is handed over as sent by "
        "openai-python, langchain-openai, pydantic-ai and @ai-sdk/openai; no rejection is recorded",
        fix='End the calls with finish_reason "tool_calls"; send every fragment before it.',
        severity="warning",
    ),
    Rule(
        "MI-6e",
        "always",
        (CHAT_STREAM,),
        "A call's arguments, joined over its fragments, are JSON when the call finishes.",
        source=f"{_SDK}/functioncall.py; OpenAI function-calling guide, streaming "
        "(https://platform.openai.com/docs/guides/function-calling#streaming): arguments concatenate. "
        f"An error from consumers (issue 38, {_EVIDENCE}): arguments that are not JSON reach pydantic-ai "
        "as an INVALID_JSON wrapper and langchain-openai as an invalid tool call",
        fix="Send the arguments as one JSON text (or object); never cut a call's arguments short.",
    ),
)
