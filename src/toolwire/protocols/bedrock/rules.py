"""The rules of AWS Bedrock Converse, each with its public source (BR-1 to BR-4, BR-9)."""

from __future__ import annotations

from typing import Final

from toolwire.properties._rule import Rule

__all__ = ["CONVERSE", "MODELLED_SDK", "RESPONSE", "RULES", "STREAM"]

#: The SDK release whose types this family's model follows (pinned in pyproject.toml's dev
#: extra): a type outside it is passed over with one notice naming this, never a finding.
MODELLED_SDK: Final = "botocore 1.44.8"

CONVERSE: Final = "bedrock-converse"
STREAM: Final = "bedrock-converse-stream"
RESPONSE: Final = "bedrock-converse-response"

_MODEL = "botocore 1.44.5 data/bedrock-runtime/2023-09-30/service-2.json"
#: Where the stream rules' consumer evidence is pinned.
_EVIDENCE = "issue 38, tests/integration/test_consumer_evidence_bedrock.py"

RULES: Final = (
    Rule(
        "BR-1",
        "always",
        (CONVERSE, STREAM, RESPONSE),
        "toolUseId is 1..64 characters of [a-zA-Z0-9_.:-]; a tool name is 1..64 characters of [a-zA-Z0-9_-].",
        source=f"{_MODEL} (shapes ToolUseId, ToolName). Rejected, recorded: Bedrock's ValidationException "
        "\"Value at 'messages.2.member.content.1.member.toolUse.toolUseId' failed to satisfy constraint: "
        'Member must satisfy regular expression pattern: [a-zA-Z0-9_.:-]+" (and the same for '
        "toolResult.toolUseId and, with [a-zA-Z0-9_-]+, toolUse.name), "
        "https://github.com/tontinton/maki/issues/38; a name over 64 characters: 'Member must have length "
        "less than or equal to 64', https://github.com/openclaw/openclaw/issues/12892",
        fix="Map foreign ids injectively into 64 characters of [a-zA-Z0-9_.:-] and keep the map "
        "to answer results; sanitize tool names.",
    ),
    Rule(
        "BR-2",
        "always",
        (CONVERSE,),
        "All results for an assistant turn are in the immediately next user message, and in that "
        "one message only.",
        source="anomalyco/opencode#41780 (live, Amazon Nova Micro). Scope (issue 29): a toolUse with a "
        "type (botocore 1.44.8 ToolUseType server_tool_use) is a system tool's call, which Bedrock runs "
        "and answers in the same message: it waits for no toolResult (BR-9e leaves it out too).",
        error="Expected toolResult blocks at messages.{m}.content for the following Ids: {ids_text}",
        fix="Answer every toolUse of a turn in the one user message that follows it; never split "
        "parallel results over two messages.",
    ),
    Rule(
        "BR-3",
        "always",
        (CONVERSE,),
        "A user message holds no more toolResult blocks than the previous turn had toolUse blocks.",
        source="Just-Curieous/Curie#16",
        error="The number of toolResult blocks at messages.{m}.content exceeds the number of "
        "toolUse blocks of previous turn.",
        fix="Send one toolResult per toolUse of the turn just before; drop results whose call was "
        "trimmed from history.",
    ),
    Rule(
        "BR-4",
        "always",
        (CONVERSE, RESPONSE),
        "toolUse ids are unique within a message, and so are toolResult ids.",
        source="bvcyber/Cyber-AutoAgent-ng#72",
        error="The toolUse blocks at messages.{m}.content contain duplicate Ids: {id}",
        fix="Give every call its own id; a duplicate usually comes from an id derived from the tool name.",
    ),
    Rule(
        "BR-9a",
        "always",
        (STREAM,),
        "The stream is messageStart, content-block events, messageStop, then metadata.",
        source=f"{_MODEL} (ConverseStreamOutput). A warning from consumers (issue 38, "
        "tests/integration/test_consumer_evidence_streams.py): without messageStart, or with metadata "
        "before messageStop, pydantic-ai's Bedrock model (on botocore's parser) and "
        "@ai-sdk/amazon-bedrock hand both calls over; no rejection is recorded",
        fix="Emit messageStart first, every block event before messageStop, and metadata last.",
        severity="warning",
    ),
    Rule(
        "BR-9b",
        "always",
        (STREAM,),
        "contentBlockStart comes at most once per contentBlockIndex, and block indexes only grow "
        "(they may skip: Nova does).",
        source=f"{_MODEL}; indexes that skip (24 then 26, from amazon.nova-micro-v1:0): "
        "tests/data/traffic open-telemetry__opentelemetry-python-contrib "
        "test_invoke_model_with_response_stream_*_tool_call-*.i1.jsonl. An error from a consumer "
        f"({_EVIDENCE}): on a second block started at index 0, pydantic-ai-slim 2.78.0 "
        "BedrockConverseModel merges both calls into one (name get_weatherget_weather, input not JSON); "
        "@ai-sdk/amazon-bedrock 5.0.139 keeps both.",
        fix="Start each tool block once, at a new index after the blocks before it.",
    ),
    Rule(
        "BR-9c",
        "always",
        (STREAM,),
        "A toolUse delta or a contentBlockStop comes only for an open block (a toolUse block opens "
        "with contentBlockStart, the only event carrying its toolUseId); every block stops before "
        "messageStop.",
        source=f"{_MODEL} (ContentBlockStart carries toolUseId; ContentBlockDelta carries none). An "
        f"error from consumers ({_EVIDENCE}): @ai-sdk/amazon-bedrock 5.0.139 emits a call at its "
        "block's stop, so a block never stopped is lost after its whole input streamed, and a fragment "
        "after the stop is cut from the call's input; pydantic-ai-slim 2.78.0 BedrockConverseModel "
        "raises KeyError on that fragment (no call) and keeps a block never stopped.",
        fix="Send contentBlockStart with toolUseId and name before the input fragments, and "
        "correlate fragments by contentBlockIndex.",
    ),
    Rule(
        "BR-9d",
        "always",
        (STREAM,),
        "The delta.toolUse.input fragments of a block, concatenated, parse to a JSON object at its stop "
        "(no fragments, or only empty ones: the input is {}).",
        source=f"{_MODEL} (ToolUseBlock.input is a Document). An error from consumers (issue 38, "
        "tests/integration/test_consumer_evidence_streams.py): fragments that do not join to JSON reach "
        "pydantic-ai's Bedrock model as an INVALID_JSON wrapper and @ai-sdk/amazon-bedrock as input "
        "that is not JSON",
        fix="Stream the arguments of one call as fragments of one JSON object, on its own index.",
    ),
    Rule(
        "BR-9e",
        "eventually",
        (STREAM,),
        'messageStop carries stopReason "tool_use" when the message has toolUse blocks.',
        source=f"{_MODEL} (StopReason)"
        ". Severity error -> warning (issue 29): no rejection is documented or recorded; StopReason also "
        "has max_tokens, malformed_tool_use and others that can end a message with toolUse blocks. "
        f"Confirmed by consumers ({_EVIDENCE}): on end_turn, pydantic-ai-slim 2.78.0 "
        "BedrockConverseModel and @ai-sdk/amazon-bedrock 5.0.139 hand both calls over.",
        fix='End a turn that calls tools with stopReason "tool_use".',
        severity="warning",
    ),
    Rule(
        "BR-10a",
        "always",
        (RESPONSE,),
        "Every toolUse block of output.message carries toolUseId, name and input, and input is a JSON "
        "object.",
        source=f"{_MODEL} (ConverseOutput, ToolUseBlock: toolUseId, name, input required; input a Document). "
        "An error from consumers (issue 38, tests/integration/test_consumer_evidence_bodies.py): "
        "botocore 1.44.8's parser hands on a toolUse without "
        "toolUseId, and its parameter validation refuses the next Converse request that sends that "
        "message back (ParamValidationError); an input given as text it hands on unchanged.",
        fix="Parse the concatenated delta.toolUse.input fragments into an object ({} for none) and keep the "
        "start's toolUseId and name.",
    ),
    Rule(
        "BR-10b",
        "always",
        (RESPONSE,),
        'stopReason is "tool_use" when output.message has toolUse blocks, and only then.',
        source=f"{_MODEL} (ConverseResponse.stopReason, StopReason); every recorded response with "
        "toolUse stops tool_use: tests/data/traffic bedrock-converse-response"
        ". Severity error -> warning (issue 29): no rejection is documented or recorded (see BR-9e).",
        fix='Take stopReason from the stream\'s messageStop; a turn with toolUse blocks stops "tool_use".',
        severity="warning",
    ),
)
