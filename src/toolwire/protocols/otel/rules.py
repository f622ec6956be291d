"""The rules of OpenTelemetry GenAI messages, as the semantic conventions state them."""

from __future__ import annotations

from typing import Final

from toolwire.properties._rule import Rule

__all__ = ["INPUT", "OUTPUT", "RULES"]

INPUT: Final = "otel-genai"
OUTPUT: Final = "otel-genai-output"

_SCHEMA = (
    "OpenTelemetry GenAI semantic conventions, gen-ai-input-messages.json / gen-ai-output-messages.json "
    "(https://github.com/open-telemetry/semantic-conventions/tree/main/docs/gen-ai)"
)
#: Issue 38: no provider error text, and no consumer to run.
_WARNING = (
    ". A warning (issue 38): a GenAI span records a conversation and is sent to no provider, so no "
    "provider's error applies to it; and no consumer of these attributes runs offline here to show a "
    "call lost or changed (looked for: trace viewers, which are services - Arize Phoenix, Langfuse, "
    "Logfire, MLflow tracing; opentelemetry-util-genai writes the attributes and does not read them)"
)
_SPANS = (
    "OpenTelemetry GenAI spans, gen_ai.input.messages: 'Messages MUST be provided in the order they were "
    "sent to the model' (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/)"
)

RULES: Final = (
    Rule(
        "GA-1",
        "always",
        (INPUT, OUTPUT),
        "Every tool_call part has a name (a string); its id, when given, is a non-empty string.",
        source=f"{_SCHEMA}: ToolCallRequestPart requires type and name; id is a string or null{_WARNING}",
        fix="Record the tool's name on every tool_call part, and the provider's call id (or null when "
        "the provider gives none), never an empty id.",
        severity="warning",
    ),
    Rule(
        "GA-2",
        "always",
        (INPUT,),
        "Every tool_call_response part carries the tool's answer under 'response'.",
        source=f"{_SCHEMA}: ToolCallResponsePart requires type and response{_WARNING}",
        fix="Name the answer's field 'response' (not 'result' or 'content').",
        severity="warning",
    ),
    Rule(
        "GA-3",
        "always",
        (INPUT,),
        "A tool_call_response comes after an assistant message with tool_call parts (or after other "
        "responses to it), never with no call before it.",
        source=f"{_SPANS}; every provider rejects a tool result with no call before it{_WARNING}",
        fix="Keep the assistant message whose calls the responses answer, or drop the responses.",
        severity="warning",
    ),
    Rule(
        "GA-4",
        "always",
        (INPUT,),
        "Each tool_call_response's id equals the id of a tool_call of the nearest assistant message "
        "with calls before it.",
        source=f"{_SCHEMA}: ToolCallResponsePart.id is the 'Unique tool call identifier'; {_SPANS}{_WARNING}",
        fix="Answer with the call's id exactly as the tool_call part carried it (no added spaces, "
        "prefixes or renaming).",
        severity="warning",
    ),
    Rule(
        "GA-5",
        "eventually",
        (INPUT,),
        "Every tool_call of an assistant message is answered by a tool_call_response before the next "
        "message that is not a response.",
        source=f"{_SPANS}; every provider rejects a conversation that leaves a call unanswered{_WARNING}",
        fix="Answer every call (an error is an answer), or remove the unanswered calls.",
        severity="warning",
    ),
    Rule(
        "GA-6",
        "always",
        (INPUT, OUTPUT),
        "No call id repeats among the tool_call parts of one turn, and no call is answered twice.",
        source=f"{_SCHEMA}: the id is a 'Unique identifier for the tool call'{_WARNING}",
        fix="Give each call its own id and answer it once.",
        severity="warning",
    ),
)
