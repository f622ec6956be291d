"""Relations a converter must keep between its input and its output.

one-to-one, identity, arguments, names, correlation and validity, each a
named property over two traces.  A trace's calls come from its protocol's
monitor (which reassembles streamed fragments) or its descriptor's call
reader; its results from its descriptor's result reader.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from toolwire.errors import UsageError
from toolwire.properties._protocol import Result
from toolwire.properties._rule import Finding
from toolwire.properties._text import clip, json_text, parsed
from toolwire.properties._turn import Call
from toolwire.protocols import _registry
from toolwire.protocols._registry import get_protocol

__all__ = [
    "RELATIONS",
    "Broken",
    "Ledger",
    "accepts",
    "damageable",
    "intact",
    "ledger",
    "mangling",
    "relate",
    "results",
]

Relation = Literal["one-to-one", "identity", "arguments", "names", "correlation", "validity"]
#: The relations, in the order they are judged and reported.
RELATIONS: Final[tuple[Relation, ...]] = (
    "one-to-one",
    "identity",
    "arguments",
    "names",
    "correlation",
    "validity",
)


@dataclass(frozen=True, slots=True)
class Broken:
    """A relation the output does not keep, with the ids that show it."""

    relation: Relation
    message: str
    ids: tuple[str, ...] = ()
    findings: tuple[Finding, ...] = ()
    #: How the relation broke (``lost``, ``truncated``, a rule id for ``validity``...): two
    #: failures of one relation with different kinds are two bugs.
    kind: str = ""


@dataclass(slots=True)
class Ledger:
    """The calls and results of one trace, and what ``check`` found in it."""

    calls: list[Call] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


def results(trace: list[Any], protocol: str) -> list[Result]:
    """The tool results ``trace`` carries (empty for protocols that carry none)."""
    reader = get_protocol(protocol).results
    return [Result(*result) for result in reader(trace)] if reader else []


def ledger(trace: list[Any], protocol: str, *, warnings: bool = False) -> Ledger:
    """Check ``trace`` and read its calls and results; its findings are the rules it breaks as
    errors, and with ``warnings`` (``--strict``) those it breaks as warnings too."""
    spec = get_protocol(protocol)
    monitor = spec.make()
    monitor.finish(*monitor.consume((None, value, None) for value in trace))
    if spec.calls is not None:
        calls = [Call(*call) for call in spec.calls(trace)]
    else:
        calls = [Call(*call) for turn in monitor.calls() for call in turn.calls]
    findings = [f for f in monitor.findings if warnings or f.severity == "error"]
    return Ledger(calls, results(trace, protocol), findings)


def _value(value: Any) -> Any:
    """A result's content, comparable across wires.

    JSON text is parsed; a wrapper with one key (``output``, ``result``,
    ``content``, ``text``, ``json``) is unwrapped; text blocks are joined and a
    JSON block is its value; every empty value (``""``, ``None``, ``[]``,
    ``{}``) is ``""``.
    """
    value = parsed(value)
    if isinstance(value, dict) and len(value) == 1 and next(iter(value)) in _WRAPPERS:
        return _value(next(iter(value.values())))
    if isinstance(value, list) and value:
        parts = []
        for block in value:
            if isinstance(block, dict) and isinstance(block.get("text"), str):
                parts.append(block["text"])
            elif isinstance(block, dict) and "json" in block and len(value) == 1:
                return _value(block["json"])
            else:
                return value
        return "".join(parts)
    return "" if value in (None, "", [], {}) else value


#: Keys that wrap a tool result: Gemini's ``{"output": ...}``, MCP's and Bedrock's blocks.
_WRAPPERS: Final = frozenset({"output", "result", "content", "text", "json"})


def _pair(inputs: list[Call], outputs: list[Call]) -> list[tuple[int, int]]:
    """Pair input calls with output calls: equal ids first, the rest in order."""
    by_id: dict[Any, list[int]] = {}
    for k, call in enumerate(outputs):
        by_id.setdefault(call.id, []).append(k)
    pairs, used = [], set()
    left = []
    for n, call in enumerate(inputs):
        candidates = [k for k in by_id.get(call.id, []) if k not in used] if call.id is not None else []
        if candidates:
            pairs.append((n, candidates[0]))
            used.add(candidates[0])
        else:
            left.append(n)
    spare = [k for k in range(len(outputs)) if k not in used]
    pairs.extend(zip(left, spare, strict=False))
    return sorted(pairs)


def relate(
    source: Ledger,
    output: Ledger,
    *,
    exact_ids: bool = False,
    keep: Iterable[int] | None = None,
    target: str | None = None,
    optional: Iterable[int] = (),
) -> list[Broken]:
    """Every relation ``output`` breaks against ``source``, in :data:`RELATIONS` order.

    ``target`` names the output's protocol: an input id it accepts must reach
    the output unchanged, and an id it does not accept must be mapped to one it
    does.  ``exact_ids`` demands the source's ids unchanged wherever the target
    accepts them (a round trip: the next request must carry the ids the
    provider emitted).  ``keep`` names the source calls that must survive when a
    converter may drop others (a sanitizer of damaged history); by default all must.
    ``optional`` names source calls a converter may drop or keep (calls waiting on the
    client); kept, they are judged like any other.
    """
    must = set(range(len(source.calls)) if keep is None else keep) - set(optional)
    pairs = _pair(source.calls, output.calls)
    if keep is not None:
        # Damaged input: only the intact pairs are owed; the rest is for validity to judge.
        pairs = [(n, k) for n, k in pairs if n in must]
    matched = [(source.calls[n], output.calls[k]) for n, k in pairs]
    return [
        *_one_to_one(source, output, pairs, must, damaged=keep is not None),
        *_identity(source, pairs, matched, exact_ids, target),
        *_arguments(matched),
        *_names(matched),
        *_correlation(source, output, pairs),
        *_validity(output),
    ]


def _one_to_one(
    source: Ledger, output: Ledger, pairs: list[tuple[int, int]], must: set[int], *, damaged: bool
) -> Iterable[Broken]:
    """Every owed input call has exactly one output call: none lost, duplicated or invented."""
    paired = {n for n, _ in pairs}
    for n in sorted(must - paired):
        call = source.calls[n]
        yield Broken(
            "one-to-one", f"input call {call.id} ({call.name}) has no output call", _ids(call), kind="lost"
        )
    owed = {output.calls[k].id for _, k in pairs} if damaged else None
    counts = Counter(c.id for c in output.calls if c.id is not None and (owed is None or c.id in owed))
    twice = sorted(str(i) for i, c in counts.items() if c > 1)
    extra = 0 if damaged else len(output.calls) - len(pairs)
    if twice:
        yield Broken(
            "one-to-one",
            f"output call id(s) {', '.join(twice)} appear more than once",
            tuple(twice),
            kind="duplicated",
        )
    elif extra > 0:
        spare = [c.id for k, c in enumerate(output.calls) if k not in {k for _, k in pairs}]
        yield Broken(
            "one-to-one",
            f"{extra} output call(s) {spare} answer no input call",
            tuple(map(str, spare)),
            kind="invented",
        )


def _arguments(matched: list[tuple[Call, Call]]) -> Iterable[Broken]:
    """A paired output call's arguments are JSON-equal to its input call's."""
    for a, b in matched:
        if _value(a.arguments) != _value(b.arguments):
            yield Broken(
                "arguments",
                f"call {a.id}: arguments {clip(str(a.arguments))} became {clip(str(b.arguments))}",
                _ids(a, b),
                kind="changed",
            )


def _names(matched: list[tuple[Call, Call]]) -> Iterable[Broken]:
    """A paired output call has its input call's name."""
    for a, b in matched:
        if a.name != b.name:
            yield Broken(
                "names", f"call {a.id}: name {a.name!r} became {b.name!r}", _ids(a, b), kind="changed"
            )


