"""``repair()``: a history made one its protocol (and provider) accepts, with every change said."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final, get_args

from toolwire.engines import Report, check
from toolwire.engines.checking import check_messages, first_error
from toolwire.engines.repair._engine import rebuild
from toolwire.errors import UsageError
from toolwire.properties._change import Change, Repair
from toolwire.properties._repair import Adapter, OrphanPolicy, Provider, UnansweredPolicy
from toolwire.protocols import _registry

__all__ = ["CONTAINERS", "CONTEXT", "PROVIDERS", "REPAIRABLE", "provider_for", "provider_of_wire", "repair"]

#: Each protocol the repairer reads (its descriptor names its repair), and the key of a request
#: body that holds its history.
CONTAINERS: Final[dict[str, str]] = {
    name: spec.container or "messages"
    for name, spec in _registry.PROTOCOLS.items()
    if spec.repair is not None
}
#: The provider profiles, by name: each of a wire, kept in that wire's family.
PROVIDERS: Final[dict[str, Provider]] = _registry.providers()
#: The protocols the repairer reads.
REPAIRABLE: Final[tuple[str, ...]] = tuple(CONTAINERS)

#: Request fields that bring a stored context in: a result may answer a call of it (what
#: :func:`repair` reads of a request body besides its history).
CONTEXT: Final = ("previous_response_id", "conversation")


def provider_of_wire(provider: str | None, protocol: str) -> str | None:
    """``provider`` when ``protocol`` is of its wire, else None: a request of another wire is
    repaired by its own protocol's rules (``proxy --repair --for``, the LiteLLM hook)."""
    if provider is not None and protocol not in PROVIDERS[provider].wire:
        return None
    return provider


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
    if not messages:
        return Repair(history, protocol, provider=provider)  # no message: nothing to repair
    # A damaged history is read up to its first broken rule only: what the repair makes of it is
    # checked whole below, once.
    before = first_error(history, protocol)
    if before is not None:
        _refuse(before, protocol)
    spec = _registry.get_protocol(protocol)
    assert spec.repair is not None
    adapter = spec.repair()
    if before is not None and (
        before.exit_code == 0
        and not [b for b in (profile.lint(messages, profile) if profile else []) if b[0].severity == "error"]
        and not _warned(before, adapter)
    ):
        return Repair(history, protocol, provider=provider)
    if not isinstance(adapter, Adapter):
        rebuilt = adapter(messages, orphan_results=orphan_results, unanswered_calls=unanswered_calls)
    else:
        rebuilt = rebuild(
            adapter,
            messages,
            accepts=adapter.accepts if profile is None else _both(adapter, profile),
            orphan_results=orphan_results,
            unanswered_calls=unanswered_calls,
            context=body is not None and any(body.get(k) for k in CONTEXT),
        )
    changes = list(rebuilt.changes)
    out = rebuilt.messages
    if profile is not None:
        changes = [_cited(c, adapter, profile) for c in changes]
        out = profile.fixes(out, profile, changes)
    if isinstance(adapter, Adapter) and adapter.after is not None:
        out = adapter.after(out, changes)
    repaired: Any = history
    if changes:
        repaired = out if body is None else {**body, container: out}
    after = check_messages(repaired, protocol) if isinstance(repaired, list) else check(repaired, protocol)
    if before is None and any(p.severity == "error" for p in after.problems):
        # What was read only up to its first error may be, read whole, too little of the
        # protocol's to judge (its findings dropped): refused as a whole check refuses it.
        _refuse(check(history, protocol), protocol)
    changes += _left(after, repaired, protocol, profile)
    return Repair(repaired, protocol, tuple(changes), dict(rebuilt.ids), provider)


def _warned(report: Report, adapter: Any) -> bool:
    """Whether ``report`` breaks a pairing rule the adapter answers, where every such rule is a
    warning: OpenTelemetry's (a span reaches no provider and no consumer of it was found to lose a
    call, issue 38), whose breaks a repair still answers, or it would answer none."""
    if not isinstance(adapter, Adapter):
        return False
    answered = set(adapter.rules.values())
    if any(_registry.RULES[rule].severity == "error" for rule in answered if rule in _registry.RULES):
        return False
    return any(f.rule in answered for f in report.findings)


def _refuse(before: Report, protocol: str) -> None:
    """A :class:`UsageError` when ``check`` judged nothing of the input (it found no broken rule,
    yet could not read it as ``protocol``)."""
    if not before.findings and before.exit_code == 2:
        said = "; ".join(p.message for p in before.problems if p.severity == "error")
        raise UsageError(f"the input cannot be repaired as {protocol}: {said}")


def _cited(change: Change, adapter: Any, profile: Provider) -> Change:
    """A remap of an id the wire takes but the provider does not, citing the provider's rule
    (Mistral's nine characters on the Chat wire: MS-1, not the wire's CC-1)."""
    if change.action != "remap" or not isinstance(change.before, str) or not isinstance(adapter, Adapter):
        return change
    if not adapter.accepts(change.before):
        return change
    for rule in profile.rules:
        if rule.accepts is not None and not rule.accepts(change.before):
            why = f"an id {profile.name} will not take: {rule.statement}"
            return replace(change, rule=rule.id, reason=why)
    return change


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


def _left(after: Report, repaired: Any, protocol: str, profile: Provider | None) -> list[Change]:
    """What no repair is right for: each error rule ``after`` (the check of ``repaired``) says is
    still broken, and each of the profile's, as an ``unrepaired`` change."""
    left = [
        Change(f.rule, f.path or "", "unrepaired", None, None, f"no repair is right for this: {f.message}")
        for f in after.findings
        if f.severity == "error"
    ]
    messages = repaired if isinstance(repaired, list) else repaired.get(CONTAINERS[protocol], [])
    for rule, path, what in profile.lint(messages, profile) if profile else []:
        if rule.severity == "error":
            left.append(Change(rule.id, path, "unrepaired", None, None, f"{what}: {rule.statement}"))
    return left


def provider_for(name: str | None, protocol: str) -> Provider | None:
    """The profile ``name`` for histories of ``protocol``; a :class:`UsageError` when there is none."""
    if name is None:
        return None
    found = PROVIDERS.get(name)
    if found is None:
        raise UsageError(f"no provider profile {name!r}; choose among: {', '.join(PROVIDERS)}")
    if protocol not in found.wire:
        raise UsageError(
            f"the {name} profile is for {', '.join(found.wire)} histories, not {protocol}; drop --for"
        )
    return found


def lint(messages: list[Any], provider: Provider) -> list[tuple[Any, str, str]]:
    """The profile's own rules ``messages`` break (those ``check`` does not say): (rule, path, what)."""
    return provider.lint(messages, provider)
