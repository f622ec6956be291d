"""The rules of OpenAI Chat Completions, each with its public source."""

from __future__ import annotations

from typing import Final

from toolwire.properties._rule import Rule

__all__ = ["CHAT", "CHAT_RESPONSE", "CHAT_STREAM", "MODELLED_SDK", "RULES"]

#: The SDK release whose types this family's model follows (pinned in pyproject.toml's dev
#: extra): a type outside it is passed over with one notice naming this, never a finding.
MODELLED_SDK: Final = "openai 3.57.0"

CHAT: Final = "openai-chat"
CHAT_STREAM: Final = "openai-chat-stream"
CHAT_RESPONSE: Final = "openai-chat-response"

_COMPLETION = "openai 3.54.0 types/chat/chat_completion.py, chat_completion_message_tool_call.py"

#: Where the stream rules' consumer evidence is pinned.
_EVIDENCE = "issue 38, tests/integration/test_consumer_evidence_chat.py"
_GUIDE = "OpenAI function-calling guide, streaming (https://platform.openai.com/docs/guides/function-calling#streaming)"

RULES: Final = (
    Rule(
        "CC-1",
        "always",
        (CHAT,),
        "Every assistant tool_calls[].id is present and at most 40 characters long.",
        source="server-enforced (not in the OpenAPI schema); vercel/ai#5171, openclaw/openclaw#875; "
        "ChatCompletionMessageToolCall requires id",
        error="Invalid 'messages[{m}].tool_calls[{k}].id': string too long. Expected a string with "
        "maximum length 40, but got a string with length {length} instead.",
        fix="Send the id the provider emitted (call_..., 29 characters); never an id built from a "
        "name, the arguments or the result. Map ids from other providers injectively into 40.",
    ),
    Rule(
        "CC-1b",
        "always",
        (CHAT,),
        "A tool message's tool_call_id is at most 40 characters (unconfirmed: whether the server "
        "checks it on its own).",
        source="vercel/ai#5171, openclaw/openclaw#875 (the limit on tool_calls[].id; unconfirmed for "
        "tool_call_id)",
        fix="Use the id of the call being answered; it is never longer than 40.",
        severity="warning",
        unconfirmed=True,
    ),
    Rule(
        "CC-2",
        "always",
        (CHAT,),
        "Every tool message comes directly after an assistant message with tool_calls, or after "
        "another tool message in such a run.",
        source="miurla/morphic#136, sdcb/chats#132, FoundationAgents/OpenManus#23",
        error="Invalid parameter: messages with role 'tool' must be a response to a preceeding "
        "message with 'tool_calls'.",
        fix="Drop tool messages whose assistant message was removed, or keep that assistant "
        "message; never let a user message split a call from its results.",
    ),
    Rule(
        "CC-3",
        "always",
        (CHAT,),
        "Each tool message's tool_call_id equals the id of a tool call in the nearest preceding "
        "assistant message.",
        source="dapr/dapr-agents#145; firebase/genkit go/plugins/compat_oai/generate.go (convertToolCall: "
        "the tool name as the id)",
        error="Invalid parameter: 'tool_call_id' of '{tool_call_id}' not found in 'tool_calls' of "
        "previous message.",
        fix="Answer with the id of the call (tool_calls[].id), never the tool's name or result.",
    ),
    Rule(
        "CC-4",
        "eventually",
        (CHAT,),
        "Every id in an assistant's tool_calls is answered by a tool message before the next "
        "non-tool message.",
        source="router-for-me/CLIProxyAPI#2798, sdcb/chats#132 (partial answers are rejected too)",
        error="An assistant message with 'tool_calls' must be followed by tool messages responding "
        "to each 'tool_call_id'. The following tool_call_ids did not have response messages: {tool_call_ids}",
        fix="Answer every call (an error result is an answer), or remove the unanswered calls from "
        "the assistant message.",
    ),
    Rule(
        "CC-5b",
        "always",
        (CHAT, CHAT_RESPONSE),
        "The ids inside one tool_calls array are distinct (unconfirmed: how duplicates are treated).",
        source="no public source states it (OpenAI's reference is silent on repeated ids)",
        fix="Give every call its own id; a duplicate usually means two calls were merged or copied.",
        severity="warning",
        unconfirmed=True,
    ),
    Rule(
        "CC-5c",
        "always",
        (CHAT,),
        "One tool message per tool_call_id (unconfirmed: how two answers to one id are treated).",
        source="no public source states it (OpenAI's reference is silent on a second answer)",
        fix="Send one tool message per call.",
        severity="warning",
        unconfirmed=True,
    ),
    Rule(
        "CC-6a",
        "always",
        (CHAT_STREAM,),
        "The first fragment for an index carries id and function.name.",
        source=f"{_GUIDE}: 'id, function.name, and type' are set for the first delta of each tool call. "
        f"An error from consumers ({_EVIDENCE}): with no id on a "
        "call's first fragment, openai 3.57.0 ChatCompletionStreamState and langchain-openai 1.7.4 "
        "hand over the call with id None, pydantic-ai-slim 2.78.0 and @ai-sdk/openai 4.0.118 with an id "
        "of their own: the result cannot answer the provider's call.",
        fix="Send id and function.name on the first fragment of every call.",
    ),
    Rule(
        "CC-6b",
        "always",
        (CHAT_STREAM,),
        "Later fragments for an index have id null; a null id is a continuation, never a new "
        'call. The string "null" is a placeholder (error); repeating the same id is a '
        "deviation (warning).",
        source='langchain-ai/langchainjs#11373 ("null" ids). An error from consumers ('
        f'{_EVIDENCE}): on "null" continuation ids openai 3.57.0 '
        "ChatCompletionStreamState makes the id call_1nullnull, langchain-openai 1.7.4 splits each call "
        "into one without arguments and one named '' with id null, pydantic-ai-slim 2.78.0 gives both "
        "calls the id null, @ai-sdk/openai 4.0.118 drops the second call's arguments. A repeated id "
        "stays a warning though ChatCompletionStreamState concatenates it too (call_1call_1call_1; the "
        "other three keep the calls): providers send it (OpenRouter, Novita: tests/data/traffic simonw__llm "
        "test_tools_streaming_variant_a.i1.sse) and real traffic wins.",
        fix="Leave id out (or null) on continuation fragments; consumers must not mint a new "
        "call or a synthetic id for them.",
    ),
    Rule(
        "CC-6c",
        "always",
        (CHAT_STREAM,),
        "Every fragment has an index, and parallel calls have distinct index values: an index "
        "never carries a second id.",
        source="openapi ChatCompletionMessageToolCallChunk (index "
        "required); comet-ml/opik#8362 (Mistral), huggingface/smolagents#1958 (Ollama). An error from "
        f"consumers ({_EVIDENCE}): two calls at one index "
        "become one call (id call_1call_2, name get_weatherget_weather, arguments concatenated) in "
        "openai 3.57.0 ChatCompletionStreamState and pydantic-ai-slim 2.78.0, and langchain-openai 1.7.4 "
        "keeps the second call without its arguments; @ai-sdk/openai 4.0.118 alone keeps both.",
        fix="Give each call of a turn its own index (0, 1, 2, ...); consumers keyed by index merge "
        "calls that share one, and their arguments concatenate.",
    ),
    Rule(
        "CC-6d",
        "eventually",
        (CHAT_STREAM,),
        'A choice with tool calls ends with finish_reason "tool_calls", and no fragment follows '
        'it. (A forced tool_choice yields "stop", and some OpenAI-compatible providers end with '
        "[DONE] and no finish_reason: both reported as warnings.)",
        source=f"{_GUIDE}; [DONE] without finish_reason after a complete call "
        "(OpenRouter, Novita, kimi-k2): tests/data/traffic simonw__llm test_tools_streaming_variant_a.i1.sse"
        f". An error from a consumer ({_EVIDENCE}): openai 3.57.0 "
        "ChatCompletionStreamState closes a call (its arguments.done event) when the next one opens or "
        "the choice finishes, so a fragment after finish_reason leaves that event with the arguments "
        "cut, and a stream with no finish_reason never sends it for the last call (with [DONE] too, "
        "which stays a warning: providers send it); langchain-openai 1.7.4, pydantic-ai-slim 2.78.0 and "
        "@ai-sdk/openai 4.0.118 keep the calls. A forced tool_choice's \"stop\" changes no consumer's call.",
        fix='Finish the choice with finish_reason "tool_calls" after its last fragment.',
    ),
    Rule(
        "CC-6e",
        "always",
        (CHAT_STREAM,),
        "The concatenated arguments of a call parse as JSON (models may emit invalid JSON: a "
        "warning; merged calls show up here too).",
        source="openapi ChatCompletionMessageToolCall.function.arguments ('in JSON format'); "
        "comet-ml/opik#8362, huggingface/smolagents#1958 (calls merged by index concatenate their arguments)",
        fix="Concatenate fragments per index in arrival order; check for merged calls (CC-6c).",
        severity="warning",
    ),
    Rule(
        "CC-9a",
        "always",
        (CHAT_RESPONSE,),
        "Every tool_calls entry of a chat.completion message carries id, type and the call's name "
        '(function.name; custom.name for type "custom").',
        source=f"{_COMPLETION} (ChatCompletionMessageFunctionToolCall: id, function, type required; "
        "ChatCompletionMessageCustomToolCall); openai-openapi ChatCompletionMessageToolCall (id required). "
        "An error from consumers (issue 38, tests/integration/test_consumer_evidence_bodies.py): "
        "a call without id is refused by openai 3.57.0 "
        "ChatCompletion.model_validate and openai-agents 0.24.0 Converter.message_to_output_items, and "
        "handed on with id None by the openai client's parse path and langchain-openai 1.7.4 "
        "_convert_dict_to_message; a call without type is dropped by openai-agents' Converter.",
        fix="Copy id, type and function.name of every call into the message; an accumulator must take "
        "them from the first fragment of each index.",
    ),
    Rule(
        "CC-9b",
        "always",
        (CHAT_RESPONSE,),
        "function.arguments is a string of JSON text, not an object (text that does not parse as JSON "
        "is a warning: models emit it).",
        source=f"{_COMPLETION} (Function.arguments: str, 'in JSON format'); openai-openapi "
        "ChatCompletionMessageToolCall.function.arguments. "
        "An error from consumers (issue 38, tests/integration/test_consumer_evidence_bodies.py): "
        "arguments given as an object are refused by openai 3.57.0 "
        "ChatCompletion.model_validate, langchain-openai 1.7.4 _convert_dict_to_message and openai-agents "
        "0.24.0 Converter, and handed on as a dict where text is due by the openai client's parse path.",
        fix="Keep the arguments as the JSON text the model produced (json.dumps an object); an "
        "accumulator concatenates the fragments of one index.",
    ),
    Rule(
        "CC-9c",
        "always",
        (CHAT_RESPONSE,),
        'A choice whose message has tool_calls finishes with finish_reason "tool_calls", and one '
        'that finishes "tool_calls" has some (a forced tool_choice yields "stop": a warning).',
        source=f"{_COMPLETION} (Choice.finish_reason); {_GUIDE}; 'stop' with tool_calls: "
        "tests/data/traffic crewAIInc__crewAI openai-chat-response (gpt-4o-mini, forced tool_choice)",
        fix='Finish a choice that calls tools with "tool_calls"; take the stream\'s own finish_reason.',
        severity="warning",
    ),
)
