"""Anthropic Messages: the stream envelope and the request's conversation.

Src: docs/protocol-rules.md AN-3 to AN-7 and AN-10;
https://platform.claude.com/docs/en/build-with-claude/streaming,
https://platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls.
"""

from __future__ import annotations

from statemachine import State

from toolwire.machines._base import CheckingMachine

__all__ = ["AnthropicConversation", "MessageStream"]


class MessageStream(CheckingMachine):
    """``message_start``, content-block events, ``message_delta``, ``message_stop``.

    ``block`` is any ``content_block_*`` event; ``ping`` and ``error`` are not
    steps of the envelope (they may come anywhere).
    """

    waiting = State(initial=True)
    streaming = State()
    ending = State()
    stopped = State(final=True)
    accepting = ("waiting",)

    start = waiting.to(streaming)
    block = streaming.to(streaming)
    delta = streaming.to(ending) | ending.to(ending)
    stop = ending.to(stopped)


class AnthropicConversation(CheckingMachine):
    """A request's ``messages``, as Anthropic pairs ``tool_use`` with ``tool_result``.

    ``calls``: an assistant message with ``tool_use``; ``assistant``: one
    without; ``user``: a user message without ``tool_result``; ``results``: a
    user message whose results answer every pending call; ``partial``: one
    answering some of them.  The API merges consecutive user messages, so the
    rest may follow in the next user message (legal, but AN-6 warns).
    """

    idle = State(initial=True)
    awaiting = State()
    answering = State()
    accepting = ("idle",)

    calls = idle.to(awaiting)
    assistant = idle.to(idle)
    user = idle.to(idle)
    results = awaiting.to(idle) | answering.to(idle)
    partial = awaiting.to(answering) | answering.to(answering)
