"""Conversation spaces: a request's message list, as the protocol's conversation machine reads it.

A protocol's space (in its family's ``space`` module) names its machine's
events and spells the messages.

State: ``(machine state, user turns, last message kind, pending call
slots, used slots)``.  A turn is a user message, then either an assistant
text, or an assistant message of 1..``calls`` calls and their results.
Calls take slots from a pool of ``calls * turns``; with ``symmetry`` on, the
lowest free slots in order.  Tool names are in the moves, not the state.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterator, Sequence
from typing import Any

from toolwire.machines import ILLEGAL, Table
from toolwire.properties._spaces._lanes import arguments
from toolwire.properties._spaces._space import NAMES, Bounds, Move, Space, Step, Wire
from toolwire.properties._strategies._plan import token

__all__ = ["ChatTurns", "ConversationSpace", "TurnCall"]

_USERS = ("Hello", "And now?", "Thanks; once more?")


class TurnCall:
    """One call of a rendered conversation."""

    __slots__ = ("arguments", "name", "number", "token")

    def __init__(self, number: int, name: int) -> None:
        self.number = number
        self.token = token(number)
        self.name = NAMES[name]
        self.arguments = arguments(number)

    @property
    def result(self) -> str:
        return f"{self.name} result {self.number}"


class ConversationSpace(Space):
    """A conversation protocol's space; subclasses name the machine's events and spell messages.

    ``user``, ``text`` and ``calls`` are the machine events of a user
    message, an assistant text and an assistant message with calls.
    Results are one message per call (:meth:`answers`, ``answer`` /
    ``last_answer``) or one message for all (``results``).
    """

    streamed = False
    table: Table
    user: str
    text: str
    call: str

    def __init__(self, bounds: Bounds) -> None:
        super().__init__(bounds)
        self.tables = (self.table,)
        self._pool = bounds.calls * bounds.turns

    def start(self) -> Hashable:
        return (self.table.initial, 0, "", (), 0)

    def accepting(self, state: Any) -> bool:
        table_state, turns, _, pending, _ = state
        return turns > 0 and not pending and table_state in self.table.accepting

    def steps(self, state: Any) -> Iterator[Step]:
        table_state, turns, last, pending, used = state
        rows = self.table.rows
        if last != "user" and not pending and turns < self.bounds.turns:
            yield from self._fire(
                state, ("user",), self.user, (table_state, turns + 1, "user", pending, used)
            )
        if last == "user":
            yield from self._fire(state, ("text",), self.text, (table_state, turns, "text", pending, used))
            if rows[self.call][table_state] != ILLEGAL:
                yield from self._calls(state)
        if pending:
            yield from self.results(state)

    def _fire(self, state: Any, move: Move, event: str, then: tuple[Any, ...]) -> Iterator[Step]:
        target = self.table.rows[event][state[0]]
        if target != ILLEGAL:
            yield move, (target, *then[1:]), ((0, state[0], event),)

    def _calls(self, state: Any) -> Iterator[Step]:
        table_state, turns, _, _, used = state
        free = [n for n in range(self._pool) if not used >> n & 1]
        target = self.table.rows[self.call][table_state]
        fired = ((0, table_state, self.call),)
        for count in range(1, min(self.bounds.calls, len(free)) + 1):
            picks = [tuple(free[:count])] if self.bounds.symmetry else itertools.permutations(free, count)
            for slots in picks:
                mask = used
                for n in slots:
                    mask |= 1 << n
                then = (target, turns, "calls", slots, mask)
                for names in itertools.product(range(self.bounds.names), repeat=count):
                    yield ("calls", slots, names), then, fired

    def results(self, state: Any) -> Iterator[Step]:
        """The moves that answer pending calls."""
        raise NotImplementedError

    def each_result(self, state: Any, answer: str, last: str, *, in_order: bool = False) -> Iterator[Step]:
        """:meth:`results` of a protocol whose results are a message each: any pending call
        answered (``in_order``: the first), event ``answer``, or ``last`` for the last one."""
        table_state, turns, _, pending, used = state
        event = answer if len(pending) > 1 else last
        target = self.table.rows[event][table_state]
        if target == ILLEGAL:
            return
        for n in pending[:1] if in_order else pending:
            rest = tuple(p for p in pending if p != n)
            yield ("result", n), (target, turns, "result", rest, used), ((0, table_state, event),)

    def all_results(self, state: Any, event: str) -> Iterator[Step]:
        """:meth:`results` of a protocol whose results share one message: every pending call
        answered there, in any order, event ``event``."""
        table_state, turns, _, pending, used = state
        target = self.table.rows[event][table_state]
        if target == ILLEGAL:
            return
        for order in itertools.permutations(pending):
            yield ("result", *order), (target, turns, "result", (), used), ((0, table_state, event),)

    def render(self, path: Sequence[Move]) -> Wire:
        calls: dict[int, TurnCall] = {}
        out: Wire = []
        turn = 0
        for move in path:
            kind = move[0]
            if kind == "user":
                out.append(self.user_message(_USERS[turn % len(_USERS)]))
                turn += 1
            elif kind == "text":
                out.append(self.text_message("Done."))
            elif kind == "calls":
                made = [TurnCall(n, name) for n, name in zip(move[1], move[2], strict=True)]
                calls.update((c.number, c) for c in made)
                out.extend(self.call_messages(made))
            else:
                out.append(self.result_message([calls[n] for n in move[1:]]))
        return out

    def user_message(self, text: str) -> dict[str, Any]:
        raise NotImplementedError

    def text_message(self, text: str) -> dict[str, Any]:
        raise NotImplementedError

    def call_message(self, calls: list[TurnCall]) -> dict[str, Any]:
        raise NotImplementedError

    def call_messages(self, calls: list[TurnCall]) -> list[dict[str, Any]]:
        """The messages a turn's calls take: one (:meth:`call_message`), or an item each."""
        return [self.call_message(calls)]

    def result_message(self, calls: list[TurnCall]) -> dict[str, Any]:
        raise NotImplementedError


class ChatTurns(ConversationSpace):
    """A history whose turns step as Chat's do: a user message and an assistant text are each
    ``other``, an assistant turn with calls ``calls``, and each result ``answer`` (the turn's last
    ``last_answer``), in any order (the Responses input and OpenTelemetry's input messages)."""

    user = "other"
    text = "other"
    call = "calls"

    def results(self, state: Any) -> Iterator[Step]:
        return self.each_result(state, "answer", "last_answer")
