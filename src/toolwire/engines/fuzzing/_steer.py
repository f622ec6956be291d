"""Steering a campaign away from what it has found: bugs behind a first bug surface in one budget.

Nearly every example of a converter with a common bug trips that bug; when the bug
raises, hangs or crashes, nothing else of the example can be judged, and the bugs
behind it stay hidden.  Once a finding is held (or set aside with ``--ignore``), the
campaign draws its next examples away from the finding's *signature*: the quirk
profiles its smallest example was drawn with and those of its shape features that
are not common to most examples.  An example drawn with a held signature is drawn
again, a few times at most, so such examples become rare, not impossible.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from hypothesis import strategies as st
from hypothesis.control import current_build_context

from toolwire.protocols import QUIRKS

__all__ = ["TRIES", "Example", "Signature", "Steering", "marks", "steered"]

#: How many times one example is drawn at most while it shows a held signature.
TRIES: Final = 4
#: Without telling marks, a mark shown by at least this share of the examples says nothing.
COMMON: Final = 0.6
#: Examples that must lack a mark before its part in a finding is judged.
WARM: Final = 5
#: How much more often examples with a mark trip a finding than those without, for it to tell.
TELLING: Final = 0.25
#: The share of examples with a mark that trip a finding, for the mark alone to signal it.
STRONG: Final = 0.9


class Example(NamedTuple):
    """One generated input: its trace, the quirk profiles it was drawn with, its shape features.

    ``start`` is where its own draw begins among the test case's choices (a steered example may
    follow drawings it set aside): those choices, drawn again, give this example again.
    """

    trace: list[dict[str, Any]]
    quirks: frozenset[str]
    features: frozenset[str]
    start: int = 0

    @property
    def shown(self) -> frozenset[str]:
        """The quirk profiles the trace shows: drawn, and with one of their shape features in it.

        A profile can be drawn and leave no mark (``repeated-ids`` on a call sent in one
        fragment): such a profile is not what the example needs.
        """
        return frozenset(
            name
            for name in self.quirks
            if not QUIRKS[name].features or not self.features.isdisjoint(QUIRKS[name].features)
        )


@dataclass(frozen=True, slots=True)
class Signature:
    """What an example shares with a finding's smallest example: it likely trips that finding."""

    finding: str
    #: Alternatives: an example that shows every mark of one of them likely trips the finding.
    marks: tuple[frozenset[str], ...]

    def matches(self, example: Example) -> bool:
        """``example`` shows every shape feature and quirk profile of one alternative."""
        shown = marks(example)
        return any(alternative <= shown for alternative in self.marks)


def marks(example: Example) -> frozenset[str]:
    """An example's shape features and the quirk profiles it shows (as ``quirk:NAME``)."""
    return example.features | {f"quirk:{name}" for name in example.shown}


