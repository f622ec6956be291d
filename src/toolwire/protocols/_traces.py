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
from typing import Any, NamedTuple

from hypothesis import strategies as st

from toolwire.errors import UsageError
from toolwire.properties._shapes import INTERLEAVED, SEVERAL
from toolwire.properties._strategies._plan import Plan, plans
from toolwire.properties._strategies._render import PLAIN, Generator
from toolwire.protocols._registry import GENERATED, PROTOCOLS, QUIRKS, quirks_for

__all__ = ["Drawn", "drawn_traces", "swarm_profiles", "traces"]


class Drawn(NamedTuple):
    """A generated trace and the quirk profiles it was drawn with."""

    trace: list[dict[str, Any]]
    quirks: frozenset[str]


def swarm_profiles(protocol: str, pinned: Iterable[str] = ()) -> list[str]:
    """The quirk profiles a default campaign switches on at random for ``protocol`` (all but ``pinned``)."""
    pinned = set(pinned)
    return [name for name in quirks_for(protocol) if name not in pinned]


def _compatible(names: Iterable[str], base: frozenset[str]) -> frozenset[str]:
    """``names`` in order, each kept when it contradicts none kept before it (nor ``base``)."""
    kept = set(base)
    for name in names:
        clash = any(other in kept for other in QUIRKS[name].excludes) or any(
            name in QUIRKS[other].excludes for other in kept
        )
        if not clash:
            kept.add(name)
    return frozenset(kept)


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
    swarm_quirks: bool = False,
) -> st.SearchStrategy[list[dict[str, Any]]]:
    """A strategy of valid traces of ``protocol``: stream events, or a conversation's messages.

    Traces have up to ``max_calls`` calls per turn, several of the same tool,
    with arguments split at every code point (inside ``\\uXXXX`` escapes and
    between the halves of a surrogate pair), interleaved where the protocol
    allows, with text, reasoning and ping events between them.  ``quirks``
    (comma-separated or a list) adds provider quirk profiles; see :data:`QUIRKS`.
    ``swarm_quirks`` also switches a random subset of the protocol's other quirk
    profiles on for each trace (none in about two traces of five, so that
    well-behaved traffic stays common; shrinking switches them off).
    ``like`` names shape features (``toolwire shapes``): where the generator
    chooses between shapes, it chooses only among those, and calls interleave
    or come several to a turn only when ``like`` names it.  ``swarm`` switches a
    random subset of the shape features on for each trace (swarm testing:
    unusual combinations come up far more often than by independent choices).
    Every trace passes ``toolwire.check`` for ``protocol``, except for the
    rules its quirks deviate from on purpose (:attr:`Quirk.deviates`).
    """
    return drawn_traces(
        protocol, quirks, max_calls=max_calls, like=like, swarm=swarm, swarm_quirks=swarm_quirks
    ).map(_trace)


def _trace(drawn: Drawn) -> list[dict[str, Any]]:
    return drawn.trace


def drawn_traces(
    protocol: str,
    quirks: str | Iterable[str] | None = None,
    *,
    max_calls: int = 4,
    like: Iterable[str] | None = None,
    swarm: bool = False,
    swarm_quirks: bool = False,
    plain: bool = False,
    without: frozenset[str] = frozenset(),
    profiles: Iterable[str] | None = None,
) -> st.SearchStrategy[Drawn]:
    """:func:`traces`, each with the quirk profiles it was drawn with (what a campaign judges it by).

    ``plain`` makes about half the traces the plainest the protocol has: no quirk profile or
    shape feature beyond those pinned, no text or fillers, the first of every choice of shape.
    ``without`` names quirk profiles switched off after they are drawn: the same choices give
    the same trace but for those profiles (how a campaign asks what a finding needs).
    ``profiles`` narrows the swarm to those profiles (the providers a user routes).
    """
    spec = PROTOCOLS.get(protocol)
    if spec is None or spec.generator is None:
        known = "" if spec is None else " it is checked and judged as an output, but has no generator;"
        raise UsageError(
            f"cannot generate {protocol!r}:{known} --from takes one of: {', '.join(GENERATED)}"
        ) from None
    shape: Generator = spec.generator()
    chosen = _quirk_set(protocol, quirks)
    shaped = _like_set(protocol, like)
    interleave = shape.interleave
    if like is not None:
        interleave = interleave and INTERLEAVED in shaped
        max_calls = max_calls if SEVERAL in shaped else min(max_calls, 1)

    plan_strategies = {
        (weave, bare): plans(
            turns=shape.turns, max_calls=max_calls, fragments=shape.fragments, interleave=weave, plain=bare
        )
        for weave in (True, False)
        for bare in (True, False)
    }
    catalogue = sorted(spec.shapes.catalogue()) if swarm and like is None and spec.shapes else []
    # Features drawn with repeats (cheaper to draw than a set; shrinks the same way: fewer, earlier ones).
    features = st.lists(st.sampled_from(catalogue)) if catalogue else st.nothing()
    others = swarm_profiles(protocol, chosen) if swarm_quirks and like is None else []
    if profiles is not None:
        others = [name for name in others if name in set(profiles)]
    extra = st.lists(st.sampled_from(others), max_size=3) if others else st.nothing()

    @st.composite
    def rendered(draw: st.DrawFn) -> Drawn:
        bare = plain and draw(st.booleans())
        if bare:
            on, drawn = frozenset({PLAIN}), chosen
        else:
            on = frozenset(draw(features)) if catalogue else frozenset()
            drawn = _compatible(draw(extra), chosen) if others else chosen
        # The plan is drawn as the profiles drawn ask (calls one after the other for a sequential
        # one), also when ``without`` switches them off: the same calls, on the strict wire.
        weave = interleave and not any(QUIRKS[q].sequential for q in drawn)
        plan: Plan = draw(plan_strategies[weave, bare])
        active = drawn - without
        return Drawn(shape.render(draw, plan, active | shaped | on), active)

    return rendered()
