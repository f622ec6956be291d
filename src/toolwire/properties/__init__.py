"""Named rules, the monitors that check them, and relations between traces."""

from toolwire.properties._monitor import Monitor, Notice, Violations
from toolwire.properties._openai_chat import ConversationMonitor as ChatConversationMonitor
from toolwire.properties._openai_chat import StreamMonitor as ChatStreamMonitor
from toolwire.properties._openai_responses import (
    OPEN_RESPONSES,
    OPENAI_RESPONSES,
    StreamProfile,
)
from toolwire.properties._openai_responses import InputMonitor as ResponsesInputMonitor
from toolwire.properties._openai_responses import StreamMonitor as ResponsesStreamMonitor
from toolwire.properties._protocols import PROTOCOLS, RULES, Protocol, get_protocol, rules_for
from toolwire.properties._roundtrip import check_round_trip
from toolwire.properties._rule import Finding, Kind, Rule, Severity
from toolwire.properties._turn import Call, Turn

__all__ = [
    "OPENAI_RESPONSES",
    "OPEN_RESPONSES",
    "PROTOCOLS",
    "RULES",
    "Call",
    "ChatConversationMonitor",
    "ChatStreamMonitor",
    "Finding",
    "Kind",
    "Monitor",
    "Notice",
    "Protocol",
    "ResponsesInputMonitor",
    "ResponsesStreamMonitor",
    "Rule",
    "Severity",
    "StreamProfile",
    "Turn",
    "Violations",
    "check_round_trip",
    "get_protocol",
    "rules_for",
]
