"""AWS Bedrock Converse: request messages (BR-1 to BR-4) and ConverseStream events (BR-1, BR-9).

The family's places: ``models/_bedrock.py`` (the wire), ``machines/_bedrock.py``
(the lifecycles; its content blocks use the shared ``ContentBlock``) and this
package: ``rules``, ``monitors``, ``calls`` (readers, mutation sites, the id
probe), ``generate`` (Hypothesis) and ``shapes`` (shape features).
"""

from typing import Final

from toolwire.machines import ContentBlock, ConverseConversation, ConverseStream
from toolwire.properties._bedrock import calls
from toolwire.properties._bedrock.monitors import ConversationMonitor, StreamMonitor
from toolwire.properties._bedrock.rules import CONVERSE, RULES, STREAM
from toolwire.properties._bedrock.shapes import MESSAGE_SHAPES, STREAM_SHAPES
from toolwire.properties._protocol import Family, Protocol, load

__all__ = ["FAMILY", "ConversationMonitor", "StreamMonitor"]

FAMILY: Final = Family(
    "bedrock",
    catalogue=8,
    protocols=(
        Protocol(
            CONVERSE,
            "AWS Bedrock Converse request: toolUse / toolResult blocks in messages (BR-1 to BR-4)",
            "conversation",
            ConversationMonitor,
            endpoints=(r"/model/[^/]+/converse(-stream)?$",),
            container="messages",
            follows=(STREAM,),
            probe=calls.probe,
            results=calls.results,
            recognises=calls.recognises,
            sites=calls.MESSAGE_SITES,
            breaks={
                "drop-id": "BR-1",
                "duplicate": "BR-2",
                "reorder": "BR-2",
                "swap-ids": "BR-2",
                "truncate": "BR-2",
            },
            generator=load(f"{__name__}.generate", "CONVERSE"),
            shapes=MESSAGE_SHAPES,
        ),
        Protocol(
            STREAM,
            "AWS Bedrock ConverseStream events (BR-1, BR-9)",
            "stream",
            StreamMonitor,
            endpoints=(r"/model/[^/]+/(converse-stream|invoke-with-response-stream)$",),
            sites=calls.STREAM_SITES,
            breaks={"drop-id": "BR-1", "duplicate": "BR-9b", "reorder": "BR-9a", "truncate": "BR-9a"},
            generator=load(f"{__name__}.generate", "STREAM"),
            shapes=STREAM_SHAPES,
        ),
    ),
    rules=RULES,
    machines=(ConverseStream, ContentBlock, ConverseConversation),
    id_shapes=calls.ID_SHAPES,
)
