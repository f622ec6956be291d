"""The wire: shapes of the events and messages that carry tool calls, and how raw
SSE / JSON Lines / JSON become them.  Imports nothing from its sibling layers.

Each family's module, and the event-stream and recording readers, load on first use:
``toolwire check -p P`` imports P's alone.
"""

from typing import TYPE_CHECKING

from toolwire._lazy import lazy
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

if TYPE_CHECKING:
    from toolwire.models import _aisdk as aisdk
    from toolwire.models import _anthropic as anthropic
    from toolwire.models import _bedrock as bedrock
    from toolwire.models import _gemini as gemini
    from toolwire.models import _mcp as mcp
    from toolwire.models import _mistral as mistral
    from toolwire.models import _openai_chat as openai_chat
    from toolwire.models import _openai_responses as openai_responses
    from toolwire.models._eventstream import encode_frame, is_eventstream, read_eventstream
    from toolwire.models._recordings import Exchange, RecordingError, read_recording, recording_kind

__all__ = [
    "DONE",
    "MAX_LINE_BYTES",
    "Exchange",
    "Frame",
    "Hot",
    "InputFormat",
    "ProblemSink",
    "RecordingError",
    "aisdk",
    "anthropic",
    "bedrock",
    "decode_json",
    "detect_format",
    "encode_frame",
    "gemini",
    "is_eventstream",
    "mcp",
    "mistral",
    "openai_chat",
    "openai_responses",
    "plain",
    "read_eventstream",
    "read_frames",
    "read_jsonl",
    "read_recording",
    "read_sse",
    "recording_kind",
    "sniff",
]

_FAMILIES = ("aisdk", "anthropic", "bedrock", "gemini", "mcp", "mistral", "openai_chat", "openai_responses")

__getattr__ = lazy(
    __name__,
    {
        **dict.fromkeys(
            ("encode_frame", "is_eventstream", "read_eventstream"), "toolwire.models._eventstream"
        ),
        **dict.fromkeys(
            ("Exchange", "RecordingError", "read_recording", "recording_kind"), "toolwire.models._recordings"
        ),
    },
    globals(),
    renamed={family: (f"toolwire.models._{family}", "") for family in _FAMILIES},
)
