"""The state space of a registered protocol: what ``toolwire explore`` walks.

>>> from toolwire.properties import Bounds
>>> from toolwire.protocols import space_for
>>> space = space_for("openai-responses-stream", Bounds(calls=1, deltas=1))
>>> [table.name for table in space.tables]
['ResponseStream', 'FunctionCallItem']
"""

from __future__ import annotations

from toolwire.errors import UsageError
from toolwire.properties._spaces import Bounds, Space
from toolwire.protocols._registry import EXPLORED, PROTOCOLS

__all__ = ["space_for"]


def space_for(protocol: str, bounds: Bounds) -> Space:
    """The state space of ``protocol`` within ``bounds``; a :class:`UsageError` lists the protocols."""
    spec = PROTOCOLS.get(protocol)
    if spec is None or spec.space is None:
        raise UsageError(
            f"explore has no state space for {protocol!r} yet; it explores: {', '.join(EXPLORED)} "
            "(toolwire fuzz generates more)"
        )
    kind: type[Space] = spec.space()
    return kind(bounds)
