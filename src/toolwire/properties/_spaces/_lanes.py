"""Stream spaces: one lane (an item machine) per call, an optional envelope, and a close.

State: ``(phase, envelope state, slots)``; a slot is ``(lane state,
fragments so far, tool name number)``, the name ``-1`` until the call opens.
Phases run through the envelope's opening events, then the body, where calls
open and step, then the close (one wire event: the envelope's closing event,
and a broadcast event to every open lane, such as Chat Completions'
``finish_reason``).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolwire.machines import ILLEGAL, Table
from toolwire.properties._spaces._space import NAMES, Bounds, Fired, Move, Space, Step
from toolwire.properties._strategies._plan import token

__all__ = ["LaneSpace", "Lanes", "Slot", "arguments", "pieces", "taken"]


def arguments(slot: int) -> str:
    """Call ``slot``'s arguments: JSON with an escape, multi-byte and astral text, distinct per call."""
    return json.dumps({"q": f'Zürich "{slot}" 😀 中', "n": slot}, ensure_ascii=False, separators=(",", ":"))


def pieces(text: str, count: int) -> tuple[str, ...]:
    """``text`` in ``count`` fragments cut at evenly spaced code points (none for ``count`` 0)."""
    if count == 0:
        return ()
    cuts = [len(text) * n // count for n in range(count + 1)]
    return tuple(text[a:b] for a, b in itertools.pairwise(cuts))


@dataclass(frozen=True, slots=True)
class Slot:
    """One call of a rendered path: its id seed, name, arguments and their fragments."""

    number: int
    position: int
    token: str
    name: str
    arguments: str
    pieces: tuple[str, ...]


def taken(seen: dict[int, int], call: Slot) -> int:
    """The number of ``call``'s next fragment, counted in ``seen``."""
    j = seen.get(call.number, 0)
    seen[call.number] = j + 1
    return j


@dataclass(frozen=True, slots=True)
class Lanes:
    """How a stream protocol's machines combine.

    ``events``: the lane events explored; ``fragments``: those that carry an
    argument fragment (at most ``deltas`` per call); ``minimum``: events that
    need at least that many fragments before them; ``carrier``: the envelope
    event every lane event also is; ``closing`` / ``broadcast``: what the
    close fires on the envelope and on every open lane.
    """

    lane: Table
    events: tuple[str, ...]
    fragments: frozenset[str]
    minimum: dict[str, int] = field(default_factory=dict)
    envelope: Table | None = None
    opening: tuple[str, ...] = ()
    closing: str | None = None
    carrier: str | None = None
    broadcast: str | None = None


class LaneSpace(Space):
    """A stream protocol's space; subclasses set ``lanes`` and render moves."""

    lanes: Lanes

    def __init__(self, bounds: Bounds) -> None:
        super().__init__(bounds)
        spec = self.lanes
        self.tables = (spec.envelope, spec.lane) if spec.envelope is not None else (spec.lane,)
        self._lane_no = len(self.tables) - 1
        self._body = len(spec.opening)
        self._closed = self._body + 1
        lane = spec.lane
        # Per lane state, its legal moves: (target, carries a fragment, fragments needed, lane
        # transition, the move's label per slot and tool name), built once so the hot loop allocates
        # only the new state.
        calls, names = range(bounds.calls), range(bounds.names)
        self._from = [
            [
                (
                    lane.rows[e][s],
                    e in spec.fragments,
                    spec.minimum.get(e, 0),
                    (self._lane_no, s, e),
                    [tuple(("lane", k, e, c) for c in names) for k in calls],
                )
                for e in spec.events
                if lane.rows[e][s] != ILLEGAL
            ]
            for s in range(len(lane.states))
        ]

        self._done = lane.accepting
        self._carrier = spec.envelope.rows[spec.carrier] if spec.envelope and spec.carrier else None

    def start(self) -> Hashable:
        env = self.lanes.envelope.initial if self.lanes.envelope is not None else 0
        empty = (self.lanes.lane.initial, 0, -1)
        return (0, env, (empty,) * self.bounds.calls)

    def accepting(self, state: Any) -> bool:
        return bool(state[0] == self._closed)

    def steps(self, state: Any) -> list[Step]:
        phase, env, slots = state
        spec = self.lanes
        if phase < self._body:
            assert spec.envelope is not None
            event = spec.opening[phase]
            target = spec.envelope.rows[event][env]
            if target == ILLEGAL:
                return []
            return [(("env", event), (phase + 1, target, slots), ((0, env, event),))]
        if phase != self._body:
            return []
        out = self._lane_steps(env, slots)
        close = self._close(env, slots)
        if close is not None:
            out.append(close)
        return out

    def _lane_steps(self, env: int, slots: tuple[tuple[int, int, int], ...]) -> list[Step]:
        out: list[Step] = []
        bounds = self.bounds
        carrier = self._carrier
        if carrier is not None:
            env_target = carrier[env]
            if env_target == ILLEGAL:
                return out
            env_fired: tuple[Fired, ...] = ((0, env, self.lanes.carrier or ""),)
        else:
            env_target, env_fired = env, ()
        done = self._done
        busy = not self.interleave and any(name >= 0 and state not in done for state, _, name in slots)
        free = next((k for k, slot in enumerate(slots) if slot[2] < 0), -1)
        limit = bounds.deltas
        body = self._body
        for k, (state, count, name) in enumerate(slots):
            if name < 0 and ((bounds.symmetry and k != free) or (busy and not self.interleave)):
                continue
            for target, fragment, minimum, lane_fired, labels in self._from[state]:
                if count < minimum or (fragment and count >= limit):
                    continue
                moved = (*slots[:k], (target, count + fragment, 0), *slots[k + 1 :])
                then = (body, env_target, moved)
                fired = (*env_fired, lane_fired)
                if name >= 0:
                    out.append((labels[k][0], then, fired))
                else:
                    # The name is in the move, not the state: no later move depends on it.
                    out.extend((label, then, fired) for label in labels[k])
        return out

    def _close(self, env: int, slots: tuple[tuple[int, int, int], ...]) -> Step | None:
        spec = self.lanes
        fired: list[Fired] = []
        if spec.closing is not None and spec.envelope is not None:
            target = spec.envelope.rows[spec.closing][env]
            if target == ILLEGAL:
                return None
            fired.append((0, env, spec.closing))
            env = target
        closed = []
        for state, count, name in slots:
            if name >= 0 and state not in self._done:
                if spec.broadcast is None or spec.lane.rows[spec.broadcast][state] == ILLEGAL:
                    return None
                fired.append((self._lane_no, state, spec.broadcast))
                state = spec.lane.rows[spec.broadcast][state]
            closed.append((state, count, name))
        return ("close",), (self._closed, env, tuple(closed)), tuple(fired)

    def calls(self, path: Sequence[Move]) -> dict[int, Slot]:
        """The calls of ``path`` by slot, in the order they open."""
        names: dict[int, int] = {}
        counts: dict[int, int] = {}
        fragments = self.lanes.fragments
        for move in path:
            if move[0] == "lane":
                _, number, event, name = move
                names.setdefault(number, name)
                counts[number] = counts.get(number, 0) + (event in fragments)
        out = {}
        for position, number in enumerate(names):
            text = arguments(number)
            out[number] = Slot(
                number, position, token(number), NAMES[names[number]], text, pieces(text, counts[number])
            )
        return out
