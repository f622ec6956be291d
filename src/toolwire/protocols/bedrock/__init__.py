"""AWS Bedrock Converse: request messages (BR-1 to BR-4), ConverseStream events (BR-9), bodies (BR-10).

The family's places: ``models/_bedrock.py`` (the wire), ``machines/_bedrock.py``
(the lifecycles; its content blocks use the shared ``ContentBlock``) and this
package: ``rules``, ``monitors``, ``calls`` (readers, mutation sites, the id
probe), ``generate`` (Hypothesis) and ``shapes`` (shape features).
"""

from typing import Final

from toolwire.machines import ContentBlock, ConverseConversation, ConverseStream, ResponseBody
from toolwire.properties._protocol import Family, Protocol, load
from toolwire.protocols.bedrock import calls
from toolwire.protocols.bedrock.body import ResponseMonitor
from toolwire.protocols.bedrock.monitors import ConversationMonitor, StreamMonitor
from toolwire.protocols.bedrock.rules import CONVERSE, RESPONSE, RULES, STREAM
from toolwire.protocols.bedrock.shapes import MESSAGE_SHAPES, RESPONSE_SHAPES, STREAM_SHAPES

__all__ = ["FAMILY", "ConversationMonitor", "ResponseMonitor", "StreamMonitor"]

FAMILY: Final = Family(
    "bedrock",
    catalogue=8,
    protocols=(
        Protocol(
            CONVERSE,
            "AWS Bedrock Converse request: toolUse / toolResult blocks in messages (BR-1 to BR-4)",
            "conversation",
            ConversationMonitor,
            repair=load(f"{__name__}.repair", "ADAPTER"),
            endpoints=(r"/model/[^/]+/converse(-stream)?$",),
            container="messages",
            follows=(STREAM, RESPONSE),
            probe=calls.probe,
            results=calls.results,
            intact=calls.intact,
            space=load(f"{__name__}.space", "ConverseSpace"),
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
        Protocol(
            RESPONSE,
            "AWS Bedrock Converse response body: output.message and stopReason, one JSON document "
            "(BR-1, BR-4, BR-10)",
            "stream",
            ResponseMonitor,
            probe=calls.response_probe,
            recognises=calls.recognises_response,
            sites=calls.RESPONSE_SITES,
            breaks={"drop-id": "BR-10a"},
            generator=load(f"{__name__}.generate", "RESPONSE"),
            space=load(f"{__name__}.space", "ConverseResponseSpace"),
            shapes=RESPONSE_SHAPES,
            endpoints=(r"/model/[^/]+/(converse|invoke)$",),
            document=True,
        ),
    ),
    rules=RULES,
    machines=(ConverseStream, ContentBlock, ConverseConversation, ResponseBody),
    id_shapes=calls.ID_SHAPES,
)
