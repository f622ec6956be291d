"""Hypothesis strategies that generate valid provider traffic, per protocol and quirk profile.

>>> from hypothesis import given
>>> from toolwire.properties import traces
>>> @given(traces("openai-chat-stream", quirks="two-per-chunk"))
... def test_converter_keeps_ids(chunks): ...
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from hypothesis import strategies as st

from toolwire.errors import UsageError
from toolwire.properties._strategies._conversations import CONVERSATIONS
from toolwire.properties._strategies._plan import Plan, plans
from toolwire.properties._strategies._quirks import QUIRKS, Quirk
from toolwire.properties._strategies._streams import STREAMS, Renderer

__all__ = ["GENERATED", "QUIRKS", "Quirk", "quirks_for", "traces"]


@dataclass(frozen=True, slots=True)
class _Shape:
    render: Renderer
    turns: int = 1
    fragments: bool = True
    interleave: bool = False


_SHAPES: Final = {
    "openai-chat-stream": _Shape(STREAMS["openai-chat-stream"], interleave=True),
    "openai-responses-stream": _Shape(STREAMS["openai-responses-stream"]),
    "open-responses-stream": _Shape(STREAMS["open-responses-stream"]),
    "anthropic-stream": _Shape(STREAMS["anthropic-stream"]),
    "bedrock-converse-stream": _Shape(STREAMS["bedrock-converse-stream"]),
    "gemini-stream": _Shape(STREAMS["gemini-stream"], fragments=False),
    "aisdk-stream": _Shape(STREAMS["aisdk-stream"], interleave=True),
    "aisdk-ui-stream": _Shape(STREAMS["aisdk-ui-stream"], interleave=True),
    "mcp": _Shape(STREAMS["mcp"], fragments=False),
    **{name: _Shape(render, turns=3, fragments=False) for name, render in CONVERSATIONS.items()},
}
#: The protocols :func:`traces` generates, in a stable order.
GENERATED: Final = tuple(_SHAPES)


def quirks_for(protocol: str) -> list[str]:
    """The quirk profiles that apply to ``protocol``."""
    return [name for name, quirk in QUIRKS.items() if protocol in quirk.protocols]


def _quirk_set(protocol: str, quirks: str | Iterable[str] | None) -> frozenset[str]:
    if quirks is None:
        return frozenset()
    names = [q for q in quirks.split(",") if q] if isinstance(quirks, str) else list(quirks)
    for name in names:
        if name not in QUIRKS or protocol not in QUIRKS[name].protocols:
            choices = ", ".join(quirks_for(protocol)) or "none"
            raise UsageError(f"{protocol} has no quirk profile {name!r}; its quirk profiles: {choices}")
    if {"index-0", "index-reuse"} <= set(names) or {"repeated-ids", "null-ids"} <= set(names):
        raise UsageError(f"quirk profiles {', '.join(names)} contradict each other; pick one of each pair")
    return frozenset(names)


def traces(
    protocol: str, quirks: str | Iterable[str] | None = None, *, max_calls: int = 4
) -> st.SearchStrategy[list[dict[str, Any]]]:
    """A strategy of valid traces of ``protocol``: stream events, or a conversation's messages.

    Traces have up to ``max_calls`` calls per turn, several of the same tool,
    with arguments split at every code point (inside ``\\uXXXX`` escapes and
    between the halves of a surrogate pair), interleaved where the protocol
    allows, with text, reasoning and ping events between them.  ``quirks``
    (comma-separated or a list) adds provider quirk profiles; see :data:`QUIRKS`.
    Every trace passes ``toolwire.check`` for ``protocol``, except for the
    rules its quirks deviate from on purpose (:attr:`Quirk.deviates`).
    """
    try:
        shape = _SHAPES[protocol]
    except KeyError:
        raise UsageError(
            f"no strategy for protocol {protocol!r}; choose one of: {', '.join(GENERATED)}"
        ) from None
    chosen = _quirk_set(protocol, quirks)
    interleave = shape.interleave and not chosen & {"index-0", "index-reuse"}
    drawn = plans(turns=shape.turns, max_calls=max_calls, fragments=shape.fragments, interleave=interleave)

    @st.composite
    def rendered(draw: st.DrawFn) -> list[dict[str, Any]]:
        plan: Plan = draw(drawn)
        return shape.render(draw, plan, chosen)

    return rendered()
