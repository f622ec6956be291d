"""The rules of Anthropic Messages, each with its public source (AN-1 to AN-7, AN-10)."""

from __future__ import annotations

from typing import Final

from toolwire.properties._rule import Rule

__all__ = ["MESSAGES", "MODELLED_SDK", "RESPONSE", "RULES", "STREAM"]

#: The SDK release whose types this family's model follows (pinned in pyproject.toml's dev
#: extra): a type outside it is passed over with one notice naming this, never a finding.
MODELLED_SDK: Final = "anthropic 2.14.0"

MESSAGES: Final = "anthropic-messages"
STREAM: Final = "anthropic-stream"
RESPONSE: Final = "anthropic-message-response"

_TOOL_USE = "anthropic 2.12.0 types/tool_use_block.py, tool_result_block_param.py"
_HANDLE = "https://platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls"
_STREAMING = "https://platform.claude.com/docs/en/build-with-claude/streaming"
_EVENTS = "anthropic 2.12.0 types/raw_content_block_*_event.py, lib/streaming/_messages.py"
_STOP = "https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons"
#: Where the stream rules' consumer evidence is pinned.
_EVIDENCE = "issue 38, tests/integration/test_consumer_evidence_anthropic.py"
_PTC = (
    "anthropic 2.12.0 types/tool_use_block.py (caller: DirectCaller | ServerToolCaller: a call made "
    "from inside the code-execution tool)"
)

