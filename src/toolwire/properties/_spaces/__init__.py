"""Bounded state spaces of valid traffic: the machinery ``toolwire explore`` walks.

Each protocol's descriptor loads its :class:`Space` class (in its family's ``space`` module);
:func:`toolwire.protocols.space_for` builds one for a registered protocol.
"""

from toolwire.properties._spaces._space import Bounds, Fired, Move, Space, Step

__all__ = ["Bounds", "Fired", "Move", "Space", "Step"]
