"""The protocol-neutral side of generated traffic: a drawn :class:`Plan` and the :class:`Generator`
that a family writes to render it as its wire.

:func:`toolwire.protocols.traces` puts them together for a registered protocol.
"""

from toolwire.properties._strategies._plan import Plan
from toolwire.properties._strategies._render import Generator

__all__ = ["Generator", "Plan"]