RULES: Final = (
    Rule(
        "AN-1",
        "always",
        (MESSAGES, STREAM, RESPONSE),
        "tool_use.id matches ^[a-zA-Z0-9_-]+$ (server_tool_use.id: ^srvtoolu_[a-zA-Z0-9_]+$).",
        source=f"RooCodeInc/Roo-Code#10649, maximhq/bifrost#5097; {_TOOL_USE}",
        error="messages.{m}.content.{k}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
        fix="Map foreign ids (Kimi's functions.Bash:0, ids with dots or colons) injectively onto "
        "[a-zA-Z0-9_-]; keep the mapping to answer results.",
    ),
    Rule(
        "AN-2",
        "always",
        (MESSAGES, STREAM, RESPONSE),
        "tool_use ids are unique across the whole request (and within one streamed message).",
        source="BerriAI/litellm#23510, anthropics/claude-code#28515",
        error="messages.{m}.content.{k}: `tool_use` ids must be unique",
        fix="Never replay a turn twice or copy a call; give each call its own id.",
    ),
    Rule(
        "AN-3",
        "eventually",
        (MESSAGES,),
        "Every assistant message with tool_use is immediately followed by a user message holding "
        "a tool_result for each of its ids.",
        source=f"{_HANDLE}; anthropics/claude-code#5060",
        error="messages.{m}: `tool_use` ids were found without `tool_result` blocks immediately "
        "after: {tool_use_ids}. Each `tool_use` block must have a corresponding `tool_result` block in the "
        "next message.",
        fix="Answer every tool_use (an is_error result is an answer) in the very next user "
        "message; never put another message between a call and its results.",
    ),
    Rule(
        "AN-4",
        "always",
        (MESSAGES,),
        "Every tool_result.tool_use_id names a tool_use of the immediately preceding assistant "
        "message (a server tool's result, a server_tool_use before it).",
        source="router-for-me/CLIProxyAPI#497, anthropics/claude-code#64383",
        error="messages.{m}.content.{k}: unexpected `tool_use_id` found in `tool_result` blocks: "
        "{id}. Each `tool_result` block must have a corresponding `tool_use` block in the previous "
        "message.",
        fix="Answer with the id of the tool_use just before; drop results whose call was removed "
        "from history, or keep that call.",
    ),
    Rule(
        "AN-5",
        "always",
        (MESSAGES,),
        "In a user message that carries results, every tool_result block comes before any other "
        "block (the exact error text is unconfirmed).",
        source=f"{_HANDLE} ('tool_result blocks must come FIRST')",
        fix="Put the tool_result blocks first in the content array and any text after them.",
    ),
    Rule(
        "AN-6",
        "always",
        (MESSAGES,),
        "The results of one assistant turn are in one user message; split over consecutive user "
        "messages they are merged by the API, and parallel tool use degrades.",
        source=f"{_HANDLE} ('Sending separate user messages for each tool "
        "result' reduces parallel tool use); not described as an error",
        fix="Send every tool_result of a turn in one user message.",
        severity="warning",
    ),
    Rule(
        "AN-7",
        "always",
        (MESSAGES,),
        "tool_use blocks appear only in assistant messages, tool_result blocks only in user messages.",
        source=f"{_HANDLE}"
        ". Severity error -> warning (issue 29): the docs describe the roles but document no rejection, "
        "and none is recorded.",
        fix="Put calls in the assistant message and results in the user message after it; a "
        "converter from a 'tool' role maps it to a user message with tool_result blocks.",
        severity="warning",
    ),
    Rule(
        "AN-10a",
        "always",
        (STREAM,),
        "The stream is message_start, content-block events, message_delta, message_stop (ping and "
        "error may interleave; an error ends it).",
        source=f"{_STREAMING}; {_EVENTS}",
        error='Unexpected event order, got {type} before "message_start"',
        fix="Emit message_start first and message_stop last, with every block between them and "
        "message_delta after the last block.",
    ),
    Rule(
        "AN-10b",
        "always",
        (STREAM,),
        "content_block_start comes once per index, and the indexes run 0, 1, 2, ... (the index "
        "of a block in the final content array).",
        source=f"{_STREAMING}; {_EVENTS} (a repeated start shifts every later block). An error from "
        f"consumers ({_EVIDENCE}): on a second block started at index 0, anthropic 2.14.0 MessageStream "
        "stops the first call twice and ends the second with input {}, and pydantic-ai-slim 2.78.0 merges "
        "both calls into one; on blocks numbered from 1, MessageStream raises IndexError (no call). "
        "@ai-sdk/anthropic 4.0.105 keeps both calls.",
        fix="Start each block once, numbering blocks in order; a converter that re-emits a start "
        "duplicates the block in the SDK's accumulated message.",
    ),
    Rule(
        "AN-10c",
        "always",
        (STREAM,),
        "A content_block_delta or content_block_stop comes only for a block that started and has "
        "not stopped; every block stops before message_delta.",
        source=f"{_STREAMING}. An error from consumers ({_EVIDENCE}): @ai-sdk/anthropic 4.0.105 "
        "emits a call at its block's stop, so a block never stopped is lost after its whole input "
        "streamed, and a fragment after the stop is cut from the call's input; anthropic 2.14.0 "
        "MessageStream sends that stop event without the call or with the input cut (its final "
        "message keeps them); pydantic-ai-slim 2.78.0 keeps both calls.",
        fix="Correlate deltas by the index of their block's start; stop every block once.",
    ),
    Rule(
        "AN-10d",
        "always",
        (STREAM,),
        "A tool_use block's input is a JSON object: streamed as input_json_delta fragments after a "
        "start with input {}, that concatenated parse to an object at its stop, or given whole in "
        "the start when no fragment follows (a programmatic call, with a caller); no fragments, or "
        'only empty ones (a tool without arguments streams one partial_json ""), keep the start\'s '
        "input. A delta of another known type on a tool block breaks it too; an unknown delta type "
        "is passed over.",
        source=f"{_STREAMING}; "
        "anthropic-sdk-python lib/streaming/_messages.py accumulate_event ('if json_buf:' keeps {}; "
        "fragments that are not JSON raise 'Unable to parse tool parameter JSON from model. Please "
        "retry your request or adjust your prompt.', the rejection that keeps this an error; cut-off "
        "JSON parses in partial mode); "
        "real streams with one empty partial_json: tests/data/traffic posit-dev__chatlas "
        "anthropic.test_anthropic_tool_variations.i1.sse, simonw__llm-anthropic test_tools.i1.sse. "
        f"Scope narrowed (issue 29): a start that carries the whole input with no fragment after it "
        f"is a programmatic tool call, {_PTC}; cut-off input under an unfinished stop reason is AN-10f. "
        "A programmatic call (a caller other than direct) that streams fragments after a whole start is a "
        "warning (issue 38): no real recording of a programmatic call was found (the langchain-anthropic "
        "cassettes test_programmatic_tool_use*.yaml.gz are gzip, unread); the anthropic 2.14.0 SDK "
        "(lib/streaming/_messages.py) keeps the fragments' input over the start's. Every recorded "
        "streamed tool_use (tests/data/traffic: 54 starts, 18 with caller {'type': 'direct'}) starts "
        "with input {} and streams its fragments. Consumers (issue 38, "
        "tests/integration/test_consumer_evidence_streams.py): fragments that do not join to JSON end "
        "MessageStream with that ValueError, reach pydantic-ai as an INVALID_JSON wrapper and "
        "@ai-sdk/anthropic as input that is not JSON",
        fix="Send the arguments as partial_json fragments of one JSON object, in order, on the "
        "block's own index, after a start with input {}; or the whole input in the start and no "
        "fragment.",
    ),
    Rule(
        "AN-10e",
        "eventually",
        (STREAM,),
        'message_delta carries stop_reason "tool_use" when the message called client tools, unless '
        "the message stopped unfinished (max_tokens, model_context_window_exceeded, pause_turn, "
        "refusal, compaction).",
        source=f"{_STREAMING}; anthropic 2.12.0 lib/tools/_beta_runner.py "
        "(_STOP_REASON_STEPS: on any stop reason but tool_use the runner runs no tool call, 'its "
        "tool_use blocks must not be executed', and an unanswered tool_use is then AN-3's rejection "
        "on replay: why this stays an error). Scope narrowed (issue 29): the unfinished stop "
        f"reasons say why a message with calls ended otherwise, {_STOP}; anthropic 2.12.0 "
        f"types/stop_reason.py. Run ({_EVIDENCE}): on end_turn, the anthropic 2.14.0 tool runner "
        "runs neither call, while MessageStream, pydantic-ai-slim 2.78.0 and @ai-sdk/anthropic "
        "4.0.105 hand both over.",
        fix='Set stop_reason "tool_use" on a turn that ends in client tool calls; clients stop '
        "waiting for results on any other reason.",
    ),
    Rule(
        "AN-10f",
        "always",
        (STREAM,),
        "A tool_use block whose input was cut off by an unfinished stop (max_tokens, the context "
        "window) is an incomplete call: its fragments do not parse, and it must not be executed.",
        source=f"{_STOP} ('max_tokens: Raise max_tokens or continue the response'; "
        "'model_context_window_exceeded: Treat the response as truncated'); anthropic 2.12.0 "
        "types/stop_reason.py. A warning: the provider sent it as it should (issue 29)",
        fix="Do not run the truncated call: retry with a higher max_tokens, or continue the response; "
        "a converter passes the stop reason on instead of closing the call as if complete.",
        severity="warning",
    ),
    Rule(
        "AN-12a",
        "always",
        (RESPONSE,),
        "Every tool_use block of a message carries id, name and input, and input is a JSON object.",
        source="anthropic 2.12.0 types/tool_use_block.py (id, input, name, type required); "
        f"{_STREAMING} ('the final tool_use.input is always an object'). "
        "An error from consumers (issue 38, tests/integration/test_consumer_evidence_bodies.py): "
        "a block without id comes out of anthropic 2.14.0 "
        "messages.create and langchain-anthropic 1.7.10 with id None; an input given as text is refused by "
        "langchain-anthropic, and anthropic's beta tool_runner does not run that call (TypeError 'Input "
        "must be a dictionary').",
        fix="Parse the accumulated partial_json into an object (an empty input is {}), and keep the "
        "start's id and name.",
    ),
    Rule(
        "AN-12b",
        "always",
        (RESPONSE,),
        'stop_reason is "tool_use" when the message has tool_use blocks, and only then.',
        source="anthropic 2.12.0 types/stop_reason.py, types/message.py (stop_reason: 'tool_use: the model "
        f"invoked one or more tools'); {_STREAMING}; {_HANDLE}; every recorded message with "
        "tool_use stops tool_use: tests/data/traffic anthropic-message-response. "
        "An error from consumers (issue 38, tests/integration/test_consumer_evidence_bodies.py): "
        "anthropic 2.14.0 beta tool_runner steps by stop_reason "
        "and runs none of the tool_use blocks of a message that stops end_turn (langchain-anthropic 1.7.10 "
        "and the client keep them).",
        fix="Take stop_reason from the stream's message_delta; a turn with client tool calls stops "
        '"tool_use".',
    ),
)
