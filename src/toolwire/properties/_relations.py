"""Relations a converter must keep between its input and its output (DESIGN.md).

one-to-one, identity, arguments, names, correlation and validity, each a
named property over two traces.  A trace's calls come from its protocol's
monitor (which reassembles streamed fragments); its results from
:func:`results`, a reader per protocol.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Final, Literal

import orjson

from toolwire.properties._protocols import get_protocol
from toolwire.properties._rule import Finding
from toolwire.properties._text import clip, parsed
from toolwire.properties._turn import Call

__all__ = ["RELATIONS", "Broken", "Ledger", "ledger", "relate", "results"]

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
#: A tool result as a trace carried it: (id of the call it answers, tool name when given, content).
Result = tuple[str | None, str | None, Any]


@dataclass(frozen=True, slots=True)
class Broken:
    """A relation the output does not keep, with the ids that show it."""

    relation: Relation
    message: str
    ids: tuple[str, ...] = ()
    findings: tuple[Finding, ...] = ()


@dataclass(slots=True)
class Ledger:
    """The calls and results of one trace, and what ``check`` found in it."""

    calls: list[Call] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


def _blocks(content: Any, kind: str | None, key: str) -> Iterable[dict[str, Any]]:
    for block in content if isinstance(content, list) else []:
        if isinstance(block, dict) and (kind is None or block.get("type") == kind) and key in block:
            yield block


def _chat(trace: list[Any]) -> Iterable[Result]:
    for m in trace:
        if isinstance(m, dict) and m.get("role") == "tool":
            yield m.get("tool_call_id"), m.get("name"), m.get("content")


def _responses(trace: list[Any]) -> Iterable[Result]:
    for item in trace:
        if isinstance(item, dict) and item.get("type") == "function_call_output":
            yield item.get("call_id"), None, item.get("output")


def _anthropic(trace: list[Any]) -> Iterable[Result]:
    for m in trace:
        if isinstance(m, dict) and m.get("role") == "user":
            for b in _blocks(m.get("content"), "tool_result", "tool_use_id"):
                yield b["tool_use_id"], None, b.get("content")


def _bedrock(trace: list[Any]) -> Iterable[Result]:
    for m in trace:
        if isinstance(m, dict) and m.get("role") == "user":
            for b in _blocks(m.get("content"), None, "toolResult"):
                r = b["toolResult"] if isinstance(b["toolResult"], dict) else {}
                yield r.get("toolUseId"), None, r.get("content")


def _gemini(trace: list[Any]) -> Iterable[Result]:
    for c in trace:
        if isinstance(c, dict):
            for b in _blocks(c.get("parts"), None, "functionResponse"):
                r = b["functionResponse"] if isinstance(b["functionResponse"], dict) else {}
                yield r.get("id"), r.get("name"), r.get("response")


def _aisdk_ui(trace: list[Any]) -> Iterable[Result]:
    for e in trace:
        if isinstance(e, dict) and e.get("type") == "tool-output-available":
            yield e.get("toolCallId"), None, e.get("output")


def _aisdk(trace: list[Any]) -> Iterable[Result]:
    for e in trace:
        if isinstance(e, dict) and e.get("type") == "tool-result":
            yield e.get("toolCallId"), e.get("toolName"), e.get("result", e.get("output"))


def _mcp(trace: list[Any]) -> Iterable[Result]:
    calls = {e.get("id") for e in trace if isinstance(e, dict) and e.get("method") == "tools/call"}
    for e in trace:
        if isinstance(e, dict) and "method" not in e and e.get("id") in calls and "result" in e:
            r = e["result"]
            yield str(e["id"]), None, r.get("content") if isinstance(r, dict) else r


_RESULTS: Final[dict[str, Callable[[list[Any]], Iterable[Result]]]] = {
    "openai-chat": _chat,
    "mistral-chat": _chat,
    "openai-responses": _responses,
    "anthropic-messages": _anthropic,
    "bedrock-converse": _bedrock,
    "gemini-contents": _gemini,
    "aisdk-ui-stream": _aisdk_ui,
    "aisdk-stream": _aisdk,
    "mcp": _mcp,
}


def _json(value: Any) -> str:
    return value if isinstance(value, str) else orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


def _ui_calls(trace: list[Any]) -> list[Call]:
    return [
        (e.get("toolCallId"), e.get("toolName"), _json(e.get("input")))
        for e in trace
        if isinstance(e, dict) and e.get("type") == "tool-input-available"
    ]


def _mcp_calls(trace: list[Any]) -> list[Call]:
    calls: list[Call] = []
    for e in trace:
        if isinstance(e, dict) and e.get("method") == "tools/call":
            params = e["params"] if isinstance(e.get("params"), dict) else {}
            calls.append((str(e.get("id")), params.get("name"), _json(params.get("arguments"))))
    return calls


def results(trace: list[Any], protocol: str) -> list[Result]:
    """The tool results ``trace`` carries (empty for protocols that carry none)."""
    reader = _RESULTS.get(protocol)
    return list(reader(trace)) if reader else []


def ledger(trace: list[Any], protocol: str) -> Ledger:
    """Check ``trace`` and read its calls and results."""
    monitor = get_protocol(protocol).make()
    monitor.finish(*monitor.consume((None, value, None) for value in trace))
    if protocol == "aisdk-ui-stream":
        calls = _ui_calls(trace)
    elif protocol == "mcp":
        calls = _mcp_calls(trace)
    else:
        calls = [call for turn in monitor.calls() for call in turn.calls]
    findings = [f for f in monitor.findings if f.severity == "error"]
    return Ledger(calls, results(trace, protocol), findings)


def _value(value: Any) -> Any:
    """A result's content, comparable across wires: text blocks joined, JSON text parsed."""
    if isinstance(value, dict) and len(value) == 1 and next(iter(value)) in ("output", "result"):
        return _value(next(iter(value.values())))
    if isinstance(value, list):
        parts = []
        for block in value:
            if isinstance(block, dict) and "text" in block:
                parts.append(block["text"])
            elif isinstance(block, dict) and "json" in block:
                return _value(block["json"])
            else:
                return value
        return "".join(parts)
    return parsed(value)


