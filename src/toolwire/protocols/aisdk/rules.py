"""The rules of the Vercel AI SDK: provider stream parts (VS-1 to VS-5), UI chunks (VU-1 to VU-4),
the full stream (VF-1 to VF-9), UI messages (VM-1 to VM-4) and model messages (VS-6, VP-1 to VP-4)."""

from __future__ import annotations

from typing import Final

from toolwire.properties._rule import Rule

__all__ = ["FULL_STREAM", "MODELLED_SDK", "MODEL_MESSAGES", "RULES", "STREAM", "UI_MESSAGES", "UI_STREAM"]

#: The SDK release whose types this family's model follows (the release docs/protocol-rules.md
#: read): a type outside it is passed over with one notice naming this, never a finding.
MODELLED_SDK: Final = "ai 7.0.173"

STREAM: Final = "aisdk-stream"
UI_STREAM: Final = "aisdk-ui-stream"
FULL_STREAM: Final = "aisdk-full-stream"
UI_MESSAGES: Final = "aisdk-ui-messages"
MODEL_MESSAGES: Final = "aisdk-model-messages"

_PARTS = "@ai-sdk/provider 4.0.38 language-model-v4-stream-part.ts, -tool-call.ts, -tool-result.ts"
_TRACKER = "@ai-sdk/provider-utils 5.0.81 src/streaming-tool-call-tracker.ts"
_UI = "ai 7.0.173 src/ui/process-ui-message-stream.ts"
_AI = "ai 7.0.173 src"
_TEXT = f"{_AI}/generate-text/stream-text.ts"
_CALL = f"{_AI}/generate-text/stream-language-model-call.ts"
_RUN = f"{_AI}/generate-text/execute-tools-from-stream.ts"
_FULL = f"{_AI}/generate-text/stream-text-result.ts (TextStreamPart)"
_UI_TYPES = f"{_AI}/ui/ui-messages.ts (UIToolInvocation, DynamicToolUIPart)"
#: Where the stream rules' consumer evidence is pinned.
_EVIDENCE = "issue 38, tests/integration/test_consumer_evidence_aisdk.py"
#: And the full stream's: streamText's result built from the trace (an experimental_transform
#: puts it in place of the model's stream), its steps, response messages and UI message.
_FULL_EVIDENCE = "issue 38, tests/integration/test_consumer_evidence_aisdk_full.py"
_CONVERT = f"{_AI}/ui/convert-to-model-messages.ts"
_PROMPT = f"{_AI}/prompt/convert-to-language-model-prompt.ts"
_ZOD = "Invalid input: expected nonoptional, received undefined"

