"""The rules of OpenAI Responses and Open Responses, each with its public source."""

from __future__ import annotations

from typing import Final

from toolwire.properties._rule import Rule

__all__ = ["INPUT", "MODELLED_SDK", "OPEN_STREAM", "RESPONSE", "RULES", "STREAM", "STREAMS"]

#: The SDK release whose types this family's model follows (pinned in pyproject.toml's dev
#: extra): a type outside it is passed over with one notice naming this, never a finding.
MODELLED_SDK: Final = "openai 3.57.0"

STREAM: Final = "openai-responses-stream"
OPEN_STREAM: Final = "open-responses-stream"
INPUT: Final = "openai-responses"
RESPONSE: Final = "openai-responses-response"
STREAMS: Final = (STREAM, OPEN_STREAM)

_GUIDE = "OpenAI function-calling guide, streaming (https://platform.openai.com/docs/guides/function-calling#streaming)"
_SDK = "openai 3.54.0 lib/streaming/responses/_responses.py (ResponseStreamState)"
#: Issue 38: how RS-9a, RS-9c and RS-9d judge the items of 2025-2026 hosted and client-executed tools.
_UNRECORDED = (
    ". A finding about items of a modelled type that no real recorded stream shows is a warning "
    "(issue 38; models openai_responses.RECORDED_STREAM_ITEM_TYPES: function_call, reasoning, message, "
    "mcp_list_tools and mcp_call are recorded, the last three in dotnet/extensions@42e8d28 "
    "OpenAIResponseClientTests.cs McpToolCall_ApprovalNotRequired_Streaming, "
    "tests/data/openai-responses-stream/good-mcp-calls-recorded.sse): no real stream of tool_search_call, "
    "custom_tool_call, shell_call, apply_patch_call, computer_call, code_interpreter_call, web_search_call, "
    "file_search_call, image_generation_call or program items was found, so what their events look like "
    "is known from SDK types and docs only"
)
_OR_SPEC = (
    "openresponses/openresponses src/pages/specification.mdx (05d5f81), schema/items.tsp, schema/events.tsp"
)

