"""The repairer of AI SDK UI messages, where a call and its outcome share one tool part.

There is nothing to pair or move: a ``UIMessage`` tool part holds its call and its result, and its
``state`` says which it has.  What ``check`` finds broken there (rules VM-1 to VM-4) is mended in
place, part by part:

- VM-4: a part still ``input-available`` when a later user message comes has no outcome, and
  ``convertToModelMessages`` sends its tool-call without a result.  It is answered: ``state``
  ``output-error`` with an ``errorText`` saying it was not run (``unanswered_calls="drop"``: the
  part is dropped, and so is an assistant message left with nothing to say).
- VM-3: a tool part in a user or system message is dropped silently by ``convertToModelMessages``.
  It becomes a text part there naming its call and saying what it held (``orphan_results="drop"``:
  dropped, said).
- VM-1: a repeated ``toolCallId`` is renamed in that part (its call and result both).
- VM-2: a part without a string ``toolCallId`` gets one; a part whose ``state`` disagrees with the
  fields it holds (an ``output`` in ``input-available``) takes the one state those fields fit,
  nothing dropped.  Fields that fit no state are left, and said (``unrepaired``).
"""

from __future__ import annotations

from typing import Any, Final

from toolwire.models import aisdk as wire
from toolwire.properties._change import Change
from toolwire.properties._repair import NOT_RUN, OrphanPolicy, Rebuilt, UnansweredPolicy, text_of
from toolwire.protocols.aisdk.messages import state_problem

__all__ = ["rebuild_ui"]

#: Parts a message may hold without saying anything to the model.
_SILENT: Final = frozenset({"step-start"})


def _said(part: dict[str, Any]) -> Any:
    """What a tool part held: its output, its error, else the input it was called with."""
    state = part.get("state")
    if state == "output-available" and "output" in part:
        return part["output"]
    if state == "output-error" and "errorText" in part:
        return part["errorText"]
    return part.get("input")


def _restated(part: dict[str, Any]) -> dict[str, Any] | None:
    """``part`` in the one state its fields fit (an output: ``output-available``; an error text:
    ``output-error``), or None when no state fits them."""
    has_output = part.get("output") is not None
    has_error = part.get("errorText") is not None
    if has_output == has_error:
        return None
    state = "output-available" if has_output else "output-error"
    if part.get("state") == state:
        return None
    candidate = {**part, "state": state}
    return candidate if state_problem(candidate) is None else None


def rebuild_ui(
    messages: list[Any],
    *,
    orphan_results: OrphanPolicy,
    unanswered_calls: UnansweredPolicy,
) -> Rebuilt:
    """Repair ``messages`` (``UIMessage[]``); the input is not changed."""
    done = Rebuilt([])
    changes = done.changes
    last_user = max(
        (i for i, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "user"),
        default=-1,
    )
    taken = {
        p.get("toolCallId")
        for m in messages
        if isinstance(m, dict) and isinstance(m.get("parts"), list)
        for p in m["parts"]
        if isinstance(p, dict)
    }
    counter = 0

    def fresh() -> str:
        nonlocal counter
        while True:
            counter += 1
            candidate = f"call_tw{counter}"
            if candidate not in taken:
                taken.add(candidate)
                return candidate

    seen: set[str] = set()
    for i, msg in enumerate(messages):
        role = msg.get("role") if isinstance(msg, dict) else None
        if role not in wire.UI_ROLES or not isinstance(msg.get("parts"), list):
            done.messages.append(msg)  # check passes over it (a notice): so does the repair
            continue
        parts: list[Any] = []
        changed = False
        for k, part in enumerate(msg["parts"]):
            name = wire.tool_part_name(part)
            if name is None:
                parts.append(part)
                continue
            path = f"messages[{i}].parts[{k}]"
            ident = part.get("toolCallId")
            if role != "assistant":
                changed = True
                said = _said(part)
                why = f"a tool part in a {role} message, which convertToModelMessages drops"
                if orphan_results == "drop":
                    changes.append(
                        Change(
                            "VM-3",
                            path,
                            "drop-result",
                            said,
                            None,
                            f"call {ident!r} ({name}): {why}; dropped",
                        )
                    )
                    continue
                text = (
                    f"[toolwire repair] Tool call {ident!r} ({name}), {part.get('state')}, kept as text "
                    f"because it sat in a {role} message: {text_of(said)}"
                )
                parts.append({"type": "text", "text": text})
                changes.append(Change("VM-3", path, "note", said, text, f"{why}; kept as text"))
                continue
            fixed = part
            if not isinstance(ident, str):
                fixed = {**fixed, "toolCallId": fresh()}
                changes.append(
                    Change(
                        "VM-2",
                        f"{path}.toolCallId",
                        "fill-id",
                        ident,
                        fixed["toolCallId"],
                        "a tool part without an id",
                    )
                )
            elif ident in seen:
                fixed = {**fixed, "toolCallId": fresh()}
                changes.append(
                    Change(
                        "VM-1",
                        f"{path}.toolCallId",
                        "rename",
                        ident,
                        fixed["toolCallId"],
                        "a repeated toolCallId, renamed in its part (its call and its result)",
                    )
                )
            seen.add(fixed["toolCallId"])
            if state_problem(fixed) is not None and (restated := _restated(fixed)) is not None:
                changes.append(
                    Change(
                        "VM-2",
                        f"{path}.state",
                        "restate",
                        fixed.get("state"),
                        restated["state"],
                        "the state set to the one the part's fields fit; nothing dropped",
                    )
                )
                fixed = restated
            if fixed.get("state") == "input-available" and i < last_user:
                if unanswered_calls == "drop":
                    changed = True
                    changes.append(
                        Change(
                            "VM-4",
                            path,
                            "drop-call",
                            fixed["toolCallId"],
                            None,
                            f"call {fixed['toolCallId']!r} ({name}) has no outcome before a later user "
                            "message: dropped, its message's other parts kept",
                        )
                    )
                    continue
                fixed = {**fixed, "state": "output-error", "errorText": NOT_RUN}
                changes.append(
                    Change(
                        "VM-4",
                        path,
                        "answer",
                        "input-available",
                        "output-error",
                        f"call {fixed['toolCallId']!r} ({name}) has no outcome before a later user "
                        "message: answered with an error saying it was not run",
                    )
                )
            changed = changed or fixed is not part
            parts.append(fixed)
        if not changed:
            done.messages.append(msg)
        elif any(not isinstance(p, dict) or p.get("type") not in _SILENT for p in parts):
            done.messages.append({**msg, "parts": parts})
        # else: a message left with nothing to say (its only tool parts dropped) is dropped too
    return done