_STREAMS: Final = (
    Rule(
        "VS-1",
        "always",
        (STREAM,),
        "One call, one id: the id of its tool-input-* parts is the toolCallId of its tool-call "
        "and tool-result, and no other call uses it ('It must be unique across all tool calls'). "
        "A tool-input-start repeated before the call's tool-call is a deviation (warning).",
        source=f"{_PARTS}; ai 7 toUIMessageChunk (tool-input-start.id -> toolCallId). An error from a "
        f"consumer ({_EVIDENCE}): fed a second call under the first call's id, ai 7.0.173 streamText hands "
        "over both calls with one id, but its UI message holds one tool part with the second call's input, "
        "and convertToModelMessages sends back that one call: the first is lost; a tool-call repeated "
        "is handed over twice. A tool-input-start repeated before the tool-call restarts the UI "
        "part's input, which the tool-call then sets as sent: nothing changes there.",
        fix="Emit tool-input-start once per call and tool-call once, with the same id; a "
        "converter must not open a second item for the tool-call of a streamed call (seed 000).",
    ),
    Rule(
        "VS-2",
        "always",
        (STREAM,),
        "Per call: tool-input-start, tool-input-delta*, tool-input-end, then tool-call, then a "
        "tool-result when provider-executed; nothing after the final result. A delta after "
        "tool-input-end and before the tool-call is a deviation (warning).",
        source=f"{_TRACKER} (the reference order; the types do not mandate it). An error from a "
        f"consumer ({_EVIDENCE}): after a delta that follows its tool-call, ai 7.0.173 streamText's UI "
        "message holds the call in state input-streaming, and convertToModelMessages leaves it out of the "
        "conversation sent back. A delta after tool-input-end, before the tool-call, changes nothing there.",
        fix="Send input parts only between the call's start and its end, and results only after "
        "its tool-call.",
    ),
    Rule(
        "VS-3",
        "eventually",
        (STREAM,),
        "After preliminary results there is always a final, non-preliminary tool result (V3, V4).",
        source=f"{_PARTS} ('There always has to be a final, non-preliminary tool result.'). A warning "
        f"from consumers ({_EVIDENCE}): fed a provider-executed call whose only result is preliminary, "
        "ai 7.0.173 streamText hands both calls over unchanged; its UI message holds the call "
        "output-available with the preliminary result, and convertToModelMessages sends both calls back, "
        "the first answered by that preview: no call, argument or id changes.",
        fix="End every call that streamed preliminary results with a result without preliminary: true.",
        severity="warning",
    ),
    Rule(
        "VS-4",
        "always",
        (STREAM,),
        "tool-call.input is a JSON-encoded string, whatever the delta encoding (V4 inputEncoding).",
        source=f"{_PARTS} ('The final tool-call input must still be JSON-encoded'). An error from a "
        f"consumer ({_EVIDENCE}): fed a tool-call whose input is the arguments object, ai 7.0.173 "
        "streamText fails the call ('toolCall.input.trim is not a function', a tool-error) and its UI "
        "message holds it in output-error: the call is handed over as failed, not to be run.",
        fix="Send input as JSON.stringify of the arguments object.",
    ),
    Rule(
        "VS-5",
        "always",
        (STREAM,),
        "Every tool-input-start and tool-call carries an id: the AI SDK's own tracker replaces an "
        "absent id with a generated one, and streamText passes a call on without one.",
        source=f"{_TRACKER} (generateId() for absent or used ids). An error from a consumer "
        f"({_EVIDENCE}): ai 7.0.173 streamText hands over a tool-call without toolCallId as a call with no "
        "id, which its UI message and convertToModelMessages keep without one (no result can answer it); "
        "after a tool-input-start without id, the UI message stream stops at the call's first delta "
        "('Received tool-input-delta for missing tool call') and neither call is sent back.",
        fix="Pass the provider's call id through; generate one only when the provider has none, "
        "once per call, and use it on every part of that call.",
    ),
    Rule(
        "VU-1",
        "always",
        (UI_STREAM,),
        "A tool-input-delta follows a tool-input-start with the same toolCallId.",
        source=f"{_UI}",
        error='Received tool-input-delta for missing tool call with ID "{id}". Ensure a '
        '"tool-input-start" chunk is sent before any "tool-input-delta" chunks.',
        fix="Send tool-input-start (with toolCallId and toolName) before the deltas of a call.",
    ),
    Rule(
        "VU-2",
        "always",
        (UI_STREAM,),
        "tool-approval-request and tool-output-* name an existing tool part (made by "
        "tool-input-start, -available or -error); tool-approval-response names a requested approval.",
        source=f"{_UI}",
        error='No tool invocation found for tool call ID "{id}".',
        fix="Use the toolCallId the input chunks used; never a new id for the output of a call.",
    ),
    Rule(
        "VU-3",
        "always",
        (UI_STREAM,),
        "tool-input-start comes once per toolCallId: a repeated start raises no error in the AI "
        "SDK but silently resets the part's input and state.",
        source=f"{_UI}. A warning from consumers ({_EVIDENCE}): ai 7.0.173 "
        "readUIMessageStream, fed a start repeated mid-input, restarts the input but builds the call "
        "from tool-input-available: the message and convertToModelMessages keep it as sent. A start "
        "repeated after the input is available empties the input or sends the part back to "
        "input-streaming (convertToModelMessages drops it): VU-4 flags that, an error.",
        fix="Start each call once; a converter that maps both a provider's start and its "
        "tool-call to tool-input-start loses the streamed input.",
        severity="warning",
    ),
    Rule(
        "VU-4",
        "always",
        (UI_STREAM,),
        "A tool part moves input-streaming -> input-available -> (approval-requested -> "
        "approval-responded) -> output-available | output-error | output-denied, and no further. "
        "A second outcome for an answered part is a deviation (warning).",
        source=f"ai 7.0.173 src/ui/ui-messages.ts; {_UI}. An error from a consumer ({_EVIDENCE}): "
        "ai 7.0.173 readUIMessageStream, fed a tool-input-delta after the call's output, sends the part "
        "back to input-streaming and convertToModelMessages drops the call; an output before any input "
        "builds the call without input. A second outcome replaces the first in what is sent back and "
        "keeps the call, its input and id.",
        fix="Finish the input before output, ask approval before answering it, and send one "
        "outcome per call.",
    ),
)

