"""AWS Bedrock Converse: the ConverseStream envelope and the request's conversation.

Src: docs/protocol-rules.md BR-2 to BR-4 and BR-9; ``botocore`` 1.44.5 bedrock-runtime
``ConverseStreamOutput``.
"""

from __future__ import annotations

from statemachine import Event, State

from toolwire.machines._base import CheckingMachine

__all__ = ["ConverseConversation", "ConverseStream"]


class ConverseStream(CheckingMachine):
    """``messageStart``, content-block events, ``messageStop``, then ``metadata``."""

    waiting = State(initial=True)
    streaming = State()
    stopped = State()
    closed = State(final=True)
    accepting = ("waiting", "stopped")

    start = waiting.to(streaming)
    block = streaming.to(streaming)
    stop = streaming.to(stopped)
    metadata = stopped.to(closed)


class ConverseConversation(CheckingMachine):
    """A Converse request's ``messages``: every ``toolUse`` answered in the very next user message.

    ``calls``: an assistant message with ``toolUse``; ``other``: a message
    with neither ``toolUse`` nor ``toolResult``; ``results``: a user message
    answering every pending call; ``partial``: one answering only some,
    which is never legal.
    Unlike Anthropic, Bedrock rejects results split over two messages.
    """

    idle = State(initial=True)
    awaiting = State()
    accepting = ("idle",)

    calls = idle.to(awaiting)
    other = idle.to(idle)
    results = awaiting.to(idle)
    partial = Event()
