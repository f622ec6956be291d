"""A provider profile as a ``check`` profile: the wire's monitor, plus the provider's own rules.

``toolwire check history.json -p openai-chat --profile deepseek`` checks the history as the wire's
rules say, then as DeepSeek's profile adds (the rules ``check`` does not already say: an empty
``tool_calls`` array, an id the provider will not take); each such finding names the provider's
rule, its recorded error text and its source, as a wire rule's finding does.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

from toolwire.models import Frame, plain
from toolwire.properties._monitor import Monitor
from toolwire.properties._repair import Provider, ProviderRule
from toolwire.properties._rule import Rule

__all__ = ["provider_factory", "provider_rule"]

_INDEX: Final = re.compile(r"\[(\d+)\]")


def provider_rule(rule: ProviderRule, provider: Provider, protocol: str) -> Rule:
    """``rule`` as the rule book states a rule: a finding of it reads like a wire rule's."""
    return Rule(
        rule.id,
        "always",
        (protocol,),
        f"{rule.statement} ({provider.name} profile)",
        rule.source,
        f"`toolwire repair -p {protocol} --for {provider.name}` mends it (ids are remapped, and the map "
        "is returned)",
        error=rule.error,
        severity=rule.severity,
    )


def provider_factory(make: Callable[[], Monitor], provider: Provider) -> Callable[[], Monitor]:
    """What makes the monitors of ``provider``'s profile: ``make``'s, also judging its own rules."""

    def build() -> Monitor:
        monitor = make()
        monitor.__class__ = _linting(type(monitor))
        assert isinstance(monitor, _Linting)
        monitor.start_profile(provider)
        return monitor

    return build


class _Linting(Monitor):
    """Keeps the messages it is fed; at the end, reports the provider rules they break."""

    _provider: Provider
    _items: list[Any]
    _bulk: bool

    def start_profile(self, provider: Provider) -> None:
        self._provider = provider
        self._items = []
        self._bulk = False

    def open_document(self, document: dict[str, Any]) -> None:
        self._items = []
        super().open_document(document)

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        if not self._bulk:
            self._items.append(value)
        super().feed(value, index, line, sse_event)

    def feed_document(self, items: list[Any], line: int | None) -> None:
        self._items.extend(items)
        self._bulk = True
        try:
            super().feed_document(items, line)
        finally:
            self._bulk = False

    def consume(self, frames: Iterable[Frame]) -> tuple[int, int | None]:
        self._bulk = True
        try:
            return super().consume(self._kept(frames))
        finally:
            self._bulk = False

    def _kept(self, frames: Iterable[Frame]) -> Iterator[Frame]:
        for frame in frames:
            self._items.append(frame[1])
            yield frame

    def finish(self, index: int, line: int | None) -> None:
        super().finish(index, line)
        provider = self._provider
        messages = [m if type(m) is dict else plain(m) for m in self._items]
        for rule, path, what in provider.lint(messages, provider):
            said = self._rules.get(rule.same_as) if rule.same_as else None
            if said is not None and self.protocol in said.protocols:
                continue  # the wire's own rule has said it
            at = _INDEX.search(path)
            values = _values(what)
            self.record(
                provider_rule(rule, provider, self.protocol),
                f"{what}: {rule.statement}",
                index=int(at.group(1)) if at else None,
                line=line,
                path=path,
                ids=values.values(),
                **values,
            )


def _values(what: str) -> dict[str, Any]:
    """The values an id rule's error text names (``{id}``), from what ``lint`` said (``id '...'``)."""
    if not what.startswith("id "):
        return {}
    try:
        return {"id": ast.literal_eval(what[3:])}
    except (ValueError, SyntaxError):
        return {}


#: Each monitor class with a provider's rules judged at the end, made once.
_CLASSES: Final[dict[type[Monitor], type[Monitor]]] = {}


def _linting(cls: type[Monitor]) -> type[Monitor]:
    """``cls`` with the provider's rules judged at the end (one class per monitor class)."""
    if cls not in _CLASSES:
        _CLASSES[cls] = type(f"{cls.__name__}ForProvider", (_Linting, cls), {"__module__": cls.__module__})
    return _CLASSES[cls]
