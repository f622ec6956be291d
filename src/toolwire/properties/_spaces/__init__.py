"""Bounded state spaces of valid traffic, per protocol: what ``toolwire explore`` walks.

>>> from toolwire.properties import Bounds, space_for
>>> space = space_for("openai-responses-stream", Bounds(calls=1, deltas=1))
>>> [table.name for table in space.tables]
['ResponseStream', 'FunctionCallItem']
"""

from __future__ import annotations

from typing import Final

from toolwire.errors import UsageError
from toolwire.properties._spaces._conversations import ChatSpace, GeminiSpace
from toolwire.properties._spaces._space import Bounds, Fired, Move, Space, Step
from toolwire.properties._spaces._streams import (
    AISDKSpace,
    ChatStreamSpace,
    OpenResponsesSpace,
    ResponsesSpace,
)

__all__ = ["EXPLORED", "Bounds", "Fired", "Move", "Space", "Step", "space_for"]

_SPACES: Final[dict[str, type[Space]]] = {
    space.protocol: space
    for space in (ResponsesSpace, OpenResponsesSpace, ChatStreamSpace, AISDKSpace, ChatSpace, GeminiSpace)
}
#: The protocols ``explore`` has a state space for.
EXPLORED: Final = tuple(_SPACES)


def space_for(protocol: str, bounds: Bounds) -> Space:
    """The state space of ``protocol`` within ``bounds``; a :class:`UsageError` lists the protocols."""
    try:
        kind = _SPACES[protocol]
    except KeyError:
        raise UsageError(
            f"explore has no state space for {protocol!r} yet; it explores: {', '.join(EXPLORED)} "
            "(toolwire fuzz covers every protocol)"
        ) from None
    return kind(bounds)
