"""``repair()``: a history made one its protocol (and provider) accepts, with every change said."""

from __future__ import annotations

from typing import Any, Final, get_args

from toolwire.engines import check
from toolwire.engines.repair._adapter import Adapter
from toolwire.engines.repair._change import Change, Repair
from toolwire.engines.repair._engine import OrphanPolicy, UnansweredPolicy, rebuild
from toolwire.engines.repair._protocols import ADAPTERS
from toolwire.engines.repair._providers import Provider, lint, provider_for
from toolwire.engines.repair._ui import UI_MESSAGES, rebuild_ui
from toolwire.errors import UsageError

__all__ = ["CONTAINERS", "REPAIRABLE", "repair"]

#: Each protocol the repairer reads, and the key of a request body that holds its history.
CONTAINERS: Final[dict[str, str]] = {
    **{protocol: adapter.container for protocol, adapter in ADAPTERS.items()},
    UI_MESSAGES: "messages",
}
#: The protocols the repairer reads.
REPAIRABLE: Final[tuple[str, ...]] = tuple(CONTAINERS)

#: Request fields that bring a stored context in: a result may answer a call of it.
_CONTEXT: Final = ("previous_response_id", "conversation")


def repair(
    history: Any,
    protocol: str,
    *,
    provider: str | None = None,
    orphan_results: OrphanPolicy = "text",
    unanswered_calls: UnansweredPolicy = "error-result",
) -> Repair:
    """Repair ``history`` (a list of messages or items, or a request body holding them) of ``protocol``.

    A history ``check`` finds clean (and the ``provider`` profile too) comes back as it was, the
    same object, with no change.  Else every call is answered right after its turn (an unanswered
    call gets an error result saying it was not run, or with ``unanswered_calls="drop"`` is
    dropped, its text kept), each orphaned result is kept as a note naming its call (or dropped
    with ``orphan_results="drop"``), repeated ids are renamed in call and result, and ids the
    protocol or provider will not take are remapped (:attr:`Repair.ids`).  A broken rule no repair
    is right for is a change of action ``unrepaired`` (exit 2).  The input is never changed.

    >>> fixed = repair([{"role": "user", "content": "Weather?"},
    ...                 {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
    ...                   "function": {"name": "get_weather", "arguments": "{}"}}]},
    ...                 {"role": "user", "content": "Thanks"}], "openai-chat")
    >>> [(c.rule, c.action, c.path) for c in fixed.changes]
    [('CC-4', 'answer', 'messages[1].tool_calls[0].id')]
    >>> [m["role"] for m in fixed.history], fixed.exit_code
    (['user', 'assistant', 'tool', 'user'], 1)
    """
    if orphan_results not in get_args(OrphanPolicy):
        raise UsageError(f"orphan_results={orphan_results!r}: choose text or drop")
    if unanswered_calls not in get_args(UnansweredPolicy):
        raise UsageError(f"unanswered_calls={unanswered_calls!r}: choose error-result or drop")
    container = CONTAINERS.get(protocol)
    if container is None:
        raise UsageError(f"toolwire cannot repair {protocol} histories; it repairs {', '.join(REPAIRABLE)}")
    profile = provider_for(provider, protocol)
    messages, body = _messages(history, protocol, container)
    before = check(history, protocol)
    if not before.findings and before.exit_code == 2:
        said = "; ".join(p.message for p in before.problems if p.severity == "error")
        raise UsageError(f"the input cannot be repaired as {protocol}: {said}")
    if before.exit_code == 0 and not [
        b for b in (lint(messages, profile) if profile else []) if b[0].severity == "error"
    ]:
        return Repair(history, protocol, provider=provider)
    adapter = ADAPTERS.get(protocol)
    if adapter is None:
        rebuilt = rebuild_ui(messages, orphan_results=orphan_results, unanswered_calls=unanswered_calls)
    else:
        rebuilt = rebuild(
            adapter,
            messages,
            accepts=adapter.accepts if profile is None else _both(adapter, profile),
            orphan_results=orphan_results,
            unanswered_calls=unanswered_calls,
            context=body is not None and any(body.get(k) for k in _CONTEXT),
        )
    changes = list(rebuilt.changes)
    out = rebuilt.messages
    if profile is not None:
        out = _provider_fixes(out, profile, changes)
    if protocol == "openai-responses":
        out = _item_ids(out, changes)
    if protocol == "anthropic-messages":
        out = _server_ids(out, changes)
    repaired: Any = history
    if changes:
        repaired = out if body is None else {**body, container: out}
    changes += _left(repaired, protocol, profile)
    return Repair(repaired, protocol, tuple(changes), dict(rebuilt.ids), provider)


def _both(adapter: Adapter, profile: Provider) -> Any:
    return lambda value: adapter.accepts(value) and profile.accepts(value)


