"""The fuzzer: generated provider traffic through a converter, judged by the relations.

Hypothesis generates valid input traces (:func:`toolwire.properties.traces`),
the target converts each, and :func:`judge` applies the relations of
DESIGN.md.  A failure shrinks to a minimal input, which is saved as a
replayable JSON file, atomically, as soon as it is found and again each time
shrinking makes it smaller: an interrupted run loses nothing it found.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TextIO

from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings
from hypothesis import strategies as st
from hypothesis.errors import Flaky

from toolwire import __version__
from toolwire.engines._targets import Target, TargetFailure, load_target, tool_result
from toolwire.errors import UsageError
from toolwire.properties import MUTATORS, get_protocol, mutate, traces
from toolwire.properties._relations import RELATIONS, Broken, damageable, intact, ledger, relate

__all__ = ["Counterexample", "FuzzRun", "Outcome", "fuzz", "judge", "load_counterexample", "replay"]

Wire = list[dict[str, Any]]
#: What can be wrong with a target's run besides the relations.
TARGET_FAILURES: Final = ("raises", "hangs", "crashes", "garbage")
PROPERTIES: Final = (*TARGET_FAILURES, *RELATIONS)
#: The mutators in the order damage is tried: truncation first, since Hypothesis shrinks
#: towards the first choice (so damage shrinks to cuts) and explore tries the simplest first.
DAMAGE: Final = ("truncate", *sorted(set(MUTATORS) - {"truncate"}))


@dataclass(frozen=True, slots=True)
class Outcome:
    """One input through the target: its output and every property it breaks, first one first."""

    output: Wire | None
    broken: tuple[Broken, ...] = ()
    failure: TargetFailure | None = None

    @property
    def verdict(self) -> str | None:
        """The first broken property, or None when all hold."""
        if self.failure is not None:
            return self.failure.kind
        return self.broken[0].relation if self.broken else None

    @property
    def message(self) -> str:
        """What the first broken property says."""
        if self.failure is not None:
            return self.failure.message
        return self.broken[0].message if self.broken else ""

    def showing(self) -> list[int]:
        """Indexes of the output events that show the first broken property."""
        if not self.broken or self.output is None:
            return []
        first = self.broken[0]
        marks = [f.index for f in first.findings if f.index is not None]
        ids = [i for i in first.ids if i]
        for number, event in enumerate(self.output):
            text = json.dumps(event)
            if any(json.dumps(i)[1:-1] in text for i in ids):
                marks.append(number)
        return sorted(set(marks))


@dataclass(frozen=True, slots=True)
class Counterexample:
    """A minimal input that breaks a property, as saved and replayed."""

    target: str
    source: str
    destination: str
    property: str
    message: str
    input: Wire
    output: Wire | None
    showing: tuple[int, ...] = ()
    quirks: str | None = None
    mutate: bool = False
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        """The saved form (``toolwire replay`` reads it back)."""
        return {
            "toolwire": __version__,
            "target": self.target,
            "from": self.source,
            "to": self.destination,
            "property": self.property,
            "message": self.message,
            "quirks": self.quirks,
            "mutate": self.mutate,
            "seed": self.seed,
            "input": self.input,
            "output": self.output,
            "showing": list(self.showing),
        }

    def key(self) -> tuple[int, int]:
        """Smaller is better: fewer input events, then less text."""
        return (len(self.input), len(json.dumps(self.input)))


@dataclass(slots=True)
class FuzzRun:
    """What a fuzz run did and found."""

    target: str
    source: str
    destination: str
    max_examples: int
    seed: int
    quirks: str | None
    damaged: bool = False
    #: The shape features the inputs were restricted to (``--like``), empty when not.
    like: tuple[str, ...] = ()
    examples: int = 0
    seconds: float = 0.0
    counterexamples: list[Counterexample] = field(default_factory=list)
    saved: dict[str, Path] = field(default_factory=dict)
    interrupted: bool = False
    note: str | None = None

    @property
    def exit_code(self) -> int:
        """1 when a counterexample was found, else 0."""
        return 1 if self.counterexamples else 0


def _kind(source: str, destination: str) -> bool:
    """A stream in and a request out is a round trip."""
    return get_protocol(source).shape == "stream" and get_protocol(destination).shape == "conversation"


def judge(
    target: Target,
    trace: Wire,
    source: str,
    destination: str,
    *,
    timeout: float = 5.0,
    lossy: bool = False,
) -> Outcome:
    """Run ``target`` on ``trace`` and judge the output against every relation.

    ``lossy`` is for converters that may drop broken history (sanitizers):
    only the input's intact call/result pairs must survive.
    """
    round_trip = _kind(source, destination)
    try:
        output = target.run(trace, timeout, round_trip)
    except TargetFailure as failure:
        return Outcome(None, failure=failure)
    before = ledger(trace, source)
    if round_trip:
        before.results = [(c[0], c[1], tool_result(c[1], c[2])) for c in before.calls]
    keep = None
    if lossy:
        kept = intact(trace, source)
        keep = [n for n, call in enumerate(before.calls) if call[0] in kept]
        before.results = [r for r in before.results if r[0] in kept]
    try:
        after = ledger(output, destination)
    except Exception as exc:
        return Outcome(
            output, failure=TargetFailure("garbage", f"toolwire could not read the output: {exc!r}")
        )
    return Outcome(output, tuple(relate(before, after, exact_ids=round_trip, keep=keep, target=destination)))


class _Found(Exception):
    """Raised for Hypothesis: one subclass per property, so that each shrinks on its own."""

    counterexample: Counterexample


_FOUND: dict[str, type[_Found]] = {}


def _found(prop: str, counterexample: Counterexample) -> _Found:
    kind = _FOUND.get(prop)
    if kind is None:
        kind = _FOUND[prop] = type(f"Broken_{prop.replace('-', '_')}", (_Found,), {})
    error = kind(f"{prop}: {counterexample.message}")
    error.counterexample = counterexample
    return error


def _inputs(
    source: str, quirks: str | None, damaged: bool, like: Iterable[str] | None = None
) -> st.SearchStrategy[Wire]:
    valid = traces(source, quirks, like=like)
    if not damaged:
        return valid

    @st.composite
    def broken(draw: st.DrawFn) -> Wire:
        trace = draw(valid)
        for name in draw(st.lists(st.sampled_from(DAMAGE), max_size=2)):
            trace = mutate(trace, source, name) or trace
        return trace

    return broken()


class _Progress:
    """A progress line on standard error once a run takes longer than a few seconds."""

    def __init__(self, stream: TextIO | None, after: float = 3.0) -> None:
        self.stream = stream
        self.start = time.monotonic()
        self.after = after
        self.last = 0.0
        self.tty = bool(stream and stream.isatty())

    def tick(self, examples: int, found: int) -> None:
        if self.stream is None:
            return
        now = time.monotonic() - self.start
        if now < self.after or now - self.last < (0.5 if self.tty else 10.0):
            return
        self.last = now
        line = f"fuzz: {examples} examples, {found} counterexample(s), {now:.0f} s"
        self.stream.write(f"\r{line}" if self.tty else f"{line}\n")
        self.stream.flush()

    def close(self) -> None:
        if self.stream is not None and self.tty and self.last:
            self.stream.write("\n")


def fuzz(
    target: str | Callable[..., Any],
    source: str,
    destination: str,
    *,
    max_examples: int = 200,
    seed_value: int = 0,
    quirks: str | None = None,
    timeout: float = 5.0,
    damaged: bool = False,
    save_to: str | os.PathLike[str] | None = "counterexamples",
    progress: TextIO | None = None,
    like: Iterable[str] | None = None,
) -> FuzzRun:
    """Fuzz ``target`` (``module:function``, a callable, or a command) from ``source`` to ``destination``.

    Returns a :class:`FuzzRun` holding one minimal counterexample per broken
    property.  ``damaged`` feeds mutated history (for sanitizers), and then
    only intact call/result pairs must survive.  The same ``seed_value``
    gives the same run.
    """
    for name in (source, destination):
        get_protocol(name)
    if damaged:
        damageable(source)
    loaded = target if isinstance(target, Target) else load_target(target)
    strategy = _inputs(source, quirks, damaged, like)
    shaped = tuple(sorted(like)) if like is not None else ()
    run = FuzzRun(loaded.name, source, destination, max_examples, seed_value, quirks, damaged, shaped)
    best: dict[str, Counterexample] = {}
    folder = Path(save_to) if save_to is not None else None
    ticker = _Progress(progress)
    started = time.monotonic()

    def keep(found: Counterexample, final: bool = False) -> None:
        """Save ``found`` if it is Hypothesis's final minimal case or smaller than the one saved."""
        current = best.get(found.property)
        if final or current is None or found.key() < current.key():
            best[found.property] = found
            if folder is not None:
                run.saved[found.property] = save(found, folder)

    def attempt(trace: Wire) -> None:
        run.examples += 1
        ticker.tick(run.examples, len(best))
        outcome = judge(loaded, trace, source, destination, timeout=timeout, lossy=damaged)
        prop = outcome.verdict
        if prop is None:
            return
        found = Counterexample(
            loaded.name,
            source,
            destination,
            prop,
            outcome.message,
            trace,
            outcome.output,
            tuple(outcome.showing()),
            quirks,
            damaged,
            seed_value,
        )
        keep(found)
        raise _found(prop, found)

    test = settings(
        max_examples=max_examples,
        database=None,
        deadline=None,
        derandomize=False,
        verbosity=Verbosity.quiet,
        report_multiple_bugs=True,
        phases=(Phase.generate, Phase.shrink),
        suppress_health_check=list(HealthCheck),
    )(seed(seed_value)(given(strategy)(attempt)))
    try:
        test()
    except KeyboardInterrupt:
        run.interrupted = True
        run.counterexamples = sorted(best.values(), key=lambda c: PROPERTIES.index(c.property))
    except Flaky as exc:
        run.note = f"the target is not deterministic: {str(exc).splitlines()[0]}"
        run.counterexamples = sorted(best.values(), key=lambda c: PROPERTIES.index(c.property))
    except BaseException as exc:
        finals = [e.counterexample for e in _leaves(exc) if isinstance(e, _Found)]
        if not finals and not isinstance(exc, _Found | BaseExceptionGroup):
            raise
        for final in finals:
            best[final.property] = final
            if folder is not None:
                run.saved[final.property] = save(final, folder)
        run.counterexamples = sorted(
            {c.property: c for c in finals}.values(), key=lambda c: PROPERTIES.index(c.property)
        )
    finally:
        ticker.close()
        run.seconds = time.monotonic() - started
    return run


