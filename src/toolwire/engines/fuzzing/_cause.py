"""What a finding needs: the quirk profiles its example cannot do without.

A finding is its symptom (the relation and how it broke: ``one-to-one:lost``) and its cause: the
quirk profiles that, switched off, take the symptom with them.  The campaign asks the example
itself: the same Hypothesis choices drawn again with one profile switched off give the same
calls, fragments and text without that provider's shape, and the target is judged again.  A
profile the symptom survives is not the cause and is left off (greedily, one after the other);
what is left is.  So a bug of the strict wire seen on an example that also had ``index-0`` is
the strict wire's finding, and a merge that only ``index-0`` makes is a finding of its own, even
when both lose a call.

Testing costs runs of the target.  An example is tested when its finding would be new, when one of
its profiles has never been tested with its symptom, and otherwise while the tests stay within
:data:`SHARE` of the campaign's examples; between tests, each profile keeps its last verdict.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from typing import Any, Final

from hypothesis import strategies as st
from hypothesis.errors import StopTest
from hypothesis.internal.conjecture.choice import ChoiceTemplate
from hypothesis.internal.conjecture.data import ConjectureData

from toolwire.engines.fuzzing._counterexample import finding_id
from toolwire.engines.fuzzing._judge import Fault, Outcome
from toolwire.engines.fuzzing._steer import Example

__all__ = ["FLOOR", "SHARE", "SLOW_FLOOR", "Causes", "Mode"]

#: How a round drew its examples: plain ones among them, and as a slow target is served.
Mode = tuple[bool, bool]

#: Cause tests a campaign may spend beyond the ones it must, as a share of its examples ...
SHARE: Final = 0.25
#: ... and a number it may always spend (a slow target's campaign: fewer).
FLOOR: Final = 30
SLOW_FLOOR: Final = 5


class Causes:
    """The cause of each symptom an example shows, tested by drawing the example again.

    ``judge`` judges one example; ``redrawn(mode, without)`` is the campaign's strategy drawing as
    its round did (``mode``: plain examples, a slow target's) with the profiles ``without`` off.
    """

    def __init__(
        self,
        judge: Callable[[Example], Outcome],
        redrawn: Callable[[Mode, frozenset[str]], st.SearchStrategy[Example]],
    ) -> None:
        self.judge, self.redrawn = judge, redrawn
        #: By symptom and profile: whether the last test found the profile needed.
        self.needs: dict[tuple[str, str], bool] = {}
        #: Runs of the target spent testing causes.
        self.tests = 0
        self._strategies: dict[tuple[Mode, frozenset[str]], st.SearchStrategy[Example]] = {}

    def of(
        self,
        fault: Fault,
        example: Example,
        choices: Sequence[Any],
        mode: Mode,
        *,
        known: Container[str],
        examples: int,
        slow: bool = False,
    ) -> frozenset[str]:
        """The quirk profiles ``example`` needs to show ``fault``; ``choices`` drew it (from
        ``example.start``).  ``known``: the findings held or set aside; ``examples``: run so far;
        ``slow``: the target is slow (:data:`SLOW_FLOOR`)."""
        shown, symptom = example.shown, fault.finding
        if not shown:
            return frozenset()
        guess = frozenset(q for q in shown if self.needs.get((symptom, q), True))
        settled = all((symptom, q) in self.needs for q in shown)
        spare = self.tests < SHARE * examples + (SLOW_FLOOR if slow else FLOOR)
        if settled and finding_id(symptom, guess) in known and not spare:
            return guess
        return self.test(fault, example, choices, mode)

    def test(self, fault: Fault, example: Example, choices: Sequence[Any], mode: Mode) -> frozenset[str]:
        """Switch ``example``'s profiles off one by one; those its symptom does not survive are its
        cause.  (Only the symptom is compared: what a relation's message says can hold the
        target's own fresh ids, which differ run to run.)"""
        symptom = fault.finding
        removed: set[str] = set()
        for quirk in sorted(example.shown):
            without = frozenset(removed | {quirk})
            again = self.redraw(example, choices, mode, without)
            if again is None:
                continue  # the choices no longer draw the same example: the profile stays
            self.tests += 1
            survives = any(other.finding == symptom for other in self.judge(again).faults())
            self.needs[(symptom, quirk)] = not survives
            if survives:
                removed.add(quirk)
        return example.shown - removed

    def redraw(
        self, example: Example, choices: Sequence[Any], mode: Mode, without: frozenset[str]
    ) -> Example | None:
        """``example`` drawn again from its choices with the profiles ``without`` switched off; None
        when the choices draw something else (profiles that change how the rest is drawn)."""
        strategy = self._strategies.get((mode, without))
        if strategy is None:
            strategy = self._strategies[(mode, without)] = self.redrawn(mode, without)
        # Past the example's own choices (a profile switched off can ask for others), the simplest.
        data = ConjectureData.for_choices([*choices[example.start :], ChoiceTemplate("simplest", count=None)])
        try:
            again: Example = data.draw(strategy)
        except (StopTest, Exception):
            return None
        return again if again.quirks == example.quirks - without else None
