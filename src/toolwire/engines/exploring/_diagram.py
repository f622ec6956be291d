"""Lifecycle diagrams: machine -> plain data -> DOT / Mermaid text -> SVG or PNG via Graphviz.

python-statemachine's own DOT embeds ``id()`` values and is not byte-stable;
this renderer works from the compiled table, sorts nothing it does not have
to, and so writes the same bytes on every run.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal
from urllib.parse import urlsplit

from toolwire.engines._core._files import write_file
from toolwire.errors import UsageError
from toolwire.machines import compile_machine
from toolwire.properties._monitor import guards
from toolwire.protocols import envelope_ids, machines

if TYPE_CHECKING:
    from toolwire.engines.fuzzing import Counterexample

__all__ = [
    "Diagram",
    "DiagramFormat",
    "counterexample_dot",
    "counterexample_mermaid",
    "diagram",
    "exchange_dot",
    "exchange_legs",
    "exchange_mermaid",
    "render_counterexample",
    "render_diagrams",
    "summary",
    "to_dot",
    "to_mermaid",
]

DiagramFormat = Literal["dot", "mermaid", "svg", "png"]
_INSTALL_HINT: Final = (
    "Graphviz's `dot` is not installed; install it (Debian/Ubuntu: apt-get install graphviz) "
    "or use --format dot / mermaid"
)


@dataclass(frozen=True, slots=True)
class Diagram:
    """A machine as plain data: what a diagram shows."""

    name: str
    summary: str
    states: tuple[str, ...]
    initial: str
    finals: tuple[str, ...]
    accepting: tuple[str, ...]
    #: ``(source, target, events)``, events merged per edge, in table order.
    edges: tuple[tuple[str, str, tuple[str, ...]], ...]
    #: ``(state, rule ids)``: the rules any event with no transition from that state breaks.
    guards: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def guarded(self, state: str) -> str:
        """``other events: RS-7d, RS-9a`` for ``state``, or empty."""
        rules = dict(self.guards).get(state, ())
        return f"other events: {', '.join(rules)}" if rules else ""


def diagram(name: str) -> Diagram:
    """The plain-data lifecycle of machine ``name`` (a class name that ``machines()`` lists)."""
    try:
        machine = machines()[name]
    except KeyError:
        raise UsageError(f"unknown machine {name!r}; choose from: {', '.join(machines())}") from None
    table = compile_machine(machine)
    edges: dict[tuple[str, str], list[str]] = {}
    for source, event, target in table.transitions():
        edges.setdefault((source, target), []).append(event)
    declared = guards(name)
    doc = (machine.__doc__ or "").strip().splitlines()
    return Diagram(
        name=name,
        summary=doc[0].replace("``", "") if doc else name,
        states=table.states,
        initial=table.states[table.initial],
        finals=tuple(table.states[i] for i in sorted(table.finals)),
        accepting=tuple(table.states[i] for i in sorted(table.accepting - table.finals)),
        edges=tuple((s, t, tuple(events)) for (s, t), events in edges.items()),
        guards=tuple((state, tuple(declared[state])) for state in table.states if state in declared),
    )


def to_dot(item: Diagram) -> str:
    """Graphviz DOT source: final states doubled, accepting states bold, initial marked."""
    out = [
        f'digraph "{item.name}" {{',
        "  rankdir=LR;",
        '  node [shape=box, style=rounded, fontname="Helvetica"];',
        '  edge [fontname="Helvetica", fontsize=10];',
        f'  labelloc=t; label="{item.name}: {_escape(item.summary)}\\n'
        'under a state: the rules an event with no transition from it breaks";',
        '  "__start" [shape=point, width=0.15, label=""];',
    ]
    for state in item.states:
        attrs = []
        rules = item.guarded(state)
        if rules:
            attrs.append(f'label=<{state}<BR/><FONT POINT-SIZE="9" COLOR="#a00000">{rules}</FONT>>')
        if state in item.finals:
            attrs.append("peripheries=2")
        if state in item.accepting:
            attrs.append("penwidth=2")
        out.append(f'  "{state}"' + (f" [{', '.join(attrs)}]" if attrs else "") + ";")
    out.append(f'  "__start" -> "{item.initial}";')
    for source, target, events in item.edges:
        out.append(f'  "{source}" -> "{target}" [label="{_escape(" | ".join(events))}"];')
    out.append("}")
    return "\n".join(out) + "\n"


def to_mermaid(item: Diagram) -> str:
    """Mermaid ``stateDiagram-v2`` text, for Markdown."""
    out = ["stateDiagram-v2", f"    %% {item.name}: {item.summary}", f"    [*] --> {item.initial}"]
    out.extend(f"    {state}: {state}, {item.guarded(state)}" for state in item.states if item.guarded(state))
    for source, target, events in item.edges:
        out.append(f"    {source} --> {target}: {', '.join(events)}")
    for state in item.finals:
        out.append(f"    {state} --> [*]")
    for state in item.accepting:
        out.append(f"    note right of {state}: a trace may end here")
    return "\n".join(out) + "\n"


def render_diagrams(names: Iterable[str], formats: Iterable[DiagramFormat], out: Path) -> list[Path]:
    """Write each machine's diagram in each format into ``out``; returns the files written."""
    formats = list(formats)
    written = []
    for name in names:
        item = diagram(name)
        written.extend(_write({"dot": to_dot(item), "mermaid": to_mermaid(item)}, formats, out, name))
    return written


