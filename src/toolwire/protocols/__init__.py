"""toolwire's protocol families, the registry that lists them, and the services over it.

Each family lives in its own package (``toolwire/protocols/<family>/``: rules, monitors, readers,
generators, shape features, state space) and declares a :class:`~toolwire.properties.Family` of
protocol descriptors; the registry lists them (:data:`PROTOCOLS`, :func:`register`).  Over the
registry: the rule book (:func:`rules_for`), the relations between a converter's input and output
(:func:`relate`), the round trip, generated traffic (:func:`traces`), mutators and state spaces
(:func:`space_for`).  The strategies, mutators and spaces import Hypothesis, so they load on first
use: ``toolwire check`` never pays for them.
"""

from typing import TYPE_CHECKING

from toolwire._lazy import lazy
from toolwire.protocols._registry import (
    envelope_ids,
    get_protocol,
    id_shapes,
    machines,
    quirks_for,
    register,
    rules_for,
    unregister,
)
from toolwire.protocols._roundtrip import check_round_trip

__all__ = [
    "BREAKS",
    "EXPLORED",
    "GENERATED",
    "MUTATORS",
    "PROTOCOLS",
    "QUIRKS",
    "RELATIONS",
    "RULES",
    "Broken",
    "Ledger",
    "check_round_trip",
    "envelope_ids",
    "get_protocol",
    "id_shapes",
    "intact",
    "ledger",
    "machines",
    "matching_quirks",
    "mutate",
    "mutated",
    "quirks_for",
    "register",
    "relate",
    "rules_for",
    "shapes_of",
    "space_for",
    "traces",
    "unregister",
]

if TYPE_CHECKING:
    from toolwire.protocols._mutators import MUTATORS, mutate, mutated
    from toolwire.protocols._registry import BREAKS, EXPLORED, GENERATED, PROTOCOLS, QUIRKS, RULES
    from toolwire.protocols._relations import RELATIONS, Broken, Ledger, intact, ledger, relate
    from toolwire.protocols._shapes import matching_quirks, shapes_of
    from toolwire.protocols._spaces import space_for
    from toolwire.protocols._traces import traces

_LAZY = {
    **dict.fromkeys(
        ("BREAKS", "EXPLORED", "GENERATED", "PROTOCOLS", "QUIRKS", "RULES"), "toolwire.protocols._registry"
    ),
    **dict.fromkeys(
        ("RELATIONS", "Broken", "Ledger", "intact", "ledger", "relate"), "toolwire.protocols._relations"
    ),
    **dict.fromkeys(("MUTATORS", "mutate", "mutated"), "toolwire.protocols._mutators"),
    **dict.fromkeys(("matching_quirks", "shapes_of"), "toolwire.protocols._shapes"),
    "space_for": "toolwire.protocols._spaces",
    "traces": "toolwire.protocols._traces",
}

__getattr__ = lazy(__name__, _LAZY, globals())
