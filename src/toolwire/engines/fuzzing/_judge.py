"""Judging one example: a converter's output against the relations, and the faults it shows.

:func:`judge` runs a :class:`~toolwire.engines.fuzzing._targets.Target` on one input and
applies the relations of ``docs/architecture.md`` (one-to-one, identity,
arguments, correlation, validity).  An :class:`Outcome` holds what came out and
every :class:`Fault`; the campaign (``_fuzz``), the explorer and ``replay`` all
judge through here.
"""

from __future__ import annotations

import builtins
import contextlib
import copy
import json
from dataclasses import dataclass
from typing import Any, Final

from toolwire.engines.fuzzing._coverage import Watch
from toolwire.engines.fuzzing._targets import Target, TargetFailure, tool_result
from toolwire.properties import Finding, Result
from toolwire.protocols import MUTATORS, get_protocol
from toolwire.protocols._relations import RELATIONS, Broken, intact, ledger, relate

__all__ = ["MUTATIONS", "PROPERTIES", "TARGET_FAILURES", "Fault", "Outcome", "judge", "round_trip"]

Wire = list[dict[str, Any]]
#: What can be wrong with a target's run besides the relations.
TARGET_FAILURES: Final = ("raises", "hangs", "crashes", "garbage", "mutates")
#: Every property a campaign judges, in report order: the target's run, the input, the relations.
PROPERTIES: Final = (*TARGET_FAILURES, "input", *RELATIONS)
#: The mutators in the order they are tried: truncation first, since Hypothesis shrinks
#: towards the first choice (so mutation shrinks to cuts) and explore tries the simplest first.
MUTATIONS: Final = ("truncate", *sorted(set(MUTATORS) - {"truncate"}))


