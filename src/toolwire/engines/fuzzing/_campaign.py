"""The fuzz campaign: generated provider traffic through a converter, judged by the relations.

Hypothesis generates valid input traces (:func:`~toolwire.protocols._traces.drawn_traces`, what
:func:`toolwire.protocols.traces` draws from), the target converts each, and
:func:`~toolwire.engines.fuzzing._judge.judge` applies the relations.  Each distinct finding
shrinks to a minimal input.  The campaign reports what it finds as events (``_events.py``) as
soon as it finds it and each time shrinking makes it smaller; the handlers save and print (an
interrupted run loses nothing it found).  The run it returns is :class:`~._run.FuzzRun`; Hypothesis
rounds are driven by :mod:`._rounds`, ``--workers`` by :mod:`._workers`.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import timedelta
from typing import Any, Final

from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings
from hypothesis import strategies as st
from hypothesis.control import current_build_context
from hypothesis.database import InMemoryExampleDatabase, choices_to_bytes
from hypothesis.errors import Flaky

from toolwire._extras import extra
from toolwire.engines._core._events import (
    EngineEvent,
    FindingFound,
    FindingShrunk,
    Finished,
    Handler,
    Progress,
    Started,
)
from toolwire.engines.fuzzing._cause import Causes, Mode
from toolwire.engines.fuzzing._counterexample import Counterexample, finding_id
from toolwire.engines.fuzzing._coverage import Coverage, Watch
from toolwire.engines.fuzzing._handlers import SaveCounterexamples
from toolwire.engines.fuzzing._inputs import catalogue_size, drawn, inputs, shapes
from toolwire.engines.fuzzing._judge import Fault, Outcome, judge
from toolwire.engines.fuzzing._options import FuzzOptions, deviated, hypothesis_folder, waiting
from toolwire.engines.fuzzing._rounds import _interrupted, _Interrupts, _Resteer, _round, _Spent, _Tripped
from toolwire.engines.fuzzing._run import FuzzRun, _ordered
from toolwire.engines.fuzzing._steer import Example, Signature, Steering
from toolwire.engines.fuzzing._targets import Target, TargetRecipe, load_target
from toolwire.engines.fuzzing._workers import _fan_out

__all__ = ["Campaign", "FuzzRun", "fuzz", "fuzz_with", "hypothesis_home"]

Wire = list[dict[str, Any]]
#: How often a campaign reports its progress, at most (seconds).
PROGRESS_EVERY = 0.25


#: How often (in examples) a round checks whether it should steer anew.
RESTEER_EVERY: Final = 10
#: A target that runs fewer examples a second than this is served as slow: shorter traces, each
#: drawn again more often while it shows a held finding's signature, and shrinking cut short.
SLOW: Final = 20.0
#: The examples and seconds a campaign waits before it judges the target's speed.
SLOW_AFTER: Final = (8, 1.5)
#: A slow campaign's runs of the target one polish may spend shrinking a finding (its traces and
#: drawings: :mod:`~toolwire.engines.fuzzing._inputs`) ...
SLOW_SHRINKS: Final = 20
#: ... runs a round that was shrinking when the target was found slow may go on shrinking ...
SLOW_ROUND_SHRINKS: Final = 8
#: ... the share of the time limit kept for those polishes (the search does not shrink) ...
SLOW_RESERVE: Final = 0.25
#: ... and how often (in examples) a slow round checks whether it should steer anew.
SLOW_RESTEER_EVERY: Final = 30


class Campaign:
    """One fuzz campaign of one target: Hypothesis rounds, then each finding polished on its own.

    :meth:`attempt` judges one generated example; :meth:`keep` holds each finding's smallest
    example (and reports it); :meth:`polish` shrinks one finding's example again with only that
    finding counting as a failure.  :meth:`run` drives them and returns the :class:`FuzzRun`.
    """

    def __init__(self, target: Target, options: FuzzOptions, emit: Handler) -> None:
        self.target, self.options, self.emit = target, options, emit
        self.steering = Steering()
        #: The signatures this round draws away from (fixed for a round: Hypothesis replays choices).
        self.signatures: tuple[Signature, ...] = ()
        self.plain = False
        self.round_examples, self.shrinking = 0, False
        #: The target is slow (:data:`SLOW`): judged once, after :data:`SLOW_AFTER`.
        self.slow: bool | None = None
        #: Runs of the target this round has spent shrinking, and the findings it tripped.
        self.round_shrinks, self.round_found = 0, set[str]()
        self.strategy = inputs(options)
        #: Whether the round's strategy serves a slow target.
        self.slowed = False
        self.causes = Causes(self._judge, self._redrawn)
        shaped = tuple(sorted(options.like)) if options.like is not None else ()
        self.result = FuzzRun(
            target.name,
            options.source,
            options.destination,
            options.limit,
            options.seed,
            options.quirks,
            options.mutate,
            shaped,
            swarm=options.swarm_profiles,
            providers=options.providers,
            time_limit=options.seconds,
            ignoring=options.ignore,
            min_coverage=options.min_coverage,
            strict=options.strict,
            coverage=Coverage(
                input_total=catalogue_size(options.source), output_total=catalogue_size(options.destination)
            ),
        )
        self.key = hashlib.sha256(
            json.dumps(
                [target.name, options.source, options.destination, options.quirks, shaped, options.mutate]
            ).encode()
        ).digest()
        self.best: dict[str, Counterexample] = {}
        #: Hypothesis's choices that drew each finding's best example, the round's strategy that
        #: read them and whether it drew plain examples (to shrink it again on its own).
        self.choices: dict[str, tuple[tuple[Any, ...], st.SearchStrategy[Example], Mode]] = {}
        #: Findings a finished round has shrunk: later rounds look for others.
        self.done: set[str] = set()
        self.watch = Watch(self.result.coverage)
        self.started = time.monotonic()
        self.deadline = self.started + options.seconds if options.seconds is not None else None
        self.reported = -PROGRESS_EVERY

    def run(self) -> FuzzRun:
        """Run the campaign until its budget is spent; report its start, findings and end."""
        options, result = self.options, self.result
        self.emit(
            Started(engine="fuzz", target=result.target, source=result.source, destination=result.destination)
        )
        database = _database(options.database)
        noted = _Interrupts()
        try:
            # Every table notes the steps the monitors take while this campaign judges examples.
            with noted, self.watch.installed(), hypothesis_home():
                self._search(database)
                # Each finding's best example, shrunk once more on its own: while searching, an
                # example that showed two findings could only count for one of them.
                for finding in sorted(self.best, key=lambda f: bool(self.best[f].cause)):
                    self.polish(finding)
        except _Spent:
            pass  # the time limit ended the polishing; the examples kept so far stand
        except KeyboardInterrupt:
            result.interrupted = True
            result.stopped = "interrupted"
        except Flaky as exc:
            result.note = f"the target is not deterministic: {str(exc).splitlines()[0]}"
        except BaseException as exc:
            # Ctrl-C can land inside Hypothesis's own bookkeeping, which then fails with an error
            # of its own (an AssertionError, a group): the campaign still ends with its report.
            if not (noted.seen or _interrupted(exc)):
                raise
            result.interrupted = True
            result.stopped = "interrupted"
        finally:
            result.seconds = time.monotonic() - self.started
        result.counterexamples = _ordered(self.best.values())
        self.emit(Finished(engine="fuzz", run=result))
        return result

    def _search(self, database: Any) -> None:
        """Hypothesis rounds until the budget is spent; each round looks for findings not yet shrunk."""
        options, result = self.options, self.result
        try:
            for round_number in itertools.count():
                budget = options.limit - result.examples
                if budget <= 0:
                    result.stopped = "max-examples"
                    return
                # The first round replays the database's findings; later ones leave it alone, so that
                # a finding this campaign has set aside is not deleted from under another campaign.
                replay_first = database is not None and round_number == 0
                self._steer()
                test = settings(
                    max_examples=budget,
                    database=database,
                    deadline=None,
                    derandomize=False,
                    verbosity=Verbosity.quiet,
                    report_multiple_bugs=True,
                    phases=self._phases(replay_first),
                    suppress_health_check=list(HealthCheck),
                )(seed(options.seed + round_number)(given(self.strategy)(self.attempt)))
                test._hypothesis_internal_database_key = self.key  # type: ignore[attr-defined]
                try:
                    finals = _round(test)
                except _Resteer:
                    continue
                if not finals:
                    # Hypothesis ran the rest of the budget (or exhausted the inputs): nothing new.
                    result.stopped = "max-examples" if result.examples >= options.limit else "exhausted"
                    return
                self.done.update(final.finding for final in finals)
        except _Spent as spent:
            result.stopped = spent.reason

    def _phases(self, replay_first: bool) -> tuple[Phase, ...]:
        """A round's phases: a slow target's rounds only generate (its findings are shrunk once,
        by :meth:`polish`, in the time kept for it)."""
        if self.slowed:
            return (Phase.generate,)
        return (Phase.reuse, Phase.generate, Phase.shrink) if replay_first else (Phase.generate, Phase.shrink)

    def _resteer(self) -> None:
        """End the round when the findings' signatures have changed since it began.

        Checked every :data:`RESTEER_EVERY` examples, and never once the round has a finding
        to shrink (ending the round would cut its shrinking short).
        """
        self.round_examples += 1
        if self.shrinking or self.round_examples % (SLOW_RESTEER_EVERY if self.slowed else RESTEER_EVERY):
            return
        if (self.steering.signatures(), self.steering.saturated()) != (self.signatures, self.plain):
            raise _Resteer
        if bool(self.slow) != self.slowed:
            raise _Resteer

    def _steer(self) -> None:
        """A new round draws away from every finding held so far (:mod:`~toolwire.engines.fuzzing._steer`)."""
        self.round_examples, self.shrinking = 0, False
        self.round_shrinks, self.round_found = 0, set()
        signatures, plain = self.steering.signatures(), self.steering.saturated()
        if (signatures, plain) != (self.signatures, self.plain) or bool(self.slow) != self.slowed:
            self.signatures, self.plain, self.slowed = signatures, plain, bool(self.slow)
            self.strategy = inputs(self.options, signatures, plain, bool(self.slow))

    def _judge(self, example: Example, watch: Watch | None = None) -> Outcome:
        options = self.options
        return judge(
            self.target,
            example.trace,
            options.source,
            options.destination,
            timeout=options.timeout,
            mutate=options.mutate,
            deviates=options.deviates | deviated(example.quirks),
            watch=watch,
            unanswered_optional=waiting(example.quirks) or waiting(options.pinned),
            strict=options.strict,
        )

    def _progress(self) -> None:
        now = time.monotonic()
        if now - self.reported < PROGRESS_EVERY:
            return
        self.reported = now
        self.emit(
            Progress(
                engine="fuzz",
                done=self.result.examples,
                findings=len(self.best),
                elapsed=now - self.started,
                left=self.deadline - now if self.deadline is not None else None,
                coverage=self.result.coverage.fraction,
            )
        )

    def attempt(self, example: Example) -> None:
        """Judge one generated example; raise the first new finding for Hypothesis to shrink."""
        result = self.result
        if result.examples >= self.options.limit:
            raise _Spent("max-examples")
        if self.deadline is not None and time.monotonic() >= self.deadline - self._kept():
            raise _Spent("time-limit")
        result.examples += 1
        self._progress()
        self._judge_speed()
        if self.shrinking and self.slow:
            self.round_shrinks += 1
            if self.round_shrinks > SLOW_ROUND_SHRINKS:
                # A slow target's examples go to finding more: the polish shrinks this one later.
                self.done.update(self.round_found)
                raise _Resteer
        outcome = self._judge(example, self.watch)
        judged = outcome.judged if outcome.judged is not None else example.trace
        result.coverage.add(set(example.features), shapes(outcome.output, self.options.destination))
        fresh = []
        steering = {s.finding for s in self.signatures if s.finding in self.done}
        made = current_build_context().data.choices
        keyed = self._keyed(outcome.faults(), example, made, (self.plain, self.slowed))
        self.steering.observe(example, (key for _, key, _ in keyed))
        for fault, key, cause in keyed:
            if (fault.names() | {key}) & set(result.ignoring):
                result.ignored[key] = result.ignored.get(key, 0) + 1
                if key not in steering:
                    self.steering.hold(key, example, (len(judged), len(json.dumps(judged))), cause)
            elif key not in self.done:
                result.hits[key] = result.hits.get(key, 0) + 1
                result.first_seen.setdefault(key, time.monotonic() - self.started)
                fresh.append((fault, key, cause))
        if self.slowed:
            # No shrinking in a slow round: each finding keeps its smallest example so far.
            for fault, key, cause in keyed:
                if key in result.hits and not (fault.names() | {key}) & set(result.ignoring):
                    self._hold(judged, outcome, fault, example, cause, key, made)
            self._resteer()
            return
        if not fresh:
            self._resteer()
            return
        self.shrinking = True
        self.round_found.update(key for _, key, _ in fresh)
        for fault, key, cause in fresh:
            self._hold(judged, outcome, fault, example, cause, key, made)
        first = fresh[0][1]
        raise _Tripped.named(first, self.best[first])

    def _hold(
        self,
        judged: Wire,
        outcome: Outcome,
        fault: Fault,
        example: Example,
        cause: frozenset[str],
        key: str,
        made: Sequence[Any],
    ) -> None:
        """Keep ``example`` as ``key``'s counterexample when it is the first or the smallest."""
        found = self._counterexample(judged, outcome, fault, example.shown, cause)
        if self.keep(found):
            self.choices[key] = (tuple(made), self.strategy, (self.plain, self.slowed))
            self.steering.hold(key, example, found.key(), cause)

    def _kept(self) -> float:
        """The seconds before the deadline a slow target's search ends, kept to shrink what it
        found: :data:`SLOW_SHRINKS` runs a finding, at most :data:`SLOW_RESERVE` of the limit."""
        if not self.slow or self.result.slow is None or self.options.seconds is None:
            return 0.0
        return min(SLOW_RESERVE * self.options.seconds, len(self.best) * SLOW_SHRINKS / self.result.slow)

    def _judge_speed(self) -> None:
        """Once :data:`SLOW_AFTER` has passed, judge whether the target is slow (:data:`SLOW`)."""
        if self.slow is not None:
            return
        if self.options.seconds is None:
            # A campaign bounded by examples alone gives one seed's counterexamples on any machine:
            # how fast the target runs there must not change how it is served.
            self.slow = False
            return
        elapsed = time.monotonic() - self.started
        examples = self.result.examples + self.result.shrinks + self.causes.tests
        if examples < SLOW_AFTER[0] or elapsed < SLOW_AFTER[1]:
            return
        rate = examples / elapsed
        self.slow = rate < SLOW
        if self.slow:
            self.result.slow = rate

    def _keyed(
        self, faults: Sequence[Fault], example: Example, made: Sequence[Any], mode: Mode
    ) -> list[tuple[Fault, str, frozenset[str]]]:
        """Each fault with its finding's id and cause (:mod:`~toolwire.engines.fuzzing._cause`);
        a fault ``--ignore`` sets aside by its symptom needs no cause."""
        keyed = []
        ignoring = set(self.result.ignoring)
        known = {*self.best, *self.result.ignored}
        for fault in faults:
            if fault.names() & ignoring:
                cause: frozenset[str] = frozenset()
            else:
                cause = self.causes.of(
                    fault,
                    example,
                    made,
                    mode,
                    known=known,
                    examples=self.result.examples,
                    slow=bool(self.slow),
                )
            keyed.append((fault, finding_id(fault.finding, cause), cause))
        self.result.cause_tests = self.causes.tests
        return keyed

    def _redrawn(self, mode: Mode, without: frozenset[str]) -> st.SearchStrategy[Example]:
        source, (plain, slow) = self.options.source, mode
        return drawn(self.options, plain, without, slow).map(
            lambda d: Example(d.trace, d.quirks, frozenset(shapes(d.trace, source)))
        )

    def keep(self, found: Counterexample) -> bool:
        """Hold ``found`` when it is the first of its finding or smaller than the one held.

        Reports it (:class:`FindingFound`, :class:`FindingShrunk`) when held; says whether it was.
        Ties keep the example found first: Hypothesis finds smaller examples later.
        """
        current = self.best.get(found.finding)
        if current is not None and found.key() >= current.key():
            return False
        self.best[found.finding] = found
        event = FindingFound if current is None else FindingShrunk
        self.emit(event(engine="fuzz", counterexample=found))
        return True

    def polish(self, finding: str) -> None:
        """Shrink ``finding``'s best example on its own: only that finding counts as a failure."""

        made, strategy, mode = self.choices[finding]
        symptom = self.best[finding].symptom
        spent = [0]

        def only(example: Example) -> None:
            if self.deadline is not None and time.monotonic() >= self.deadline:
                raise _Spent("time-limit")
            self.result.shrinks += 1
            spent[0] += 1
            if self.slow and spent[0] > SLOW_SHRINKS:
                raise _Resteer
            outcome = self._judge(example)
            judged = outcome.judged if outcome.judged is not None else example.trace
            faults = [fault for fault in outcome.faults() if fault.finding == symptom]
            choices = current_build_context().data.choices
            # The same symptom from another cause is not this finding: the shrinker keeps its cause.
            for fault, key, cause in self._keyed(faults, example, choices, mode):
                if key == finding:
                    self.keep(self._counterexample(judged, outcome, fault, example.shown, cause))
                    raise _Tripped.named(finding, self.best[finding])

        # Under the secondary key: Hypothesis takes a primary-key example as shrunk already.
        start = InMemoryExampleDatabase()
        start.save(b"polish.secondary", choices_to_bytes(made))
        test = settings(
            database=start,
            deadline=None,
            verbosity=Verbosity.quiet,
            phases=(Phase.reuse, Phase.shrink),
            suppress_health_check=list(HealthCheck),
        )(seed(self.options.seed)(given(strategy)(only)))
        test._hypothesis_internal_database_key = b"polish"  # type: ignore[attr-defined]
        with contextlib.suppress(_Tripped, _Resteer):
            test()

    def _counterexample(
        self, trace: Wire, outcome: Outcome, fault: Fault, quirks: frozenset[str], cause: frozenset[str]
    ) -> Counterexample:
        result = self.result
        return Counterexample(
            target=self.target.name,
            source=result.source,
            destination=result.destination,
            property=fault.property,
            message=fault.message,
            input=trace,
            output=outcome.output,
            showing=tuple(outcome.showing(fault)),
            quirks=",".join(sorted(quirks)) or None,
            mutate=result.mutate,
            seed=result.seed,
            kind=fault.kind,
            exchange=outcome.exchange,
            cause=tuple(sorted(cause)),
            strict=self.options.strict,
        )


