"""OpenAI Chat Completions: streamed tool-call fragments and the request's conversation.

Src: docs/protocol-rules.md CC-2 to CC-6; OpenAI function-calling guide (streaming).
"""

from __future__ import annotations

from statemachine import Event, State

from toolwire.machines._base import CheckingMachine

__all__ = ["ChatConversation", "ChatToolCallStream"]


class ChatToolCallStream(CheckingMachine):
    """The fragments of one streamed tool call, keyed by ``(choice index, index)``.

    ``start`` is a fragment that opens a call (it carries an ``id``), ``more``
    one that continues it, ``finish`` the choice's ``finish_reason``.
    """

    absent = State(initial=True)
    open = State()
    closed = State(final=True)

    start = absent.to(open)
    more = open.to(open)
    finish = open.to(closed)


class ChatConversation(CheckingMachine):
    """A request's message list, as OpenAI reads its tool calls.

    ``calls``: an assistant message with ``tool_calls``; ``answer``: a tool
    message answering one of several pending calls; ``last_answer``: the one
    answering the last pending call; ``other``: any non-tool message.  A tool
    message answering no pending call is ``stray``, one answering a call
    already answered is ``repeat``; neither is legal anywhere.
    """

    idle = State(initial=True)
    awaiting = State()
    answered = State()
    accepting = ("idle", "answered")

    calls = idle.to(awaiting) | answered.to(awaiting)
    answer = awaiting.to(awaiting)
    last_answer = awaiting.to(answered)
    other = idle.to(idle) | answered.to(idle)
    stray = Event()
    repeat = Event()
