"""The rules of Vercel AI SDK streams: provider stream parts (VS-1 to VS-5) and UI chunks (VU-1 to VU-4)."""

from __future__ import annotations

from typing import Final

from toolwire.properties._rule import Rule

__all__ = ["RULES", "STREAM", "UI_STREAM"]

STREAM: Final = "aisdk-stream"
UI_STREAM: Final = "aisdk-ui-stream"

_PARTS = "@ai-sdk/provider 4.0.38 language-model-v4-stream-part.ts, -tool-call.ts, -tool-result.ts"
_TRACKER = "@ai-sdk/provider-utils 5.0.81 src/streaming-tool-call-tracker.ts"
_UI = "ai 7.0.173 src/ui/process-ui-message-stream.ts"

RULES: Final = (
    Rule(
        "VS-1",
        "always",
        (STREAM,),
        "One call, one id: the id of its tool-input-* parts is the toolCallId of its tool-call "
        "and tool-result, and no other call uses it ('It must be unique across all tool calls').",
        source=f"protocol-rules VS-1; {_PARTS}; ai 7 toUIMessageChunk (tool-input-start.id -> toolCallId)",
        fix="Emit tool-input-start once per call and tool-call once, with the same id; a "
        "converter must not open a second item for the tool-call of a streamed call (seed 000).",
    ),
    Rule(
        "VS-2",
        "always",
        (STREAM,),
        "Per call: tool-input-start, tool-input-delta*, tool-input-end, then tool-call, then a "
        "tool-result when provider-executed; nothing after the final result.",
        source=f"protocol-rules VS-2; {_TRACKER} (the reference order; the types do not mandate it)",
        fix="Send input parts only between the call's start and its end, and results only after "
        "its tool-call.",
    ),
    Rule(
        "VS-3",
        "eventually",
        (STREAM,),
        "After preliminary results there is always a final, non-preliminary tool result (V3, V4).",
        source=f"protocol-rules VS-3; {_PARTS} ('There always has to be a final, non-preliminary "
        "tool result.')",
        fix="End every call that streamed preliminary results with a result without preliminary: true.",
    ),
    Rule(
        "VS-4",
        "always",
        (STREAM,),
        "tool-call.input is a JSON-encoded string, whatever the delta encoding (V4 inputEncoding).",
        source=f"protocol-rules VS-4; {_PARTS} ('The final tool-call input must still be JSON-encoded')",
        fix="Send input as JSON.stringify of the arguments object.",
    ),
    Rule(
        "VS-5",
        "always",
        (STREAM,),
        "Every tool-input-start and tool-call carries an id: the reference tracker replaces an "
        "absent id with a generated one, so downstream ids differ from the provider's.",
        source=f"protocol-rules VS-5; {_TRACKER} (generateId() for absent or used ids)",
        fix="Pass the provider's call id through; generate one only when the provider has none, "
        "once per call, and use it on every part of that call.",
    ),
    Rule(
        "VU-1",
        "always",
        (UI_STREAM,),
        "A tool-input-delta follows a tool-input-start with the same toolCallId.",
        source=f"protocol-rules VU-1; {_UI}",
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
        source=f"protocol-rules VU-2; {_UI}",
        error='No tool invocation found for tool call ID "{id}".',
        fix="Use the toolCallId the input chunks used; never a new id for the output of a call.",
    ),
    Rule(
        "VU-3",
        "always",
        (UI_STREAM,),
        "tool-input-start comes once per toolCallId: a repeated start raises no error in the AI "
        "SDK but silently resets the part's input and state.",
        source=f"protocol-rules VU-3; {_UI}",
        fix="Start each call once; a converter that maps both a provider's start and its "
        "tool-call to tool-input-start loses the streamed input.",
    ),
    Rule(
        "VU-4",
        "always",
        (UI_STREAM,),
        "A tool part moves input-streaming -> input-available -> (approval-requested -> "
        "approval-responded) -> output-available | output-error | output-denied, and no further.",
        source=f"protocol-rules VU-4; ai 7.0.173 src/ui/ui-messages.ts; {_UI}",
        fix="Finish the input before output, ask approval before answering it, and send one "
        "outcome per call.",
    ),
)