def _database(spec: str | None) -> Any:
    """The Hypothesis example database ``spec`` names: a folder, or ``redis://HOST:PORT/N``."""
    if spec is None:
        return None
    if spec.startswith(("redis://", "rediss://", "unix://")):
        with extra("redis"):
            import redis
            from hypothesis.extra.redis import RedisExampleDatabase
        return RedisExampleDatabase(redis.Redis.from_url(spec), expire_after=timedelta(days=30))
    from hypothesis.database import DirectoryBasedExampleDatabase

    return DirectoryBasedExampleDatabase(spec)


@contextlib.contextmanager
def hypothesis_home() -> Iterator[None]:
    """Hypothesis's own files go to :func:`hypothesis_folder` while a campaign runs; whatever home
    was set before is put back afterwards, so the caller's own Hypothesis keeps its folder."""
    from hypothesis import configuration

    folder = hypothesis_folder()
    if folder is None:
        yield
        return
    home = vars(configuration).get("__hypothesis_home_directory")
    configuration.set_hypothesis_home_dir(folder)
    try:
        yield
    finally:
        configuration.set_hypothesis_home_dir(home)


def fuzz(
    target: str | Callable[..., Any] | Target,
    source: str,
    destination: str,
    *,
    max_examples: int | None = None,
    seed: int = 0,
    quirks: str | None = None,
    timeout: float = 5.0,
    mutate: bool = False,
    out: str | os.PathLike[str] | None = "counterexamples",
    like: Iterable[str] | None = None,
    time_limit: float | str | None = None,
    ignore: Iterable[str] = (),
    database: str | None = None,
    workers: int = 1,
    min_coverage: float | None = None,
    providers: Iterable[str] | None = None,
    strict: bool = False,
    handlers: Sequence[Handler] = (),
) -> FuzzRun:
    """Fuzz ``target`` (``module:function``, a callable, or a command) from ``source`` to ``destination``.

    A campaign judges every property on every example and runs until its
    budget is spent (``max_examples`` target runs, 200 unless only a
    ``time_limit`` is given; ``time_limit`` as ``"90s"``, ``"10m"`` or seconds;
    or Ctrl-C).  Each distinct finding (a property and how it broke) is shrunk
    on its own and saved under ``out`` as its own replayable counterexample
    (``out=None`` saves nothing); a found finding no longer stops the search
    for others.  ``ignore`` names findings set aside (a property, a rule id, or
    ``property:kind``).  ``mutate`` feeds mutated history (for sanitizers), and
    then only intact call/result pairs must survive.  ``strict`` makes an
    output that breaks a warning rule a validity finding too (``--strict``;
    by default validity counts error rules only).  The same ``seed`` gives
    the same run.  ``handlers`` get every event (``toolwire.engines`` lists them)
    after the saving; ``toolwire.engines.ShowProgress(sys.stderr)`` shows progress.

    ``database`` (a folder, or ``redis://HOST:PORT/N``) keeps the failing
    examples Hypothesis found, and a campaign replays those of the same target
    and protocols first; ``workers`` runs that many processes with different
    seeds sharing one database (a temporary folder unless given), and merges
    what they find.  Bad options are a :class:`~toolwire.errors.UsageError`,
    as from the CLI.

    A finding is its symptom and its cause: the quirk profiles its example
    cannot do without (``one-to-one:lost`` on the strict wire,
    ``one-to-one:lost [index-0]`` with Mistral's and Ollama's shape), each
    shrunk and saved on its own.  ``providers`` (``["mistral", "ollama"]``)
    draws only the quirk profiles those providers are known to send.
    """
    options = FuzzOptions(
        source=source,
        destination=destination,
        max_examples=max_examples,
        seed=seed,
        quirks=quirks,
        timeout=timeout,
        mutate=mutate,
        like=tuple(like) if like is not None else None,
        time_limit=time_limit,
        ignore=tuple(ignore) if not isinstance(ignore, str) else ignore,  # type: ignore[arg-type]
        database=database,
        workers=workers,
        min_coverage=min_coverage,
        providers=tuple(providers) if providers is not None and not isinstance(providers, str) else providers,  # type: ignore[arg-type]
        strict=strict,
    )
    wired: list[Handler] = [SaveCounterexamples(out)] if out is not None else []
    return fuzz_with(target, options, [*wired, *handlers])


def fuzz_with(
    target: str | Callable[..., Any] | Target | TargetRecipe,
    options: FuzzOptions,
    handlers: Sequence[Handler] = (),
) -> FuzzRun:
    """Run the campaign ``options`` describe on ``target``, calling each handler with every event."""

    def emit(event: EngineEvent) -> None:
        for handler in handlers:
            handler(event)

    if options.workers > 1:
        return _fan_out(target, options, emit, fuzz_with)
    loaded = load_target(target)
    try:
        return Campaign(loaded, options, emit).run()
    finally:
        if loaded is not target:
            loaded.close()
