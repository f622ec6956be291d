"""Shape features: the observable ways a protocol's real traffic varies, named per family.

A family's ``shapes`` module declares its catalogue (:class:`Feature`: a name, what it
means, and where it is documented when no recorded trace shows it) and an
extractor that names the features one trace shows.  ``toolwire shapes`` prints
them for a recording; the shape-coverage test measures the generators against
the real corpus with them; ``fuzz --like`` turns a recording's features into a
quirk profile.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Final

import orjson

from toolwire.errors import DefinitionError

__all__ = [
    "ARGUMENT_FEATURES",
    "INTERLEAVED",
    "SEVERAL",
    "Feature",
    "Shapes",
    "arguments_shapes",
    "calls_shapes",
    "hashable",
    "is_json",
]

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


#: The features :func:`arguments_shapes` names, for every wire that streams arguments as text.
ARGUMENT_FEATURES: Final = (
    Feature("whole-arguments-in-one-fragment", "a call's arguments arrive in one fragment"),
    Feature("empty-arguments", 'a call with arguments "" or "{}"'),
    Feature("escape-split-across-fragments", "a \\uXXXX or \\ escape is cut between two fragments"),
    Feature("fragment-is-json-on-its-own", "an argument fragment that parses as JSON by itself"),
    Feature("fragment-is-a-bare-number", "an argument fragment that is a bare number"),
)

_ESCAPE_CUT: Final = re.compile(r"\\u[0-9a-fA-F]{0,3}$|\\$")


def arguments_shapes(fragments: list[str]) -> Iterator[str]:
    """Features of one call's argument fragments (for every wire that streams them as text)."""
    pieces = [piece for piece in fragments if piece]
    if "".join(pieces) in ("", "{}"):
        yield "empty-arguments"
    elif len(pieces) == 1:
        yield "whole-arguments-in-one-fragment"
    for piece in pieces[:-1]:
        if _ESCAPE_CUT.search(piece):
            yield "escape-split-across-fragments"
        if piece.strip().lstrip("-").replace(".", "", 1).isdigit():
            yield "fragment-is-a-bare-number"
        elif piece.strip() and is_json(piece):
            yield "fragment-is-json-on-its-own"


def calls_shapes(names: list[Any]) -> Iterator[str]:
    """Features of one turn's calls, given their tool names: several calls, one tool twice."""
    if len(names) > 1:
        yield SEVERAL
    if len(set(map(hashable, names))) < len(names):
        yield "same-tool-twice"


def hashable(value: Any) -> Hashable:
    """``value`` as a key: a JSON list or object (which a broken trace may hold anywhere) as its text."""
    return value if isinstance(value, Hashable) else repr(value)


def is_json(text: str) -> bool:
    """``text`` parses as JSON."""
    try:
        orjson.loads(text)
    except orjson.JSONDecodeError:
        return False
    return True
