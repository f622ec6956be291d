"""Shape features over the registry: what a trace shows, and the quirk profiles that mark it."""

from __future__ import annotations

from typing import Any

from toolwire.errors import DefinitionError, UsageError
from toolwire.protocols._registry import PROTOCOLS, QUIRKS

__all__ = ["matching_quirks", "shapes_of"]


def shapes_of(trace: list[Any], protocol: str) -> set[str]:
    """The shape features ``trace`` shows, as ``protocol``'s catalogue names them."""
    spec = PROTOCOLS.get(protocol)
    if spec is None or spec.shapes is None:
        known = ", ".join(name for name, p in PROTOCOLS.items() if p.shapes is not None)
        raise UsageError(f"no shape catalogue for {protocol!r}; protocols with one: {known}")
    found = set(spec.shapes.extract(trace))
    unknown = found - set(spec.shapes.catalogue())
    if unknown:
        raise DefinitionError(
            f"{protocol}'s extractor names features outside its catalogue: {sorted(unknown)}"
        )
    return found


def matching_quirks(features: set[str], protocol: str) -> list[str]:
    """The quirk profiles of ``protocol`` whose marking features ``features`` all show."""
    return [
        name
        for name, quirk in QUIRKS.items()
        if protocol in quirk.protocols and quirk.features and set(quirk.features) <= features
    ]