RULES: Final = (
    Rule(
        "RS-1a",
        "always",
        STREAMS,
        "response.function_call_arguments.delta/.done carry item_id equal to the id of the "
        "function_call item added at their output_index.",
        source=f"{_GUIDE}: item_id is 'The id of the function call item that the delta belongs to'; "
        "openapi ResponseFunctionCallArgumentsDeltaEvent"
        ". A warning (issue 38): no provider rejection is documented or recorded, and no consumer run on "
        "the violating trace (tests/integration/test_consumer_evidence.py) loses, duplicates or "
        "changes a call, its "
        "arguments or its id: openai 3.57.0 ResponseStreamState, @ai-sdk/openai 4.0.118 and "
        "langchain-openai 1.7.4 address argument events by output_index; pydantic-ai-slim 2.78.0 keys "
        "deltas by item_id, passes them over, and streams the arguments whole from output_item.done.",
        fix="Set item_id to the item's own id (fc_...), never to its call_id, and keep that one id "
        "from output_item.added to output_item.done.",
        severity="warning",
    ),
    Rule(
        "RS-1b",
        "always",
        (INPUT, RESPONSE),
        "An input function_call item's id, when present, begins with 'fc' (call_id is a "
        "different identifier).",
        source="nodetool-ai/nodetool#4252, continuedev/continue#11785",
        error="Invalid 'input[{n}].id': '{id}'. Expected an ID that begins with 'fc'.",
        fix="Leave id out of replayed function_call items, or send the fc_... item id; the "
        "call_... value belongs in call_id.",
    ),
    Rule(
        "RS-2",
        "always",
        (INPUT, RESPONSE),
        "Every function_call and function_call_output in input has a call_id of 1 to 64 characters.",
        source="openai-openapi FunctionToolCall, FunctionCallOutputItemParam (minLength 1, "
        "maxLength 64); AnswerDotAI/fastllm#45; openai/codex#42088 (missing call_id still rejected)",
        error="Invalid 'input[{n}].call_id': string too long. Expected a string with maximum "
        "length 64, but got a string with length {length} instead.",
        fix="Send the call_id the provider emitted (call_...); never derive it from names, "
        "arguments or results, and never leave it out of a function_call_output.",
    ),
    Rule(
        "RS-3",
        "eventually",
        (INPUT,),
        "Every function_call_output.call_id matches a function_call in the same input (or in "
        "the previous_response_id context).",
        source="continuedev/continue#10092",
        error="No tool call found for function call output with call_id {call_id}.",
        fix="Send each function_call_output with the call_id of a function_call in the same "
        "input, or drop the orphaned output.",
    ),
    Rule(
        "RS-3b",
        "always",
        (INPUT,),
        "One function_call_output per call_id (unconfirmed: no public source says how "
        "a repeated output is treated).",
        source="toolwire; continuedev/continue#10092 (outputs pair with calls by call_id)",
        fix="Send one function_call_output per call; a repeat usually means a converter duplicated an item.",
        severity="warning",
        unconfirmed=True,
    ),
    Rule(
        "RS-4",
        "eventually",
        (INPUT,),
        "Every function_call in input has a function_call_output before the model is sampled again.",
        source="tjardoo/openai-client#124",
        error="No tool output found for function call {call_id}.",
        fix="Answer every function_call with a function_call_output carrying its call_id.",
    ),
    Rule(
        "RS-4b",
        "always",
        (INPUT, RESPONSE),
        "One function_call per call_id (unconfirmed: no public source says how a repeated call is treated).",
        source="toolwire; tjardoo/openai-client#124, openai/openai-agents-python#1789",
        fix="Replay each function_call once; with previous_response_id, do not resend it at all.",
        severity="warning",
        unconfirmed=True,
    ),
    Rule(
        "RS-5",
        "always",
        (INPUT, RESPONSE),
        "No item id occurs twice in input (nor in the stored context).",
        source="openai/openai-agents-python#1789, MacPaw/OpenAI#432",
        error="Duplicate item found with id {id}. Remove duplicate items from your input and try again.",
        fix="Send each item once; with previous_response_id, do not resend items the server stored.",
    ),
    Rule(
        "RS-7a",
        "always",
        STREAMS,
        "The stream opens with response.created (then response.queued / response.in_progress, "
        "each once); no other event comes before response.created.",
        source=f"{_SDK}",
        error="Expected to have received `response.created` before `{type}`",
        fix="Emit response.created first, exactly once, then response.in_progress.",
    ),
    Rule(
        "RS-7b",
        "always",
        STREAMS,
        "Nothing follows the terminal event (response.completed, .failed or .incomplete). An "
        "envelope event after it (response.in_progress, the terminal event again) is a deviation "
        "(warning); an item event is an error.",
        source="docs/protocol-rules.md RS-7 (step 6 ends the stream). An error from a consumer (issue 38, "
        "tests/integration/test_consumer_evidence.py): openai 3.57.0 ResponseStreamState yields a "
        "call streamed after response.completed as events, but get_final_response() returns the "
        "completed response without it, while @ai-sdk/openai 4.0.118, langchain-openai 1.7.4 and "
        "pydantic-ai-slim 2.78.0 call it: the call is lost to one consumer. A response.in_progress "
        "or a second response.completed after the end changes no call in any of the four: a warning.",
        fix="Emit the terminal event last, once; flush every item before it.",
    ),
    Rule(
        "RS-7c",
        "always",
        STREAMS,
        "Exactly one response.output_item.added per function call (call_id).",
        source=f"{_GUIDE}: an output_item.added 'will be emitted for each function call'; "
        "openresponses/openresponses src/pages/specification.mdx#L154. "
        "An error from consumers (issue 38, tests/integration/test_consumer_evidence.py): a call added "
        "again as a third item is called twice by @ai-sdk/openai 4.0.118, langchain-openai 1.7.4 and "
        "pydantic-ai-slim 2.78.0, and openai 3.57.0 ResponseStreamState raises 'Response snapshot has "
        "conflicting output identities.' at response.completed.",
        fix="Keep one item per call_id across every emitting path (streamed tool-input-start "
        "and whole tool-call alike); reuse its id and output_index instead of adding another.",
    ),
    Rule(
        "RS-7d",
        "always",
        STREAMS,
        "Per function_call item: output_item.added, then arguments deltas, then one "
        "function_call_arguments.done, then one output_item.done.",
        source=f"{_GUIDE}"
        ". Severity error -> warning (issue 29): no rejection is documented or recorded for events out of"
        " this order after the item was added (openai 3.54.0 ResponseStreamState raises only for an event"
        " before its item, RS-9b).",
        fix="Emit the item's events in lifecycle order and each closing event once.",
        severity="warning",
    ),
    Rule(
        "RS-7e",
        "always",
        STREAMS,
        "function_call_arguments.done.arguments equals the concatenated deltas, and "
        "output_item.done.item.arguments equals it.",
        source=f"{_GUIDE}. An error from consumers (issue 38, "
        "tests/integration/test_consumer_evidence.py): on one "
        "stream, @ai-sdk/openai 4.0.118 streams the deltas as tool-input-delta and calls the tool with "
        "output_item.done's arguments, openai 3.57.0 ResponseStreamState snapshots the deltas and "
        "completes the call with output_item.done's, while langchain-openai 1.7.4 and pydantic-ai-slim "
        "2.78.0 (which warns) call it with the deltas: the call's arguments change with the consumer.",
        fix="Concatenate the deltas in arrival order and send that exact string in "
        "arguments.done and in the done item.",
    ),
    Rule(
        "RS-7f",
        "always",
        (STREAM,),
        "The item of output_item.added for a function_call carries call_id and name.",
        source="openai-openapi ResponseOutputItemAddedEvent, FunctionToolCall (call_id, name required). "
        "An error from consumers (issue 38, tests/integration/test_consumer_evidence.py): on an added item "
        "without them openai 3.57.0 ResponseStreamState raises 'Completed output item identity changed.' "
        "(no call), langchain-openai 1.7.4 yields the call with no id and no name, pydantic-ai-slim "
        "2.78.0 with a made-up id and no name, and @ai-sdk/openai 4.0.118 fails the event's schema (an "
        "error part) and streams none of the call's input.",
        fix="Put call_id and name on the added item; consumers key the call by them from the start.",
    ),
    Rule(
        "RS-8a",
        "always",
        STREAMS,
        "Every event carries an integer sequence_number (a stream that carries none at all predates "
        "the field: a warning).",
        source="openai-openapi (sequence_number required on every ResponseStreamEvent); added in "
        "openai-python#2372 (2025-05-21); a stream recorded before it, with none: tests/data/traffic "
        "DataDog__dd-trace-py response_function_call_streamed.sse (gpt-4.1, 2025-05-20). "
        "An error from consumers (issue 38, tests/integration/test_consumer_evidence.py): one event "
        "without it ends openai 3.57.0 responses.stream(response_id=..., starting_after=n) with a "
        "TypeError there, losing the later calls and the final response; whole-stream consumers "
        "(openai ResponseStreamState, @ai-sdk/openai "
        "4.0.118, langchain-openai 1.7.4, pydantic-ai-slim 2.78.0) keep the calls.",
        fix="Number every event, starting at 0.",
    ),
    Rule(
        "RS-8b",
        "always",
        STREAMS,
        "sequence_number strictly increases through the stream.",
        source="openai 3.57.0 types/responses (sequence_number: 'The sequence number of this event'), "
        "resources/responses/responses.py (starting_after: 'The sequence number of the event after which "
        "to start streaming'); Open Responses OR-6 "
        "('A monotonically increasing number', for extension events). An error from a consumer "
        "(issue 38, tests/integration/test_consumer_evidence.py): openai 3.57.0 "
        "responses.stream(response_id=..., "
        "starting_after=n) yields only events numbered above n, so a client resuming after a call "
        "loses every later event numbered back below n: the next call's added and done events.",
        fix="Use one counter per stream and increment it for every event you emit, in emit order.",
    ),
    Rule(
        "RS-9a",
        "always",
        STREAMS,
        "Exactly one response.output_item.added per output_index.",
        source=f"{_SDK}{_UNRECORDED}",
        error="Duplicate response output index {output_index}.",
        fix="Give every new item the next free output_index; never add an item twice.",
    ),
    Rule(
        "RS-9b",
        "always",
        (STREAM,),
        "No delta or done event for an output_index before its output_item.added.",
        source=f"{_SDK}",
        error="Received a content event for output index {output_index} before receiving its output item",
        fix="Emit output_item.added before any event that addresses the item.",
    ),
    Rule(
        "RS-9c",
        "always",
        STREAMS,
        "output_item.done keeps the identity of the added item: its type, and for a "
        "function_call its call_id and id.",
        source=f"{_SDK}{_UNRECORDED}",
        error="Completed output item identity changed.",
        fix="Close the item with the same type, id and call_id it was added with.",
    ),
    Rule(
        "RS-9d",
        "always",
        STREAMS,
        "response.completed comes only after every added item is done.",
        source=f"{_SDK}{_UNRECORDED}",
        error="Cannot complete response with unfinished output items.",
        fix="Emit output_item.done for every item before response.completed.",
    ),
    Rule(
        "RS-9e",
        "eventually",
        STREAMS,
        "The stream ends with a terminal event (response.completed, .failed or .incomplete).",
        source=f"{_SDK}",
        error="Didn't receive a `response.completed` event.",
        fix="Always close the stream with a terminal event, also on upstream errors (response.failed).",
    ),
    Rule(
        "OR-1",
        "always",
        (OPEN_STREAM,),
        "An output function_call item has all of type, id, call_id, name, arguments and status.",
        source=f"{_OR_SPEC} (FunctionCall). "
        "An error from consumers (issue 38, tests/integration/test_consumer_evidence_bodies.py): "
        "pydantic-ai-slim 2.78.0 starts a call whose added item has no id twice (once with "
        "arguments {}); openai 3.57.0, langchain-openai 1.7.4 and @ai-sdk/openai 4.0.118 (with an error "
        "part) keep it once.",
        fix="Fill every non-nullable field of the item on output_item.added and .done.",
    ),
    Rule(
        "OR-3",
        "always",
        (OPEN_STREAM,),
        "The first event of an item is response.output_item.added; no event addresses an "
        "output_index before it.",
        source=f"{_OR_SPEC}: 'The first event MUST always be response.output_item.added'. "
        "An error from consumers (issue 38, tests/integration/test_consumer_evidence_bodies.py): "
        "openai 3.57.0 ResponseStreamState raises on a delta before its item, and "
        "pydantic-ai-slim 2.78.0 calls the tool with arguments changed to INVALID_JSON.",
        fix="Emit output_item.added before any event that addresses the item.",
    ),
    Rule(
        "OR-4a",
        "always",
        (OPEN_STREAM,),
        "Item status goes in_progress (on added) to completed or incomplete (on done).",
        source=f"{_OR_SPEC}. "
        "A warning (issue 38, tests/integration/test_consumer_evidence_bodies.py): "
        "no provider error, and no consumer reads the status: openai 3.57.0, "
        "langchain-openai 1.7.4, pydantic-ai-slim 2.78.0 and @ai-sdk/openai 4.0.118 hand on the same "
        "calls from a done item still in_progress.",
        fix="Add items with status in_progress and close them completed (or incomplete).",
        severity="warning",
    ),
    Rule(
        "OR-4b",
        "always",
        (OPEN_STREAM,),
        "An incomplete item is the last item emitted, and the response ends incomplete.",
        source=f"{_OR_SPEC}: the item 'MUST be the last item emitted, "
        "and the containing response also MUST be in an incomplete state'. "
        "A warning (issue 38, tests/integration/test_consumer_evidence_bodies.py): "
        "no provider error, and no consumer reads it: openai 3.57.0, langchain-openai "
        "1.7.4, pydantic-ai-slim 2.78.0 and @ai-sdk/openai 4.0.118 hand on both calls when one "
        "follows an incomplete item in a completed response.",
        fix="After an incomplete item, emit no more items and end with response.incomplete.",
        severity="warning",
    ),
    Rule(
        "OR-5a",
        "always",
        (OPEN_STREAM,),
        "The SSE event field matches the type in the event body.",
        source=f"{_OR_SPEC}: 'The event field MUST match the type in the event body'. "
        "A warning (issue 38, tests/integration/test_consumer_evidence_bodies.py): "
        "no provider error, and no consumer reads the event field: openai 3.57.0, "
        "langchain-openai 1.7.4, pydantic-ai-slim 2.78.0 and @ai-sdk/openai 4.0.118 route by the "
        "body's type and hand on the same calls.",
        fix="Write event: <type> with the same string as the body's type.",
        severity="warning",
    ),
    Rule(
        "OR-5b",
        "eventually",
        (OPEN_STREAM,),
        "An SSE stream ends with the literal data: [DONE], and nothing follows it.",
        source=f"{_OR_SPEC}: 'The terminal event MUST be the literal string [DONE]'. "
        "An error from consumers (issue 38, tests/integration/test_consumer_evidence_bodies.py): "
        "events after a [DONE] are lost by openai 3.57.0 (the later calls, then "
        "'Didn't receive a response.completed event'), langchain-openai 1.7.4 and pydantic-ai-slim "
        "2.78.0 (the later calls); a stream with no [DONE] at all loses nothing.",
        fix="Send data: [DONE] once, after the terminal response event.",
    ),
    Rule(
        "OR-8",
        "always",
        STREAMS,
        "Item events carry their required fields: output_index and item on output_item "
        "events; item_id, output_index and delta (or arguments) on the argument events.",
        source=f"{_OR_SPEC} (events.tsp); openai-openapi. "
        "An error from consumers (issue 38, tests/integration/test_consumer_evidence.py): deltas without "
        "output_index end openai 3.57.0 ResponseStreamState ('Received a content event for output index "
        "None before receiving its output item': no call) and fail @ai-sdk/openai 4.0.118's schema (an "
        "error part, no input streamed); langchain-openai 1.7.4 and pydantic-ai-slim 2.78.0 keep the calls. "
        "Also (tests/integration/test_consumer_evidence_bodies.py): "
        "an argument delta without its delta is refused by openai 3.57.0 and "
        "pydantic-ai-slim 2.78.0 (TypeError), and makes langchain-openai 1.7.4 lose the call's arguments "
        "(@ai-sdk/openai 4.0.118 sends an error part and keeps the call).",
        fix="Send every required field; consumers route argument events by output_index and item_id.",
    ),
    Rule(
        "RS-10a",
        "always",
        (RESPONSE,),
        "Every function_call output item of a response carries call_id, name and arguments.",
        source="openai 3.54.0 types/responses/response_function_tool_call.py (arguments, call_id, name, "
        "type required); openai-openapi FunctionToolCall. "
        "An error from consumers (issue 38, tests/integration/test_consumer_evidence_bodies.py): "
        "an item without call_id comes out of openai 3.57.0 "
        "responses.create and langchain-openai 1.7.4 _construct_lc_result_from_responses_api with call id "
        "None; one without name is refused by langchain-openai.",
        fix="Copy call_id and name from the stream's output_item.added, and the arguments from "
        "function_call_arguments.done (or output_item.done).",
    ),
    Rule(
        "RS-10b",
        "always",
        (RESPONSE,),
        "A function_call item's arguments are a string of JSON text, not an object (text that does not "
        "parse as JSON is a warning: models emit it).",
        source="openai 3.54.0 types/responses/response_function_tool_call.py (arguments: str, 'A JSON string "
        "of the arguments to pass to the function'). "
        "An error from consumers (issue 38, tests/integration/test_consumer_evidence_bodies.py): "
        "arguments given as an object, or none, are refused by "
        "langchain-openai 1.7.4 _construct_lc_result_from_responses_api (TypeError) and handed on as a "
        "dict or None by openai 3.57.0 responses.create.",
        fix="Keep the arguments as the JSON text the model produced; json.dumps an object.",
    ),
    Rule(
        "RS-10c",
        "always",
        (RESPONSE,),
        'In a response whose status is "completed", every function_call item\'s status, when given, is '
        '"completed".',
        source="openai 3.54.0 types/responses/response.py (status), response_function_tool_call.py (status: "
        "in_progress, completed, incomplete); every recorded completed response: "
        "tests/data/traffic openai-responses-response"
        ". Severity error -> warning (issue 29): no provider or SDK rejection is documented or recorded.",
        fix="Take each item from the stream's output_item.done, whose status is final, not from "
        "output_item.added.",
        severity="warning",
    ),
)
