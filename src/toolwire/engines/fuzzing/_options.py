"""The options of a fuzz campaign and of an exploration, validated where they are made.

The library refuses what the CLI refuses: ``fuzz(..., max_examples=0)`` is the same
:class:`~toolwire.errors.UsageError` (exit 2) as ``toolwire fuzz --max-examples 0``.
Durations read alike for both engines: ``90s``, ``10m``, ``1h``, or seconds as a number.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from toolwire.errors import UsageError
from toolwire.properties import SENDERS
from toolwire.protocols import QUIRKS, get_protocol, quirks_for
from toolwire.protocols._relations import damageable

__all__ = [
    "NO_QUIRKS",
    "ExploreOptions",
    "FuzzOptions",
    "check_timeout",
    "deviated",
    "duration",
    "hypothesis_folder",
    "waiting",
]

#: ``--quirks none``: the strictest, best-behaved wire, no quirk profile at all.
NO_QUIRKS: Final = "none"

#: ``max_examples`` when only a time limit bounds a campaign.
UNLIMITED: Final = 10**9
_UNITS: Final = {"s": 1.0, "m": 60.0, "h": 3600.0}


def hypothesis_folder() -> Path | None:
    """Where Hypothesis keeps its own files (its caches) while toolwire fuzzes or explores: the
    user's cache folder, not ``./.hypothesis`` in the folder the user works in; None when
    ``HYPOTHESIS_STORAGE_DIRECTORY`` says where (it wins).  ``--database`` is where findings go.

    The campaign sets it while it runs; the CLI, for its whole process and the processes it starts.
    """
    if os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        return None
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "toolwire" / "hypothesis"


def duration(value: str | float | None, what: str = "--time-limit") -> float | None:
    """``value`` in seconds: ``90s``, ``10m``, ``1h``, or a number of seconds; above 0 and finite.

    >>> duration("10m"), duration(1.5), duration(None)
    (600.0, 1.5, None)
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise UsageError(f"{what} must be a duration (90s, 10m, 1h or seconds), not {value!r}")
    if isinstance(value, str):
        text = value.strip()
        number, unit = (text[:-1], text[-1]) if text and text[-1] in _UNITS else (text, "s")
        try:
            seconds = float(number) * _UNITS[unit]
        except ValueError:
            raise UsageError(f"not a duration: {value!r} (say 90s, 10m or 1h)") from None
    else:
        seconds = float(value)
    if not seconds > 0 or not math.isfinite(seconds):
        raise UsageError(f"a duration must be above 0, not {value!r}")
    return seconds


def deviated(quirks: Iterable[str]) -> frozenset[str]:
    """The rules traffic with these quirk profiles breaks on purpose (:attr:`Quirk.deviates`)."""
    return frozenset(rule for name in quirks if name in QUIRKS for rule in QUIRKS[name].deviates)


def waiting(quirks: Iterable[str]) -> bool:
    """Traffic with these quirk profiles leaves calls waiting on the client (not owed)."""
    return any(QUIRKS[name].unanswered_optional for name in quirks if name in QUIRKS)


