"""Bounded state spaces of valid traffic, per protocol: what ``toolwire explore`` walks.

Each protocol's descriptor loads its :class:`Space` class (in its family's
``space`` module).

>>> from toolwire.properties import Bounds, space_for
>>> space = space_for("openai-responses-stream", Bounds(calls=1, deltas=1))
>>> [table.name for table in space.tables]
['ResponseStream', 'FunctionCallItem']
"""

from __future__ import annotations

from toolwire.errors import UsageError
from toolwire.properties._registry import EXPLORED, PROTOCOLS
from toolwire.properties._spaces._space import Bounds, Fired, Move, Space, Step

__all__ = ["EXPLORED", "Bounds", "Fired", "Move", "Space", "Step", "space_for"]


def space_for(protocol: str, bounds: Bounds) -> Space:
    """The state space of ``protocol`` within ``bounds``; a :class:`UsageError` lists the protocols."""
    spec = PROTOCOLS.get(protocol)
    if spec is None or spec.space is None:
        raise UsageError(
            f"explore has no state space for {protocol!r} yet; it explores: {', '.join(EXPLORED)} "
            "(toolwire fuzz covers every protocol)"
        )
    kind: type[Space] = spec.space()
    return kind(bounds)
