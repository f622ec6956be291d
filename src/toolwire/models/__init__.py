"""The wire: shapes of the events and messages that carry tool calls, and how raw
SSE / JSON Lines / JSON become them.  Imports nothing from its sibling layers."""

from toolwire.models import _aisdk as aisdk
from toolwire.models import _anthropic as anthropic
from toolwire.models import _bedrock as bedrock
from toolwire.models import _gemini as gemini
from toolwire.models import _mcp as mcp
from toolwire.models import _mistral as mistral
from toolwire.models import _openai_chat as openai_chat
from toolwire.models import _openai_responses as openai_responses
from toolwire.models._wire import (
    DONE,
    MAX_LINE_BYTES,
    Frame,
    Hot,
    InputFormat,
    ProblemSink,
    decode_json,
    detect_format,
    plain,
    read_frames,
    read_jsonl,
    read_sse,
    sniff,
)

__all__ = [
    "DONE",
    "MAX_LINE_BYTES",
    "Frame",
    "Hot",
    "InputFormat",
    "ProblemSink",
    "aisdk",
    "anthropic",
    "bedrock",
    "decode_json",
    "detect_format",
    "gemini",
    "mcp",
    "mistral",
    "openai_chat",
    "openai_responses",
    "plain",
    "read_frames",
    "read_jsonl",
    "read_sse",
    "sniff",
]