def _messages(history: Any, protocol: str, container: str) -> tuple[list[Any], dict[str, Any] | None]:
    if isinstance(history, list):
        return history, None
    if isinstance(history, dict) and isinstance(history.get(container), list):
        return history[container], history
    raise UsageError(
        f"a {protocol} history is a list of messages or a request body with a "
        f"'{container}' list; got {type(history).__name__}"
    )


def _provider_fixes(messages: list[Any], profile: Provider, changes: list[Change]) -> list[Any]:
    """The profile's own repairs: no empty tool_calls array (DS-3), every call typed (AZ-2)."""
    own = {r.id for r in profile.rules}
    out: list[Any] = []
    for i, msg in enumerate(messages):
        if (
            isinstance(msg, dict)
            and msg.get("role") == "assistant"
            and isinstance(msg.get("tool_calls"), list)
        ):
            calls = msg["tool_calls"]
            if "DS-3" in own and not calls:
                msg = {k: v for k, v in msg.items() if k != "tool_calls"}
                changes.append(
                    Change(
                        "DS-3",
                        f"messages[{i}].tool_calls",
                        "drop-call",
                        [],
                        None,
                        "an empty tool_calls array left out",
                    )
                )
            elif "AZ-2" in own and any(isinstance(c, dict) and "type" not in c for c in calls):
                msg = {
                    **msg,
                    "tool_calls": [
                        {**c, "type": "function"} if isinstance(c, dict) and "type" not in c else c
                        for c in calls
                    ],
                }
                changes.append(
                    Change(
                        "AZ-2",
                        f"messages[{i}].tool_calls",
                        "fill-id",
                        None,
                        "function",
                        "tool calls typed 'function'",
                    )
                )
        out.append(msg)
    return out


def _item_ids(items: list[Any], changes: list[Change]) -> list[Any]:
    """Responses input: an optional item id that breaks RS-1b (a function_call's not starting
    with 'fc') or RS-5 (a second item of one id) is left out; the call_id still pairs."""
    seen: set[Any] = set()
    out: list[Any] = []
    for i, item in enumerate(items):
        if (
            isinstance(item, dict)
            and item.get("type") in ("function_call", "function_call_output")
            and "id" in item
        ):
            ident = item["id"]
            rule = None
            if item["type"] == "function_call" and isinstance(ident, str) and not ident.startswith("fc"):
                rule = "RS-1b"
            elif ident in seen:
                rule = "RS-5"
            if rule is not None:
                item = {k: v for k, v in item.items() if k != "id"}
                changes.append(
                    Change(
                        rule,
                        f"input[{i}].id",
                        "drop-item-id",
                        ident,
                        None,
                        "an optional item id that breaks the rule, left out",
                    )
                )
        if isinstance(item, dict) and item.get("id") is not None:
            seen.add(item["id"])
        out.append(item)
    return out


def _server_ids(messages: list[Any], changes: list[Change]) -> list[Any]:
    """Anthropic: a repeated server_tool_use id (AN-2) is renamed with the server tool's result in
    the same assistant message; the server ran that tool, so neither moves."""
    seen: set[Any] = set()
    out: list[Any] = []
    counter = 0
    for i, msg in enumerate(messages):
        blocks = msg.get("content") if isinstance(msg, dict) and msg.get("role") == "assistant" else None
        if not isinstance(blocks, list):
            out.append(msg)
            continue
        renames: dict[Any, str] = {}
        for k, block in enumerate(blocks):
            if isinstance(block, dict) and block.get("type") == "server_tool_use":
                ident = block.get("id")
                if ident in seen:
                    counter += 1
                    renames[ident] = f"srvtoolu_tw{counter}"
                    changes.append(
                        Change(
                            "AN-2",
                            f"messages[{i}].content[{k}].id",
                            "rename",
                            ident,
                            renames[ident],
                            "a repeated server tool id, renamed with its result",
                        )
                    )
                seen.add(ident)
        if renames:
            blocks = [
                {**b, "id": renames[b["id"]]}
                if isinstance(b, dict) and b.get("type") == "server_tool_use" and b.get("id") in renames
                else {**b, "tool_use_id": renames[b["tool_use_id"]]}
                if isinstance(b, dict) and b.get("tool_use_id") in renames
                else b
                for b in blocks
            ]
            msg = {**msg, "content": blocks}
        out.append(msg)
    return out


def _left(repaired: Any, protocol: str, profile: Provider | None) -> list[Change]:
    """What no repair is right for: each error rule still broken, as an ``unrepaired`` change."""
    after = check(repaired, protocol)
    left = [
        Change(f.rule, f.path or "", "unrepaired", None, None, f"no repair is right for this: {f.message}")
        for f in after.findings
        if f.severity == "error"
    ]
    messages = repaired if isinstance(repaired, list) else repaired.get(CONTAINERS[protocol], [])
    for rule, path, what in lint(messages, profile) if profile else []:
        if rule.severity == "error":
            left.append(Change(rule.id, path, "unrepaired", None, None, f"{what}: {rule.statement}"))
    return left
