"""Shape features of OpenAI Responses traffic: stream events (OpenAI's, Open Responses') and input items."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from toolwire.properties._body import BodyTurn, body_catalogue
from toolwire.properties._shapes import (
    ARGUMENT_FEATURES,
    INTERLEAVED,
    Feature,
    Shapes,
    arguments_shapes,
    calls_shapes,
    hashable,
    is_json,
)
from toolwire.protocols.openai_responses.body import output_turns

__all__ = ["INPUT_SHAPES", "RESPONSE_SHAPES", "STREAM_SHAPES"]

_TYPES: Final = "openai-python types/responses"
#: Open Responses (no recorded traffic of its own): openresponses/openresponses schema/*.tsp.
_OR: Final = "openresponses schema"
_OR_DELTAS: Final = f"{_OR}/events.tsp: response.function_call_arguments.delta (arguments as text deltas)"
_OR_CALLS: Final = f"{_OR}/responses.tsp: parallel_tool_calls; items.tsp: one FunctionCall item per call"
#: Models write a \uXXXX escape token by token, so a delta can end inside one.
_ESCAPES: Final = "ggml-org/llama.cpp#16526, assistant-ui/assistant-ui#6355 (escapes cut between deltas)"
#: Item types of the built-in (hosted) tools besides web search, MCP and custom tools.
_HOSTED: Final = frozenset(
    {
        "file_search_call",
        "code_interpreter_call",
        "image_generation_call",
        "computer_call",
        "computer_call_output",
        "local_shell_call",
        "local_shell_call_output",
        "shell_call",
        "shell_call_output",
        "apply_patch_call",
        "apply_patch_call_output",
    }
)
_MCP: Final = frozenset({"mcp_call", "mcp_list_tools", "mcp_approval_request", "mcp_approval_response"})


def _item_kind(kind: Any) -> Iterator[str]:
    """Features of one item type, shared by the stream's output items and a request's input items."""
    if not isinstance(kind, str):
        return
    if kind == "reasoning":
        yield "reasoning-item"
    elif kind in ("custom_tool_call", "custom_tool_call_output"):
        yield "custom-tool-call-item"
    elif kind in ("tool_search_call", "tool_search_output"):
        yield "tool-search-item"
    elif kind in _MCP:
        yield "mcp-call-item"
    elif kind == "web_search_call":
        yield "web-search-call-item"
    elif kind in _HOSTED:
        yield "other-hosted-tool-item"


def _documented(feature: Feature) -> Feature:
    """The shared argument features, with the Open Responses schema that streams them."""
    source = _ESCAPES if feature.name == "escape-split-across-fragments" else _OR_DELTAS
    return Feature(feature.name, feature.summary, documented=source)


_ITEMS: Final = (
    Feature("reasoning-item", "a reasoning item", documented=f"{_OR}/items.tsp: ReasoningBody"),
    Feature(
        "encrypted-reasoning",
        "a reasoning item with encrypted_content",
        documented=f"{_OR}/items.tsp: ReasoningBody.encrypted_content",
    ),
    Feature(
        "custom-tool-call-item",
        "a custom_tool_call item (free-form input)",
        documented=f"{_TYPES}/response_custom_tool_call.py",
    ),
    Feature(
        "mcp-call-item",
        "an mcp_call, mcp_list_tools or mcp_approval_request item",
        documented=f"{_TYPES}/response_output_item.py: McpCall",
    ),
    Feature(
        "tool-search-item",
        "a tool_search_call or tool_search_output item (tool search loads deferred tools)",
        documented=f"{_TYPES}/response_tool_search_call.py, response_tool_search_output_item.py",
    ),
    Feature("web-search-call-item", "a web_search_call item"),
    Feature(
        "other-hosted-tool-item",
        "another built-in tool item: file_search_call, code_interpreter_call, ...",
        documented=(
            f"{_TYPES}/response_output_item.py: ResponseFileSearchToolCall, ResponseCodeInterpreterToolCall"
        ),
    ),
)

_STREAM: Final = (
    Feature("several-calls", "two or more function_call items", documented=_OR_CALLS),
    Feature("same-tool-twice", "two function_call items of one tool", documented=_OR_CALLS),
    Feature("interleaved-fragments", "argument deltas of two function_call items interleave"),
    *map(_documented, ARGUMENT_FEATURES),
    Feature(
        "no-calls",
        "a stream without function_call items",
        documented=f"{_TYPES}/response_output_message.py (a text answer)",
    ),
    *_ITEMS,
    Feature(
        "reasoning-summary-streamed",
        "response.reasoning_summary_text.delta events",
        documented=f"{_OR}/events.tsp: response.reasoning_summary_part.added, reasoning_summary_text.delta",
    ),
    Feature(
        "reasoning-text-streamed",
        "response.reasoning_text.delta events (raw reasoning)",
        documented=f"{_TYPES}/response_reasoning_text_delta_event.py",
    ),
    Feature(
        "message-item", "an output message item (text)", documented=f"{_TYPES}/response_output_message.py"
    ),
    Feature(
        "text-before-calls",
        "a message item before a function_call item",
        documented=f"{_TYPES}/response_output_message.py",
    ),
    Feature(
        "output-text-logprobs",
        "response.output_text.delta events carry logprobs",
        documented=f"{_TYPES}/response_text_delta_event.py: logprobs",
    ),
    Feature(
        "refusal-part",
        "a refusal content part (response.refusal.delta)",
        documented=f"{_TYPES}/response_refusal_delta_event.py",
    ),
    Feature(
        "obfuscation-field",
        'delta events carry "obfuscation" (stream_options.include_obfuscation)',
        documented=f"{_OR}/events.tsp: obfuscation on the delta events",
    ),
    Feature("done-carries-name", "function_call_arguments.done carries the function name"),
    Feature("no-sequence-number", "events without sequence_number"),
    Feature(
        "completed-with-usage",
        "response.completed carries usage",
        documented=f"{_OR}/responses.tsp: ResponseResource.usage",
    ),
    Feature(
        "incomplete-response",
        "the stream ends with response.incomplete (max_output_tokens)",
        documented=f"{_TYPES}/response_incomplete_event.py",
    ),
    Feature(
        "failed-response",
        "the stream ends with response.failed or an error event",
        documented=f"{_TYPES}/response_failed_event.py, response_error_event.py",
    ),
)


def _stream(trace: list[Any]) -> Iterator[str]:
    pieces: dict[Any, list[str]] = {}
    names: list[Any] = []
    kinds: list[Any] = []
    last: Any = None
    for event in trace:
        if not isinstance(event, dict):
            continue
        kind = event.get("type")
        if "sequence_number" not in event:
            yield "no-sequence-number"
        if "obfuscation" in event:
            yield "obfuscation-field"
        item = event.get("item")
        if kind == "response.output_item.added" and isinstance(item, dict):
            kinds.append(item.get("type"))
            yield from _item_kind(item.get("type"))
            if item.get("type") == "function_call":
                last = hashable(item.get("id"))
                pieces.setdefault(last, [])
                names.append(item.get("name"))
            elif item.get("type") == "message":
                yield "message-item"
        elif kind == "response.output_item.done" and isinstance(item, dict):
            if item.get("type") == "reasoning" and item.get("encrypted_content"):
                yield "encrypted-reasoning"
        elif kind == "response.function_call_arguments.delta":
            key = hashable(event.get("item_id"))
            if key != last and pieces.get(key):
                yield INTERLEAVED
            last = key
            if isinstance(event.get("delta"), str):
                pieces.setdefault(key, []).append(event["delta"])
        elif kind == "response.function_call_arguments.done":
            if "name" in event:
                yield "done-carries-name"
        elif kind in ("response.reasoning_summary_text.delta", "response.reasoning_summary_part.added"):
            yield "reasoning-summary-streamed"
        elif kind == "response.reasoning_text.delta":
            yield "reasoning-text-streamed"
        elif kind == "response.output_text.delta":
            if event.get("logprobs"):
                yield "output-text-logprobs"
        elif kind == "response.refusal.delta":
            yield "refusal-part"
        elif kind == "response.completed":
            response = event.get("response")
            if isinstance(response, dict) and response.get("usage"):
                yield "completed-with-usage"
        elif kind == "response.incomplete":
            yield "incomplete-response"
        elif kind in ("response.failed", "error"):
            yield "failed-response"
    if "message" in kinds and "function_call" in kinds[kinds.index("message") :]:
        yield "text-before-calls"
    if not names:
        yield "no-calls"
        return
    yield from calls_shapes(names)
    for texts in pieces.values():
        yield from arguments_shapes(texts)


#: One catalogue for OpenAI's stream and Open Responses'.
STREAM_SHAPES: Final = Shapes(_STREAM, lambda trace: set(_stream(trace)))

_INPUT: Final = (
    Feature("several-calls", "two or more function_call items in a row (no output or message between)"),
    Feature("same-tool-twice", "two function_call items of one tool in a row"),
    Feature("empty-arguments", 'a function_call with arguments "" or "{}"'),
    Feature("several-turns", "function_call items in two or more turns (messages between)"),
    Feature(
        "results-out-of-call-order",
        "function_call_output items answer the calls in another order",
        documented="pairing is by call_id (docs/protocol-rules.md RS-1); outputs in completion order: "
        "can1357/oh-my-pi#11179 (openai-codex), vercel/ai#16567",
    ),
    Feature(
        "outputs-between-calls", "a function_call_output before the next function_call (call, output, call)"
    ),
    Feature("call-item-id", 'function_call items carry their item "id" (fc_...)'),
    Feature("call-item-without-id", 'function_call items without an item "id"'),
    Feature("call-item-status", 'function_call items carry "status"'),
    Feature("output-string", "a function_call_output whose output is plain text"),
    Feature("output-json-string", "a function_call_output whose output is JSON text"),
    Feature(
        "output-empty",
        "a function_call_output with empty output",
        documented=f"{_TYPES}/response_input_item_param.py: FunctionCallOutput.output (any string); tools "
        'that print nothing answer "": earendil-works/pi#3309, dirge-code/dirge#757',
    ),
    Feature(
        "output-content-list",
        "a function_call_output whose output is a list of input_text / input_image parts",
        documented=f"{_TYPES}/response_input_item_param.py: FunctionCallOutput.output",
    ),
    *_ITEMS,
    Feature("system-message", "a system or developer message"),
    Feature("developer-message", "a developer message"),
    Feature("message-content-parts", "a message whose content is a list of input_text / output_text parts"),
    Feature("message-content-string", "a message whose content is a string"),
    Feature("typed-message-item", 'a message item with "type": "message"'),
    Feature("assistant-message", "an assistant message item (the model's text replayed)"),
    Feature(
        "item-reference",
        "an item_reference item (an earlier output by id)",
        documented=f"{_TYPES}/response_input_item_param.py: ItemReference",
    ),
)


def _inputs(trace: list[Any]) -> Iterator[str]:
    turns = 0
    run: list[Any] = []
    pending: list[Any] = []
    answered: list[Any] = []
    previous: Any = None
    for item in trace:
        if not isinstance(item, dict):
            continue
        kind, role = item.get("type"), item.get("role")
        yield from _item_kind(kind)
        if kind == "function_call":
            if previous == "function_call_output":
                yield "outputs-between-calls"
            if not pending:
                turns += 1
            run.append(item.get("name"))
            pending.append(item.get("call_id"))
            yield "call-item-id" if "id" in item else "call-item-without-id"
            if "status" in item:
                yield "call-item-status"
            if item.get("arguments") in ("", "{}"):
                yield "empty-arguments"
        elif kind == "function_call_output":
            yield from calls_shapes(run)
            run = []
            answered.append(item.get("call_id"))
            yield _output(item.get("output"))
        elif kind == "reasoning":
            if item.get("encrypted_content"):
                yield "encrypted-reasoning"
        elif kind == "item_reference":
            yield "item-reference"
        elif role is not None or kind == "message":
            yield from calls_shapes(run)
            run = []
            yield from _order(pending, answered)
            pending, answered = [], []
            yield from _message(item, kind, role)
        if kind != "reasoning":
            previous = kind or "message"
    yield from calls_shapes(run)
    yield from _order(pending, answered)
    if turns > 1:
        yield "several-turns"


def _order(pending: list[Any], answered: list[Any]) -> Iterator[str]:
    asked = [call for call in pending if call in answered]
    if [call for call in answered if call in pending] != asked:
        yield "results-out-of-call-order"


def _output(output: Any) -> str:
    if isinstance(output, list):
        return "output-content-list"
    if output in ("", None):
        return "output-empty"
    if isinstance(output, str) and output.lstrip()[:1] in ("{", "[") and is_json(output):
        return "output-json-string"
    return "output-string"


def _message(item: dict[str, Any], kind: Any, role: Any) -> Iterator[str]:
    if role in ("system", "developer"):
        yield "system-message"
    if role == "developer":
        yield "developer-message"
    if role == "assistant":
        yield "assistant-message"
    if kind == "message":
        yield "typed-message-item"
    content = item.get("content")
    if isinstance(content, list):
        yield "message-content-parts"
    elif isinstance(content, str):
        yield "message-content-string"


INPUT_SHAPES: Final = Shapes(_INPUT, lambda trace: set(_inputs(trace)))


_RESPONSE: Final = (
    Feature("reasoning-item", "a reasoning item in output"),
    Feature("no-reasoning-item", "no reasoning item in output"),
)


def _response(body: dict[str, Any], turns: list[BodyTurn]) -> Iterator[str]:
    items = [i for i in body.get("output") or [] if isinstance(i, dict)]
    yield "reasoning-item" if any(i.get("type") == "reasoning" for i in items) else "no-reasoning-item"


def _texts(body: dict[str, Any], turn: BodyTurn) -> bool:
    return any(isinstance(i, dict) and i.get("type") == "message" for i in body.get("output") or [])


RESPONSE_SHAPES: Final = body_catalogue(output_turns, _RESPONSE, _texts, _response)
