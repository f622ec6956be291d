"""Shape features: the observable ways a protocol's real traffic varies, named per family.

A family's ``shapes`` module declares its catalogue (:class:`Feature`: a name, what it
means, and where it is documented when no recorded trace shows it) and an
extractor that names the features one trace shows.  ``toolwire shapes`` prints
them for a recording; the shape-coverage test measures the generators against
the real corpus with them; ``fuzz --like`` turns a recording's features into a
quirk profile.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from toolwire.errors import DefinitionError, UsageError

__all__ = ["INTERLEAVED", "SEVERAL", "Feature", "Shapes", "matching_quirks", "shapes_of"]

#: Feature names every family uses alike: calls whose fragments interleave; several calls in a turn.
INTERLEAVED = "interleaved-fragments"
SEVERAL = "several-calls"


@dataclass(frozen=True, slots=True)
class Feature:
    """One shape feature: ``documented`` names a source for a shape the recorded corpus lacks."""

    name: str
    summary: str
    documented: str | None = None


@dataclass(frozen=True, slots=True)
class Shapes:
    """A protocol's catalogue of shape features and the extractor that finds them in a trace."""

    features: tuple[Feature, ...]
    extract: Callable[[list[Any]], Iterable[str]]

    def __post_init__(self) -> None:
        names = [f.name for f in self.features]
        if len(set(names)) != len(names):
            raise DefinitionError(
                f"shape features declared twice: {sorted(n for n in names if names.count(n) > 1)}"
            )

    def catalogue(self) -> dict[str, Feature]:
        """The features by name."""
        return {f.name: f for f in self.features}


def shapes_of(trace: list[Any], protocol: str) -> set[str]:
    """The shape features ``trace`` shows, as ``protocol``'s catalogue names them."""
    from toolwire.properties._registry import PROTOCOLS

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
    from toolwire.properties._registry import QUIRKS

    return [
        name
        for name, quirk in QUIRKS.items()
        if protocol in quirk.protocols and quirk.features and set(quirk.features) <= features
    ]
