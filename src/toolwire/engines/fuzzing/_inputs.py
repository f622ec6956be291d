"""A campaign's inputs: valid traces of the source, a swarm of its quirk profiles, damaged with
``--mutate``, drawn away from what was found, and drawn again with profiles switched off (to
tell a finding's cause); the shape features they show."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from hypothesis import strategies as st

from toolwire.engines.fuzzing._judge import MUTATIONS
from toolwire.engines.fuzzing._options import FuzzOptions
from toolwire.engines.fuzzing._steer import TRIES, Example, Signature, steered
from toolwire.protocols import get_protocol, mutate
from toolwire.protocols._shapes import shapes_of
from toolwire.protocols._traces import Drawn, drawn_traces

__all__ = ["SLOW_CALLS", "catalogue_size", "drawn", "inputs", "shapes"]

Wire = list[dict[str, Any]]

#: A slow target's traces (:data:`~toolwire.engines.fuzzing._campaign.SLOW`): calls at most in one
#: turn (shorter traces: fewer runs to shrink, more examples a minute).
SLOW_CALLS: Final = 3


def drawn(
    options: FuzzOptions, plain: bool = False, without: frozenset[str] = frozenset(), slow: bool = False
) -> st.SearchStrategy[Drawn]:
    """The campaign's inputs as drawn: valid traces of the source (a swarm of its quirk profiles by
    default), damaged with ``--mutate``; ``without`` switches those profiles off once drawn."""
    source = options.source
    valid = drawn_traces(
        source,
        options.pinned,
        like=options.like,
        swarm=True,
        swarm_quirks=options.swarm,
        plain=plain,
        without=without,
        profiles=options.swarm_profiles if options.providers is not None else None,
        max_calls=SLOW_CALLS if slow else 4,
    )
    if not options.mutate:
        return valid

    @st.composite
    def broken(draw: st.DrawFn) -> Drawn:
        trace, quirks = draw(valid)
        for name in draw(st.lists(st.sampled_from(MUTATIONS), max_size=2)):
            trace = mutate(trace, source, name) or trace
        return Drawn(trace, quirks)

    return broken()


def inputs(
    options: FuzzOptions, signatures: Sequence[Signature] = (), plain: bool = False, slow: bool = False
) -> st.SearchStrategy[Example]:
    """The campaign's examples (:func:`_drawn`), drawn away from the ``signatures`` of what was
    found (and half of them ``plain`` when nothing tells a finding apart); ``slow``: as a slow
    target is served (:data:`SLOW`)."""
    source = options.source

    def describe(example: Drawn) -> Example:
        return Example(example.trace, example.quirks, frozenset(shapes(example.trace, source)))

    return steered(drawn(options, plain, slow=slow), describe, signatures, TRIES)


def catalogue_size(protocol: str) -> int:
    shapes = get_protocol(protocol).shapes
    return len(shapes.features) if shapes is not None else 0


def shapes(trace: Wire | None, protocol: str) -> set[str]:
    """The shape features of a trace, or none when it has none to show (no catalogue, unreadable)."""
    if trace is None or get_protocol(protocol).shapes is None:
        return set()
    try:
        return shapes_of(trace, protocol)
    except Exception:  # an output too broken to describe: validity says what is wrong with it
        return set()
