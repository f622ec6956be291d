"""The kit protocols are written with: rules, monitor bases, lifecycles, plans and renderers, spaces.

A protocol family (toolwire's own under :mod:`toolwire.protocols`, or one of yours) declares a
:class:`Family` of :class:`Protocol` descriptors built from these pieces and registers it
(:func:`toolwire.protocols.register`).  Nothing here names a protocol.  The plans, renderers and
spaces import Hypothesis, so they load on first use: ``toolwire check`` never pays for them.
"""

from typing import TYPE_CHECKING

from toolwire._lazy import lazy
from toolwire.properties._monitor import Monitor, Notice, Violations
from toolwire.properties._protocol import SENDERS, Family, Protocol, Quirk, Result, load
from toolwire.properties._rule import Finding, Kind, Rule, Severity
from toolwire.properties._sites import Sites
from toolwire.properties._turn import Call, Turn

__all__ = [
    "SENDERS",
    "BlockRules",
    "BlockStreamMonitor",
    "BodyMonitor",
    "BodyRules",
    "Bounds",
    "Call",
    "Family",
    "Feature",
    "Finding",
    "FragmentMonitor",
    "Generator",
    "Item",
    "KeyedMonitor",
    "Kind",
    "LaneSpace",
    "Lanes",
    "Lifecycle",
    "Monitor",
    "Notice",
    "Plan",
    "Protocol",
    "Quirk",
    "Result",
    "Rule",
    "Severity",
    "Shapes",
    "Sites",
    "Space",
    "Turn",
    "Violations",
    "load",
]

if TYPE_CHECKING:
    from toolwire.properties._blocks import BlockRules, BlockStreamMonitor
    from toolwire.properties._body import BodyMonitor, BodyRules
    from toolwire.properties._fragments import FragmentMonitor
    from toolwire.properties._lifecycle import Item, KeyedMonitor, Lifecycle
    from toolwire.properties._shapes import Feature, Shapes
    from toolwire.properties._spaces import Bounds, Space
    from toolwire.properties._spaces._lanes import Lanes, LaneSpace
    from toolwire.properties._strategies import Generator, Plan

_LAZY = {
    **dict.fromkeys(("BlockRules", "BlockStreamMonitor"), "toolwire.properties._blocks"),
    **dict.fromkeys(("BodyMonitor", "BodyRules"), "toolwire.properties._body"),
    "FragmentMonitor": "toolwire.properties._fragments",
    **dict.fromkeys(("Item", "KeyedMonitor", "Lifecycle"), "toolwire.properties._lifecycle"),
    **dict.fromkeys(("Feature", "Shapes"), "toolwire.properties._shapes"),
    **dict.fromkeys(("Bounds", "Space"), "toolwire.properties._spaces"),
    **dict.fromkeys(("Lanes", "LaneSpace"), "toolwire.properties._spaces._lanes"),
    **dict.fromkeys(("Generator", "Plan"), "toolwire.properties._strategies"),
}

__getattr__ = lazy(__name__, _LAZY, globals())