def _ordered(found: Iterable[Counterexample]) -> list[Counterexample]:
    return sorted(found, key=lambda c: PROPERTIES.index(c.property))


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    return [exc]


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")[:80] or "target"


def save(found: Counterexample, folder: Path) -> Path:
    """Write ``found`` as JSON under ``folder``, atomically (a temporary file, then a rename)."""
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{_slug(Path(found.target.split(':')[0]).stem + '-' + found.target.split(':')[-1])}"
    path = folder / f"{name}.{found.source}.{found.destination}.{found.property}.json"
    descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=".", suffix=".tmp")
    with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
        json.dump(found.to_json(), stream, indent=1, ensure_ascii=False)
        stream.write("\n")
    os.replace(temporary, path)
    return path


def load_counterexample(path: str | os.PathLike[str]) -> Counterexample:
    """Read a saved counterexample; a :class:`UsageError` says what is wrong with the file."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path} line {exc.lineno}: not JSON ({exc.msg})") from None
    missing = (
        [key for key in ("from", "to", "input") if key not in data] if isinstance(data, dict) else ["all"]
    )
    if missing or not isinstance(data["input"], list):
        raise UsageError(
            f"{path} is not a toolwire counterexample (missing {', '.join(missing) or 'input list'})"
        )
    return Counterexample(
        str(data.get("target", "")),
        data["from"],
        data["to"],
        str(data.get("property", "")),
        str(data.get("message", "")),
        data["input"],
        data.get("output"),
        tuple(data.get("showing", ())),
        data.get("quirks"),
        bool(data.get("mutate", False)),
        int(data.get("seed", 0)),
    )


def replay(
    path: str | os.PathLike[str], target: str | Callable[..., Any], *, timeout: float = 5.0
) -> tuple[Counterexample, Outcome]:
    """Re-run a saved counterexample's input through ``target``: the saved case and today's outcome."""
    saved = load_counterexample(path)
    loaded = load_target(target)
    return saved, judge(
        loaded, saved.input, saved.source, saved.destination, timeout=timeout, lossy=saved.mutate
    )
