"""What a campaign, an exploration, a check or the live proxy reports while it runs: small frozen events.

The engines (:func:`~toolwire.engines.fuzz`, :func:`~toolwire.engines.explore`,
:func:`~toolwire.engines.check_log`, :func:`~toolwire.engines.check_path`, the proxy) print
nothing: they call their handlers with these events, and the handlers print progress, save
counterexamples, render the report, write the proxy's report and record
(``engines/fuzzing/_handlers.py`` saves; the CLI's :mod:`toolwire.cli.handlers` print and
write).  The shape of Schemathesis's ``engine/events.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from toolwire.engines._core._results import Problem, Report
    from toolwire.engines.exploring import Exploration
    from toolwire.engines.fuzzing import Counterexample, FuzzRun
    from toolwire.engines.proxy import Recording
    from toolwire.properties import Finding
    from toolwire.properties._change import Change

__all__ = [
    "Engine",
    "EngineEvent",
    "ExchangeChecked",
    "FindingFound",
    "FindingShrunk",
    "Finished",
    "Handler",
    "LiveFinding",
    "PartFailed",
    "Progress",
    "ReportReady",
    "Started",
]

Engine = Literal["fuzz", "explore", "check", "logs", "proxy"]


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


@dataclass(frozen=True, slots=True, kw_only=True)
class LiveFinding(EngineEvent):
    """What the live proxy tells as it checks an exchange: a finding the moment it is made, a
    part that could not be judged (``problem``), or (``--repair``) a ``change`` made to the
    request on its way upstream."""

    exchange: int
    #: When it was told (seconds since the epoch).
    time: float
    method: str
    endpoint: str
    side: Literal["request", "response", "exchange"]
    protocol: str
    finding: Finding | None = None
    problem: Problem | None = None
    #: A change ``--repair`` made to the request before it was forwarded.
    change: Change | None = None
    #: True for a cross-exchange finding (no single recorded exchange shows it).
    across: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ExchangeChecked(EngineEvent):
    """The proxy has checked an exchange whole (told in exchange order); ``recording`` is the
    exchange as a record keeps it, when one was asked for and a response came."""

    exchange: int
    recording: Recording | None = None
