"""How ``toolwire repair`` says what it changed: a line per change (text), or one JSON document."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from toolwire.engines._core._json import dumps

if TYPE_CHECKING:
    from toolwire.engines.repair import Repair

__all__ = ["render_changes", "render_json"]

#: A value shown in a change's line is cut past this many characters (``--format json`` has it whole).
_SHOWN = 200


def _short(value: object) -> str:
    text = dumps(value).decode() if not isinstance(value, str) else repr(value)
    return text if len(text) <= _SHOWN else text[:_SHOWN] + f"... ({len(text) - _SHOWN} more characters)"


def render_changes(source: str, done: Repair) -> Iterator[str]:
    """One line per change (the rule it answers, where, what was done and why), then a summary."""
    for change in done.changes:
        line = f"{source}: {change.path}: {change.rule} {change.action}"
        if change.reason:
            line += f": {change.reason}"
        yield line
        if change.before is not None or change.after is not None:
            yield f"    before: {_short(change.before)}"
            yield f"    after: {_short(change.after)}"
    for old, new in done.ids.items():
        yield f"    id {old} -> {new}"
    repaired = sum(c.action != "unrepaired" for c in done.changes)
    left = len(done.changes) - repaired
    verdict = "nothing to repair" if not done.changes else f"{repaired} change{'s' * (repaired != 1)}"
    if left:
        verdict += f", {left} left unrepaired (no repair is right for them)"
    yield f"{source}: {done.protocol}: {verdict}"


def render_json(done: Repair) -> str:
    """``{"history", "changes", "exit_code", ...}``, as :meth:`Repair.to_json` gives it."""
    return dumps(done.to_json(), indent=True).decode()
