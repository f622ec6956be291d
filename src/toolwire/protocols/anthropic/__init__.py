"""Anthropic Messages: request messages (AN-1 to AN-7), stream events (AN-10), message bodies (AN-12).

The family's places: ``models/_anthropic.py`` (the wire), ``machines/_anthropic.py``
(the lifecycles; its content blocks use the shared ``ContentBlock``) and this
package: ``rules``, ``monitors``, ``calls`` (readers, mutation sites, the id
probe), ``generate`` (Hypothesis) and ``shapes`` (shape features).
"""

from typing import Final

from toolwire.machines import AnthropicConversation, ContentBlock, MessageStream, ResponseBody
from toolwire.properties._protocol import Family, Protocol, load
from toolwire.protocols.anthropic import calls
from toolwire.protocols.anthropic.body import ResponseMonitor
from toolwire.protocols.anthropic.monitors import ConversationMonitor, StreamMonitor
from toolwire.protocols.anthropic.rules import MESSAGES, RESPONSE, RULES, STREAM
from toolwire.protocols.anthropic.shapes import MESSAGE_SHAPES, RESPONSE_SHAPES, STREAM_SHAPES

__all__ = ["FAMILY", "ConversationMonitor", "ResponseMonitor", "StreamMonitor"]

FAMILY: Final = Family(
    "anthropic",
    catalogue=4,
    protocols=(
        Protocol(
            MESSAGES,
            "Anthropic Messages request: tool_use / tool_result blocks in messages (AN-1 to AN-7)",
            "conversation",
            ConversationMonitor,
            repair=load(f"{__name__}.repair", "ADAPTER"),
            call_types=("anthropic_messages",),
            endpoints=(r"/v1/messages/?$",),
            recognises=calls.recognises,
            container="messages",
            follows=(STREAM, RESPONSE),
            probe=calls.probe,
            results=calls.results,
            intact=calls.intact,
            space=load(f"{__name__}.space", "AnthropicSpace"),
            sites=calls.MESSAGE_SITES,
            breaks={
                "drop-id": "AN-1",
                "duplicate": "AN-2",
                "reorder": "AN-4",
                "swap-ids": "AN-3",
                "truncate": "AN-3",
            },
            generator=load(f"{__name__}.generate", "MESSAGES"),
            shapes=MESSAGE_SHAPES,
        ),
        Protocol(
            STREAM,
            "Anthropic Messages stream: message and content-block events (AN-1, AN-2, AN-10)",
            "stream",
            StreamMonitor,
            endpoints=(r"/v1/messages/?$",),
            sites=calls.STREAM_SITES,
            breaks={"drop-id": "AN-1", "duplicate": "AN-10b", "reorder": "AN-10a", "truncate": "AN-10a"},
            generator=load(f"{__name__}.generate", "STREAM"),
            shapes=STREAM_SHAPES,
        ),
        Protocol(
            RESPONSE,
            "Anthropic Messages response body: a message, one JSON document (AN-1, AN-2, AN-12)",
            "stream",
            ResponseMonitor,
            probe=calls.response_probe,
            recognises=calls.recognises_message,
            sites=calls.RESPONSE_SITES,
            breaks={"drop-id": "AN-12a"},
            generator=load(f"{__name__}.generate", "RESPONSE"),
            space=load(f"{__name__}.space", "AnthropicResponseSpace"),
            shapes=RESPONSE_SHAPES,
            endpoints=(r"/v1/messages/?$",),
            document=True,
        ),
    ),
    rules=RULES,
    machines=(MessageStream, ContentBlock, AnthropicConversation, ResponseBody),
    id_shapes=calls.ID_SHAPES,
    envelope_ids=("msg_",),
)
