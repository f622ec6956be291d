"""Named rules, the monitors that check them, relations between traces, strategies and mutators.

Each protocol family lives in its own package (``_<family>/``) and declares a
:class:`Family` of :class:`Protocol` descriptors; the registry lists them
(:data:`PROTOCOLS`, :func:`register`).  The strategies, mutators and state
spaces import Hypothesis, so they load on first use: ``toolwire check`` never
pays for them.
"""

from typing import TYPE_CHECKING

from toolwire._lazy import lazy
from toolwire.properties._monitor import Monitor, Notice, Violations
from toolwire.properties._protocol import Family, Protocol, Quirk, load
from toolwire.properties._registry import (
    envelope_ids,
    get_protocol,
    id_shapes,
    machines,
    quirks_for,
    register,
    rules_for,
    unregister,
)
from toolwire.properties._roundtrip import check_round_trip
from toolwire.properties._rule import Finding, Kind, Rule, Severity
from toolwire.properties._sites import Sites
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
    "Family",
    "Finding",
    "Generator",
    "Kind",
    "LaneSpace",
    "Lanes",
    "Ledger",
    "Monitor",
    "Notice",
    "Plan",
    "Protocol",
    "Quirk",
    "ResponsesInputMonitor",
    "ResponsesStreamMonitor",
    "Rule",
    "Severity",
    "Sites",
    "Space",
    "StreamProfile",
    "Turn",
    "Violations",
    "check_round_trip",
    "envelope_ids",
    "get_protocol",
    "id_shapes",
    "intact",
    "ledger",
    "load",
    "machines",
    "mutate",
    "mutated",
    "quirks_for",
    "register",
    "relate",
    "rules_for",
    "space_for",
    "traces",
    "unregister",
]

if TYPE_CHECKING:
    from toolwire.properties._mutators import MUTATORS, mutate, mutated
    from toolwire.properties._openai_chat import ConversationMonitor as ChatConversationMonitor
    from toolwire.properties._openai_chat import StreamMonitor as ChatStreamMonitor
    from toolwire.properties._openai_responses import OPEN_RESPONSES, OPENAI_RESPONSES, StreamProfile
    from toolwire.properties._openai_responses import InputMonitor as ResponsesInputMonitor
    from toolwire.properties._openai_responses import StreamMonitor as ResponsesStreamMonitor
    from toolwire.properties._registry import BREAKS, EXPLORED, GENERATED, PROTOCOLS, QUIRKS, RULES
    from toolwire.properties._relations import RELATIONS, Broken, Ledger, intact, ledger, relate
    from toolwire.properties._spaces import Bounds, Space, space_for
    from toolwire.properties._spaces._lanes import Lanes, LaneSpace
    from toolwire.properties._strategies import Generator, traces
    from toolwire.properties._strategies._plan import Plan

_LAZY = {
    **dict.fromkeys(
        ("BREAKS", "EXPLORED", "GENERATED", "PROTOCOLS", "QUIRKS", "RULES"), "toolwire.properties._registry"
    ),
    **dict.fromkeys(
        ("RELATIONS", "Broken", "Ledger", "intact", "ledger", "relate"), "toolwire.properties._relations"
    ),
    **dict.fromkeys(
        ("OPEN_RESPONSES", "OPENAI_RESPONSES", "StreamProfile"), "toolwire.properties._openai_responses"
    ),
    **dict.fromkeys(("MUTATORS", "mutate", "mutated"), "toolwire.properties._mutators"),
    **dict.fromkeys(("Bounds", "Space", "space_for"), "toolwire.properties._spaces"),
    **dict.fromkeys(("Lanes", "LaneSpace"), "toolwire.properties._spaces._lanes"),
    **dict.fromkeys(("Generator", "traces"), "toolwire.properties._strategies"),
    "Plan": "toolwire.properties._strategies._plan",
}


#: Re-exported under another name: (module, name there).
_RENAMED = {
    "ChatConversationMonitor": ("toolwire.properties._openai_chat", "ConversationMonitor"),
    "ChatStreamMonitor": ("toolwire.properties._openai_chat", "StreamMonitor"),
    "ResponsesInputMonitor": ("toolwire.properties._openai_responses", "InputMonitor"),
    "ResponsesStreamMonitor": ("toolwire.properties._openai_responses", "StreamMonitor"),
}

__getattr__ = lazy(__name__, _LAZY, globals(), _RENAMED)
