"""What a generated trace carries, independent of any wire: calls, argument pieces, fillers.

A :class:`Plan` is drawn once and rendered per protocol, so every protocol's
strategy shrinks the same way: fewer turns, fewer calls, one piece per
argument string, the first tool name, empty arguments, no filler.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from dataclasses import dataclass
from typing import Any, Final, Protocol

from hypothesis import strategies as st

__all__ = ["Call", "Plan", "Tokened", "Turn", "plans", "timeline", "token"]

#: Tool names; few, so that one tool is often called several times at once.
NAMES: Final = ("get_weather", "search", "read_file")
#: Argument text with JSON escapes, multi-byte UTF-8 and astral characters (surrogate pairs).
_TEXT: Final = st.text(alphabet=st.sampled_from('aZ 0"\\/\n\té中😀'), max_size=8)
_VALUES: Final = st.one_of(_TEXT, st.integers(-3, 1000), st.booleans(), st.none())
_KEYS: Final = st.sampled_from(("q", "location", "path", "n"))
_ALNUM: Final = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


class Tokened(Protocol):
    """Anything that carries a call's id seed (a generated :class:`Call`, an explored slot)."""

    @property
    def token(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Call:
    """One tool call: ``token`` is the unique seed of its wire id (each protocol shapes it)."""

    token: str
    name: str
    arguments: str
    pieces: tuple[str, ...]
    result: str

    @property
    def input(self) -> Any:
        """The arguments as a JSON value (for wires that carry an object)."""
        return json.loads(self.arguments)


@dataclass(frozen=True, slots=True)
class Turn:
    """One assistant turn: text before the calls, the calls, and the order their fragments arrive.

    ``schedule`` lists call numbers, one entry per fragment: the order in
    which argument pieces of concurrent calls interleave.
    ``fillers`` are positions in that schedule before which a filler event
    (text, reasoning, ping) arrives.
    """

    text: str
    calls: tuple[Call, ...]
    schedule: tuple[int, ...]
    fillers: tuple[int, ...]
    user: str


@dataclass(frozen=True, slots=True)
class Plan:
    """The turns of a trace; streams render the first turn only."""

    turns: tuple[Turn, ...]


def token(number: int, size: int = 24) -> str:
    """A realistic-looking id body for call ``number``: distinct numbers give distinct tokens."""
    digest = int.from_bytes(hashlib.blake2b(str(number).encode(), digest_size=24).digest(), "big")
    chars = []
    for _ in range(size):
        digest, digit = divmod(digest, len(_ALNUM))
        chars.append(_ALNUM[digit])
    return "".join(chars)


def split(draw: st.DrawFn, text: str, fragments: bool) -> tuple[str, ...]:
    """Split ``text`` at any code point: inside ``\\uXXXX`` escapes, between surrogate-pair halves."""
    if not fragments or len(text) < 2:
        return (text,)
    cuts = draw(st.lists(st.integers(1, len(text) - 1), unique=True, max_size=6))
    bounds = [0, *sorted(cuts), len(text)]
    return tuple(text[a:b] for a, b in itertools.pairwise(bounds))


@st.composite
def _call(draw: st.DrawFn, token: str, fragments: bool) -> Call:
    name = draw(st.sampled_from(NAMES))
    value = draw(st.dictionaries(_KEYS, _VALUES, max_size=3))
    arguments = json.dumps(value, ensure_ascii=draw(st.booleans()), separators=(",", ":"))
    result = draw(_TEXT)
    return Call(token, name, arguments, split(draw, arguments, fragments), result)


def _schedule(draw: st.DrawFn, calls: tuple[Call, ...], interleave: bool) -> tuple[int, ...]:
    """The order of every fragment of every call (call numbers); calls start in order.

    Shrinks towards one call after the other.
    """
    if not interleave:
        return tuple(k for k, call in enumerate(calls) for _ in call.pieces)
    remaining = [len(call.pieces) for call in calls]
    started = 0
    order: list[int] = []
    while started < len(calls) or any(remaining):
        ready = [k for k in range(started) if remaining[k]]
        if started < len(calls):
            ready.append(started)
        k = ready[draw(st.integers(0, len(ready) - 1))]
        started = max(started, k + 1)
        remaining[k] -= 1
        order.append(k)
    return tuple(order)


def timeline(turn: Turn) -> list[tuple[bool, int, int, bool]]:
    """Each fragment of ``turn`` in arrival order: (a filler comes first, call, piece, it is the last)."""
    seen = [0] * len(turn.calls)
    steps = []
    for position, k in enumerate(turn.schedule):
        j = seen[k]
        seen[k] += 1
        steps.append((position in turn.fillers, k, j, j == len(turn.calls[k].pieces) - 1))
    return steps


@st.composite
def plans(
    draw: st.DrawFn,
    *,
    turns: int = 1,
    max_calls: int = 4,
    fragments: bool = True,
    interleave: bool = False,
    token_size: int = 24,
) -> Plan:
    """Draw a :class:`Plan` of up to ``turns`` turns (at least one) of up to ``max_calls`` calls each."""
    count = draw(st.integers(1, turns))
    sizes = [draw(st.integers(0 if count == 1 else 1, max_calls)) for _ in range(count)]
    numbers = draw(st.lists(st.integers(0, 10**6), min_size=sum(sizes), max_size=sum(sizes), unique=True))
    drawn = []
    for number, size in enumerate(sizes):
        start = sum(sizes[:number])
        mine = [token(n, token_size) for n in numbers[start : start + size]]
        calls = tuple(draw(_call(body, fragments)) for body in mine)
        schedule = _schedule(draw, calls, interleave)
        fillers = tuple(draw(st.lists(st.integers(0, len(schedule)), max_size=2, unique=True)))
        text = draw(st.sampled_from(("", "Let me check.")))
        user = draw(st.sampled_from(("Hello", "And now?")))
        drawn.append(Turn(text, calls, schedule, tuple(sorted(fillers)), user))
    return Plan(tuple(drawn))
