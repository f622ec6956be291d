"""Lifecycle diagrams: machine -> plain data -> DOT / Mermaid text -> SVG or PNG via Graphviz.

python-statemachine's own DOT embeds ``id()`` values and is not byte-stable;
this renderer works from the compiled table, sorts nothing it does not have
to, and so writes the same bytes on every run.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from toolwire.errors import UsageError
from toolwire.machines import MACHINES, compile_machine

__all__ = ["DiagramFormat", "Lifecycle", "lifecycle", "render_diagrams", "to_dot", "to_mermaid"]

DiagramFormat = Literal["dot", "mermaid", "svg", "png"]
_INSTALL_HINT: Final = (
    "Graphviz's `dot` is not installed; install it (Debian/Ubuntu: apt-get install graphviz) "
    "or use --format dot / mermaid"
)


@dataclass(frozen=True, slots=True)
class Lifecycle:
    """A machine as plain data: what a diagram shows."""

    name: str
    summary: str
    states: tuple[str, ...]
    initial: str
    finals: tuple[str, ...]
    accepting: tuple[str, ...]
    #: ``(source, target, events)``, events merged per edge, in table order.
    edges: tuple[tuple[str, str, tuple[str, ...]], ...]


def lifecycle(name: str) -> Lifecycle:
    """The plain-data lifecycle of machine ``name`` (a class name from ``MACHINES``)."""
    try:
        machine = MACHINES[name]
    except KeyError:
        raise UsageError(f"unknown machine {name!r}; choose from: {', '.join(MACHINES)}") from None
    table = compile_machine(machine)
    edges: dict[tuple[str, str], list[str]] = {}
    for source, event, target in table.transitions():
        edges.setdefault((source, target), []).append(event)
    doc = (machine.__doc__ or "").strip().splitlines()
    return Lifecycle(
        name=name,
        summary=doc[0].replace("``", "") if doc else name,
        states=table.states,
        initial=table.states[table.initial],
        finals=tuple(table.states[i] for i in sorted(table.finals)),
        accepting=tuple(table.states[i] for i in sorted(table.accepting - table.finals)),
        edges=tuple((s, t, tuple(events)) for (s, t), events in edges.items()),
    )


def to_dot(item: Lifecycle) -> str:
    """Graphviz DOT source: final states doubled, accepting states bold, initial marked."""
    out = [
        f'digraph "{item.name}" {{',
        "  rankdir=LR;",
        '  node [shape=box, style=rounded, fontname="Helvetica"];',
        '  edge [fontname="Helvetica", fontsize=10];',
        f'  labelloc=t; label="{item.name}: {_escape(item.summary)}";',
        '  "__start" [shape=point, width=0.15, label=""];',
    ]
    for state in item.states:
        attrs = []
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


def to_mermaid(item: Lifecycle) -> str:
    """Mermaid ``stateDiagram-v2`` text, for Markdown."""
    out = ["stateDiagram-v2", f"    %% {item.name}: {item.summary}", f"    [*] --> {item.initial}"]
    for source, target, events in item.edges:
        out.append(f"    {source} --> {target}: {', '.join(events)}")
    for state in item.finals:
        out.append(f"    {state} --> [*]")
    for state in item.accepting:
        out.append(f"    note right of {state}: a trace may end here")
    return "\n".join(out) + "\n"


def render_diagrams(names: Iterable[str], formats: Iterable[DiagramFormat], out: Path) -> list[Path]:
    """Write each machine's diagram in each format into ``out``; returns the files written."""
    # Only rendering needs these; `check` imports this package and should not pay for them.
    import shutil
    import subprocess

    formats = list(formats)
    if {"svg", "png"} & set(formats) and shutil.which("dot") is None:
        raise UsageError(_INSTALL_HINT)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in names:
        item = lifecycle(name)
        dot = to_dot(item)
        for fmt in formats:
            path = out / f"{name}.{'mmd' if fmt == 'mermaid' else fmt}"
            if fmt == "dot":
                path.write_text(dot)
            elif fmt == "mermaid":
                path.write_text(to_mermaid(item))
            else:
                result = subprocess.run(
                    ["dot", f"-T{fmt}", "-o", str(path)], input=dot.encode(), capture_output=True, check=False
                )
                if result.returncode != 0:
                    raise UsageError(f"dot failed on {name}: {result.stderr.decode(errors='replace')}")
            written.append(path)
    return written


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')
