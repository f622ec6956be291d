"""Vercel AI SDK: provider stream parts (VS-1 to VS-5), UI message stream chunks (VU-1 to VU-4),
``streamText``'s full stream (VF-1 to VF-9), UI messages (VM-1 to VM-4) and model messages
(VS-6, VP-1 to VP-4).

The family's places: ``models/_aisdk.py`` (the wire), ``machines/_aisdk.py``
(the lifecycles) and this package: ``rules``, ``monitors`` (the two streams, with the SDK
version profiles), ``full`` (the full stream's monitor), ``messages`` (the message lists'
monitors), ``calls`` (readers, mutation sites, the id probe), ``generate`` (Hypothesis),
``space`` (explore) and ``shapes`` (shape features).
"""

import functools
from typing import Final

from toolwire.machines import FullStream, FullStreamToolCall, ModelConversation, StreamToolCall, UIToolPart
from toolwire.properties._protocol import Family, Protocol, Quirk, load
from toolwire.protocols.aisdk import calls
from toolwire.protocols.aisdk.full import FullStreamMonitor
from toolwire.protocols.aisdk.messages import ModelMessagesMonitor, UIMessagesMonitor
from toolwire.protocols.aisdk.monitors import PROFILES, StreamMonitor, UIStreamMonitor
from toolwire.protocols.aisdk.rules import (
    FULL_STREAM,
    MODEL_MESSAGES,
    RULES,
    STREAM,
    UI_MESSAGES,
    UI_STREAM,
)
from toolwire.protocols.aisdk.shapes import (
    FULL_STREAM_SHAPES,
    MODEL_MESSAGE_SHAPES,
    STREAM_SHAPES,
    UI_MESSAGE_SHAPES,
    UI_STREAM_SHAPES,
)

__all__ = [
    "FAMILY",
    "PROFILES",
    "FullStreamMonitor",
    "ModelMessagesMonitor",
    "StreamMonitor",
    "UIMessagesMonitor",
    "UIStreamMonitor",
]

FAMILY: Final = Family(
    "aisdk",
    catalogue=6,
    protocols=(
        Protocol(
            STREAM,
            "Vercel AI SDK provider stream parts (VS-1 to VS-5); profiles: v4 (default), v3, v2",
            "stream",
            StreamMonitor,
            profiles={version: functools.partial(StreamMonitor, version) for version in PROFILES},
            probe=calls.probe,
            results=calls.results,
            sites=calls.STREAM_SITES,
            # No "duplicate": a tool-input-start repeated in place is VS-1's warning case (the
            # consumers build the call as sent: tests/integration/test_consumer_evidence_aisdk.py).
            breaks={"drop-id": "VS-5", "reorder": "VS-1", "truncate": "VS-2"},
            generator=load(f"{__name__}.generate", "STREAM"),
            space=load(f"{__name__}.space", "AISDKSpace"),
            shapes=STREAM_SHAPES,
        ),
        Protocol(
            UI_STREAM,
            "Vercel AI SDK UI message stream chunks (VU-1 to VU-4)",
            "stream",
            UIStreamMonitor,
            calls=calls.ui_calls,
            results=calls.ui_results,
            sites=calls.UI_SITES,
            breaks={
                "drop-id": "VU-1",
                "duplicate": "VU-3",
                "reorder": "VU-1",
                "swap-ids": "VU-1",
                "truncate": "VU-4",
            },
            generator=load(f"{__name__}.generate", "UI_STREAM"),
            shapes=UI_STREAM_SHAPES,
        ),
        Protocol(
            FULL_STREAM,
            "Vercel AI SDK streamText full stream (TextStreamPart), steps and tool parts (VF-1 to VF-9)",
            "stream",
            FullStreamMonitor,
            results=calls.full_results,
            sites=calls.FULL_SITES,
            # No "duplicate": a tool-input-start repeated in place is VF-1's warning case
            # (tests/integration/test_consumer_evidence_aisdk_full.py).
            breaks={"drop-id": "VF-1", "truncate": "VF-6"},
            generator=load(f"{__name__}.generate", "FULL_STREAM"),
            space=load(f"{__name__}.space", "FullStreamSpace"),
            shapes=FULL_STREAM_SHAPES,
            recognises=calls.recognises_full,
        ),
        Protocol(
            UI_MESSAGES,
            "Vercel AI SDK UIMessage[] with tool parts and their states (VM-1 to VM-4)",
            "conversation",
            UIMessagesMonitor,
            repair=load(f"{__name__}.repair_ui", "rebuild_ui"),
            container="messages",
            results=calls.ui_message_results,
            intact=calls.intact_ui,
            sites=calls.UI_MESSAGE_SITES,
            breaks={"drop-id": "VM-2", "duplicate": "VM-1"},
            generator=load(f"{__name__}.generate", "UI_MESSAGES"),
            space=load(f"{__name__}.space", "UIMessagesSpace"),
            shapes=UI_MESSAGE_SHAPES,
            recognises=calls.recognises_ui,
        ),
        Protocol(
            MODEL_MESSAGES,
            "Vercel AI SDK ModelMessage[]: tool-call and tool-result parts (VS-6, VP-1 to VP-4)",
            "conversation",
            ModelMessagesMonitor,
            repair=load(f"{__name__}.repair", "ADAPTER"),
            container="messages",
            probe=calls.model_probe,
            results=calls.model_results,
            intact=calls.intact_model,
            sites=calls.MODEL_SITES,
            breaks={"drop-id": "VP-4", "duplicate": "VP-2", "reorder": "VP-1", "truncate": "VS-6"},
            generator=load(f"{__name__}.generate", "MODEL_MESSAGES"),
            space=load(f"{__name__}.space", "ModelMessagesSpace"),
            shapes=MODEL_MESSAGE_SHAPES,
            recognises=calls.recognises_model,
        ),
    ),
    rules=RULES,
    machines=(StreamToolCall, UIToolPart, FullStreamToolCall, FullStream, ModelConversation),
    quirks=(
        Quirk(
            "pending-client-tool",
            "the last assistant message's client tools wait for their output (input-available): "
            "useChat's state before addToolOutput, sent as is by regenerate() or a custom transport",
            (UI_MESSAGES,),
            "ai 7.0.173 src/ui/ui-messages.ts (input-available); src/ui/convert-to-model-messages.ts "
            "(ignoreIncompleteToolCalls drops such parts; without it streamText raises "
            "AI_MissingToolResultsError)",
            features=("input-available",),
            unanswered_optional=True,
        ),
    ),
    envelope_ids=("txt-",),
)