def _pair(inputs: list[Call], outputs: list[Call]) -> list[tuple[int, int]]:
    """Pair input calls with output calls: equal ids first, the rest in order."""
    by_id: dict[Any, list[int]] = {}
    for k, call in enumerate(outputs):
        by_id.setdefault(call[0], []).append(k)
    pairs, used = [], set()
    left = []
    for n, call in enumerate(inputs):
        candidates = [k for k in by_id.get(call[0], []) if k not in used] if call[0] is not None else []
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
) -> list[Broken]:
    """Every relation ``output`` breaks against ``source``, in :data:`RELATIONS` order.

    ``exact_ids`` demands the source's ids unchanged (a round trip: the next
    request must carry the ids the provider emitted).  ``keep`` names the
    source calls that must survive when a converter may drop others (a
    sanitizer of damaged history); by default all must.
    """
    broken: list[Broken] = []
    must = set(range(len(source.calls)) if keep is None else keep)
    pairs = _pair(source.calls, output.calls)
    if keep is not None:
        # Damaged input: only the intact pairs are owed; the rest is for validity to judge.
        pairs = [(n, k) for n, k in pairs if n in must]
    paired = {n for n, _ in pairs}
    for n in sorted(must - paired):
        call = source.calls[n]
        broken.append(
            Broken("one-to-one", f"input call {call[0]} ({call[1]}) has no output call", _ids(call))
        )
    owed = {output.calls[k][0] for _, k in pairs} if keep is not None else None
    counts = Counter(c[0] for c in output.calls if c[0] is not None and (owed is None or c[0] in owed))
    twice = sorted(str(i) for i, c in counts.items() if c > 1)
    extra = len(output.calls) - len(pairs) if keep is None else 0
    if twice:
        broken.append(
            Broken("one-to-one", f"output call id(s) {', '.join(twice)} appear more than once", tuple(twice))
        )
    elif extra > 0:
        spare = [c[0] for k, c in enumerate(output.calls) if k not in {k for _, k in pairs}]
        broken.append(
            Broken(
                "one-to-one", f"{extra} output call(s) {spare} answer no input call", tuple(map(str, spare))
            )
        )
    broken.extend(_identity(source, output, pairs, exact_ids))
    for n, k in pairs:
        a, b = source.calls[n], output.calls[k]
        if _value(a[2]) != _value(b[2]):
            broken.append(
                Broken(
                    "arguments",
                    f"call {a[0]}: arguments {clip(str(a[2]))} became {clip(str(b[2]))}",
                    _ids(a, b),
                )
            )
    for n, k in pairs:
        a, b = source.calls[n], output.calls[k]
        if a[1] != b[1]:
            broken.append(Broken("names", f"call {a[0]}: name {a[1]!r} became {b[1]!r}", _ids(a, b)))
    broken.extend(_correlation(source, output, pairs))
    if output.findings:
        rules = sorted({f.rule for f in output.findings})
        first = output.findings[0]
        broken.append(
            Broken(
                "validity",
                f"the output breaks {', '.join(rules)}: {first.message}",
                first.ids,
                tuple(output.findings),
            )
        )
    return broken


