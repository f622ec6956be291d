"""The base of every protocol monitor, and the table of which rule an illegal step breaks."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from toolwire.errors import DefinitionError
from toolwire.machines import ILLEGAL, Table
from toolwire.models import Frame, Hot
from toolwire.properties._rule import Finding, Rule, Severity
from toolwire.properties._turn import Turn

__all__ = ["MAX_NOTICES", "Monitor", "Notice", "Violations", "guards", "hot_type"]

#: Notices a monitor keeps; past this many it only counts them (memory stays bounded on junk input).
MAX_NOTICES = 50


@dataclass(frozen=True, slots=True)
class Notice:
    """Something in the input that was skipped or could not be judged (not a rule)."""

    index: int | None
    line: int | None
    message: str


@dataclass(frozen=True, slots=True)
class Violations:
    """For one machine: the rule each illegal ``(state, event)`` breaks, and where to go on.

    After a violation the monitor moves to the recovery state, so that one
    mistake is reported once and the rest of the trace is still checked.
    """

    table: Table
    by_pair: Mapping[tuple[int, str], tuple[str, int]]

    @classmethod
    def declare(cls, table: Table, spec: Mapping[tuple[str, str], str | tuple[str, str]]) -> Violations:
        """Build from ``{(state, event): rule | (rule, recovery state)}``.

        ``"*"`` matches any state or event; the most specific key wins.  Every
        illegal pair must be covered, and a key must not name a legal pair:
        both are checked here, at definition time.
        """
        for state, event in spec:
            if state != "*":
                table.state(state)
            if event != "*" and event not in table.rows:
                raise DefinitionError(f"{table.name} has no event {event!r}")
            if state != "*" and event != "*" and table.step(table.state(state), event) != ILLEGAL:
                raise DefinitionError(f"{table.name}: {state} --{event}--> is legal; drop it")
        by_pair: dict[tuple[int, str], tuple[str, int]] = {}
        uncovered = []
        for event, row in table.rows.items():
            for number, target in enumerate(row):
                if target != ILLEGAL:
                    continue
                state = table.states[number]
                for key in ((state, event), (state, "*"), ("*", event), ("*", "*")):
                    if key in spec:
                        value = spec[key]
                        rule, recovery = (value, state) if isinstance(value, str) else value
                        by_pair[number, event] = (rule, table.state(recovery))
                        break
                else:
                    uncovered.append(f"{state} --{event}-->")
        if uncovered:
            raise DefinitionError(f"{table.name}: no rule for illegal steps {uncovered}")
        guarded = _GUARDS.setdefault(table.name, {})
        for (number, _), (rule, _) in by_pair.items():
            guarded.setdefault(table.states[number], set()).add(rule)
        return cls(table, by_pair)

    def rules(self) -> set[str]:
        """Every rule id this table can report."""
        return {rule for rule, _ in self.by_pair.values()}


#: By machine name, then state: the rules an illegal event there breaks, in any protocol declared.
_GUARDS: dict[str, dict[str, set[str]]] = {}


class _Untyped:
    """The type of no value: what a hot path compares with while its types are not loaded."""


def hot_type(module: str, name: str) -> Any:
    """The hot event type ``module.name`` when that module is loaded (see :meth:`Monitor.load_hot`),
    else a type no value has: a trace read without typed events takes no typed branch."""
    loaded = sys.modules.get(module)
    return getattr(loaded, name) if loaded is not None else _Untyped


def guards(machine: str) -> dict[str, list[str]]:
    """For each state of ``machine``, the rule ids an illegal event there breaks, sorted.

    Covers the protocols loaded so far (``toolwire.properties`` loads them all).
    """
    return {state: sorted(rules) for state, rules in _GUARDS.get(machine, {}).items()}


class Monitor:
    """Checks one trace of one protocol, event by event.

    Subclasses implement :meth:`feed` and :meth:`finish`; they record findings
    with :meth:`report` and skipped input with :meth:`notice`.  A monitor never
    raises on bad traffic.
    """

    protocol: str = ""
    #: Event types :meth:`consume` takes typed (see ``toolwire.models.read_jsonl``): the module that
    #: defines them and their names, loaded by :meth:`load_hot`.  :meth:`consume` turns any it does
    #: not handle on its hot path back into a plain value (``toolwire.models.plain``).
    hot: ClassVar[tuple[str, tuple[str, ...]] | None] = None
    #: The SDK release whose types this monitor's model follows (``openai 3.57.0``), named by the
    #: notice :meth:`unknown` makes for a type outside that model.
    modelled_sdk: ClassVar[str] = ""
    #: What makes another monitor of this one's protocol and profile (one per request body of a
    #: file), where a descriptor made it (``Protocol.factory``).
    remake: Callable[[], Monitor] | None = None

    @classmethod
    def load_hot(cls) -> Hot:
        """Its hot event types, imported (msgspec with them): for a reader that decodes them typed."""
        if not cls.hot:
            return ()
        module, names = cls.hot
        loaded = importlib.import_module(module)
        return tuple(getattr(loaded, name) for name in names)

    @classmethod
    def loaded_hot(cls) -> Hot:
        """Its hot event types if :meth:`load_hot` has imported them, else none (importing nothing)."""
        if not cls.hot or cls.hot[0] not in sys.modules:
            return ()
        return cls.load_hot()

    def __init__(self, rules: Mapping[str, Rule]) -> None:
        #: How the trace was encoded (``sse``, ``jsonl``, ``json``), when it came from a file.
        self.input_format: str | None = None
        #: Whether :meth:`calls` will be asked for.  When it will not (``toolwire check`` of a
        #: stream), a monitor may forget a finished call but for what later rules need of it
        #: (its ids), so that memory stays flat however long the stream.
        self.keep_calls = True
        self.findings: list[Finding] = []
        self.notices: list[Notice] = []
        #: Notices made in all (only the first :data:`MAX_NOTICES` are kept) and events they skipped.
        self.noticed = 0
        self.skipped = 0
        self._noticed_at: int | None = None
        #: Tool calls and tool results judged so far, where a monitor counts them as it goes
        #: (one that keeps its calls need not count them: :meth:`checked` reads :meth:`calls`).
        self.calls_checked = 0
        self.results_checked = 0
        self._rules = rules
        self._unknown: set[tuple[str, str]] = set()

    def open_document(self, document: dict[str, Any]) -> None:
        """A request body is about to be fed item by item; note its request-level fields."""

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        """Check one event (or message) of the trace."""
        raise NotImplementedError

    def consume(self, frames: Iterable[Frame]) -> tuple[int, int | None]:
        """Feed every frame of a trace; returns the number of events and the last line.

        Monitors with a hot path override this to run it on local variables;
        the result must be the same as feeding frame by frame.
        """
        index = 0
        line: int | None = None
        feed = self.feed
        for line, value, event in frames:
            feed(value, index, line, event)
            index += 1
        return index, line

    def feed_document(self, items: list[Any], line: int | None) -> None:
        """Feed the items of one request body (its messages, say), in order.

        Monitors with a hot path override this; the result must be the same as
        feeding item by item.
        """
        feed = self.feed
        for position, item in enumerate(items):
            feed(item, position, line, None)

    def finish(self, index: int, line: int | None) -> None:
        """The trace has ended after ``index`` events: check the ``eventually`` rules."""

    def calls(self) -> list[Turn]:
        """The tool calls this trace carried, grouped by turn (for round-trip checks)."""
        return []

    def checked(self) -> tuple[int, int]:
        """The tool calls and the tool results this monitor judged, read once the trace is fed:
        a report says how many, and detection prefers the reading that judges the most."""
        calls = self.calls_checked or sum(len(turn.calls) for turn in self.calls())
        return calls, self.results_checked

    @property
    def passed_over(self) -> frozenset[tuple[str, str]]:
        """The ``(kind, type)`` of each type it passed over as not modelled (see :meth:`unknown`)."""
        return frozenset(self._unknown)

    def report(
        self,
        rule_id: str,
        message: str,
        *,
        index: int | None,
        line: int | None,
        ids: Iterable[Any] = (),
        path: str | None = None,
        severity: Severity | None = None,
        rejected: bool = True,
        **values: Any,
    ) -> None:
        """Record a finding of ``rule_id``; ``values`` fill the provider's error text.  ``rejected``
        False: the rule's recorded error text is of another case of the rule (an id too long, where
        this one is missing), so the finding quotes none."""
        try:
            rule = self._rules[rule_id]
        except KeyError:
            raise DefinitionError(f"{type(self).__name__} reports {rule_id}, not one of its rules") from None
        if self.protocol not in rule.protocols:
            raise DefinitionError(
                f"{type(self).__name__} ({self.protocol}) reports {rule_id}, "
                f"a rule of {', '.join(rule.protocols)}"
            )
        self.record(
            rule,
            message,
            index=index,
            line=line,
            ids=ids,
            path=path,
            severity=severity,
            rejected=rejected,
            **values,
        )

    def record(
        self,
        rule: Rule,
        message: str,
        *,
        index: int | None,
        line: int | None,
        ids: Iterable[Any] = (),
        path: str | None = None,
        severity: Severity | None = None,
        rejected: bool = True,
        **values: Any,
    ) -> None:
        """Record a finding of ``rule``, a rule from outside this monitor's book (the round-trip rules)."""
        if severity == "error" and rule.severity == "warning":
            raise DefinitionError(f"{rule.id} is a warning rule; a finding cannot raise it to error")
        self.findings.append(
            Finding(
                rule=rule.id,
                severity=severity or rule.severity,
                message=message,
                index=index,
                line=line,
                fix=rule.fix,
                ids=tuple(str(i) for i in ids if i is not None),
                provider_error=rule.provider_error(values) if rejected else None,
                path=path,
            )
        )

    def notice(self, index: int | None, line: int | None, message: str) -> None:
        """Record input that was skipped or could not be judged (the first :data:`MAX_NOTICES` kept)."""
        self.noticed += 1
        if index is not None and index != self._noticed_at:
            self.skipped += 1
            self._noticed_at = index
        if len(self.notices) < MAX_NOTICES:
            self.notices.append(Notice(index, line, message))

    def unknown(
        self,
        kind: str,
        name: Any,
        index: int | None,
        line: int | None,
        passed: str = "passed over",
        *,
        skipped: bool = True,
    ) -> None:
        """A ``kind`` (item, block, event ...) of type ``name`` this monitor does not model.

        Never a finding (providers add types every few weeks): the monitor passes it over, and
        the report carries one notice per type, naming the SDK release the model follows.
        ``skipped`` says the event was not judged at all (an unknown item whose lifecycle is
        still tracked was judged).
        """
        if skipped and index is not None and index != self._noticed_at:
            # Counted each time: protocol detection weighs how much of a trace a monitor skips.
            self.skipped += 1
            self._noticed_at = index
        key = (kind, str(name))
        if key in self._unknown:
            return
        self._unknown.add(key)
        self.noticed += 1
        follows = f" (toolwire models {self.modelled_sdk})" if self.modelled_sdk else ""
        if len(self.notices) < MAX_NOTICES:
            self.notices.append(
                Notice(index, line, f"{kind} type {name!r} is not modelled{follows}; {passed}")
            )
