"""OpenAI Responses and Open Responses: stream events and input items.

Src: openai-openapi ``ResponseStreamEvent``, ``FunctionToolCall``,
``FunctionCallOutputItemParam``; ``openai`` 3.57.0
``types/responses/response_stream_event.py``; openresponses
``schema/events.tsp`` and ``schema/items.tsp``.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "ARGS_DELTA",
    "ARGS_DONE",
    "CALL_ID_MAX",
    "CALL_ID_MIN",
    "COMPLETED",
    "CREATED",
    "ERROR",
    "FAILED",
    "FUNCTION_CALL",
    "FUNCTION_CALL_ITEM_ID_PREFIX",
    "FUNCTION_CALL_OUTPUT",
    "INCOMPLETE",
    "INPUT_ITEM_TYPES",
    "IN_PROGRESS",
    "ITEM_ADDED",
    "ITEM_DONE",
    "ITEM_EVENT_TYPES",
    "KNOWN_EVENT_TYPES",
    "OPEN_RESPONSES_FUNCTION_CALL_FIELDS",
    "OUTPUT_ITEM_TYPES",
    "QUEUED",
    "RECORDED_STREAM_ITEM_TYPES",
    "TERMINAL_EVENT_TYPES",
    "is_extension_type",
]

CREATED: Final = "response.created"
QUEUED: Final = "response.queued"
IN_PROGRESS: Final = "response.in_progress"
COMPLETED: Final = "response.completed"
FAILED: Final = "response.failed"
INCOMPLETE: Final = "response.incomplete"
ERROR: Final = "error"
ITEM_ADDED: Final = "response.output_item.added"
ITEM_DONE: Final = "response.output_item.done"
ARGS_DELTA: Final = "response.function_call_arguments.delta"
ARGS_DONE: Final = "response.function_call_arguments.done"

FUNCTION_CALL: Final = "function_call"
FUNCTION_CALL_OUTPUT: Final = "function_call_output"

#: RS-2 / OR-1: ``call_id`` length bounds (openapi ``minLength: 1``, ``maxLength: 64``).
CALL_ID_MIN: Final = 1
CALL_ID_MAX: Final = 64
#: RS-1: an input ``function_call`` item id must begin with this.
FUNCTION_CALL_ITEM_ID_PREFIX: Final = "fc"
#: OR-1: the output ``FunctionCall`` requires all of these.
OPEN_RESPONSES_FUNCTION_CALL_FIELDS: Final = ("type", "id", "call_id", "name", "arguments", "status")

#: The output item types of ``openai`` 3.57.0 ``ResponseOutputItem`` (hosted tools included:
#: tool search, MCP, custom tools, shell, code interpreter ...).  Each is a known item whose
#: lifecycle at its ``output_index`` is checked; any other type is passed over with a notice.
OUTPUT_ITEM_TYPES: Final = frozenset(
    {
        "additional_tools",
        "apply_patch_call",
        "apply_patch_call_output",
        "code_interpreter_call",
        "compaction",
        "computer_call",
        "computer_call_output",
        "custom_tool_call",
        "custom_tool_call_output",
        "file_search_call",
        "function_call",
        "function_call_output",
        "image_generation_call",
        "local_shell_call",
        "local_shell_call_output",
        "mcp_approval_request",
        "mcp_approval_response",
        "mcp_call",
        "mcp_list_tools",
        "message",
        "program",
        "program_output",
        "reasoning",
        "shell_call",
        "shell_call_output",
        "tool_search_call",
        "tool_search_output",
        "web_search_call",
    }
)

#: The output item types whose streamed lifecycle a real recording shows (issue 38): function_call
#: and reasoning (tests/data/traffic, 43 OpenAI streams), mcp_list_tools, mcp_call and message
#: (tests/data/openai-responses-stream/good-mcp-calls-recorded.sse, dotnet/extensions).  A finding
#: about the lifecycle of an item of another modelled type (tool search, custom tools, shell,
#: apply_patch, computer use, code interpreter, web and file search, image generation, programs ...:
#: known from SDK types and docs only) is a warning until a recording shows that type.
RECORDED_STREAM_ITEM_TYPES: Final = frozenset(
    {"function_call", "mcp_call", "mcp_list_tools", "message", "reasoning"}
)

#: The input item types of ``openai`` 3.57.0 ``ResponseInputItemParam``.  Each is known: its ``id``
#: is judged (RS-5), and ``function_call`` / ``function_call_output`` pair (RS-1 to RS-4); any
#: other type is passed over with a notice.  A message (and an ``item_reference``) may omit ``type``.
INPUT_ITEM_TYPES: Final = OUTPUT_ITEM_TYPES | {
    "compaction_trigger",
    "configuration_update",
    "item_reference",
}

TERMINAL_EVENT_TYPES: Final = frozenset({COMPLETED, FAILED, INCOMPLETE})

#: Events that address an output item by ``output_index`` (besides added/done and
#: the function-call argument events).  ``openai`` 3.57.0 ``ResponseStreamEvent``.
ITEM_EVENT_TYPES: Final = frozenset(
    {
        "response.audio.delta",
        "response.audio.done",
        "response.audio.transcript.delta",
        "response.audio.transcript.done",
        "response.code_interpreter_call_code.delta",
        "response.code_interpreter_call_code.done",
        "response.code_interpreter_call.completed",
        "response.code_interpreter_call.in_progress",
        "response.code_interpreter_call.interpreting",
        "response.compaction.compacting",
        "response.content_part.added",
        "response.content_part.done",
        "response.custom_tool_call_input.delta",
        "response.custom_tool_call_input.done",
        "response.file_search_call.completed",
        "response.file_search_call.in_progress",
        "response.file_search_call.searching",
        "response.image_generation_call.completed",
        "response.image_generation_call.generating",
        "response.image_generation_call.in_progress",
        "response.image_generation_call.partial_image",
        "response.mcp_call.completed",
        "response.mcp_call.failed",
        "response.mcp_call.in_progress",
        "response.mcp_call_arguments.delta",
        "response.mcp_call_arguments.done",
        "response.mcp_list_tools.completed",
        "response.mcp_list_tools.failed",
        "response.mcp_list_tools.in_progress",
        "response.output_text.annotation.added",
        "response.output_text.delta",
        "response.output_text.done",
        "response.reasoning_summary_part.added",
        "response.reasoning_summary_part.done",
        "response.reasoning_summary_text.delta",
        "response.reasoning_summary_text.done",
        "response.reasoning_text.delta",
        "response.reasoning_text.done",
        "response.refusal.delta",
        "response.refusal.done",
        "response.shell_call_command.added",
        "response.shell_call_command.delta",
        "response.shell_call_command.done",
        "response.shell_call_output_content.delta",
        "response.shell_call_output_content.done",
        "response.web_search_call.completed",
        "response.web_search_call.in_progress",
        "response.web_search_call.searching",
    }
)

#: Every stream event type the monitor models: its handlers', the items' events and the envelope's
#: (tests/unit/test_vocabulary.py holds it to the pinned SDK's ResponseStreamEvent union).
KNOWN_EVENT_TYPES: Final = ITEM_EVENT_TYPES | {
    CREATED,
    QUEUED,
    IN_PROGRESS,
    COMPLETED,
    FAILED,
    INCOMPLETE,
    ERROR,
    ITEM_ADDED,
    ITEM_DONE,
    ARGS_DELTA,
    ARGS_DONE,
}


def is_extension_type(event_type: str) -> bool:
    """OR-6: extension events carry an implementor-slug prefix such as ``acme:``.

    >>> is_extension_type("acme:trace"), is_extension_type("response.created")
    (True, False)
    """
    return ":" in event_type
