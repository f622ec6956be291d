"""What a generated trace carries, independent of any wire: calls, argument pieces, fillers.

A :class:`Plan` is drawn once and rendered per protocol, so every protocol's
strategy shrinks the same way: fewer turns, fewer calls, one piece per
argument string, the first tool name, empty arguments, no filler.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
from dataclasses import dataclass
from typing import Any, Final, Protocol

from hypothesis import strategies as st

__all__ = ["Plan", "PlannedCall", "PlannedTurn", "Tokened", "plans", "timeline", "token"]

#: Tool names; few, so that one tool is often called several times at once.
NAMES: Final = ("get_weather", "search", "read_file")
#: Argument text with JSON escapes, multi-byte UTF-8 and astral characters (surrogate pairs).
_TEXT: Final = st.text(alphabet=st.sampled_from('aZ 0"\\/\n\té中😀'), max_size=8)
_VALUES: Final = st.one_of(_TEXT, st.integers(-3, 1000), st.booleans(), st.none())
_KEYS: Final = st.sampled_from(("q", "location", "path", "n"))
#: An argument object's entries: a later entry with the same key wins, as in JSON.
_ENTRIES: Final = st.lists(st.tuples(_KEYS, _VALUES), max_size=3)
_NAME: Final = st.sampled_from(NAMES)
_ASCII: Final = st.booleans()
_TOKEN_BASE: Final = st.integers(0, 10**6)
_TEXTS: Final = st.sampled_from(("", "Let me check."))
_USERS: Final = st.sampled_from(("Hello", "And now?"))
_ALNUM: Final = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


class Tokened(Protocol):
    """Anything that carries a call's id seed (a generated :class:`PlannedCall`, an explored slot)."""

    @property
    def token(self) -> str: ...


@dataclass(frozen=True, slots=True)
class PlannedCall:
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
class PlannedTurn:
    """One assistant turn: text before the calls, the calls, and the order their fragments arrive.

    ``schedule`` lists call numbers, one entry per fragment: the order in
    which argument pieces of concurrent calls interleave.
    ``fillers`` are positions in that schedule before which a filler event
    (text, reasoning, ping) arrives.
    """

    text: str
    calls: tuple[PlannedCall, ...]
    schedule: tuple[int, ...]
    fillers: tuple[int, ...]
    user: str


@dataclass(frozen=True, slots=True)
class Plan:
    """The turns of a trace; streams render the first turn only."""

    turns: tuple[PlannedTurn, ...]


def token(number: int, size: int = 24) -> str:
    """A realistic-looking id body for call ``number``: distinct numbers give distinct tokens."""
    digest = int.from_bytes(hashlib.blake2b(str(number).encode(), digest_size=24).digest(), "big")
    chars = []
    for _ in range(size):
        digest, digit = divmod(digest, len(_ALNUM))
        chars.append(_ALNUM[digit])
    return "".join(chars)


@functools.cache
def upto(high: int) -> st.SearchStrategy[int]:
    """``st.integers(0, high)``, built once per bound: generators draw it in their inner loops."""
    return st.integers(0, high)


@functools.cache
def _cuts(size: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.integers(1, size - 1), max_size=6)


def split(draw: st.DrawFn, text: str, fragments: bool) -> tuple[str, ...]:
    """Split ``text`` at any code point: inside ``\\uXXXX`` escapes, between surrogate-pair halves."""
    if not fragments or len(text) < 2:
        return (text,)
    bounds = [0, *sorted(set(draw(_cuts(len(text))))), len(text)]
    return tuple(text[a:b] for a, b in itertools.pairwise(bounds))


@st.composite
def _call_body(draw: st.DrawFn, fragments: bool) -> tuple[str, str, tuple[str, ...], str]:
    name = draw(_NAME)
    value = dict(draw(_ENTRIES))
    arguments = json.dumps(value, ensure_ascii=draw(_ASCII), separators=(",", ":"))
    result = draw(_TEXT)
    return name, arguments, split(draw, arguments, fragments), result


#: A call's name, arguments, their pieces and its result; one strategy each way (with pieces or whole).
_CALL_BODY: Final = {fragments: _call_body(fragments) for fragments in (False, True)}


def _schedule(draw: st.DrawFn, calls: tuple[PlannedCall, ...], interleave: bool) -> tuple[int, ...]:
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
        k = ready[draw(upto(len(ready) - 1))]
        started = max(started, k + 1)
        remaining[k] -= 1
        order.append(k)
    return tuple(order)


def timeline(turn: PlannedTurn) -> list[tuple[bool, int, int, bool]]:
    """Each fragment of ``turn`` in arrival order: (a filler comes first, call, piece, it is the last)."""
    seen = [0] * len(turn.calls)
    steps = []
    for position, k in enumerate(turn.schedule):
        j = seen[k]
        seen[k] += 1
        steps.append((position in turn.fillers, k, j, j == len(turn.calls[k].pieces) - 1))
    return steps


@functools.cache
def _fillers(size: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.integers(0, size), max_size=2)


@st.composite
def plans(
    draw: st.DrawFn,
    *,
    turns: int = 1,
    max_calls: int = 4,
    fragments: bool = True,
    interleave: bool = False,
    token_size: int = 24,
    plain: bool = False,
) -> Plan:
    """Draw a :class:`Plan` of up to ``turns`` turns (at least one) of up to ``max_calls`` calls each.

    ``plain`` plans have no text before the calls and no fillers between them.
    """
    count = 1 + draw(upto(turns - 1))
    sizes = [draw(upto(max_calls)) if count == 1 else 1 + draw(upto(max_calls - 1)) for _ in range(count)]
    # Consecutive numbers from one drawn base: distinct tokens in one draw (tokens are hashes).
    base = draw(_TOKEN_BASE)
    drawn = []
    for number, size in enumerate(sizes):
        start = base + sum(sizes[:number])
        bodies = _CALL_BODY[fragments]
        calls = tuple(PlannedCall(token(n, token_size), *draw(bodies)) for n in range(start, start + size))
        schedule = _schedule(draw, calls, interleave)
        fillers = () if plain else tuple(sorted(set(draw(_fillers(len(schedule))))))
        text = "" if plain else draw(_TEXTS)
        user = draw(_USERS)
        drawn.append(PlannedTurn(text, calls, schedule, fillers, user))
    return Plan(tuple(drawn))