@dataclass(frozen=True, slots=True)
class Fault:
    """One distinct way an example fails: a target failure, a relation broken one way, or a bad input.

    ``finding`` names it (``identity:truncated``, ``validity:CC-1``, ``raises:KeyError@convert``,
    ``hangs``): examples with the same finding are one bug, shrunk and saved once.  A target that
    raises is told apart by the type of its exception and the function that raised it: a
    converter's own ``ValueError`` on one shape does not hide an ``AssertionError`` on another,
    nor ``json.loads``'s "Extra data" (``decode``) its "Expecting value" (``raw_decode``).
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
        """Every name ``--ignore`` may give it: the property, the kind (a rule id), or both; an
        exception also by its type alone (``raises:KeyError`` for ``raises:KeyError@convert``)."""
        kinds = {self.kind, self.kind.split("@")[0]} if self.kind else set()
        return {self.property, self.finding} | kinds | {f"{self.property}:{kind}" for kind in kinds}


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
    #: What crossed the wire, when the target is a gateway (:meth:`Target.exchange`).
    exchange: dict[str, Any] | None = None

    def faults(self) -> list[Fault]:
        """Every distinct failure of this example, in :data:`PROPERTIES` order."""
        firsts: dict[str, Finding] = {}
        for finding in self.invalid_input:
            firsts.setdefault(finding.rule, finding)
        found = [
            Fault("input", rule, f"the generated input breaks {rule}: {finding.message}")
            for rule, finding in firsts.items()
        ]
        relations = [Fault(b.relation, b.kind, b.message, b) for b in self.broken]
        if self.failure is not None:
            # A target that changed its input still gave an output, judged like any other.
            failure = self.failure
            return [Fault(failure.kind, failure.cause, failure.message), *found, *relations]
        return [*found, *relations]

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


def round_trip(source: str, destination: str) -> bool:
    """A stream in and a request out is a round trip (the target calls back the tool runner)."""
    return get_protocol(source).shape == "stream" and get_protocol(destination).shape == "conversation"


def judge(
    target: Target,
    trace: Wire,
    source: str,
    destination: str,
    *,
    timeout: float = 5.0,
    mutate: bool = False,
    deviates: frozenset[str] = frozenset(),
    watch: Watch | None = None,
    unanswered_optional: bool = False,
    strict: bool = False,
) -> Outcome:
    """Run ``target`` on ``trace`` and judge the output against every relation.

    The input is judged as it was generated: a copy is taken before the target
    sees it (``Outcome.judged``), and a target that changes its input is a
    finding (``mutates``).  ``mutate`` is for converters fed mutated history
    (sanitizers): only the input's intact call/result pairs must survive, and
    the mutated input is not itself judged.  ``deviates`` are the rules the
    input's quirk profiles break on purpose: the provider's deviation, not the
    converter's, so neither the input nor an output that passes it on breaks
    them.  ``watch`` notes the machine coverage of the input's and the output's
    monitors.  A target that changes its input (``mutates``) is also judged on
    its output, against the input as it was generated.  ``unanswered_optional``:
    the input's calls without a result wait on the client, and are not owed
    (:attr:`Quirk.unanswered_optional`).  ``strict`` (``--strict``): an output that breaks a
    warning rule breaks validity too, unless the input breaks that rule already (by default
    validity counts error rules only; the input is judged by its error rules either way).
    """
    returns = round_trip(source, destination)
    # A worker converts its own copy of the input while this process copies and reads the input:
    # no target touches ``trace`` before ``finish`` is called (the contract of Target.start).
    finish = target.start(trace, timeout, returns)
    try:
        snapshot = copy.deepcopy(trace)
        with watch.input() if watch else contextlib.nullcontext():
            before = ledger(snapshot, source, warnings=strict)
    except BaseException:
        with contextlib.suppress(TargetFailure):
            finish()  # the worker's answer, so that the next example does not read it
        raise
    invalid = (
        ()
        if mutate
        else tuple(f for f in before.findings if f.severity == "error" and f.rule not in deviates)
    )
    try:
        output = finish()
    except TargetFailure as failure:
        return Outcome(
            None, failure=failure, invalid_input=invalid, judged=snapshot, exchange=target.exchange()
        )
    changed = None
    if trace != snapshot:
        changed = TargetFailure("mutates", "the target changed its input trace in place")
    if returns:
        before.results = [Result(c.id, c.name, tool_result(c.name, c.arguments)) for c in before.calls]
    keep = None
    if mutate:
        kept = intact(snapshot, source)
        keep = [n for n, call in enumerate(before.calls) if call.id in kept]
        before.results = [r for r in before.results if r.id in kept]
    try:
        with watch.output() if watch else contextlib.nullcontext():
            after = ledger(output, destination, warnings=strict)
    except Exception as exc:
        unread = TargetFailure("garbage", f"toolwire could not read the output: {exc!r}")
        return Outcome(
            output,
            failure=changed or unread,
            invalid_input=invalid,
            judged=snapshot,
            exchange=target.exchange(),
        )
    if strict:
        # A warning the input shows already, passed on, is the input's deviation, not the
        # converter's (as a quirk profile's is): only the warnings the output adds count.
        carried = {f.rule for f in before.findings}
        after.findings = [f for f in after.findings if f.severity == "error" or f.rule not in carried]
    answered = {result.id for result in before.results}
    optional = [n for n, c in enumerate(before.calls) if c.id not in answered] if unanswered_optional else []
    broken = relate(before, after, exact_ids=returns, keep=keep, target=destination, optional=optional)
    try:
        # A target that drives a turn of its own (a gateway sends the tool results back upstream).
        broken += target.follow_up(before, after, timeout, strict=strict)
    except TargetFailure as failure:
        return Outcome(
            output,
            failure=changed or failure,
            invalid_input=invalid,
            judged=snapshot,
            exchange=target.exchange(),
        )
    owed = tuple(b for b in broken if not (b.relation == "validity" and b.kind in deviates))
    return Outcome(
        output, owed, failure=changed, invalid_input=invalid, judged=snapshot, exchange=target.exchange()
    )
