"""OpenTelemetry GenAI messages: ``gen_ai.input.messages`` (GA-1 to GA-6) and ``gen_ai.output.messages``.

What instrumentations record of a model call on a span or an event, as the GenAI semantic
conventions define it: the messages sent (a conversation whose tool calls must each be answered by
their own id) and the messages the model answered with (its new calls, which the next call's input
must replay: the round-trip rules).  The family's places: ``models/_otel.py`` (the vocabulary),
``machines/_otel.py`` (``GenAIConversation``) and this package: ``rules``, ``monitors``,
``calls`` (readers, mutation sites, intact pairs, the id probe), ``generate`` (Hypothesis) and
``space`` (explore).  OTLP
files are read by ``toolwire check``'s log reader (``engines/logs/_otlp.py``), which finds these
messages by their ``endpoints``: the attribute that holds them.
"""

from typing import Final

from toolwire.machines import GenAIConversation
from toolwire.properties._protocol import Family, Protocol, load
from toolwire.protocols.otel import calls
from toolwire.protocols.otel.monitors import InputMonitor, OutputMonitor
from toolwire.protocols.otel.rules import INPUT, OUTPUT, RULES

__all__ = ["FAMILY", "InputMonitor", "OutputMonitor"]

FAMILY: Final = Family(
    "otel",
    catalogue=10,
    protocols=(
        Protocol(
            INPUT,
            "OpenTelemetry GenAI input messages (gen_ai.input.messages): tool_call and "
            "tool_call_response parts (GA-1 to GA-6)",
            "conversation",
            InputMonitor,
            repair=load(f"{__name__}.repair", "ADAPTER"),
            container="messages",
            follows=(OUTPUT,),
            recognises=calls.recognises,
            endpoints=(r"gen_ai\.input\.messages$",),
            probe=calls.probe,
            results=calls.results,
            intact=calls.intact,
            space=load(f"{__name__}.space", "InputSpace"),
            sites=calls.INPUT_SITES,
            breaks={
                "drop-id": "GA-4",
                "duplicate": "GA-5",
                "reorder": "GA-3",
                "swap-ids": "GA-4",
                "truncate": "GA-5",
            },
            generator=load(f"{__name__}.generate", "MESSAGES"),
        ),
        Protocol(
            OUTPUT,
            "OpenTelemetry GenAI output messages (gen_ai.output.messages): the model's tool_call parts "
            "(GA-1, GA-6)",
            "stream",
            OutputMonitor,
            recognises=calls.recognises,
            endpoints=(r"gen_ai\.output\.messages$",),
        ),
    ),
    rules=RULES,
    machines=(GenAIConversation,),
)