def _validity(output: Ledger) -> Iterable[Broken]:
    """The output breaks no rule of its protocol: one :class:`Broken` per rule, with its findings."""
    for rule in dict.fromkeys(f.rule for f in output.findings):
        mine = tuple(f for f in output.findings if f.rule == rule)
        yield Broken("validity", f"the output breaks {rule}: {mine[0].message}", mine[0].ids, mine, kind=rule)


def _ids(*calls: Call) -> tuple[str, ...]:
    return tuple(str(c.id) for c in calls if c.id is not None)


def _identity(
    source: Ledger,
    pairs: list[tuple[int, int]],
    matched: list[tuple[Call, Call]],
    exact: bool,
    target: str | None,
) -> Iterable[Broken]:
    """Each paired output id is the input id, or a consistent, injective mapping of it.

    Precedence, per pair, first match wins: an id dropped (the input had one, the output none);
    in a round trip (``exact``), an id replaced that the target would have accepted; an id the
    target accepts yet changed; an id the target rejects mapped to another it rejects.  Then, for
    every pair that still maps, an id derived from the call's name, arguments or result, and one
    input id mapped to two output ids; last, across pairs, two input ids merged into one.
    """
    images: dict[Any, Any] = {}
    for a, b in matched:
        if (b.id is None or b.id == "") and a.id is not None:
            # An input call without an id (Gemini's) owes the output none.
            yield Broken(
                "identity", f"input call {a.id} ({a.name}) has no id in the output", _ids(a), kind="dropped"
            )
            continue
        kept = a.id is None or b.id == a.id
        fits = accepts(target, a.id) if target is not None and isinstance(a.id, str) else None
        if not kept and exact and fits is not False:
            yield Broken(
                "identity",
                f"input call {a.id} is replayed with id {clip(str(b.id))}",
                _ids(a, b),
                kind=_how(b.id, a, source) or "replaced",
            )
            continue
        if not kept and fits:
            yield Broken(
                "identity",
                f"input call {a.id} has an id {target} accepts, yet it became {clip(str(b.id))} "
                f"({mangling(str(a.id), str(b.id))})",
                _ids(a, b),
                kind=_how(b.id, a, source) or mangling(str(a.id), str(b.id)),
            )
            continue
        if not kept and fits is False and target and isinstance(b.id, str) and accepts(target, b.id) is False:
            yield Broken(
                "identity",
                f"input call {a.id} is mapped to {clip(str(b.id))}, which {target} rejects too",
                _ids(a, b),
                kind="mapped-to-rejected",
            )
        derived = _derived(b.id, a, source)
        if derived and b.id != a.id:
            yield Broken(
                "identity",
                f"output id {clip(str(b.id))} is the call's {derived}",
                _ids(a, b),
                kind=f"from-{derived.replace(' ', '-')}",
            )
        if a.id is not None and images.setdefault(a.id, b.id) != b.id:
            yield Broken("identity", f"input call {a.id} maps to two output ids", _ids(a, b), kind="split")
    for (x, y), (p, q) in itertools.combinations(images.items(), 2):
        if y == q:
            yield Broken(
                "identity",
                f"input calls {x} and {p} share output id {y}",
                (str(x), str(p), str(y)),
                kind="merged",
            )


