"""What a campaign, an exploration or a check reports while it runs: small frozen events.

The engines (:func:`~toolwire.engines.fuzz`, :func:`~toolwire.engines.explore`,
:func:`~toolwire.engines.check_log`, :func:`~toolwire.engines.check_path`) print
nothing and write no file: they call their handlers with these events, and the
handlers print progress, save counterexamples and render the report
(``_handlers.py``; the CLI wires its own).  The shape of Schemathesis's
``engine/events.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from toolwire.engines._core._results import Report
    from toolwire.engines.exploring import Exploration
    from toolwire.engines.fuzzing import Counterexample, FuzzRun

__all__ = [
    "Engine",
    "EngineEvent",
    "FindingFound",
    "FindingShrunk",
    "Finished",
    "Handler",
    "PartFailed",
    "Progress",
    "ReportReady",
    "Started",
]

Engine = Literal["fuzz", "explore", "check", "logs"]


@dataclass(frozen=True, slots=True, kw_only=True)
class EngineEvent:
    """Something an engine reports; ``engine`` says which."""

    engine: Engine


@dataclass(frozen=True, slots=True, kw_only=True)
class Started(EngineEvent):
    """The run has loaded its target and is about to judge the first input."""

    target: str
    source: str
    destination: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Progress(EngineEvent):
    """How far the run is: sent now and then (a few times a second at most), not per example."""

    #: Inputs judged so far (fuzz: examples; explore: traces).
    done: int
    #: Distinct findings so far.
    findings: int
    elapsed: float
    #: Seconds left before the time limit, when there is one.
    left: float | None = None
    #: The fraction of shape features and machine transitions covered, when measured.
    coverage: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class FindingFound(EngineEvent):
    """The first example of a finding (a property and how it broke)."""

    counterexample: Counterexample


@dataclass(frozen=True, slots=True, kw_only=True)
class FindingShrunk(EngineEvent):
    """A smaller example of a finding already reported: it replaces the one before."""

    counterexample: Counterexample


@dataclass(frozen=True, slots=True, kw_only=True)
class Finished(EngineEvent):
    """The run is over; ``run`` is its whole result (a :class:`FuzzRun` or an :class:`Exploration`)."""

    run: FuzzRun | Exploration


@dataclass(frozen=True, slots=True, kw_only=True)
class ReportReady(EngineEvent):
    """The reports of one input are ready (``check``: a path; ``logs``: a log file): one per
    protocol its traffic was checked as, in the order the engine returns them."""

    source: str
    reports: tuple[Report, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class PartFailed(EngineEvent):
    """A part of a check on a pool raised (a bug in toolwire): its traceback, as the worker gave it.

    The part's report says it was not checked; the CLI prints the traceback to standard error."""

    #: The part: its file, and ``@start`` for a range of one.
    part: str
    traceback: str


class Handler(Protocol):
    """Anything called with each event in turn (a function, or an object with ``__call__``)."""

    def __call__(self, event: EngineEvent, /) -> None:
        """Take one event."""
