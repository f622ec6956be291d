"""Google Gemini: the turn order of a request's ``contents``.

Src: docs/protocol-rules.md GM-2 to GM-4 and GM-7; the 400 ``INVALID_ARGUMENT`` texts
quoted there.
"""

from __future__ import annotations

from statemachine import State

from toolwire.machines._base import CheckingMachine

__all__ = ["GeminiContents"]


class GeminiContents(CheckingMachine):
    """The turns of ``contents`` as Gemini orders function calls and responses.

    ``user_turn``: a user turn without function responses; ``model_turn``: a
    model turn without function calls; ``call_turn``: a model turn with
    function calls; ``response_turn``: a user turn with function responses.  A call turn follows
    a user turn or a response turn; a response turn follows a call turn.
    """

    opening = State(initial=True)
    asked = State()
    said = State()
    calling = State()
    accepting = ("opening", "asked", "said", "calling")

    user_turn = opening.to(asked) | asked.to(asked) | said.to(asked)
    model_turn = opening.to(said) | asked.to(said) | said.to(said)
    call_turn = asked.to(calling)
    response_turn = calling.to(asked)
