"""Stream spaces: one lane (an item machine) per call, an optional envelope, and a close.

State: the phase, the envelope state and one slot per call (its lane state,
fragments so far, and whether the call has opened), packed into one integer
(see :class:`LaneSpace`).
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
    """A stream protocol's space; subclasses set ``lanes`` and render moves.

    A state is one integer, in bit fields from the lowest: the phase, the
    envelope state, then one cell per slot, ``(lane state * (deltas + 1) +
    fragments) * 2 + opened`` (a call's name is in its moves, not the state).
    Every legal move out of a slot cell is tabled once, per envelope state
    and slot, as the number it adds to the state, so a move costs an addition.
    """

    lanes: Lanes

    def __init__(self, bounds: Bounds) -> None:
        super().__init__(bounds)
        spec = self.lanes
        lane, envelope = spec.lane, spec.envelope
        self.tables = (envelope, lane) if envelope is not None else (lane,)
        self._lane_no = len(self.tables) - 1
        self._body = len(spec.opening)
        self._closed = self._body + 1
        self._phase_bits = self._closed.bit_length()
        env_bits = (len(envelope.states) - 1).bit_length() if envelope is not None else 0
        self._env_mask = (1 << env_bits) - 1
        width = bounds.deltas + 1
        codes = len(lane.states) * width * 2
        self._slot_bits = max(1, (codes - 1).bit_length())
        self._slot_mask = (1 << self._slot_bits) - 1
        shifts = [self._phase_bits + env_bits + k * self._slot_bits for k in range(bounds.calls)]
        self._shifts = shifts

        def code(state: int, count: int, opened: int) -> int:
            return (state * width + count) * 2 + opened

        # Per slot cell: its lane moves (cell after, lane transition, event); whether it holds an
        # open call still running; what the close makes of it (None: the close is illegal).
        moves: list[list[tuple[int, Fired, str]]] = []
        self._running: list[bool] = []
        self._closing: list[tuple[int, Fired | None] | None] = []
        for cell in range(codes):
            opened, (s, count) = cell & 1, divmod(cell >> 1, width)
            moves.append(
                [
                    (code(lane.rows[e][s], count + (e in spec.fragments), 1), (self._lane_no, s, e), e)
                    for e in spec.events
                    if lane.rows[e][s] != ILLEGAL
                    and count >= spec.minimum.get(e, 0)
                    and not (e in spec.fragments and count >= bounds.deltas)
                ]
            )
            self._running.append(bool(opened) and s not in lane.accepting)
            closed = self._close_lane(s, bool(opened))
            self._closing.append(None if closed is None else (code(closed[0], count, opened), closed[1]))

        # Per envelope state (None where the carrier is illegal), per slot, per cell: each move as
        # (what it adds to the state, the transitions it fires, its label per tool name).
        names = range(bounds.names)
        self._table: list[list[list[list[tuple[int, tuple[Fired, ...], tuple[Move, ...]]]]] | None] = []
        carrier = envelope.rows[spec.carrier] if envelope is not None and spec.carrier else None
        for env in range(len(envelope.states) if envelope is not None else 1):
            if carrier is not None:
                if carrier[env] == ILLEGAL:
                    self._table.append(None)
                    continue
                env_delta = (carrier[env] - env) << self._phase_bits
                env_fired: tuple[Fired, ...] = ((0, env, spec.carrier or ""),)
            else:
                env_delta, env_fired = 0, ()
            fired = {f: (*env_fired, f) for field_moves in moves for _, f, _ in field_moves}
            self._table.append(
                [
                    [
                        [
                            (
                                env_delta + ((after - cell) << shift),
                                fired[f],
                                tuple(("lane", k, e, c) for c in names),
                            )
                            for after, f, e in moves[cell]
                        ]
                        for cell in range(codes)
                    ]
                    for k, shift in enumerate(shifts)
                ]
            )
        self._initial = code(lane.initial, 0, 0)

    def start(self) -> Hashable:
        env = self.lanes.envelope.initial if self.lanes.envelope is not None else 0
        return (env << self._phase_bits) + sum(self._initial << shift for shift in self._shifts)

    def accepting(self, state: Any) -> bool:
        return bool(state & ((1 << self._phase_bits) - 1) == self._closed)

    def steps(self, state: Any) -> list[Step]:
        phase = state & ((1 << self._phase_bits) - 1)
        env = (state >> self._phase_bits) & self._env_mask
        spec = self.lanes
        if phase < self._body:
            assert spec.envelope is not None
            event = spec.opening[phase]
            target = spec.envelope.rows[event][env]
            if target == ILLEGAL:
                return []
            then = state + 1 + ((target - env) << self._phase_bits)
            return [(("env", event), then, ((0, env, event),))]
        if phase != self._body:
            return []
        out = self._lane_steps(state, env)
        close = self._close(state, env)
        if close is not None:
            out.append(close)
        return out

    def _fields(self, state: int) -> list[int]:
        bits, mask = self._slot_bits, self._slot_mask
        rest = state >> (self._shifts[0] if self._shifts else 0)
        out = []
        for _ in self._shifts:
            out.append(rest & mask)
            rest >>= bits
        return out

    def _lane_steps(self, state: int, env: int) -> list[Step]:
        out: list[Step] = []
        table = self._table[env]
        if table is None:
            return out
        fields = self._fields(state)
        symmetry = self.bounds.symmetry
        busy = not self.interleave and any(map(self._running.__getitem__, fields))
        first = True
        append, extend = out.append, out.extend
        for cell, slot in zip(fields, table, strict=True):
            if cell & 1:
                for delta, fired, labels in slot[cell]:
                    append((labels[0], state + delta, fired))
                continue
            if symmetry:
                if not first:
                    continue
                first = False
            if busy:
                continue
            for delta, fired, labels in slot[cell]:
                then = state + delta
                # The name is in the move, not the state: no later move depends on it.
                extend([(label, then, fired) for label in labels])
        return out

    def _close_event(self, opened: bool) -> str | None:
        """The envelope event the close fires (``opened``: some call opened)."""
        return self.lanes.closing

    def _close_lane(self, state: int, opened: bool) -> tuple[int, Fired | None] | None:
        """What the close makes of a lane in ``state``: its state after, the transition; None: illegal."""
        spec = self.lanes
        if not opened or state in spec.lane.accepting:
            return state, None
        if spec.broadcast is None or spec.lane.rows[spec.broadcast][state] == ILLEGAL:
            return None
        return spec.lane.rows[spec.broadcast][state], (self._lane_no, state, spec.broadcast)

    def _close(self, state: int, env: int) -> Step | None:
        fields = self._fields(state)
        event = self._close_event(any(cell & 1 for cell in fields))
        envelope = self.lanes.envelope
        fired: list[Fired] = []
        then = state + self._closed - self._body
        if event is not None and envelope is not None:
            target = envelope.rows[event][env]
            if target == ILLEGAL:
                return None
            fired.append((0, env, event))
            then += (target - env) << self._phase_bits
        closing = self._closing
        for cell, shift in zip(fields, self._shifts, strict=True):
            closed = closing[cell]
            if closed is None:
                return None
            after, f = closed
            if f is not None:
                fired.append(f)
                then += (after - cell) << shift
        return ("close",), then, tuple(fired)

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