def _count(value: object) -> bool:
    """``value`` is a whole number (not a bool, which Python counts as one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_timeout(timeout: float, message: str = "--timeout must be above 0") -> None:
    """A per-example timeout is a finite number of seconds above 0."""
    if isinstance(timeout, bool) or not isinstance(timeout, int | float):
        raise UsageError(f"{message}, not {timeout!r}")
    if not (timeout > 0 and math.isfinite(timeout)):
        raise UsageError(message)


@dataclass(frozen=True, slots=True, kw_only=True)
class FuzzOptions:
    """What a fuzz campaign runs: the protocol pair, its budget and its inputs; valid once made.

    ``max_examples`` None means 200, or no limit when ``time_limit`` bounds the campaign.
    ``time_limit`` takes a duration (``"90s"``, ``"10m"``) or seconds; it is kept as seconds.
    ``quirks`` None (the default) is a swarm over every quirk profile of ``source``: each example
    switches a random few on (:func:`~toolwire.protocols.drawn_traces`); ``"none"`` switches none
    on; ``"a,b"`` pins those profiles on every example, and no others.  ``like`` pins too.
    """

    source: str
    destination: str
    max_examples: int | None = None
    seed: int = 0
    quirks: str | None = None
    timeout: float = 5.0
    mutate: bool = False
    like: tuple[str, ...] | None = None
    time_limit: float | str | None = None
    ignore: tuple[str, ...] = ()
    database: str | None = None
    workers: int = 1
    min_coverage: float | None = None
    #: The providers a user routes (``--providers``, keys of :data:`~toolwire.properties.SENDERS`):
    #: the swarm draws only the quirk profiles they are known to send.  None: every profile.
    providers: tuple[str, ...] | None = None
    #: ``--strict``: an output that breaks a warning rule breaks validity (else error rules only).
    strict: bool = False
    #: The pinned quirk profiles' rules every input breaks on purpose (derived; a swarm adds per example).
    deviates: frozenset[str] = field(init=False, default=frozenset())

    def __post_init__(self) -> None:
        set_ = object.__setattr__  # a frozen dataclass normalises its own fields once, here
        set_(self, "time_limit", duration(self.time_limit))
        if self.max_examples is None:
            set_(self, "max_examples", UNLIMITED if self.time_limit is not None else 200)
        budget_ok = (
            _count(self.max_examples)
            and self.max_examples >= 1  # type: ignore[operator]
            and _count(self.workers)
            and self.workers >= 1
        )
        if not budget_ok:
            raise UsageError("--max-examples and --workers must be at least 1 and --timeout above 0")
        check_timeout(self.timeout, "--max-examples and --workers must be at least 1 and --timeout above 0")
        if not _count(self.seed):
            raise UsageError(f"--seed must be a whole number, not {self.seed!r}")
        if self.min_coverage is not None and not (
            isinstance(self.min_coverage, int | float)
            and not isinstance(self.min_coverage, bool)
            and 0 <= self.min_coverage <= 1
        ):
            raise UsageError(f"--min-coverage must be a fraction from 0 to 1, not {self.min_coverage!r}")
        for name in (self.source, self.destination):
            get_protocol(name)
        if self.mutate:
            damageable(self.source)
        if isinstance(self.ignore, str):
            raise UsageError(f"ignore takes a list of ids, not the string {self.ignore!r}")
        set_(self, "ignore", tuple(self.ignore))
        if self.like is not None:
            set_(self, "like", tuple(self.like))
        if self.quirks is not None and not isinstance(self.quirks, str):
            raise UsageError(f"quirks takes comma-separated profile names, not {self.quirks!r}")
        if self.providers is not None:
            if isinstance(self.providers, str) or not all(isinstance(p, str) for p in self.providers):
                raise UsageError(f"providers takes a list of provider names, not {self.providers!r}")
            unknown = sorted(set(self.providers) - set(SENDERS))
            if unknown:
                raise UsageError(
                    f"--providers: no provider {', '.join(map(repr, unknown))}; known: {', '.join(SENDERS)}"
                )
            if self.quirks is not None or self.like is not None:
                raise UsageError("--providers picks the swarm's quirk profiles: not with --quirks or --like")
            set_(self, "providers", tuple(self.providers))
        set_(self, "deviates", deviated(self.pinned))

    @property
    def pinned(self) -> tuple[str, ...]:
        """The quirk profiles on in every example (``quirks`` named them; ``none`` names none)."""
        if self.quirks is None or self.quirks.strip() == NO_QUIRKS:
            return ()
        return tuple(q for q in self.quirks.split(",") if q)

    @property
    def swarm(self) -> bool:
        """Each example switches a random few of the source's quirk profiles on (the default)."""
        return self.quirks is None and self.like is None

    @property
    def swarm_profiles(self) -> tuple[str, ...]:
        """The quirk profiles the swarm switches on at random: every profile of the source, or those
        of the providers named (``--providers``); none when profiles are pinned."""
        if not self.swarm:
            return ()
        names = quirks_for(self.source)
        if self.providers is None:
            return tuple(names)
        return tuple(n for n in names if not set(QUIRKS[n].providers).isdisjoint(self.providers))

    @property
    def limit(self) -> int:
        """The most examples the campaign runs (``max_examples`` resolved)."""
        assert self.max_examples is not None
        return self.max_examples

    @property
    def seconds(self) -> float | None:
        """The time limit in seconds, or None."""
        assert not isinstance(self.time_limit, str)
        return self.time_limit


@dataclass(frozen=True, slots=True, kw_only=True)
class ExploreOptions:
    """What an exploration runs within its bounds: limits, timeout, mutation, strictness; valid once
    made."""

    max_traces: int | None = None
    time_limit: float | str | None = None
    timeout: float = 5.0
    mutate: bool = False
    compare: bool = True
    #: ``--strict``: an output that breaks a warning rule breaks validity (else error rules only).
    strict: bool = False

    def __post_init__(self) -> None:
        message = "--timeout must be above 0 and --max-traces at least 1"
        object.__setattr__(self, "time_limit", duration(self.time_limit))
        check_timeout(self.timeout, message)
        if self.max_traces is not None and not (_count(self.max_traces) and self.max_traces >= 1):
            raise UsageError(message)

    @property
    def seconds(self) -> float | None:
        """The time limit in seconds, or None."""
        assert not isinstance(self.time_limit, str)
        return self.time_limit
