"""Mistral chat: the Chat Completions shape with Mistral's id rules: requests (MI-1 to MI-5), its stream
(MI-6) and response bodies (MI-7).

The family's places: ``models/_mistral.py`` (the wire), ``machines/_mistral.py``
(the lifecycle) and this package: ``rules``, ``monitors`` (with the tokenizer
profiles), ``stream`` (the stream monitor), ``generate`` (Hypothesis), ``shapes``
(shape features) and ``space`` (explore).  Its
requests follow, and its traces carry calls as, OpenAI Chat Completions': that
family's readers serve here.
"""

import functools
import re
from typing import Final

from toolwire.machines import ChatToolCallStream, MistralConversation, ResponseBody
from toolwire.properties._protocol import Family, Protocol, Quirk, load
from toolwire.protocols.mistral.body import ResponseMonitor
from toolwire.protocols.mistral.monitors import PROFILES, ConversationMonitor, TokenizerProfile
from toolwire.protocols.mistral.rules import CHAT, CHAT_STREAM, RESPONSE, RULES
from toolwire.protocols.mistral.shapes import MESSAGE_SHAPES, STREAM_SHAPES, response_shapes
from toolwire.protocols.mistral.stream import StreamMonitor
from toolwire.protocols.openai_chat import calls as chat_calls
from toolwire.protocols.openai_chat.body import chat_turns
from toolwire.protocols.openai_chat.rules import CHAT as OPENAI_CHAT
from toolwire.protocols.openai_chat.rules import CHAT_RESPONSE as OPENAI_CHAT_RESPONSE
from toolwire.protocols.openai_chat.rules import CHAT_STREAM as OPENAI_CHAT_STREAM

__all__ = [
    "FAMILY",
    "PROFILES",
    "ConversationMonitor",
    "ResponseMonitor",
    "StreamMonitor",
    "TokenizerProfile",
]

FAMILY: Final = Family(
    "mistral",
    providers=load(f"{__name__}.providers", "PROVIDERS"),
    catalogue=7,
    protocols=(
        Protocol(
            CHAT,
            "Mistral chat request: Chat Completions shape, Mistral's id rules (MI-1 to MI-5); "
            "profiles: tokenizer v11 (default, strictest), v3, v13",
            "conversation",
            ConversationMonitor,
            repair=load(f"{__name__}.repair", "ADAPTER"),
            endpoints=(r"api\.mistral\.ai/v1/chat/completions/?$",),
            variant_of=OPENAI_CHAT,
            container="messages",
            follows=(CHAT_STREAM, OPENAI_CHAT_STREAM, RESPONSE),
            profiles={name: functools.partial(ConversationMonitor, p) for name, p in PROFILES.items()},
            probe=chat_calls.probe,
            results=chat_calls.results,
            intact=chat_calls.intact,
            space=load(f"{__name__}.space", "MistralSpace"),
            sites=chat_calls.MESSAGE_SITES,
            breaks={
                "drop-id": "MI-3",
                "duplicate": "MI-4",
                "reorder": "MI-4",
                "swap-ids": "MI-4",
                "truncate": "MI-4",
            },
            generator=load(f"{__name__}.generate", "CHAT"),
            shapes=MESSAGE_SHAPES,
        ),
        Protocol(
            RESPONSE,
            "Mistral chat completion response body: Chat Completions shape, Mistral's ids (MI-1, MI-3, MI-7)",
            "stream",
            functools.partial(ResponseMonitor, chat_turns),
            probe=chat_calls.response_probe,
            recognises=chat_calls.recognises_completion,
            sites=chat_calls.RESPONSE_SITES,
            breaks={"drop-id": "MI-7a"},
            generator=load(f"{__name__}.generate", "RESPONSE"),
            space=load(f"{__name__}.space", "MistralResponseSpace"),
            shapes=response_shapes(chat_turns),
            endpoints=(r"api\.mistral\.ai/v1/chat/completions/?$",),
            document=True,
            variant_of=OPENAI_CHAT_RESPONSE,
        ),
        Protocol(
            CHAT_STREAM,
            "Mistral chat stream: CompletionChunk deltas, each call whole in a ToolCall fragment "
            "(MI-6a to MI-6e, MI-1 to MI-3); profiles: tokenizer v11 (default), v3, v13",
            "stream",
            StreamMonitor,
            endpoints=(r"api\.mistral\.ai/v1/chat/completions/?$",),
            variant_of=OPENAI_CHAT_STREAM,
            profiles={name: functools.partial(StreamMonitor, p) for name, p in PROFILES.items()},
            sites=chat_calls.STREAM_SITES,
            breaks={"drop-id": "MI-3"},
            recognises=chat_calls.recognises_chunk,
            generator=load(f"{__name__}.generate", "STREAM"),
            space=load(f"{__name__}.space", "MistralStreamSpace"),
            shapes=STREAM_SHAPES,
        ),
    ),
    rules=RULES,
    machines=(MistralConversation, ChatToolCallStream, ResponseBody),
    quirks=(
        Quirk(
            "unindexed",
            "tool_calls fragments carry no index (mistralai reads 0): calls must come one after the other",
            (CHAT_STREAM,),
            "docs/protocol-rules.md MI-6; comet-ml/opik#8362; mistralai 3.7.0 client/models/toolcall.py; "
            "sent by: Mistral (comet-ml/opik#8362)",
            ("MI-6a",),
            sequential=True,
            features=("call-without-index",),
            providers=("mistral",),
        ),
        Quirk(
            "split-arguments",
            'a call\'s arguments arrive over several fragments, the later ones with id "null"',
            (CHAT_STREAM,),
            "docs/protocol-rules.md MI-6; langchain-ai/langchainjs#11373, langchain-ai/langchain#40028; "
            "sent by: Mistral (GLM models it relays: langchain-ai/langchainjs#11373, "
            "langchain-ai/langchainjs#11505; devstral-medium-latest: "
            "zed-industries/zed#53605)",
            ("MI-6b",),
            features=("arguments-split-across-fragments",),
            providers=("mistral",),
        ),
    ),
    id_shapes=((re.compile(r"[A-Za-z0-9]{9}"), "Mistral id (9 alphanumerics: valid everywhere)"),),
)
