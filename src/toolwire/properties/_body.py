"""Non-streaming response bodies: the shared half of every body monitor.

A response body (a Chat Completions ``chat.completion``, a Responses
``response``, an Anthropic or Bedrock message, a Gemini
``GenerateContentResponse``) carries each tool call whole, in one or more
turns (choices, candidates), each ending with a stop reason.  A protocol reads
its own body into :class:`BodyTurn` values and names its rules in a
:class:`BodyRules`; the :class:`ResponseBody` lifecycle and the checks of ids,
names, arguments and stop reasons are shared.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

import orjson

from toolwire.machines import ResponseBody, compile_machine
from toolwire.properties._monitor import Monitor, Violations
from toolwire.properties._rule import Rule, Severity
from toolwire.properties._shapes import Feature, Shapes, calls_shapes
from toolwire.properties._text import clip
from toolwire.properties._turn import Call, Turn

__all__ = [
    "BODY_FEATURES",
    "BodyCall",
    "BodyMonitor",
    "BodyRules",
    "BodyTurn",
    "body_catalogue",
    "body_shapes",
]

_TABLE: Final = compile_machine(ResponseBody)


@dataclass(frozen=True, slots=True)
class BodyCall:
    """One call as a body carries it: where it sits, its id, name and arguments (as on the wire).

    ``text`` is False for a call whose input is free text, not JSON (a custom tool).
    """

    path: str
    id: Any
    name: Any
    arguments: Any
    text: bool = False


@dataclass(slots=True)
class BodyTurn:
    """One turn of a body (a choice, a candidate, the message): its calls and its stop reason."""

    path: str
    calls: list[BodyCall] = field(default_factory=list)
    reason: Any = None
    reason_path: str = ""


@dataclass(frozen=True, slots=True)
class BodyRules:
    """Which rule of a protocol each shared check reports, and how the protocol spells things.

    ``call``: a call without its id (where ids are required) or name;
    ``arguments``: arguments of the wrong form (``text``: a JSON string, as
    Chat Completions and Responses carry them; otherwise a JSON object);
    ``unique``: two calls of one turn share an id; ``stop``: the stop reason
    contradicts the calls (``tools``: the reasons that say tools were called,
    ``ends``: those that say the turn ended without; any other says neither).
    ``stop_severity`` is ``warning`` where real traffic sends a contradicting
    reason.  Where every reason is neutral (Gemini, Responses), no stop step is
    ever illegal, and ``stop`` only completes the table.
    """

    call: str
    arguments: str
    unique: str
    stop: str
    text: bool
    tools: frozenset[Any] = frozenset()
    ends: frozenset[Any] = frozenset()
    ids_required: bool = True
    #: Arguments may also be a JSON object where they are text (mistralai types them so).
    objects_too: bool = False
    arguments_required: bool = True
    unique_severity: str | None = None
    stop_severity: str | None = None

    def violations(self) -> Violations:
        """The :class:`ResponseBody` table with these rules on its illegal steps."""
        return Violations.declare(
            _TABLE,
            {
                ("*", "repeat"): self.unique,
                ("empty", "tools_stop"): (self.stop, "stopped"),
                ("calling", "end_stop"): (self.stop, "stopped"),
                ("stopped", "*"): self.stop,
            },
        )


class BodyMonitor(Monitor):
    """Checks response bodies, one per event: each turn steps a :class:`ResponseBody`.

    Subclasses set ``protocol``, ``rules`` (which shared check reports which rule),
    ``book`` (the family's rules by id) and ``noun``, and implement :meth:`read`
    (and, for ids the protocol constrains, :meth:`check_id`; for checks of the
    whole body, :meth:`check_body`).
    """

    rules: ClassVar[BodyRules]
    book: ClassVar[Mapping[str, Rule]]
    violations: ClassVar[Violations]
    #: What a body of this protocol is called, in notices.
    noun: ClassVar[str] = "response body"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "rules" in cls.__dict__:
            cls.violations = cls.rules.violations()

    def __init__(self) -> None:
        super().__init__(self.book)
        self._turns: list[Turn] = []

    def read(self, body: dict[str, Any]) -> list[BodyTurn] | str:
        """The turns of ``body``, or why it is not a body of this protocol."""
        raise NotImplementedError

    def check_id(self, call: BodyCall, index: int, line: int | None) -> None:
        """Report an id the protocol rejects (its pattern, its length)."""

    def check_body(self, body: dict[str, Any], turns: list[BodyTurn], index: int, line: int | None) -> None:
        """Checks of the whole body (item ids, statuses)."""

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        if not isinstance(value, dict):
            self.notice(index, line, f"a value that is not a JSON object, not a {self.noun}; skipped")
            return
        turns = self.read(value)
        if isinstance(turns, str):
            self.notice(index, line, f"{turns}; skipped")
            return
        for turn in turns:
            self._turn(turn, index, line)
        self.check_body(value, turns, index, line)

    def _turn(self, turn: BodyTurn, index: int, line: int | None) -> None:
        rules = self.rules
        state = _TABLE.initial
        seen: dict[Any, str] = {}
        calls = Turn(index, line, turn.path)
        for call in turn.calls:
            calls.calls.append(Call(call.id, call.name, call.arguments))
            self._check_call(call, index, line)
            repeated = isinstance(call.id, str) and call.id in seen
            state = self._step(state, "repeat" if repeated else "call", turn, call, seen, index, line)
            if isinstance(call.id, str):
                seen.setdefault(call.id, call.path)
        if turn.reason is not None:
            # A reason of any JSON shape (a list, an object) is neither: only text names one.
            reason = turn.reason if isinstance(turn.reason, str) else None
            event = "tools_stop" if reason in rules.tools else "end_stop" if reason in rules.ends else "stop"
            state = self._step(state, event, turn, None, seen, index, line)
        self._turns.append(calls)

    def _step(
        self,
        state: int,
        event: str,
        turn: BodyTurn,
        call: BodyCall | None,
        seen: dict[Any, str],
        index: int,
        line: int | None,
    ) -> int:
        target = _TABLE.rows[event][state]
        if target >= 0:
            return target
        rule, target = self.violations.by_pair[state, event]
        if event == "repeat" and call is not None:
            self.report(
                rule,
                f"{call.path}.id repeats id {clip(str(call.id))} of {seen[call.id]}",
                index=index,
                line=line,
                ids=(call.id,),
                path=call.path,
                severity=self.rules.unique_severity,  # type: ignore[arg-type]
                id=call.id,
            )
        elif event == "tools_stop":
            self.report(
                rule,
                f"{turn.reason_path} is {turn.reason!r} but {turn.path} has no tool call",
                index=index,
                line=line,
                path=turn.reason_path,
                severity=self.rules.stop_severity,  # type: ignore[arg-type]
            )
        else:
            ids = [c.id for c in turn.calls]
            self.report(
                rule,
                f"{turn.reason_path} is {turn.reason!r} but {turn.path} has {len(ids)} tool call(s)",
                index=index,
                line=line,
                ids=ids,
                path=turn.reason_path,
                severity=self.rules.stop_severity,  # type: ignore[arg-type]
            )
        return target

    def _check_call(self, call: BodyCall, index: int, line: int | None) -> None:
        rules = self.rules

        def flag(rule: str, message: str, severity: Severity | None = None) -> None:
            self.report(
                rule, message, index=index, line=line, ids=(call.id,), path=call.path, severity=severity
            )

        if call.id is None:
            if rules.ids_required:
                flag(rules.call, f"{call.path} has no id")
        elif not _text(call.id):
            flag(rules.call, f"{call.path}.id is {call.id!r}")
        else:
            self.check_id(call, index, line)
        if not _text(call.name):
            flag(
                rules.call,
                f"{call.path} has no name" if call.name is None else f"{call.path}.name is {call.name!r}",
            )
        problem, severity = self._arguments(call)
        if problem is not None:
            flag(rules.arguments, problem, severity)

    def _arguments(self, call: BodyCall) -> tuple[str | None, Severity | None]:
        """What is wrong with a call's arguments (and how bad), as its protocol carries them."""
        rules, arguments = self.rules, call.arguments
        if arguments is None and not rules.arguments_required:
            return None, None
        if call.text:
            wrong = not isinstance(arguments, str)
            return (
                f"the input of custom call {call.id} is {_kind(arguments)}, not text" if wrong else None
            ), None
        if not rules.text:
            wrong = not isinstance(arguments, dict)
            return (
                f"the input of call {call.id} is {_kind(arguments)}, not a JSON object" if wrong else None
            ), None
        if rules.objects_too and isinstance(arguments, dict):
            return None, None
        if not isinstance(arguments, str):
            return f"the arguments of call {call.id} are {_kind(arguments)}, not a JSON string", None
        try:
            orjson.loads(arguments)
        except orjson.JSONDecodeError as exc:
            return f"the arguments of call {call.id} are not JSON ({exc}): {arguments[:60]!r}", "warning"
        return None, None

    def calls(self) -> list[Turn]:
        """The calls of every body, one turn per choice, candidate or message."""
        return [turn for turn in self._turns if turn.calls]


def _text(value: Any) -> bool:
    return isinstance(value, str) and value != ""


def _kind(value: Any) -> str:
    return "missing" if value is None else f"a JSON {type(value).__name__}"


#: The features every body catalogue names alike.
BODY_FEATURES: Final = (
    Feature("several-calls", "two or more calls in one turn"),
    Feature("same-tool-twice", "two calls of one tool in one turn"),
    Feature("no-calls", "a body whose turn calls no tool"),
    Feature("empty-arguments", "a call with arguments {} (or the text {})"),
    Feature("text-with-calls", "text next to the calls in one turn"),
)


def body_shapes(turns: Iterable[BodyTurn], texts: Iterable[bool]) -> Iterator[str]:
    """The shared features of a body's turns; ``texts`` says, per turn, whether it has text too."""
    for turn, text in zip(turns, texts, strict=True):
        if not turn.calls:
            yield "no-calls"
            continue
        yield from calls_shapes([call.name for call in turn.calls])
        if any(call.arguments in ({}, "{}", "") for call in turn.calls):
            yield "empty-arguments"
        if text:
            yield "text-with-calls"


Reader = Callable[[dict[str, Any]], "list[BodyTurn] | str"]


def body_catalogue(
    read: Reader,
    features: Iterable[Feature],
    texts: Callable[[dict[str, Any], BodyTurn], bool],
    extra: Callable[[dict[str, Any], list[BodyTurn]], Iterable[str]],
    documented: Mapping[str, str] | None = None,
) -> Shapes:
    """A body protocol's shape catalogue: :data:`BODY_FEATURES` and ``features``.

    ``texts`` says whether a turn carries text; ``extra`` names a body's own features;
    ``documented`` names the source of a shared feature no recorded body shows.
    """
    sources = documented or {}
    shared = tuple(Feature(f.name, f.summary, sources.get(f.name)) for f in BODY_FEATURES)

    def extract(trace: list[Any]) -> set[str]:
        found: set[str] = set()
        for body in trace:
            turns = read(body) if isinstance(body, dict) else "not a body"
            if isinstance(turns, str):
                continue
            found.update(body_shapes(turns, [texts(body, turn) for turn in turns]))
            found.update(extra(body, turns))
        return found

    return Shapes((*shared, *features), extract)