@dataclass(slots=True)
class Steering:
    """Which marks go with which findings, and the smallest example of each finding to avoid.

    A finding's signature keeps the marks of its smallest example that go with it: examples
    with the mark trip it clearly more often than examples without.  A mark every example
    shows, or one no example lacks often enough to tell, says nothing.  Any mark with which
    nearly every example trips the finding, and clearly more often than without it, is an
    alternative of its own (the smallest example need not show every shape that trips it:
    text before a call, text alone).
    """

    examples: int = 0
    shown: Counter[str] = field(default_factory=Counter)
    tripped: Counter[str] = field(default_factory=Counter)
    #: By finding: how many examples that tripped it showed each mark.
    together: dict[str, Counter[str]] = field(default_factory=dict)
    #: Each finding's smallest example so far: (its size, its marks).
    held: dict[str, tuple[tuple[int, int], frozenset[str]]] = field(default_factory=dict)
    #: The marks of each finding's cause: examples that show them and its other telling marks are
    #: drawn again, so that the same symptom from another cause surfaces.
    needed: dict[str, frozenset[str]] = field(default_factory=dict)

    def observe(self, example: Example, findings: Iterable[str]) -> None:
        """Count ``example``'s marks, and the ``findings`` it tripped (held ones included)."""
        shown = marks(example)
        self.examples += 1
        self.shown.update(shown)
        for finding in set(findings):
            self.tripped[finding] += 1
            self.together.setdefault(finding, Counter()).update(shown)

    def hold(
        self, finding: str, example: Example, size: tuple[int, int], cause: frozenset[str] = frozenset()
    ) -> None:
        """Steer away from ``finding``, as shown by ``example`` (kept when the smallest so far);
        the quirk profiles of its ``cause`` are always part of its signature, and the others the
        example shows never are (the finding was told not to need them: steering away from them
        would hide the same symptom from another cause, which needs one of them)."""
        current = self.held.get(finding)
        if current is None or size < current[0]:
            needed = frozenset(f"quirk:{name}" for name in cause)
            unneeded = {f"quirk:{name}" for name in example.shown} - needed
            self.held[finding] = (size, marks(example) - unneeded)
            self.needed[finding] = needed

    def signatures(self) -> tuple[Signature, ...]:
        """One signature per held finding, of the marks that go with it; none empty."""
        found = []
        for finding, (_, shown) in sorted(self.held.items()):
            cause = self.needed.get(finding, frozenset())
            # A quirk profile outside the finding's cause is never part of its signature: examples
            # with it that trip the symptom are this finding only where the profile was told not to
            # matter, and steering away from it would hide the same symptom from that profile.
            foreign = _foreign(cause)
            alternatives = {
                frozenset(self._telling(finding, shown) - foreign) | cause,
                *(frozenset({m}) | cause for m in self._strong(finding) if m not in foreign),
            }
            alternatives.discard(frozenset())
            if alternatives:
                found.append(Signature(finding, tuple(sorted(alternatives, key=sorted))))
        return tuple(found)

    def saturated(self) -> bool:
        """Some held finding is tripped by nearly every example: no mark tells it apart.

        Then half the examples are drawn plain (:data:`~toolwire.properties.PLAIN`): a bug
        that every text, thinking or ping event trips hides nothing from those.
        """
        return self.examples >= 2 * WARM and any(
            self.tripped[finding] >= STRONG * self.examples for finding in self.held
        )

    def _strong(self, finding: str) -> Iterable[str]:
        """The marks with which nearly every example trips ``finding`` (and some examples lack)."""
        together = self.together.get(finding, Counter())
        for mark, count in together.items():
            if count >= STRONG * self.shown[mark] and self._tells(finding, mark, 2 * WARM):
                yield mark

    def _tells(self, finding: str, mark: str, least: int) -> bool:
        """Examples with ``mark`` trip ``finding`` clearly more often than those without it."""
        with_mark = self.shown[mark]
        without = self.examples - with_mark
        if with_mark < least or without < least:
            return False
        together = self.together.get(finding, Counter())[mark]
        return together / with_mark - (self.tripped[finding] - together) / without >= TELLING

    def _telling(self, finding: str, shown: frozenset[str]) -> frozenset[str]:
        telling = {mark for mark in shown if self._tells(finding, mark, WARM)}
        if telling:
            return frozenset(telling)
        # Too few examples to tell: the marks most examples lack.
        return frozenset(m for m in shown if self.shown[m] < COMMON * max(self.examples, 1))


def _foreign(cause: frozenset[str]) -> frozenset[str]:
    """The marks of every quirk profile outside ``cause`` (given as ``quirk:NAME`` marks): the
    profile and the shape features that mark its traffic."""
    return frozenset(
        mark
        for name, quirk in QUIRKS.items()
        if f"quirk:{name}" not in cause
        for mark in (f"quirk:{name}", *quirk.features)
    ) - {feature for mark in cause for feature in QUIRKS[mark.removeprefix("quirk:")].features}


def steered(
    drawn: st.SearchStrategy[Any],
    describe: Any,
    signatures: Sequence[Signature],
    tries: int = TRIES,
) -> st.SearchStrategy[Example]:
    """Examples of ``drawn`` (via ``describe``), each drawn again while it matches a signature.

    ``describe`` turns one drawn value into an :class:`Example`.  With no
    signatures an example is drawn once, as before any finding.
    """
    if not signatures:
        return drawn.map(describe)

    @st.composite
    def away(draw: st.DrawFn) -> Example:
        example: Example = describe(draw(drawn))
        for _ in range(tries - 1):
            if not _matched(example, signatures):
                break
            start = len(current_build_context().data.choices)
            example = describe(draw(drawn))._replace(start=start)
        return example

    return away()


def _matched(example: Example, signatures: Iterable[Signature]) -> bool:
    return any(signature.matches(example) for signature in signatures)
