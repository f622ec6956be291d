"""What a fuzz run did and found (:class:`FuzzRun`), and how two workers' runs merge into one."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from toolwire.engines.fuzzing._counterexample import Counterexample, smaller
from toolwire.engines.fuzzing._coverage import Coverage
from toolwire.engines.fuzzing._judge import PROPERTIES

__all__ = ["FuzzRun"]


@dataclass(slots=True)
class FuzzRun:
    """What a fuzz run did and found."""

    target: str
    source: str
    destination: str
    max_examples: int
    seed: int
    quirks: str | None
    mutate: bool = False
    #: The shape features the inputs were restricted to (``--like``), empty when not.
    like: tuple[str, ...] = ()
    #: The quirk profiles each example switched a random few of on (the default), empty when pinned.
    swarm: tuple[str, ...] = ()
    #: The providers whose profiles the swarm drew (``--providers``); None: every profile.
    providers: tuple[str, ...] | None = None
    examples: int = 0
    seconds: float = 0.0
    #: One minimal counterexample per distinct finding, in :data:`PROPERTIES` order.
    counterexamples: list[Counterexample] = field(default_factory=list)
    #: Where each finding's counterexample is saved, by finding (filled by the saving handler).
    saved: dict[str, Path] = field(default_factory=dict)
    interrupted: bool = False
    note: str | None = None
    #: The budget: seconds (None: examples only).
    time_limit: float | None = None
    #: What ended the campaign: ``max-examples``, ``time-limit``, ``interrupted`` or ``exhausted``.
    stopped: str = "max-examples"
    #: Examples that tripped each ignored finding (``--ignore``).
    ignored: dict[str, int] = field(default_factory=dict)
    #: The ids set aside with ``--ignore``.
    ignoring: tuple[str, ...] = ()
    #: How many examples tripped each finding.
    hits: dict[str, int] = field(default_factory=dict)
    #: Runs of the target spent shrinking each finding once more on its own, after the search.
    shrinks: int = 0
    #: Runs of the target spent telling each finding's cause (:mod:`~._cause`).
    cause_tests: int = 0
    #: The target's examples a second when it was judged slow and served so (None: it was not).
    slow: float | None = None
    #: Seconds into the campaign when each finding was first tripped.
    first_seen: dict[str, float] = field(default_factory=dict)
    coverage: Coverage = field(default_factory=Coverage)
    #: The least coverage the campaign had to reach (``--min-coverage``), when asked.
    min_coverage: float | None = None
    #: What kept part of the campaign from finishing (a ``--workers`` process that died).
    problems: tuple[str, ...] = ()
    #: ``--strict``: outputs that broke a warning rule were findings too.
    strict: bool = False

    @property
    def covered_enough(self) -> bool:
        """The campaign reached ``min_coverage`` (or was not asked to)."""
        return self.min_coverage is None or self.coverage.fraction >= self.min_coverage

    @property
    def exit_code(self) -> int:
        """1 when a counterexample was found or coverage fell short of ``min_coverage``; else 2 when
        part of the campaign was lost (:attr:`problems`: never called clean); else 0."""
        if self.counterexamples or not self.covered_enough:
            return 1
        return 2 if self.problems else 0

    def record_saved(self, saved: Mapping[str, Path]) -> None:
        """Note where each finding's counterexample is saved (the saving handler calls this)."""
        self.saved = dict(saved)

    def merge(self, other: FuzzRun) -> FuzzRun:
        """This run and ``other`` (another worker's, same target and options) as one run.

        Counts add up; each finding keeps the smaller of the two examples (:func:`smaller`,
        whatever the order of merging); the first to stop by interruption or note wins.
        """
        best = {found.finding: found for found in self.counterexamples}
        for found in other.counterexamples:
            if smaller(found, best.get(found.finding)):
                best[found.finding] = found
        coverage = Coverage(input_total=self.coverage.input_total, output_total=self.coverage.output_total)
        coverage.merge(self.coverage)
        coverage.merge(other.coverage)
        interrupted = self.interrupted or other.interrupted
        return dataclasses.replace(
            self,
            examples=self.examples + other.examples,
            shrinks=self.shrinks + other.shrinks,
            cause_tests=self.cause_tests + other.cause_tests,
            seconds=max(self.seconds, other.seconds),
            counterexamples=_ordered(best.values()),
            saved={**other.saved, **self.saved},
            interrupted=interrupted,
            stopped="interrupted" if interrupted else self.stopped,
            note=self.note or other.note,
            slow=min((r for r in (self.slow, other.slow) if r is not None), default=None),
            problems=self.problems + other.problems,
            ignored=_added(self.ignored, other.ignored),
            hits=_added(self.hits, other.hits),
            first_seen={
                f: min(t for t in (self.first_seen.get(f), other.first_seen.get(f)) if t is not None)
                for f in {*self.first_seen, *other.first_seen}
            },
            coverage=coverage,
        )


def _added(one: Mapping[str, int], other: Mapping[str, int]) -> dict[str, int]:
    return {key: one.get(key, 0) + other.get(key, 0) for key in {*one, *other}}


def _ordered(found: Iterable[Counterexample]) -> list[Counterexample]:
    """Findings on the strict wire first, then those that need a provider's shapes; each group in
    :data:`PROPERTIES` order."""
    return sorted(found, key=lambda c: (bool(c.cause), PROPERTIES.index(c.property), c.kind, c.cause))