def _ids(*calls: Call) -> tuple[str, ...]:
    return tuple(str(c[0]) for c in calls if c[0] is not None)


def _identity(source: Ledger, output: Ledger, pairs: list[tuple[int, int]], exact: bool) -> Iterable[Broken]:
    images: dict[Any, Any] = {}
    for n, k in pairs:
        a, b = source.calls[n], output.calls[k]
        if b[0] is None or b[0] == "":
            yield Broken("identity", f"input call {a[0]} ({a[1]}) has no id in the output", _ids(a))
            continue
        if exact and a[0] is not None and b[0] != a[0]:
            yield Broken("identity", f"input call {a[0]} is replayed with id {clip(str(b[0]))}", _ids(a, b))
            continue
        derived = _derived(b[0], a, source)
        if derived and b[0] != a[0]:
            yield Broken("identity", f"output id {clip(str(b[0]))} is the call's {derived}", _ids(a, b))
        if a[0] is not None and images.setdefault(a[0], b[0]) != b[0]:
            yield Broken("identity", f"input call {a[0]} maps to two output ids", _ids(a, b))
    for (x, y), (p, q) in itertools.combinations(images.items(), 2):
        if y == q:
            yield Broken("identity", f"input calls {x} and {p} share output id {y}", (str(x), str(p), str(y)))


def _derived(value: Any, call: Call, source: Ledger) -> str | None:
    if value == call[1]:
        return "tool name"
    if value == call[2]:
        return "arguments"
    for rid, _, content in source.results:
        if rid == call[0] and value in (content, _json(content)):
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
                yield Broken("correlation", f"the result of call {a[0]} ({a[1]}) is lost", _ids(a, b))
            continue
        if _value(answers) != want:
            yield Broken(
                "correlation",
                f"output call {b[0]} ({b[1]}) is answered with {clip(str(_value(answers)))}, "
                f"the result of another call; its own is {clip(str(want))}",
                _ids(a, b),
            )


def _answers(ledger: Ledger) -> dict[int, Any]:
    """Call number -> its result: by id, or for id-less results by name in order."""
    out: dict[int, Any] = {}
    by_id: dict[Any, int] = {}
    for number, call in enumerate(ledger.calls):
        if call[0] is not None:
            by_id.setdefault(call[0], number)
    unanswered = list(range(len(ledger.calls)))
    for rid, name, content in ledger.results:
        k = by_id.get(rid) if rid is not None else None
        if k is None and rid is None:
            k = next((j for j in unanswered if name in (None, ledger.calls[j][1])), None)
        if k is None or k in out:
            continue
        out[k] = content
        unanswered.remove(k)
    return out


def intact(trace: list[Any], protocol: str) -> set[str]:
    """Ids of the call/result pairs a damaged Chat Completions history still holds intact.

    A pair is intact when its id is called once and answered once, by a tool
    message in the run of tool messages right after the assistant message
    that made the call: a sanitizer must keep exactly these.
    """
    if protocol not in ("openai-chat", "mistral-chat"):
        raise ValueError(f"intact pairs are defined for Chat Completions histories, not {protocol}")
    called: Counter[Any] = Counter()
    answered: Counter[Any] = Counter()
    ok: set[str] = set()
    pending: set[Any] = set()
    for m in trace:
        role = m.get("role") if isinstance(m, dict) else None
        if role == "tool":
            answered[m.get("tool_call_id")] += 1
            if m.get("tool_call_id") in pending:
                ok.add(m["tool_call_id"])
            continue
        pending = set()
        if role == "assistant":
            for call in m.get("tool_calls") or []:
                if isinstance(call, dict):
                    called[call.get("id")] += 1
                    pending.add(call.get("id"))
    return {i for i in ok if called[i] == 1 and answered[i] == 1}
