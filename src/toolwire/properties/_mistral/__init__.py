"""Mistral chat: the Chat Completions shape with Mistral's id rules: requests (MI-1 to MI-5), bodies (MI-7).

The family's places: ``models/_mistral.py`` (the wire), ``machines/_mistral.py``
(the lifecycle) and this package: ``rules``, ``monitors`` (with the tokenizer
profiles), ``generate`` (Hypothesis) and ``shapes`` (shape features).  Its
requests follow, and its traces carry calls as, OpenAI Chat Completions': that
family's readers serve here.
"""

import functools
import re
from typing import Final

from toolwire.machines import MistralConversation, ResponseBody
from toolwire.properties._mistral.body import ResponseMonitor
from toolwire.properties._mistral.monitors import PROFILES, ConversationMonitor, TokenizerProfile
from toolwire.properties._mistral.rules import CHAT, RESPONSE, RULES
from toolwire.properties._mistral.shapes import MESSAGE_SHAPES, response_shapes
from toolwire.properties._openai_chat import calls as chat_calls
from toolwire.properties._openai_chat.body import chat_turns
from toolwire.properties._openai_chat.rules import CHAT_STREAM
from toolwire.properties._protocol import Family, Protocol, load

__all__ = ["FAMILY", "PROFILES", "ConversationMonitor", "ResponseMonitor", "TokenizerProfile"]

FAMILY: Final = Family(
    "mistral",
    catalogue=7,
    protocols=(
        Protocol(
            CHAT,
            "Mistral chat request: Chat Completions shape, Mistral's id rules (MI-1 to MI-5); "
            "profiles: tokenizer v11 (default, strictest), v3, v13",
            "conversation",
            ConversationMonitor,
            container="messages",
            follows=(CHAT_STREAM, RESPONSE),
            profiles={name: functools.partial(ConversationMonitor, p) for name, p in PROFILES.items()},
            probe=chat_calls.probe,
            results=chat_calls.results,
            intact=chat_calls.intact,
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
        ),
    ),
    rules=RULES,
    machines=(MistralConversation, ResponseBody),
    id_shapes=((re.compile(r"[A-Za-z0-9]{9}"), "Mistral id (9 alphanumerics: valid everywhere)"),),
)
