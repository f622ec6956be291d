"""The protocol of each body of a log: ``-p``, else detected with the bodies of its field, else alone.

A field is where a file's records keep one side's bodies (a path, or an OTLP attribute) and the
endpoint they were sent to: its first :data:`SAMPLE` bodies are detected together (the first alone
is often ambiguous), as ``check`` detects a file's protocol from its content (:mod:`._detect`).
"""

from __future__ import annotations

from typing import Any, Final

from toolwire.engines._core._detect import detect
from toolwire.engines.logs._records import Body, Call, Side
from toolwire.properties import Protocol
from toolwire.protocols import get_protocol

__all__ = ["SAMPLE", "Detector", "Field"]

#: Bodies of one field sampled together to tell their protocol (the first alone is often ambiguous).
SAMPLE: Final = 50

#: A field: the file, the path (or attribute) of its bodies, their side and their endpoint.
Field = tuple[str, str, Side, str | None]


class Detector:
    """The protocol of each body: ``chosen`` (``-p``), else detected from the bodies of its field
    together (``given``: a field's first bodies, when ``calls`` are a part of a file, whose own are
    not its first), else alone."""

    def __init__(
        self, calls: list[Call], chosen: Protocol | None, given: dict[Any, list[Any]] | None = None
    ) -> None:
        self.chosen = chosen
        #: The protocol each field's bodies were detected as (None: not settled by its first bodies).
        self.by_field: dict[Field, Protocol | None] = {}
        # A part of a file is detected from the file's first bodies (given), not its own.
        self.samples: dict[Field, list[Any]] = dict(given or {})
        fixed = set(self.samples)
        for call in calls:
            for part in (call.request, call.response):
                if part is not None and self._key(part) not in fixed:
                    sample = self.samples.setdefault(self._key(part), [])
                    if len(sample) < SAMPLE:
                        sample.append(part.value)

    @staticmethod
    def _key(part: Body) -> Field:
        where = part.where.split(" ", 2)[-1] if part.where.startswith(("span ", "log record")) else part.where
        return (part.source, where, part.side, part.endpoint)

    def protocol(self, part: Body, partner: Protocol | None = None) -> tuple[Protocol | None, str]:
        """``part``'s protocol, or why none; ``partner`` is the other side's, which settles a tie."""
        chosen = self.chosen
        if chosen is not None and not part.genai:
            if (chosen.shape == "conversation") == (part.side == "request"):
                return chosen, ""
            if part.side == "response" and chosen.follows:
                names = [n for n in self._candidates([part.value], part) if n in chosen.follows]
                if len(names) == 1:
                    return get_protocol(names[0]), ""
                return None, f"{part.where} is none of {', '.join(chosen.follows)}"
        key = self._key(part)
        if key not in self.by_field:
            self.by_field[key] = self._settled(
                self._candidates(self.samples.get(key, [part.value]), part), part, None
            )
        shared = self.by_field[key]
        if shared is not None:
            return shared, ""
        alone = self._candidates([part.value], part)
        found = self._settled(alone, part, partner)
        if found is not None:
            return found, ""
        if alone:
            return None, (
                f"{part.where}: ambiguous: it reads as {', '.join(alone)}; choose one with -p "
                "(toolwire protocols lists them)"
            )
        return None, f"{part.where}: no registered protocol recognises this body; name one with -p"

    def alone(self, part: Body, partner: Protocol | None = None) -> Protocol | None:
        """``part``'s protocol detected from its own body, not its field's first bodies."""
        return self._settled(self._candidates([part.value], part), part, partner)

    @staticmethod
    def _settled(names: list[str], part: Body, partner: Protocol | None) -> Protocol | None:
        if len(names) > 1 and partner is not None:
            # A request and its response are of one family: the request follows the response's protocol.
            if part.side == "request":
                names = [n for n in names if partner.name in get_protocol(n).follows]
            else:
                names = [n for n in names if n in partner.follows]
        return get_protocol(names[0]) if len(names) == 1 else None

    @staticmethod
    def _candidates(values: list[Any], part: Body) -> list[str]:
        frames = _frames(values if part.side == "request" else values[:1], part.side)
        return list(detect(frames, part.endpoint, part.side, _document(values[0], part.side)).candidates)


def _frames(values: list[Any], side: Side) -> list[Any]:
    if side == "response" and values and isinstance(values[0], list):
        return [(None, event, None) for event in values[0]]
    out: list[Any] = []
    for value in values:
        if side == "request" and isinstance(value, list):
            out.extend((None, item, None) for item in value)
        else:
            out.append((None, value, None))
    return out


def _document(value: Any, side: Side) -> bool | None:
    return isinstance(value, dict) if side == "response" else None
