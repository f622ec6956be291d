"""OpenTelemetry GenAI messages: the conversation ``gen_ai.input.messages`` records.

Src: OpenTelemetry GenAI semantic conventions, gen-ai-input-messages.json (tool_call and
tool_call_response parts) and gen-ai-spans.md ("Messages MUST be provided in the order they were
sent to the model").
"""

from __future__ import annotations

from statemachine import Event, State

from toolwire.machines._base import CheckingMachine

__all__ = ["GenAIConversation"]


class GenAIConversation(CheckingMachine):
    """The input messages of one model call, one tool_call_response part at a time.

    ``calls``: a message with tool_call parts; ``answer``: a tool_call_response answering one of
    several pending calls; ``last_answer``: the one answering the last pending call; ``other``:
    a message with neither.  A response answering no pending call is ``stray``, one answering a
    call already answered is ``repeat``; neither is legal anywhere.
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
