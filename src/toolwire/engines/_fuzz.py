"""The fuzzer: generated provider traffic through a converter, judged by the relations.

Hypothesis generates valid input traces (:func:`toolwire.protocols.traces`),
the target converts each, and :func:`judge` applies the relations of
DESIGN.md.  A failure shrinks to a minimal input, which is saved as a
replayable JSON file, atomically, as soon as it is found and again each time
shrinking makes it smaller: an interrupted run loses nothing it found.
"""

from __future__ import annotations

import builtins
import concurrent.futures
import contextlib
import copy
import hashlib
import itertools
import json
import multiprocessing
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any, Final, TextIO

from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings
from hypothesis import strategies as st
from hypothesis import target as target_value
from hypothesis.control import current_build_context
from hypothesis.database import InMemoryExampleDatabase, choices_to_bytes
from hypothesis.errors import Flaky

from toolwire import __version__
from toolwire.engines._coverage import Coverage, Watch
from toolwire.engines._files import write_file
from toolwire.engines._targets import Target, TargetFailure, load_target, tool_result
from toolwire.errors import UsageError
from toolwire.properties import Finding, Result
from toolwire.protocols import MUTATORS, PROTOCOLS, QUIRKS, get_protocol, mutate, traces
from toolwire.protocols._relations import RELATIONS, Broken, damageable, intact, ledger, relate
from toolwire.protocols._shapes import shapes_of

__all__ = [
    "Counterexample",
    "Fault",
    "FuzzRun",
    "Outcome",
    "fuzz",
    "judge",
    "load_counterexample",
    "replay",
]

Wire = list[dict[str, Any]]
#: What can be wrong with a target's run besides the relations.
TARGET_FAILURES: Final = ("raises", "hangs", "crashes", "garbage", "mutates")
#: Every property a campaign judges, in report order: the target's run, the input, the relations.
PROPERTIES: Final = (*TARGET_FAILURES, "input", *RELATIONS)
#: The mutators in the order damage is tried: truncation first, since Hypothesis shrinks
#: towards the first choice (so damage shrinks to cuts) and explore tries the simplest first.
DAMAGE: Final = ("truncate", *sorted(set(MUTATORS) - {"truncate"}))


@dataclass(frozen=True, slots=True)
class Fault:
    """One distinct way an example fails: a target failure, a relation broken one way, or a bad input.

    ``finding`` names it (``identity:truncated``, ``validity:CC-1``, ``raises``): examples
    with the same finding are one bug, shrunk and saved once.
    """

    property: str
    kind: str
    message: str
    broken: Broken | None = None

    @builtins.property
    def finding(self) -> str:
        """The finding's name: its property, and how it broke when that says more."""
        return f"{self.property}:{self.kind}" if self.kind else self.property

    def names(self) -> set[str]:
        """Every name ``--ignore`` may give it: the property, the kind (a rule id), or both."""
        return {self.property, self.finding} | ({self.kind} if self.kind else set())