def mangling(before: str, after: str) -> str:
    """How ``after`` differs from ``before``: the ways converters mangle ids.

    >>> [mangling("call_A", x) for x in ("call_Acall_A", "call_", "CALL_a", "call_A_1", "fc_1")]
    ['concatenated', 'truncated', 're-cased', 'extended', 'replaced']
    """
    if before and after.count(before) > 1:
        return "concatenated"
    if before.startswith(after):
        return "truncated"
    if after.lower() == before.lower():
        return "re-cased"
    if after.startswith(before) or after.endswith(before):
        return "extended"
    if after.strip() == before:
        return "padded"
    return "replaced"


_ACCEPTED: dict[tuple[str, int, str], bool | None] = {}


def accepts(protocol: str, call_id: str) -> bool | None:
    """Whether ``protocol`` accepts ``call_id`` as a call's id, by its own rules; None when it cannot say.

    The protocol's probe (or that of a request that follows it) builds the
    smallest trace that carries the id; the id is accepted when the
    protocol's monitor (default profile) finds no error in it.
    """
    spec = get_protocol(protocol)
    prober = (
        spec
        if spec.probe is not None
        else next(
            (p for p in _registry.PROTOCOLS.values() if protocol in p.follows and p.probe is not None), None
        )
    )
    if prober is None or prober.probe is None:
        return None
    key = (prober.name, id(prober), call_id)
    if key not in _ACCEPTED:
        if len(_ACCEPTED) > 65536:
            _ACCEPTED.clear()
        trace = prober.probe(call_id)
        monitor = prober.make()
        if isinstance(trace, dict) and prober.container in trace:
            monitor.open_document(trace)
            items = trace[prober.container]
            for position, item in enumerate(items):
                monitor.feed(item, position, None, None)
            monitor.finish(len(items), None)
        else:
            monitor.finish(*monitor.consume((None, value, None) for value in trace))
        _ACCEPTED[key] = not any(f.severity == "error" for f in monitor.findings)
    return _ACCEPTED[key]


