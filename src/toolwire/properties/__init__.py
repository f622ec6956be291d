"""Named rules, the monitors that check them, relations between traces, strategies and mutators.

The strategies, mutators and state spaces import Hypothesis, so they load on first use:
``toolwire check`` never pays for them.
"""

from typing import TYPE_CHECKING

from toolwire._lazy import lazy
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
from toolwire.properties._relations import RELATIONS, Broken, Ledger, intact, ledger, relate
from toolwire.properties._roundtrip import check_round_trip
from toolwire.properties._rule import Finding, Kind, Rule, Severity
from toolwire.properties._turn import Call, Turn

__all__ = [
    "BREAKS",
    "EXPLORED",
    "GENERATED",
    "MUTATORS",
    "OPENAI_RESPONSES",
    "OPEN_RESPONSES",
    "PROTOCOLS",
    "QUIRKS",
    "RELATIONS",
    "RULES",
    "Bounds",
    "Broken",
    "Call",
    "ChatConversationMonitor",
    "ChatStreamMonitor",
    "Finding",
    "Kind",
    "Ledger",
    "Monitor",
    "Notice",
    "Protocol",
    "Quirk",
    "ResponsesInputMonitor",
    "ResponsesStreamMonitor",
    "Rule",
    "Severity",
    "Space",
    "StreamProfile",
    "Turn",
    "Violations",
    "check_round_trip",
    "get_protocol",
    "intact",
    "ledger",
    "mutate",
    "mutated",
    "quirks_for",
    "relate",
    "rules_for",
    "space_for",
    "traces",
]

if TYPE_CHECKING:
    from toolwire.properties._mutators import BREAKS, MUTATORS, mutate, mutated
    from toolwire.properties._spaces import EXPLORED, Bounds, Space, space_for
    from toolwire.properties._strategies import GENERATED, QUIRKS, Quirk, quirks_for, traces

_LAZY = {
    **dict.fromkeys(("BREAKS", "MUTATORS", "mutate", "mutated"), "toolwire.properties._mutators"),
    **dict.fromkeys(("EXPLORED", "Bounds", "Space", "space_for"), "toolwire.properties._spaces"),
    **dict.fromkeys(
        ("GENERATED", "QUIRKS", "Quirk", "quirks_for", "traces"), "toolwire.properties._strategies"
    ),
}


__getattr__ = lazy(__name__, _LAZY, globals())
