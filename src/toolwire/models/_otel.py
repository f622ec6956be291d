"""OpenTelemetry GenAI messages: the vocabulary of ``gen_ai.input.messages`` / ``gen_ai.output.messages``.

The JSON schemas: https://github.com/open-telemetry/semantic-conventions/blob/main/docs/gen-ai/
gen-ai-input-messages.json and gen-ai-output-messages.json.  A message is ``{"role", "parts"}``;
a tool call is a part ``{"type": "tool_call", "id", "name", "arguments"}`` (``id`` may be null,
``arguments`` any value: an object, or its JSON text) and a tool's answer a part
``{"type": "tool_call_response", "id", "response"}``.
"""

from typing import Final

TOOL_CALL: Final = "tool_call"
TOOL_CALL_RESPONSE: Final = "tool_call_response"
TEXT: Final = "text"
ROLE_ASSISTANT: Final = "assistant"
ROLE_TOOL: Final = "tool"
#: Every role the schema names (it allows any other string too).
ROLES: Final = frozenset({"system", "user", "assistant", "tool"})
#: Part types of other message formats that carry ``parts`` (the AI SDK's UI messages): not GenAI.
FOREIGN_PREFIXES: Final = ("tool-", "step-", "data-", "source-", "dynamic-tool")
