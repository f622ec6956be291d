"""Mistral chat: role order and call/response counting, as ``mistral-common`` validates a request.

Src: docs/protocol-rules.md MI-4 and MI-5; ``mistral-common`` 1.13.1
``validator.py`` (``_validate_message_order``,
``_validate_tool_calls_followed_by_tool_messages``).
"""

from __future__ import annotations

from statemachine import Event, State

from toolwire.machines._base import CheckingMachine

__all__ = ["MistralConversation"]


class MistralConversation(CheckingMachine):
    """A Mistral request's messages.

    ``calls``: an assistant message with ``tool_calls``; ``assistant``: one
    without; ``answer``: a tool message while two or more calls are
    unanswered; ``last``: the one answering the last; ``extra``: a tool
    message when no call is unanswered, which is never legal.
    """

    start = State(initial=True)
    system = State()
    user = State()
    said = State()
    calling = State()
    answered = State()
    accepting = ("start", "system", "user", "said", "answered")

    to_system = start.to(system) | system.to(system) | user.to(system)
    to_user = start.to(user) | system.to(user) | user.to(user) | said.to(user) | answered.to(user)
    assistant = start.to(said) | system.to(said) | user.to(said) | said.to(said) | answered.to(said)
    calls = (
        start.to(calling) | system.to(calling) | user.to(calling) | said.to(calling) | answered.to(calling)
    )
    answer = calling.to(calling)
    last = calling.to(answered)
    extra = Event()