def _need_dot(formats: Iterable[DiagramFormat]) -> None:
    import shutil

    if {"svg", "png"} & set(formats) and shutil.which("dot") is None:
        raise UsageError(_INSTALL_HINT)


def _write(sources: dict[str, str], formats: Iterable[DiagramFormat], out: Path, stem: str) -> list[Path]:
    """Write one picture's DOT / Mermaid sources, and SVG / PNG rendered from the DOT by Graphviz."""
    # Only rendering needs subprocess; `check` imports this package and should not pay for it.
    import subprocess

    formats = list(formats)
    _need_dot(formats)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for fmt in formats:
        path = out / f"{stem}.{'mmd' if fmt == 'mermaid' else fmt}"
        if fmt in sources:
            write_file(path, sources[fmt].encode("utf-8"))
        else:
            result = subprocess.run(
                ["dot", f"-T{fmt}"], input=sources["dot"].encode(), capture_output=True, check=False
            )
            if result.returncode != 0:
                raise UsageError(f"dot failed on {stem}: {result.stderr.decode(errors='replace')}")
            write_file(path, result.stdout)
        written.append(path)
    return written


def _escape(text: str) -> str:
    """``text`` safe inside a DOT double-quoted string: quotes, backslashes and line ends escaped."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\r", " ").replace("\n", "\\n")


#: Keys whose string values are call ids worth showing on a counterexample picture.
_ID_KEYS: Final = frozenset(
    {"id", "call_id", "tool_call_id", "toolCallId", "toolUseId", "tool_use_id", "item_id"}
)


def _ids(value: object, found: list[str]) -> list[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            if key in _ID_KEYS and isinstance(inner, str) and not inner.startswith(envelope_ids()):
                short = inner if len(inner) <= 14 else inner[:13] + "…"
                if short not in found:
                    found.append(short)
            else:
                _ids(inner, found)
    elif isinstance(value, list):
        for inner in value:
            _ids(inner, found)
    return found


def summary(event: object) -> str:
    """One line for a wire event: its type (or role, method, chunk delta) and the call ids it carries."""
    if not isinstance(event, dict):
        return type(event).__name__
    head = event.get("type") or event.get("role") or event.get("method")
    if head is None and isinstance(event.get("choices"), list) and event["choices"]:
        choice = event["choices"][0] if isinstance(event["choices"][0], dict) else {}
        delta = choice.get("delta")
        keys = [str(key) for key in delta] if isinstance(delta, dict) else []
        finish = f" finish={choice['finish_reason']}" if choice.get("finish_reason") else ""
        head = "chunk " + ",".join(keys) + finish
    if head is None:
        head = next(iter(event), "{}")
    return " ".join([str(head), *_ids(event, [])])


def counterexample_dot(found: Counterexample) -> str:
    """The counterexample as two columns, input events and output events, the bad ones in red."""
    title = (
        _escape(f"{found.target}: {found.source} -> {found.destination}")
        + "\\nFAIL "
        + _escape(found.property)
    )
    out = [
        'digraph "counterexample" {',
        "  rankdir=TB; nodesep=0.6;",
        '  node [shape=box, style="rounded,filled", fillcolor=white, fontname="Helvetica", fontsize=10];',
        "  edge [style=invis];",
        f'  labelloc=t; label="{title}";',
        f'  subgraph cluster_in {{ label="input ({_escape(found.source)})"; fontname="Helvetica";',
    ]
    for n, event in enumerate(found.input):
        out.append(f'    "in{n}" [label="{n}: {_escape(summary(event))}"];')
    out.append("  }")
    output = found.output or []
    out.append(
        f'  subgraph cluster_out {{ label="output ({_escape(found.destination)})"; fontname="Helvetica";'
    )
    bad = set(found.showing)
    for n, event in enumerate(output):
        mark = ', fillcolor="#ffd6d6", color="#c00000", penwidth=2' if n in bad else ""
        out.append(f'    "out{n}" [label="{n}: {_escape(summary(event))}"{mark}];')
    out.append("  }")
    for prefix, events in (("in", found.input), ("out", output)):
        for n in range(1, len(events)):
            out.append(f'  "{prefix}{n - 1}" -> "{prefix}{n}";')
    if found.input and output:
        out.append(
            '  "in0" -> "out0" [style=dashed, constraint=false, label="target", fontname="Helvetica"];'
        )
    out.append(f'  "why" [shape=note, fillcolor="#fff4d6", label="{_escape(found.message)}"];')
    if output:
        out.append(f'  "out{len(output) - 1}" -> "why";')
    out.append("}")
    return "\n".join(out) + "\n"


def _mermaid_text(value: str) -> str:
    """``value`` as one line of plain words for Mermaid: no statement breaks, comments, entities or
    line ends."""
    return value.replace(";", ",").replace("#", "").replace("%%", "%").replace("\r", " ").replace("\n", " ")


def counterexample_mermaid(found: Counterexample) -> str:
    """The counterexample as a Mermaid sequence diagram, the bad output events in a red box."""

    out = [
        "sequenceDiagram",
        f"    %% {_mermaid_text(found.target)}: FAIL {_mermaid_text(found.property)}",
        f"    participant I as input ({_mermaid_text(found.source)})",
        "    participant T as target",
        f"    participant O as output ({_mermaid_text(found.destination)})",
    ]
    out.extend(f"    I->>T: {n}: {_mermaid_text(summary(e))}" for n, e in enumerate(found.input))
    bad = set(found.showing)
    for n, event in enumerate(found.output or []):
        line = f"    T->>O: {n}: {_mermaid_text(summary(event))}"
        out.extend(["    rect rgb(255, 214, 214)", line, "    end"] if n in bad else [line])
    out.append(f"    Note over T,O: FAIL {_mermaid_text(found.property)}: {_mermaid_text(found.message)}")
    return "\n".join(out) + "\n"


def render_counterexample(
    found: Counterexample, formats: Iterable[DiagramFormat], out: Path, stem: str
) -> list[Path]:
    """Write ``found``'s picture in each format into ``out`` as ``stem.<ext>``: a gateway's
    counterexample (one with an exchange) as the sequence of its legs."""
    if found.exchange:
        sources = {"dot": exchange_dot(found), "mermaid": exchange_mermaid(found)}
    else:
        sources = {"dot": counterexample_dot(found), "mermaid": counterexample_mermaid(found)}
    return _write(sources, formats, out, stem)


# -- a gateway's exchange: client -> gateway -> mock provider, turn by turn ---------------------------

#: How many lines of a body a leg's label shows (the rest counted).
_LEG_LINES: Final = 8
#: The three parties of a gateway's exchange, left to right.
_PARTIES: Final = (("C", "client (toolwire)"), ("G", "gateway"), ("M", "mock provider (toolwire)"))


@dataclass(frozen=True, slots=True)
class Leg:
    """One message of a gateway's exchange: who sends it to whom, its label lines, and whether it
    is the one that shows the finding."""

    sender: str
    receiver: str
    lines: tuple[str, ...]
    bad: bool = False


def exchange_legs(found: Counterexample) -> list[Leg]:
    """The legs of ``found``'s exchange in order: each turn's client request, each upstream request
    and the mock's answer, the gateway's answer; the one that shows the finding marked ``bad``."""
    exchange = found.exchange or {}
    turns = [t for t in exchange.get("turns", []) if isinstance(t, dict)]
    blamed_turn, blamed = _blamed(found, turns)
    legs: list[Leg] = []
    for turn in turns:
        number = turn.get("turn", 1)
        request = turn.get("client_request") or {}
        path = urlsplit(str(request.get("url", ""))).path or "/"
        legs.append(
            Leg("C", "G", (f"turn {number}: {request.get('method', 'POST')} {path}", *_body_lines(request)))
        )
        ups = [leg for leg in turn.get("upstream") or [] if isinstance(leg, dict)]
        for k, up in enumerate(ups):
            query = f"?{up['query']}" if up.get("query") else ""
            legs.append(
                Leg(
                    "G",
                    "M",
                    (f"{up.get('method', 'POST')} {up.get('path', '/')}{query}", *_body_lines(up)),
                    bad=number == blamed_turn and blamed == ("upstream", k),
                )
            )
            answer = up.get("response") or {}
            said = [f"refused: {up['refused']}"] if up.get("refused") else _body_lines(answer)
            legs.append(Leg("M", "G", (_status(answer), *said)))
        answer = turn.get("downstream_response") or {}
        legs.append(
            Leg(
                "G",
                "C",
                (_status(answer), *_body_lines(answer)),
                bad=number == blamed_turn and blamed == ("answer",),
            )
        )
    return legs


def _blamed(found: Counterexample, turns: list[dict[str, object]]) -> tuple[int, tuple[object, ...]]:
    """Which leg shows ``found``: turn 2's upstream request for what broke there, the refused
    upstream request or the gateway's answer for a crash, else the gateway's answer of turn 1."""
    number = 2 if found.message.startswith("turn 2") or (found.kind or "").startswith("turn-2-") else 1
    turn = next((t for t in turns if t.get("turn") == number), None)
    ups = turn.get("upstream") if turn is not None else None
    ups = ups if isinstance(ups, list) else []
    refused = next((k for k, up in enumerate(ups) if isinstance(up, dict) and up.get("refused")), None)
    if refused is not None:
        return number, ("upstream", refused)
    if number == 2 and ups and found.property != "crashes" and found.kind != "turn-2-unsent":
        return number, ("upstream", 0)
    return number, ("answer",)


def _status(answer: dict[str, object]) -> str:
    if "error" in answer:
        return f"no answer: {answer['error']}"
    media = str(answer.get("media") or "").split(";")[0]
    return f"HTTP {answer.get('status', '?')} {media}".rstrip()


def _body_lines(message: dict[str, object]) -> list[str]:
    """A recorded body, a line an event or history item: type or role, and the call ids it carries."""
    body = message.get("body")
    items = _items(body) if isinstance(body, dict) else None
    if items is None:
        return []
    lines = [summary(item) + _answer(item) for item in items]
    if len(lines) > _LEG_LINES:
        lines = [*lines[: _LEG_LINES - 1], f"… {len(lines) - _LEG_LINES + 1} more"]
    return lines


def _answer(item: object) -> str:
    """What a tool result item says (the start of it), to see which call it answers."""
    if not isinstance(item, dict) or item.get("role") not in ("tool", "function"):
        return ""
    said = item.get("content")
    if not isinstance(said, str):
        return ""
    return f": '{said if len(said) <= 40 else said[:39] + '…'}'"


def _items(body: dict[str, object]) -> list[object] | None:
    """The events of a recorded response, or the history items of a recorded request."""
    import base64
    import io

    from toolwire.models._wire import DONE, plain, read_frames

    if "json" in body:
        value = body["json"]
        if isinstance(value, dict):
            for key in ("messages", "contents", "input", "system"):
                if isinstance(value.get(key), list):
                    return list(value[key])
            return [value]
        return list(value) if isinstance(value, list) else [value]
    if "text" in body:
        raw = str(body["text"]).encode()
    elif "base64" in body:
        raw = base64.b64decode(str(body["base64"]))
    else:
        return None
    try:
        frames = list(read_frames(io.BytesIO(raw), lambda *_: None))
    except Exception:  # a body too broken to read: say how long it is
        return [f"{len(raw)} bytes"]
    return [plain(value) for _, value, _ in frames if value is not DONE and value is not None]


def exchange_dot(found: Counterexample) -> str:
    """A gateway's counterexample as a sequence diagram: a lifeline per party, a row per leg, the
    leg that shows the finding in red with the finding beside it."""
    legs = exchange_legs(found)
    title = _escape(f"{found.target}: {found.source} upstream, {found.destination} client") + (
        f"\\nFAIL {_escape(found.finding)}"
    )
    out = [
        'digraph "exchange" {',
        "  rankdir=TB; nodesep=2.2; ranksep=0.12; newrank=true;",
        '  node [fontname="Helvetica", fontsize=10];',
        '  edge [fontname="Helvetica", fontsize=9];',
        f'  labelloc=t; label="{title}";',
    ]
    for party, name in _PARTIES:
        out.append(
            f'  "{party}" [shape=box, style="rounded,filled", fillcolor="#eef2ff", label="{_escape(name)}"];'
        )
    for row in range(len(legs) + 1):
        for party, _ in _PARTIES:
            out.append(f'  "{party}{row}" [shape=point, width=0.02, label=""];')
        out.append("  { rank=same; " + " ".join(f'"{p}{row}";' for p, _ in _PARTIES) + " }")
    # Each row lower than the last by its label's lines (a label above its arrow takes no rank).
    lifeline = 'style=dashed, arrowhead=none, color="#9999aa", weight=10'
    for party, _ in _PARTIES:
        out.append(f'  "{party}" -> "{party}0" [{lifeline}];')
        for row, leg in enumerate(legs, start=1):
            out.append(f'  "{party}{row - 1}" -> "{party}{row}" [{lifeline}, minlen={len(leg.lines) + 1}];')
    out.append('  "C" -> "G" -> "M" [style=invis];')
    out.append('  { rank=same; "C"; "G"; "M"; }')
    for row, leg in enumerate(legs, start=1):
        label = "\\l".join(_escape(line) for line in leg.lines) + "\\l"
        mark = ', color="#c00000", fontcolor="#c00000", penwidth=2.5' if leg.bad else ""
        out.append(
            f'  "{leg.sender}{row}" -> "{leg.receiver}{row}" [label="{label}", constraint=false{mark}];'
        )
    bad = next((row for row, leg in enumerate(legs, start=1) if leg.bad), None)
    if bad is not None:
        why = _escape(textwrap.fill(found.message, 60))
        out.append(f'  "why" [shape=note, style=filled, fillcolor="#fff4d6", fontsize=9, label="{why}"];')
        out.append(f'  {{ rank=same; "M{bad}"; "why"; }}')
        out.append(f'  "M{bad}" -> "why" [style=dotted, arrowhead=none, color="#c00000"];')
    out.append("}")
    return "\n".join(out) + "\n"


def exchange_mermaid(found: Counterexample) -> str:
    """A gateway's counterexample as a Mermaid sequence diagram, the leg that shows it in a red box."""

    out = ["sequenceDiagram", f"    %% {_mermaid_text(found.target)}: FAIL {_mermaid_text(found.finding)}"]
    out.extend(f"    participant {party} as {_mermaid_text(name)}" for party, name in _PARTIES)
    for leg in exchange_legs(found):
        line = f"    {leg.sender}->>{leg.receiver}: " + "<br/>".join(
            _mermaid_text(line) for line in leg.lines
        )
        out.extend(["    rect rgb(255, 214, 214)", line, "    end"] if leg.bad else [line])
    out.append(f"    Note over C,M: FAIL {_mermaid_text(found.finding)}: {_mermaid_text(found.message)}")
    return "\n".join(out) + "\n"
