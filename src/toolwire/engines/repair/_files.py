"""The command line's pieces, free of argparse: read a FILE (or standard input) as ``check`` reads a
request body or a conversation, detect its protocol as ``check`` does, repair it, and write it back
in its own shape: byte for byte the input when nothing changed."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from dataclasses import dataclass
from typing import Any, Literal

from toolwire.engines import check_path
from toolwire.engines.repair._repair import CONTAINERS, REPAIRABLE, repair
from toolwire.errors import UsageError
from toolwire.properties._change import Change, Repair
from toolwire.properties._repair import OrphanPolicy, UnansweredPolicy

__all__ = ["Body", "read_body", "repair_body", "repair_path", "write_body"]


@dataclass(frozen=True, slots=True)
class Body:
    """A file's bytes, read as one JSON document or as JSON Lines, and its protocol."""

    source: str
    raw: bytes
    format: Literal["json", "jsonl"]
    #: The document, or one value per line.
    values: tuple[Any, ...]
    protocol: str
    detected: bool


def read_body(path: str | os.PathLike[str], protocol: str | None = None) -> Body:
    """Read ``path`` (``-``: standard input) and name its protocol (detected as ``check`` detects it).

    A file that is neither one JSON document nor JSON Lines, or whose protocol cannot be told or
    is not one the repairer reads, is a :class:`UsageError` (exit 2).
    """
    source = str(path)
    try:
        if source == "-":
            raw = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                raw = handle.read()
    except OSError as exc:
        raise UsageError(f"cannot read {source}: {exc.strerror}") from None
    fmt, values = _parse(raw, source)
    detected = protocol is None
    if protocol is None:
        protocol = _detect(raw, source)
    if protocol not in CONTAINERS:
        raise UsageError(f"toolwire cannot repair {protocol} traffic; it repairs {', '.join(REPAIRABLE)}")
    return Body(source, raw, fmt, tuple(values), protocol, detected)


def _parse(raw: bytes, source: str) -> tuple[Literal["json", "jsonl"], list[Any]]:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as bad:
        raise UsageError(
            f"{source} is not UTF-8 (byte 0x{raw[bad.start]:02x} at offset {bad.start}); "
            "repair reads a JSON body or JSON Lines, which are UTF-8"
        ) from None
    try:
        return "json", [json.loads(text)]
    except json.JSONDecodeError:
        pass
    values = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            values.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise UsageError(
                f"{source}:{number}: not JSON ({exc.msg}); repair reads a JSON body or JSON Lines"
            ) from None
    if not values:
        raise UsageError(f"{source} is empty: no request body or message to repair")
    return "jsonl", values


def _detect(raw: bytes, source: str) -> str:
    # check_path detects from the file's content; standard input was read already, so it gets a copy.
    with tempfile.TemporaryDirectory() as folder:
        copy = os.path.join(folder, "body.json")
        with open(copy, "wb") as handle:
            handle.write(raw)
        reports = check_path(copy)
    if len(reports) != 1 or not reports[0].protocol:
        said = "; ".join(p.message for r in reports for p in r.problems if p.severity == "error")
        raise UsageError(f"cannot tell the protocol of {source}: {said or 'name it with -p'}")
    return reports[0].protocol


def repair_body(
    body: Body,
    *,
    provider: str | None = None,
    orphan_results: OrphanPolicy = "text",
    unanswered_calls: UnansweredPolicy = "error-result",
) -> tuple[Repair, bytes]:
    """Repair a read body; the repair and the bytes to write (``body.raw`` itself when unchanged).

    JSON Lines of messages are one history; JSON Lines of request bodies are repaired body by
    body, and their repairs merged into one: changes' paths start with ``line N:``, and so does
    each id of :attr:`Repair.ids` on both sides (``"line 2: OLD" -> "line 2: NEW"``).  Each body
    is a request of its own whose fresh ids start again at the first (two bodies may both remap
    to ``call_tw1``): keyed by their line, the map of the file keeps every body's remaps and
    stays injective.
    """
    options: dict[str, Any] = {
        "provider": provider,
        "orphan_results": orphan_results,
        "unanswered_calls": unanswered_calls,
    }
    container = CONTAINERS[body.protocol]
    if body.format == "json":
        done = repair(body.values[0], body.protocol, **options)
        return done, (body.raw if not done.changed else write_body(done.history, body.raw))
    if not all(isinstance(v, dict) and container in v for v in body.values):
        done = repair(list(body.values), body.protocol, **options)
        lines = done.history if done.changed else None
        return done, (body.raw if lines is None else _lines(lines))
    repairs = [repair(v, body.protocol, **options) for v in body.values]
    changes = tuple(
        Change(c.rule, f"line {n}: {c.path}", c.action, c.before, c.after, c.reason)
        for n, r in enumerate(repairs, 1)
        for c in r.changes
    )
    ids = {f"line {n}: {k}": f"line {n}: {v}" for n, r in enumerate(repairs, 1) for k, v in r.ids.items()}
    merged = Repair([r.history for r in repairs], body.protocol, changes, ids, provider)
    if not any(r.changed for r in repairs):
        return merged, body.raw
    return merged, _lines([r.history for r in repairs])


def _lines(values: list[Any]) -> bytes:
    return b"".join(json.dumps(v, ensure_ascii=False).encode() + b"\n" for v in values)


def write_body(value: Any, like: bytes) -> bytes:
    """``value`` as JSON laid out like ``like`` (indented when it was, compact when it was one line)."""
    text = like.decode("utf-8-sig", errors="replace")
    indented = "\n" in text.strip()
    out = json.dumps(value, ensure_ascii=False, indent=2 if indented else None)
    return (out + ("\n" if text.endswith("\n") else "")).encode()


def repair_path(
    path: str | os.PathLike[str],
    protocol: str | None = None,
    *,
    provider: str | None = None,
    orphan_results: OrphanPolicy = "text",
    unanswered_calls: UnansweredPolicy = "error-result",
) -> tuple[Repair, bytes]:
    """What ``toolwire repair PATH`` does, short of printing: :func:`read_body`, then :func:`repair_body`.

    ``Repair.to_json()`` is the JSON result ``{"history", "changes", "exit_code"}``.
    """
    body = read_body(path, protocol)
    return repair_body(
        body, provider=provider, orphan_results=orphan_results, unanswered_calls=unanswered_calls
    )