RULES: Final = (
    *_STREAMS,
    Rule(
        "VS-6",
        "always",
        (MODEL_MESSAGES,),
        "Every assistant tool-call that is not provider-executed has a tool-result in a tool message "
        "before the next user or system message and before the end ('Tool results are missing for "
        "tool calls {ids}.' when several).",
        source=f"{_PROMPT}; {_AI}/error/missing-tool-result-error.ts",
        error="Tool result is missing for tool call {id}.",
        fix="Answer every call with a tool-result part (an error as output type error-text) before "
        "the conversation moves on; convertToModelMessages does so for every finished tool part.",
    ),
    Rule(
        "VF-1",
        "always",
        (FULL_STREAM,),
        "One call, one id: the id of its tool-input-* parts is the toolCallId of its tool-call, "
        "results and approvals, and no other call of the stream starts or is called with it. A "
        "tool-input-start repeated before the call's tool-call is a deviation (warning).",
        source=f"{_FULL}; {_CALL} (tool-input-* and tool-call pass through by id); {_PARTS}. An error "
        f"from a consumer ({_FULL_EVIDENCE}): fed a second call under the first call's id, ai 7.0.173 "
        "streamText's response messages hold two tool-calls with one id, and its UI message one tool part "
        "with the second call's input (convertToModelMessages sends back one call): the first is lost; "
        "a tool-call repeated is recorded twice in the response messages. A tool-input-start repeated "
        "before the tool-call changes nothing there.",
        fix="Start and call each tool call once, with the provider's id on every part of it.",
    ),
    Rule(
        "VF-2",
        "always",
        (FULL_STREAM,),
        "Per call: tool-input-start, tool-input-delta*, tool-input-end, then tool-call: deltas only "
        "after the start and before the end, no input part after the tool-call, and a started call "
        "is called before the stream ends. A delta after tool-input-end and before the tool-call is a "
        "deviation (warning).",
        source=f"{_CALL} (passes the provider's parts through in order); {_TRACKER}. An error from a "
        f"consumer ({_FULL_EVIDENCE}): after a delta that follows its tool-call (a tool without execute: "
        "no result follows), ai 7.0.173 streamText's UI message holds the call in input-streaming and "
        "convertToModelMessages leaves it out of the conversation sent back. A delta after "
        "tool-input-end, before the tool-call, changes nothing there.",
        fix="Send the input parts of a call between its start and its end, then its tool-call.",
    ),
    Rule(
        "VF-3",
        "always",
        (FULL_STREAM,),
        "tool-result, tool-error and tool-output-denied name a tool-call made earlier in the "
        "stream; a call is asked for approval once, before its outcome, and a tool-approval-response "
        "answers a tool-approval-request; a call has one final outcome and nothing after it.",
        source=f"{_CALL} (a tool-result passes through with input undefined); {_RUN}; {_TEXT}. An error "
        f"from a consumer ({_FULL_EVIDENCE}): fed a result for a call never made, ai 7.0.173 streamText's "
        "UI message stream stops ('No tool invocation found for tool call ID') before the other call's "
        "result, and its response messages carry the orphan result (VP-1).",
        fix="Emit a call's tool-call before its approval and outcome, and one outcome per call.",
    ),
    Rule(
        "VF-4",
        "always",
        (FULL_STREAM,),
        "A tool-result or tool-error that is not provider-executed comes in the step of its tool-call: "
        "the SDK runs a step's client tools at the model call's end and sends finish-step after their "
        "results (only provider-executed results may be deferred to a later step).",
        source=f"{_RUN} (runs at model-call-end); {_TEXT} (finish-step in flush; supportsDeferredResults). "
        f"A warning from consumers ({_FULL_EVIDENCE}): fed a client result in the step after its call, "
        "ai 7.0.173 streamText records it in that later step, but its response messages, its UI message "
        "and convertToModelMessages keep both calls and both results: no call, argument or id changes.",
        fix="Send a client tool's outcome before the finish-step of the step that called it.",
        severity="warning",
    ),
    Rule(
        "VF-5",
        "always",
        (FULL_STREAM,),
        "Steps are well nested: start, then start-step .. finish-step any number of times, then "
        "finish; content and tool parts only inside a step, nothing after finish.",
        source=f"{_TEXT} ('start' first, enqueueStepPart, finish-step in the step's flush, finish last). "
        f"An error from a consumer ({_FULL_EVIDENCE}): fed a call and its result after finish, ai 7.0.173 "
        "streamText's response messages (what onFinish saves and the next request sends) lose them.",
        fix="Open a step before its parts, close it with finish-step, and end with one finish.",
    ),
    Rule(
        "VF-6",
        "eventually",
        (FULL_STREAM,),
        "A full stream that started ends with finish (or abort), with no step left open.",
        source=f"{_TEXT} (finish-step in each step's flush, finish in the run's flush). An error from a "
        f"consumer ({_FULL_EVIDENCE}): fed a stream without finish-step and finish, ai 7.0.173 streamText "
        "never settles: its full stream, its UI message stream and its steps never end.",
        fix="Close the last step with finish-step and the stream with finish.",
    ),
    Rule(
        "VF-7",
        "always",
        (FULL_STREAM,),
        "tool-call carries input, the parsed JSON value (not the JSON text the provider streamed: "
        "parseToolCall parses it; an unparsable call is invalid: true, dynamic, with a tool-error), "
        "and tool-result carries output; ai 4 named them args and result.",
        source=f"{_AI}/generate-text/parse-tool-call.ts; {_CALL}; {_AI}/generate-text/tool-call.ts, "
        "tool-result.ts; ai docs/08-migration-guides/26-migration-guide-5-0.mdx "
        f"(args/result -> input/output). An error from a consumer ({_FULL_EVIDENCE}): fed a tool-call "
        "whose input is JSON text, ai 7.0.173 streamText's UI message holds that string as the call's "
        "input, which convertToModelMessages sends back: the arguments become a string.",
        fix="JSON.parse the provider's input string, never forward it as text; write input and output.",
    ),
    Rule(
        "VF-8",
        "always",
        (FULL_STREAM,),
        "A client tool-call (not provider-executed, not invalid) is answered in its step by a "
        "tool-result, tool-error or approval request when its tool has an execute function; the "
        "stream cannot tell whether it has one, so this is a warning.",
        source=f"{_RUN} (calls with execute and no approval are run at model-call-end)",
        fix="When the tool runs server-side, emit its tool-result or tool-error before finish-step.",
        severity="warning",
        unconfirmed=True,
    ),
    Rule(
        "VF-9",
        "always",
        (FULL_STREAM,),
        "A tool-approval-request names a tool-call made earlier in the stream: the SDK looks the "
        "call up and otherwise sends an error part instead of the request.",
        source=f"{_CALL} (case 'tool-approval-request'); "
        f"{_AI}/error/tool-call-not-found-for-approval-error.ts",
        error='Tool call "{id}" not found for approval request "{approvalId}".',
        fix="Send the tool-call before its approval request, with the same toolCallId.",
    ),
    Rule(
        "VM-1",
        "always",
        (UI_MESSAGES,),
        "Each tool part's toolCallId is unique across the messages: convertToModelMessages turns "
        "each part into a tool-call, so a repeated id becomes a repeated call id downstream.",
        source=f"{_CONVERT}; {_UI} (a repeated tool-input-start resets the part). "
        "An error from consumers (issue 38, tests/integration/test_consumer_evidence_bodies.py): "
        "ai 7.0.173 Chat.addToolOutput writes the output into every tool part with the id, so a "
        "second call sharing it gets the first call's output.",
        fix="Keep one tool part per call; merge a call's updates into its part instead of adding one.",
    ),
    Rule(
        "VM-2",
        "always",
        (UI_MESSAGES,),
        "A tool part's fields match its state (VU-4): output only and always in output-available, "
        "errorText only and always in output-error, input in every state past input-streaming, "
        "approval in approval-requested / -responded and output-denied, a toolCallId string, and a "
        "type tool-<name> or dynamic-tool with toolName.",
        source=f"{_UI_TYPES}; {_AI}/ui/validate-ui-messages.ts (validateUIMessages)",
        error=_ZOD,
        fix="Set state and fields together, as the UI stream's chunks do.",
    ),
    Rule(
        "VM-3",
        "always",
        (UI_MESSAGES,),
        "Tool parts sit in assistant messages: convertToModelMessages keeps only text, file and data "
        "parts of user and system messages, so a tool part there is silently lost.",
        source=f"{_CONVERT}. "
        "An error from consumers (issue 38, tests/integration/test_consumer_evidence_bodies.py): "
        "ai 7.0.173 convertToModelMessages drops the tool part of a user message, its call "
        "and result with it.",
        fix="Put tool parts in the assistant message that made the call.",
    ),
    Rule(
        "VM-4",
        "always",
        (UI_MESSAGES,),
        "A tool part in input-available (a call without an outcome) is not followed by a user "
        "message: convertToModelMessages emits its tool-call without a result, and streamText "
        "raises AI_MissingToolResultsError (VS-6).  (Approval-requested parts before a later user "
        "message are dropped by convertToModelMessages; a list that ends with a call waiting for "
        "its output or approval is the client's state before addToolOutput.)",
        source=f"{_CONVERT}; {_PROMPT}",
        error="Tool result is missing for tool call {id}.",
        fix="Add the tool output (addToolOutput) before sending, or drop the part "
        "(ignoreIncompleteToolCalls).",
    ),
    Rule(
        "VP-1",
        "always",
        (MODEL_MESSAGES,),
        "Each tool-result answers a tool-call of an earlier assistant message that no result has "
        "answered yet; the SDK passes an orphan through and the provider rejects it.",
        source=f"{_PROMPT} (no check); miurla/morphic#136, dapr/dapr-agents#145, "
        "router-for-me/CLIProxyAPI#497",
        error="Invalid parameter: messages with role 'tool' must be a response to a preceeding "
        "message with 'tool_calls'.",
        fix="Answer only calls the conversation made, once each, after the assistant message.",
    ),
    Rule(
        "VP-2",
        "always",
        (MODEL_MESSAGES,),
        "Tool call ids are unique: no two tool-call parts of the conversation share a toolCallId.",
        source=f"{_PROMPT} (a set of ids: a repeat is answered by one result); BerriAI/litellm#23510. "
        "An error from consumers (issue 38, tests/integration/test_consumer_evidence_bodies.py): "
        "ai 7.0.173 generateText refuses two calls answered once (AI_MissingToolResultsError), "
        "but when they share an id takes the one result for both and sends the request with a call "
        "unanswered through @ai-sdk/openai 4.0.118 (chat, responses) and @ai-sdk/anthropic 4.0.105.",
        fix="Give every call its own id; never replay an assistant message.",
    ),
    Rule(
        "VP-3",
        "always",
        (MODEL_MESSAGES,),
        "Parts sit where modelMessageSchema allows them: tool-call in assistant messages, "
        "tool-result in tool messages (or assistant ones, provider-executed), "
        "tool-approval-response in tool messages; user and system messages carry none.",
        source=f"{_AI}/prompt/message.ts (modelMessageSchema); @ai-sdk/provider-utils src/types/*-message.ts",
        error="Invalid input",
        fix="Put calls in assistant messages and their results in the tool message after them.",
    ),
    Rule(
        "VP-4",
        "always",
        (MODEL_MESSAGES,),
        "A tool-call has a toolCallId and toolName string and an input; a tool-result has toolCallId, "
        "toolName and an output {type: text | json | error-text | error-json | content | "
        "execution-denied} (all but execution-denied with a value).",
        source=f"{_AI}/prompt/content-part.ts (toolCallPartSchema, toolResultPartSchema, outputSchema)",
        error=_ZOD,
        fix="Wrap a tool's output as {type: 'json', value} or {type: 'text', value}.",
    ),
)