def _how(after: Any, call: Call, source: Ledger) -> str | None:
    """What a replaced id was made from: the call's name, arguments or result."""
    derived = _derived(after, call, source)
    return f"from-{derived.replace(' ', '-')}" if derived else None


def _derived(value: Any, call: Call, source: Ledger) -> str | None:
    if value == call.name:
        return "tool name"
    if value == call.arguments:
        return "arguments"
    for result in source.results:
        if result.id == call.id and value in (result.content, json_text(result.content)):
            return "result"
    return None


def _correlation(source: Ledger, output: Ledger, pairs: list[tuple[int, int]]) -> Iterable[Broken]:
    """Every input result must answer, in the output, the output call paired with its own call."""
    given = _answers(source)
    got = _answers(output)
    for n, k in pairs:
        a, b = source.calls[n], output.calls[k]
        if n not in given:
            continue
        want = _value(given[n])
        answers = got.get(k)
        if answers is None:
            if output.results or len(got) < len(given):
                yield Broken(
                    "correlation", f"the result of call {a.id} ({a.name}) is lost", _ids(a, b), kind="lost"
                )
            continue
        if _value(answers) != want:
            yield Broken(
                "correlation",
                f"output call {b.id} ({b.name}) is answered with {clip(str(_value(answers)))}, "
                f"the result of another call; its own is {clip(str(want))}",
                _ids(a, b),
                kind="crossed",
            )


def _answers(ledger: Ledger) -> dict[int, Any]:
    """Call number -> its result: by id, or for id-less results by name in order."""
    out: dict[int, Any] = {}
    by_id: dict[Any, int] = {}
    for number, call in enumerate(ledger.calls):
        if call.id is not None:
            by_id.setdefault(call.id, number)
    unanswered = list(range(len(ledger.calls)))
    for rid, name, content in ledger.results:
        k = by_id.get(rid) if rid is not None else None
        if k is None and rid is None:
            k = next((j for j in unanswered if name in (None, ledger.calls[j].name)), None)
        if k is None or k in out:
            continue
        out[k] = content
        unanswered.remove(k)
    return out


def intact(trace: list[Any], protocol: str) -> set[str]:
    """Ids of the call/result pairs a damaged history of ``protocol`` still holds intact.

    A sanitizer must keep exactly these; the protocol's descriptor says which
    they are.  A :class:`UsageError` names the protocols that define them.
    """
    return damageable(protocol)(trace)


def damageable(protocol: str) -> Callable[[list[Any]], set[str]]:
    """The finder of ``protocol``'s intact pairs; a :class:`UsageError` when it has none."""
    find = get_protocol(protocol).intact
    if find is None:
        names = ", ".join(name for name, spec in _registry.PROTOCOLS.items() if spec.intact is not None)
        raise UsageError(f"damaged history (--mutate) is defined for histories of {names}, not {protocol}")
    return find