@dataclass(frozen=True, slots=True)
class Outcome:
    """One input through the target: its output and every property it breaks, first one first.

    ``invalid_input`` holds the rules the input itself breaks (a generator's bug, not the
    target's), beyond those its quirk profiles deviate from on purpose.
    """

    output: Wire | None
    broken: tuple[Broken, ...] = ()
    failure: TargetFailure | None = None
    invalid_input: tuple[Finding, ...] = ()
    #: The input as it was before the target saw it (the target may have changed its own copy).
    judged: Wire | None = None

    def faults(self) -> list[Fault]:
        """Every distinct failure of this example, in :data:`PROPERTIES` order."""
        firsts: dict[str, Finding] = {}
        for finding in self.invalid_input:
            firsts.setdefault(finding.rule, finding)
        found = [
            Fault("input", rule, f"the generated input breaks {rule}: {finding.message}")
            for rule, finding in firsts.items()
        ]
        if self.failure is not None:
            return [Fault(self.failure.kind, "", self.failure.message), *found]
        return [*found, *(Fault(b.relation, b.kind, b.message, b) for b in self.broken)]

    @property
    def verdict(self) -> str | None:
        """The first broken property, or None when all hold."""
        faults = self.faults()
        return faults[0].property if faults else None

    @property
    def message(self) -> str:
        """What the first broken property says."""
        faults = self.faults()
        return faults[0].message if faults else ""

    def showing(self, fault: Fault | None = None) -> list[int]:
        """Indexes of the output events that show ``fault`` (the first broken relation by default)."""
        first = fault.broken if fault is not None else (self.broken[0] if self.broken else None)
        if first is None or self.output is None:
            return []
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
    #: How the property broke (a rule id for ``validity``); empty when the property says it all.
    kind: str = ""

    @builtins.property
    def finding(self) -> str:
        """The finding this counterexample shows: its property, and how it broke."""
        return f"{self.property}:{self.kind}" if self.kind else self.property

    def to_json(self) -> dict[str, Any]:
        """The saved form (``toolwire replay`` reads it back)."""
        return {
            "toolwire": __version__,
            "target": self.target,
            "from": self.source,
            "to": self.destination,
            "property": self.property,
            "kind": self.kind,
            "finding": self.finding,
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
    #: One minimal counterexample per distinct finding, in :data:`PROPERTIES` order.
    counterexamples: list[Counterexample] = field(default_factory=list)
    #: Where each finding's counterexample is saved, by finding.
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
    #: Seconds into the campaign when each finding was first tripped.
    first_seen: dict[str, float] = field(default_factory=dict)
    coverage: Coverage = field(default_factory=Coverage)
    #: The least coverage the campaign had to reach (``--min-coverage``), when asked.
    min_coverage: float | None = None

    @property
    def covered_enough(self) -> bool:
        """The campaign reached ``min_coverage`` (or was not asked to)."""
        return self.min_coverage is None or self.coverage.fraction >= self.min_coverage

    @property
    def exit_code(self) -> int:
        """1 when a counterexample was found or coverage fell short of ``min_coverage``, else 0."""
        return 1 if self.counterexamples or not self.covered_enough else 0


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
    deviates: frozenset[str] = frozenset(),
    watch: Watch | None = None,
) -> Outcome:
    """Run ``target`` on ``trace`` and judge the output against every relation.

    The input is judged as it was generated: a copy is taken before the target
    sees it, and a target that changes its input is a finding (``mutates``).
    ``lossy`` is for converters that may drop broken history (sanitizers):
    only the input's intact call/result pairs must survive, and the damaged
    input is not itself judged.  ``deviates`` are the rules the input's quirk
    profiles break on purpose.  ``watch`` notes the machine coverage of the
    input's and the output's monitors.
    """
    round_trip = _kind(source, destination)
    # A worker converts its own copy of the input while this process reads the input.
    finish = target.start(trace, timeout, round_trip)
    try:
        snapshot = copy.deepcopy(trace)
        with watch.input() if watch else contextlib.nullcontext():
            before = ledger(snapshot, source)
    except BaseException:
        with contextlib.suppress(TargetFailure):
            finish()  # the worker's answer, so that the next example does not read it
        raise
    invalid = () if lossy else tuple(f for f in before.findings if f.rule not in deviates)
    try:
        output = finish()
    except TargetFailure as failure:
        return Outcome(None, failure=failure, invalid_input=invalid, judged=snapshot)
    if trace != snapshot:
        changed = TargetFailure("mutates", "the target changed its input trace in place")
        return Outcome(output, failure=changed, invalid_input=invalid, judged=snapshot)
    trace = snapshot
    if round_trip:
        before.results = [Result(c[0], c[1], tool_result(c[1], c[2])) for c in before.calls]
    keep = None
    if lossy:
        kept = intact(trace, source)
        keep = [n for n, call in enumerate(before.calls) if call[0] in kept]
        before.results = [r for r in before.results if r[0] in kept]
    try:
        with watch.output() if watch else contextlib.nullcontext():
            after = ledger(output, destination)
    except Exception as exc:
        unread = TargetFailure("garbage", f"toolwire could not read the output: {exc!r}")
        return Outcome(output, failure=unread, invalid_input=invalid, judged=snapshot)
    broken = relate(before, after, exact_ids=round_trip, keep=keep, target=destination)
    return Outcome(output, tuple(broken), invalid_input=invalid, judged=snapshot)


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
    valid = traces(source, quirks, like=like, swarm=True)
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
    """Progress on standard error once a run takes longer than a few seconds.

    On a terminal, a live line (rich) redrawn in place; otherwise a plain line every ten seconds.
    Nothing is written to standard output, so ``--format json`` stays clean.
    """

    def __init__(self, stream: TextIO | None, after: float = 3.0) -> None:
        self.stream = stream
        self.start = time.monotonic()
        self.after = after
        self.last = 0.0
        self.live: Any = None
        self.tty = bool(stream and stream.isatty())

    def tick(
        self, examples: int, found: int, deadline: float | None = None, coverage: Coverage | None = None
    ) -> None:
        if self.stream is None:
            return
        now = time.monotonic()
        elapsed = now - self.start
        if elapsed < self.after or elapsed - self.last < (0.25 if self.tty else 10.0):
            return
        self.last = elapsed
        rate = examples / elapsed if elapsed else 0.0
        line = f"fuzz: {examples} examples ({rate:.0f}/s), {found} distinct finding(s)"
        if coverage is not None:
            line += f", coverage {coverage.fraction:.0%}"
        line += f", {elapsed:.0f} s"
        if deadline is not None:
            line += f", {max(0.0, deadline - now):.0f} s left"
        if not self.tty:
            self.stream.write(f"{line}\n")
            self.stream.flush()
            return
        if self.live is None:
            from rich.console import Console
            from rich.live import Live

            self.live = Live(console=Console(file=self.stream), transient=True, auto_refresh=False)
            self.live.start()
        self.live.update(line, refresh=True)

    def close(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None


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
    time_limit: float | None = None,
    ignore: Iterable[str] = (),
    database: str | None = None,
    workers: int = 1,
    min_coverage: float | None = None,
) -> FuzzRun:
    """Fuzz ``target`` (``module:function``, a callable, or a command) from ``source`` to ``destination``.

    A campaign judges every property on every example and runs until its
    budget is spent (``max_examples`` target runs, ``time_limit`` seconds, or
    Ctrl-C).  Each distinct finding (a property and how it broke) is shrunk on
    its own and saved as its own replayable counterexample; a found finding
    no longer stops the search for others.  ``ignore`` names findings set
    aside (a property, a rule id, or ``property:kind``).  ``damaged`` feeds
    mutated history (for sanitizers), and then only intact call/result pairs
    must survive.  The same ``seed_value`` gives the same run.

    ``database`` (a folder, or ``redis://HOST:PORT/N``) keeps the failing
    examples Hypothesis found, and a campaign replays those of the same target
    and protocols first; ``workers`` runs that many processes with different
    seeds sharing one database (a temporary folder unless given), and merges
    what they find.
    """
    if workers > 1:
        options = {
            "max_examples": max_examples,
            "seed_value": seed_value,
            "quirks": quirks,
            "timeout": timeout,
            "damaged": damaged,
            "save_to": save_to,
            "like": like,
            "time_limit": time_limit,
            "ignore": tuple(ignore),
            "database": database,
            "min_coverage": min_coverage,
        }
        return _fan_out(target, source, destination, workers, options)
    for name in (source, destination):
        get_protocol(name)
    if damaged:
        damageable(source)
    loaded = target if isinstance(target, Target) else load_target(target)
    strategy = _inputs(source, quirks, damaged, like)
    deviates = frozenset(r for q in (quirks or "").split(",") if q in QUIRKS for r in QUIRKS[q].deviates)
    shaped = tuple(sorted(like)) if like is not None else ()
    run = FuzzRun(loaded.name, source, destination, max_examples, seed_value, quirks, damaged, shaped)
    run.time_limit, run.ignoring, run.min_coverage = time_limit, tuple(ignore), min_coverage
    run.coverage = Coverage(input_total=_catalogue_size(source), output_total=_catalogue_size(destination))
    examples_db = _database(database)
    key = hashlib.sha256(
        json.dumps([loaded.name, source, destination, quirks, shaped, damaged]).encode()
    ).digest()
    best: dict[str, Counterexample] = {}
    #: Hypothesis's choices that drew each finding's best example (to shrink it again on its own).
    choices: dict[str, tuple[Any, ...]] = {}
    done: set[str] = set()
    folder = Path(save_to).resolve() if save_to is not None else None
    ticker = _Progress(progress)
    watch = Watch(run.coverage)
    started = time.monotonic()
    deadline = started + time_limit if time_limit is not None else None

    def keep(found: Counterexample) -> None:
        """Save ``found`` when it is the first of its finding or smaller than the one saved."""
        current = best.get(found.finding)
        if current is None or found.key() < current.key():
            best[found.finding] = found
            if folder is not None:
                previous = run.saved.get(found.finding)
                run.saved[found.finding] = save(found, folder)
                if previous is not None and previous != run.saved[found.finding]:
                    previous.unlink(missing_ok=True)

    def attempt(trace: Wire) -> None:
        if run.examples >= max_examples:
            raise _Spent("max-examples")
        if deadline is not None and time.monotonic() >= deadline:
            raise _Spent("time-limit")
        run.examples += 1
        ticker.tick(run.examples, len(best), deadline, run.coverage)
        taken = run.coverage.input_machines.size() + run.coverage.output_machines.size()
        outcome = judge(
            loaded, trace, source, destination, timeout=timeout, lossy=damaged, deviates=deviates, watch=watch
        )
        # Steer towards examples that show shape features, or take machine states, transitions
        # and transition pairs, that no example has yet.
        taken = run.coverage.input_machines.size() + run.coverage.output_machines.size() - taken
        shown = run.coverage.add(_shapes(outcome.judged, source), _shapes(outcome.output, destination))
        target_value(float(shown + taken))
        fresh = []
        for fault in outcome.faults():
            if fault.names() & set(run.ignoring):
                run.ignored[fault.finding] = run.ignored.get(fault.finding, 0) + 1
            elif fault.finding not in done:
                run.hits[fault.finding] = run.hits.get(fault.finding, 0) + 1
                run.first_seen.setdefault(fault.finding, time.monotonic() - started)
                fresh.append(fault)
        if not fresh:
            return
        made = current_build_context().data.choices
        for fault in fresh:
            found = _counterexample(run, loaded.name, outcome.judged or trace, outcome, fault)
            if fault.finding not in best or found.key() < best[fault.finding].key():
                choices[fault.finding] = made
            keep(found)
        raise _found(fresh[0].finding, best[fresh[0].finding])

    def polish(finding: str) -> None:
        """Shrink ``finding``'s best example on its own: only that finding counts as a failure."""

        def only(trace: Wire) -> None:
            if deadline is not None and time.monotonic() >= deadline:
                raise _Spent("time-limit")
            run.shrinks += 1
            outcome = judge(
                loaded, trace, source, destination, timeout=timeout, lossy=damaged, deviates=deviates
            )
            for fault in outcome.faults():
                if fault.finding == finding:
                    keep(_counterexample(run, loaded.name, outcome.judged or trace, outcome, fault))
                    raise _found(finding, best[finding])

        # Under the secondary key: Hypothesis takes a primary-key example as shrunk already.
        start = InMemoryExampleDatabase()
        start.save(b"polish.secondary", choices_to_bytes(choices[finding]))
        test = settings(
            database=start,
            deadline=None,
            verbosity=Verbosity.quiet,
            phases=(Phase.reuse, Phase.shrink),
            suppress_health_check=list(HealthCheck),
        )(seed(seed_value)(given(strategy)(only)))
        test._hypothesis_internal_database_key = b"polish"  # type: ignore[attr-defined]
        with contextlib.suppress(_Found):
            test()

    # Every table notes the steps the monitors take while this campaign judges examples.
    watching = contextlib.ExitStack()
    watching.enter_context(watch.installed())
    try:
        try:
            for round_number in itertools.count():
                budget = max_examples - run.examples
                if budget <= 0:
                    run.stopped = "max-examples"
                    break
                # The first round replays the database's findings; later ones leave it alone, so that a
                # finding this campaign has set aside is not deleted from under another campaign.
                replay_first = examples_db is not None and round_number == 0
                test = settings(
                    max_examples=budget,
                    database=examples_db,
                    deadline=None,
                    derandomize=False,
                    verbosity=Verbosity.quiet,
                    report_multiple_bugs=True,
                    phases=(Phase.reuse, Phase.generate, Phase.shrink)
                    if replay_first
                    else (Phase.generate, Phase.shrink),
                    suppress_health_check=list(HealthCheck),
                )(seed(seed_value + round_number)(given(strategy)(attempt)))
                test._hypothesis_internal_database_key = key  # type: ignore[attr-defined]
                finals = _round(test)
                if not finals:
                    # Hypothesis ran the rest of the budget (or exhausted the inputs): nothing new.
                    run.stopped = "max-examples" if run.examples >= max_examples else "exhausted"
                    break
                done.update(final.finding for final in finals)
        except _Spent as spent:
            run.stopped = spent.reason
        # Each finding's best example, shrunk once more on its own: while searching, an example
        # that showed two findings could only count for one of them.
        for finding in list(best):
            polish(finding)
    except _Spent:
        pass  # the time limit ended the polishing; the examples kept so far stand
    except KeyboardInterrupt:
        run.interrupted = True
        run.stopped = "interrupted"
    except Flaky as exc:
        run.note = f"the target is not deterministic: {str(exc).splitlines()[0]}"
    finally:
        watching.close()
        ticker.close()
        if not isinstance(target, Target):
            loaded.close()
        run.seconds = time.monotonic() - started
    run.counterexamples = _ordered(best.values())
    return run


