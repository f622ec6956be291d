"""How a protocol renders a drawn :class:`Plan`: its :class:`Generator`, and the conversation shape.

A family's generator module (``protocols/<family>/generate.py``) declares one
:class:`Generator` per protocol; :func:`conversation` builds the renderer of a
request's message list from how the protocol spells its messages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from hypothesis import strategies as st

from toolwire.properties._strategies._plan import Plan, PlannedCall, PlannedTurn, upto

__all__ = ["PLAIN", "Generator", "Renderer", "Spelling", "Wire", "conversation", "pick"]

#: The switch for the plainest traffic: every :func:`pick` takes its first option unless another
#: switch names one (a campaign looking past a finding that nearly every example trips).
PLAIN: Final = "plain"

T = TypeVar("T")
Wire = list[dict[str, Any]]
Renderer = Callable[[st.DrawFn, Plan, frozenset[str]], Wire]
#: How one protocol spells a conversation: (user text, assistant turn, its results, assistant text).
Spelling = tuple[
    Callable[[str], dict[str, Any]],
    Callable[[PlannedTurn], Wire],
    Callable[[list[PlannedCall], str], Wire],
    Callable[[str], dict[str, Any]],
]


@dataclass(frozen=True, slots=True)
class Generator:
    """How :func:`~toolwire.protocols.traces` draws a protocol's traces.

    ``render`` turns a drawn plan into wire events (a stream renders its
    first turn); ``turns`` is the most user turns a plan has; ``fragments``:
    arguments arrive in pieces; ``interleave``: concurrent calls' fragments
    may interleave.
    """

    render: Renderer
    turns: int = 1
    fragments: bool = True
    interleave: bool = False

    @classmethod
    def conversation(cls, render: Renderer) -> Generator:
        """A request's message list: up to three turns, whole arguments."""
        return cls(render, turns=3, fragments=False)


def conversation(spell: Callable[[frozenset[str]], Spelling], *, any_order: bool) -> Renderer:
    """Each turn: a user message, the assistant's calls, their results; an answer between turns.

    With ``any_order`` the results of one turn come in a drawn order, as the
    protocol allows; otherwise in call order.
    """

    def render(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
        user, assistant, results, answer = spell(quirks)
        messages: Wire = []
        for number, turn in enumerate(plan.turns):
            if number:
                messages.append(answer("Done."))
            messages.append(user(turn.user))
            messages.extend(assistant(turn))
            calls = list(turn.calls)
            if any_order:
                calls = draw(st.permutations(calls))
            if calls:
                messages.extend(results(calls, turn.user))
        if not plan.turns[-1].calls:
            messages.append(answer("Done."))
        return messages

    return render


def pick(draw: st.DrawFn, options: Mapping[str, T], switches: frozenset[str]) -> T:
    """One of ``options``, keyed by the shape feature each produces.

    When ``switches`` name some of them (a quirk profile, or ``fuzz --like``: the
    features a recording shows), only those are drawn; otherwise any, or with
    :data:`PLAIN` the first.  The first option is what examples shrink to: list
    the commonest real shape first.
    """
    named = [feature for feature in options if feature in switches]
    keys = named or (list(options)[:1] if PLAIN in switches else list(options))
    return options[keys[draw(upto(len(keys) - 1))] if len(keys) > 1 else keys[0]]
