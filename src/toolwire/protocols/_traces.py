"""Hypothesis strategies that generate valid traffic of a registered protocol, per quirk profile.

Each protocol's descriptor loads its :class:`~toolwire.properties.Generator` (in its family's
``generate`` module); a drawn :class:`~toolwire.properties.Plan` is rendered by it.

>>> from hypothesis import given
>>> from toolwire.protocols import traces
>>> @given(traces("openai-chat-stream", quirks="two-per-chunk"))
... def test_converter_keeps_ids(chunks): ...
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hypothesis import strategies as st

from toolwire.errors import UsageError
from toolwire.properties._shapes import INTERLEAVED, SEVERAL
from toolwire.properties._strategies._plan import Plan, plans
from toolwire.properties._strategies._render import Generator
from toolwire.protocols._registry import GENERATED, PROTOCOLS, QUIRKS, quirks_for

__all__ = ["traces"]


def _quirk_set(protocol: str, quirks: str | Iterable[str] | None) -> frozenset[str]:
    if quirks is None:
        return frozenset()
    names = [q for q in quirks.split(",") if q] if isinstance(quirks, str) else list(quirks)
    for name in names:
        if name not in QUIRKS or protocol not in QUIRKS[name].protocols:
            choices = ", ".join(quirks_for(protocol)) or "none"
            raise UsageError(f"{protocol} has no quirk profile {name!r}; its quirk profiles: {choices}")
    if any(other in names for name in names for other in QUIRKS[name].excludes):
        raise UsageError(f"quirk profiles {', '.join(names)} contradict each other; pick one of each pair")
    return frozenset(names)


def _like_set(protocol: str, like: Iterable[str] | None) -> frozenset[str]:
    if like is None:
        return frozenset()
    spec = PROTOCOLS[protocol]
    catalogue = spec.shapes.catalogue() if spec.shapes is not None else {}
    unknown = sorted(set(like) - set(catalogue))
    if unknown:
        raise UsageError(f"{protocol} has no shape features {', '.join(unknown)}; see toolwire shapes")
    return frozenset(like)


def traces(
    protocol: str,
    quirks: str | Iterable[str] | None = None,
    *,
    max_calls: int = 4,
    like: Iterable[str] | None = None,
    swarm: bool = False,
) -> st.SearchStrategy[list[dict[str, Any]]]:
    """A strategy of valid traces of ``protocol``: stream events, or a conversation's messages.

    Traces have up to ``max_calls`` calls per turn, several of the same tool,
    with arguments split at every code point (inside ``\\uXXXX`` escapes and
    between the halves of a surrogate pair), interleaved where the protocol
    allows, with text, reasoning and ping events between them.  ``quirks``
    (comma-separated or a list) adds provider quirk profiles; see :data:`QUIRKS`.
    ``like`` names shape features (``toolwire shapes``): where the generator
    chooses between shapes, it chooses only among those, and calls interleave
    or come several to a turn only when ``like`` names it.  ``swarm`` switches a
    random subset of the shape features on for each trace (swarm testing:
    unusual combinations come up far more often than by independent choices).
    Every trace passes ``toolwire.check`` for ``protocol``, except for the
    rules its quirks deviate from on purpose (:attr:`Quirk.deviates`).
    """
    spec = PROTOCOLS.get(protocol)
    if spec is None or spec.generator is None:
        raise UsageError(
            f"no strategy for protocol {protocol!r}; choose one of: {', '.join(GENERATED)}"
        ) from None
    shape: Generator = spec.generator()
    chosen = _quirk_set(protocol, quirks)
    shaped = _like_set(protocol, like)
    interleave = shape.interleave and not any(QUIRKS[q].sequential for q in chosen)
    if like is not None:
        interleave = interleave and INTERLEAVED in shaped
        max_calls = max_calls if SEVERAL in shaped else min(max_calls, 1)
    drawn = plans(turns=shape.turns, max_calls=max_calls, fragments=shape.fragments, interleave=interleave)
    switches = chosen | shaped
    catalogue = sorted(spec.shapes.catalogue()) if swarm and like is None and spec.shapes else []
    # Features drawn with repeats (cheaper to draw than a set; shrinks the same way: fewer, earlier ones).
    features = st.lists(st.sampled_from(catalogue)) if catalogue else st.nothing()

    @st.composite
    def rendered(draw: st.DrawFn) -> list[dict[str, Any]]:
        on = frozenset(draw(features)) if catalogue else frozenset()
        plan: Plan = draw(drawn)
        return shape.render(draw, plan, switches | on)

    return rendered()