def _catalogue_size(protocol: str) -> int:
    shapes = get_protocol(protocol).shapes
    return len(shapes.features) if shapes is not None else 0


def _shapes(trace: Wire | None, protocol: str) -> set[str]:
    """The shape features of a trace, or none when it has none to show (no catalogue, unreadable)."""
    if trace is None or get_protocol(protocol).shapes is None:
        return set()
    try:
        return shapes_of(trace, protocol)
    except Exception:  # an output too broken to describe: validity says what is wrong with it
        return set()


def _database(spec: str | None) -> Any:
    """The Hypothesis example database ``spec`` names: a folder, or ``redis://HOST:PORT/N``."""
    if spec is None:
        return None
    if spec.startswith(("redis://", "rediss://", "unix://")):
        try:
            import redis
            from hypothesis.extra.redis import RedisExampleDatabase
        except ImportError:
            raise UsageError(
                "--database redis://... needs the redis client: pip install 'toolwire[redis]'"
            ) from None
        return RedisExampleDatabase(redis.Redis.from_url(spec), expire_after=timedelta(days=30))
    from hypothesis.database import DirectoryBasedExampleDatabase

    return DirectoryBasedExampleDatabase(spec)


def _fan_out(
    target: str | Callable[..., Any], source: str, destination: str, workers: int, options: dict[str, Any]
) -> FuzzRun:
    """``workers`` campaigns in processes of their own, different seeds, one database; merged."""
    if not isinstance(target, str):
        raise UsageError("--workers needs a target named by module:function, a file, or a command")
    if options["like"] is not None:
        options["like"] = tuple(options["like"])
    per = -(-options["max_examples"] // workers)
    started = time.monotonic()
    with contextlib.ExitStack() as stack:
        if options["database"] is None:
            options["database"] = stack.enter_context(tempfile.TemporaryDirectory(prefix="toolwire-db-"))
        jobs = [
            options | {"max_examples": per, "seed_value": options["seed_value"] + 7919 * k, "workers": 1}
            for k in range(workers)
        ]
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
            runs = list(pool.map(_worker, [(target, source, destination, job) for job in jobs]))
    merged = runs[0]
    merged.max_examples, merged.seed = options["max_examples"], options["seed_value"]
    merged.examples = sum(r.examples for r in runs)
    merged.shrinks = sum(r.shrinks for r in runs)
    merged.seconds = time.monotonic() - started
    merged.interrupted = any(r.interrupted for r in runs)
    merged.stopped = "interrupted" if merged.interrupted else runs[0].stopped
    merged.note = next((r.note for r in runs if r.note), None)
    best: dict[str, tuple[Counterexample, Path | None]] = {}
    for run in runs[1:]:
        for finding, count in run.ignored.items():
            merged.ignored[finding] = merged.ignored.get(finding, 0) + count
    for run in runs:
        for found in run.counterexamples:
            path = run.saved.get(found.finding)
            current = best.get(found.finding)
            if current is None or found.key() < current[0].key():
                if current is not None and current[1] is not None and current[1] != path:
                    current[1].unlink(missing_ok=True)
                best[found.finding] = (found, path)
            elif path is not None and path != current[1]:
                path.unlink(missing_ok=True)
    merged.counterexamples = _ordered(found for found, _ in best.values())
    merged.saved = {finding: path for finding, (_, path) in best.items() if path is not None}
    merged.hits = {f: sum(r.hits.get(f, 0) for r in runs) for f in best}
    merged.first_seen = {f: min(r.first_seen[f] for r in runs if f in r.first_seen) for f in best}
    for run in runs[1:]:
        merged.coverage.merge(run.coverage)
    return merged


def _worker(job: tuple[str, str, str, dict[str, Any]]) -> FuzzRun:
    target, source, destination, options = job
    return fuzz(target, source, destination, **options)


class _Spent(BaseException):
    """The campaign's budget is spent; a BaseException so that Hypothesis passes it through."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _round(test: Callable[[], None]) -> list[Counterexample]:
    """Run one Hypothesis round; the findings it shrank to their minimal examples."""
    try:
        test()
    except (_Found, BaseExceptionGroup) as exc:
        leaves = _leaves(exc)
        finals = [e.counterexample for e in leaves if isinstance(e, _Found)]
        if finals:
            return finals
        # The budget ran out while Hypothesis was shrinking two failures: it reports both.
        spent = [e for e in leaves if isinstance(e, _Spent)]
        if spent:
            raise spent[0] from None
        raise
    return []


def _counterexample(run: FuzzRun, target: str, trace: Wire, outcome: Outcome, fault: Fault) -> Counterexample:
    return Counterexample(
        target,
        run.source,
        run.destination,
        fault.property,
        fault.message,
        trace,
        outcome.output,
        tuple(outcome.showing(fault)),
        run.quirks,
        run.damaged,
        run.seed,
        fault.kind,
    )


def _ordered(found: Iterable[Counterexample]) -> list[Counterexample]:
    return sorted(found, key=lambda c: (PROPERTIES.index(c.property), c.kind))


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    return [exc]


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")[:80] or "target"


def save(found: Counterexample, folder: Path) -> Path:
    """Write ``found`` as JSON under ``folder``, atomically (a temporary file, then a rename).

    The name says the target, the protocol pair and the finding, and ends in a
    hash of the input: two campaigns writing into one folder never overwrite
    each other's different counterexamples.
    """
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{_slug(Path(found.target.split(':')[0]).stem + '-' + found.target.split(':')[-1])}"
    digest = hashlib.sha256(json.dumps(found.input, sort_keys=True).encode()).hexdigest()[:10]
    path = folder / f"{name}.{found.source}.{found.destination}.{_slug(found.finding)}.{digest}.json"
    text = json.dumps(found.to_json(), indent=1, ensure_ascii=False, allow_nan=False, default=repr)
    write_file(path, (text + "\n").encode("utf-8"))
    return path


def load_counterexample(path: str | os.PathLike[str]) -> Counterexample:
    """Read a saved counterexample; a :class:`UsageError` says what is wrong with the file."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path} is not UTF-8 text (byte {exc.start}); not a counterexample") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path} line {exc.lineno}: not JSON ({exc.msg})") from None
    except RecursionError:
        raise UsageError(f"{path} is nested too deeply to be a counterexample") from None
    missing = (
        [key for key in ("from", "to", "input") if key not in data] if isinstance(data, dict) else ["all"]
    )
    if missing or not isinstance(data["input"], list):
        raise UsageError(
            f"{path} is not a toolwire counterexample (missing {', '.join(missing) or 'input list'})"
        )
    expected: dict[str, type | tuple[type, ...]] = {
        "from": str, "to": str, "target": str, "property": str, "kind": str, "message": str,
        "quirks": (str, type(None)), "mutate": bool, "seed": int, "showing": list,
    }  # fmt: skip
    wrong = [key for key, kind in expected.items() if key in data and not isinstance(data[key], kind)]
    if wrong or not all(isinstance(n, int) for n in data.get("showing", [])):
        raise UsageError(f"{path}: the fields {', '.join(wrong) or 'showing'} have the wrong type")
    for key in ("from", "to"):
        if data[key] not in PROTOCOLS:
            raise UsageError(f"{path}: {key} names no protocol toolwire knows: {data[key]!r}")
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
        str(data.get("kind", "")),
    )


def replay(
    path: str | os.PathLike[str], target: str | Callable[..., Any], *, timeout: float = 5.0
) -> tuple[Counterexample, Outcome]:
    """Re-run a saved counterexample's input through ``target``: the saved case and today's outcome."""
    saved = load_counterexample(path)
    loaded = load_target(target)
    try:
        return saved, judge(
            loaded, saved.input, saved.source, saved.destination, timeout=timeout, lossy=saved.mutate
        )
    finally:
        loaded.close()
