"""Streams whose calls arrive as ``tool_calls`` fragments keyed by (choice, index), finished by a
choice's ``finish_reason``: what every such monitor does when a choice finishes.

The Chat Completions shape, which more than one family streams; the rules it breaks are the
subclass's (``finish_rule``, ``arguments_rule``), and so is the fragment machine (``fragments``).
"""

from __future__ import annotations

from typing import Any, Protocol

import orjson

from toolwire.machines import Table
from toolwire.properties._monitor import Monitor
from toolwire.properties._turn import Call, Turn

__all__ = ["FragmentCall", "FragmentMonitor"]


class FragmentCall(Protocol):
    """A call being streamed: where it sits, the event and line that opened it, its machine state,
    its name and its arguments so far."""

    choice: Any
    position: int
    index: int
    line: int | None
    state: int
    name: str | None

    @property
    def id(self) -> Any: ...

    def arguments(self) -> str: ...


class FragmentMonitor(Monitor):
    """The finish of a choice's calls, shared by the fragment-stream monitors.

    Subclasses set ``fragments`` (the compiled call machine, with a ``finish`` event),
    ``finish_rule`` (a choice with calls finishes with ``tools_reason``) and ``arguments_rule``
    (a finished call's arguments are JSON), and keep ``_live``, ``_finished``, ``_all`` and
    ``_done``.
    """

    fragments: Table
    #: The finish_reason of a choice that called tools.
    tools_reason: str
    finish_rule: str
    arguments_rule: str
    #: The calls not finished yet, by (choice, index).
    _live: dict[tuple[Any, int], Any]
    #: The event at which each choice finished.
    _finished: dict[Any, int]
    #: Every call, in the order they opened.
    _all: list[Any]
    #: Whether the stream ended with ``data: [DONE]``.
    _done: bool

    def finish(self, index: int, line: int | None) -> None:
        """A call still open at the end breaks ``finish_rule`` (a warning after ``[DONE]``)."""
        for call in list(self._live.values()):
            self.report(
                self.finish_rule,
                self._unfinished(call),
                index=index,
                line=line,
                ids=(call.id,),
                severity="warning" if self._done else None,
            )
            self._check_arguments(call, index, line)
        self._live.clear()

    def _unfinished(self, call: FragmentCall) -> str:
        return f"the stream ends before choice {call.choice} finished call {call.id} (index {call.position})"

    def calls(self) -> list[Turn]:
        """The streamed calls, one turn per choice, in the order they opened."""
        turns: dict[Any, Turn] = {}
        for call in self._all:
            turn = turns.setdefault(call.choice, Turn(call.index, call.line, f"choice {call.choice}"))
            turn.calls.append(Call(call.id, call.name, call.arguments()))
        return list(turns.values())

    def _finish(self, choice: Any, reason: Any, index: int, line: int | None) -> None:
        calls = [call for (number, _), call in self._live.items() if number == choice]
        if not calls:
            return
        self._finished[choice] = index
        if reason != self.tools_reason:
            self.report(
                self.finish_rule,
                f"choice {choice} has tool calls but finish_reason {reason!r}",
                index=index,
                line=line,
                ids=[call.id for call in calls],
                severity="warning",
            )
        finish = self.fragments.rows["finish"]
        for call in calls:
            call.state = finish[call.state]
            del self._live[(call.choice, call.position)]
            self._check_arguments(call, index, line)

    def _check_arguments(self, call: FragmentCall, index: int, line: int | None) -> None:
        text = call.arguments()
        try:
            orjson.loads(text)
        except orjson.JSONDecodeError as exc:
            self.report(
                self.arguments_rule,
                f"the arguments of call {call.id} (index {call.position}) are not JSON ({exc}): "
                f"{text[:60]!r}",
                index=index,
                line=line,
                ids=(call.id,),
            )
