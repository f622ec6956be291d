"""Monitors for OpenTelemetry GenAI messages: the model's input (GA-1 to GA-6) and its output.

The input messages are a conversation read with :class:`GenAIConversation`: GenAI's ``tool``
messages answer an assistant's calls one response part at a time.  A message that holds response
parts steps once per part.
"""

from __future__ import annotations

from typing import Any, Final

from toolwire.machines import GenAIConversation, compile_machine
from toolwire.models import _otel as wire
from toolwire.properties._monitor import Monitor, Violations
from toolwire.properties._text import clip
from toolwire.properties._turn import Call, Turn
from toolwire.protocols.otel.calls import recognises
from toolwire.protocols.otel.rules import INPUT, OUTPUT, RULES

__all__ = ["InputMonitor", "OutputMonitor"]

_BOOK: Final = {rule.id: rule for rule in RULES}
_CONVERSATION: Final = compile_machine(GenAIConversation)
_AWAITING: Final = _CONVERSATION.state("awaiting")
_VIOLATIONS: Final = Violations.declare(
    _CONVERSATION,
    {
        ("idle", "stray"): "GA-3",
        ("*", "stray"): "GA-4",
        ("*", "repeat"): "GA-6",
        ("awaiting", "other"): ("GA-5", "idle"),
        ("awaiting", "calls"): ("GA-5", "awaiting"),
        ("*", "*"): "GA-3",
    },
)


def _parts(value: Any, kind: str) -> list[tuple[int, dict[str, Any]]]:
    parts = value.get("parts") if isinstance(value, dict) else None
    return [
        (k, part)
        for k, part in enumerate(parts if isinstance(parts, list) else [])
        if isinstance(part, dict) and part.get("type") == kind
    ]


def _listed(pending: dict[str, int]) -> str:
    return ", ".join(repr(key) for key in pending if not key.startswith("\0")) or "none pending"


class _Parts(Monitor):
    """What both sides share: a message's tool_call parts, checked (GA-1, GA-6) and kept as a turn."""

    def __init__(self) -> None:
        super().__init__(_BOOK)
        self._turns: list[Turn] = []

    def _calls(self, value: Any, index: int, line: int | None, path: str) -> dict[str, int]:
        """The message's calls, by key (the id; a null id gets a key of its own)."""
        opened: dict[str, int] = {}
        turn = Turn(index, line, path)
        for k, part in _parts(value, wire.TOOL_CALL):
            where = f"{path}.parts[{k}]"
            call_id, name = part.get("id"), part.get("name")
            if not isinstance(name, str):
                self.report(
                    "GA-1", f"{where} has no name", index=index, line=line, ids=(call_id,), path=where
                )
            if call_id is not None and (not isinstance(call_id, str) or not call_id):
                self.report(
                    "GA-1", f"{where}.id is {clip(call_id)}", index=index, line=line, path=f"{where}.id"
                )
            key = call_id if isinstance(call_id, str) and call_id else f"\0{k}"
            if key in opened:
                self.report(
                    "GA-6",
                    f"{where} repeats id {call_id} of parts[{opened[key]}]",
                    index=index,
                    line=line,
                    ids=(call_id,),
                    path=f"{where}.id",
                )
                continue
            opened[key] = k
            turn.calls.append(Call(call_id, name, part.get("arguments")))
        if turn.calls:
            self._turns.append(turn)
        return opened

    def calls(self) -> list[Turn]:
        return self._turns


class InputMonitor(_Parts):
    """Checks ``gen_ai.input.messages``: each call answered, by its own id, before the conversation goes on.

    >>> m = InputMonitor()
    >>> m.feed({"role": "assistant", "parts": [
    ...     {"type": "tool_call", "id": "call_1", "name": "get_weather", "arguments": {}}]}, 0, None, None)
    >>> m.feed({"role": "tool", "parts": [
    ...     {"type": "tool_call_response", "id": " call_1", "result": "rainy"}]}, 1, None, None)
    >>> sorted(f.rule for f in m.findings)
    ['GA-2', 'GA-4']
    """

    protocol = INPUT

    def __init__(self) -> None:
        super().__init__()
        self._state = _CONVERSATION.initial
        self._pending: dict[str, int] = {}
        self._answered: set[str] = set()
        self._opened_at: int | None = None

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        path = f"messages[{index}]"
        if not recognises(value):
            self.notice(index, line, f"{path} is not a GenAI message (role and typed parts); skipped")
            return
        responses = _parts(value, wire.TOOL_CALL_RESPONSE)
        self.results_checked += len(responses)
        for k, part in responses:
            self._answer(part, index, line, f"{path}.parts[{k}]")
        if _parts(value, wire.TOOL_CALL):
            self._step("calls", value, None, index, line, path)
            self._pending = self._calls(value, index, line, path)
            self._answered = set()
            self._opened_at = index
        elif not responses:
            self._step("other", value, None, index, line, path)

    def _answer(self, part: dict[str, Any], index: int, line: int | None, where: str) -> None:
        if "response" not in part:
            other = next((key for key in ("result", "content", "output") if key in part), None)
            found = f"; it has {other!r} instead" if other else ""
            self.report(
                "GA-2",
                f"{where} has no 'response'{found}",
                index=index,
                line=line,
                ids=(part.get("id"),),
                path=where,
            )
        call_id = part.get("id")
        key = call_id if isinstance(call_id, str) and call_id else None
        if call_id is None or call_id == "":
            # A response without an id answers the first pending call without one (an empty id
            # is GA-1's, on the call).
            key = next((k for k in self._pending if k.startswith("\0")), None)
        if key is not None and key in self._pending:
            event = "last_answer" if len(self._pending) == 1 else "answer"
        elif key is not None and key in self._answered:
            event = "repeat"
        else:
            event = "stray"
        self._step(event, part, call_id, index, line, where)
        if event in ("answer", "last_answer") and key is not None:
            del self._pending[key]
            self._answered.add(key)

    def _step(self, event: str, value: Any, call_id: Any, index: int, line: int | None, where: str) -> None:
        target = _CONVERSATION.rows[event][self._state]
        if target < 0:
            rule, target = _VIOLATIONS.by_pair[self._state, event]
            self._violation(rule, value, call_id, index, line, where)
        self._state = target
        if event == "other":
            self._pending.clear()
            self._answered.clear()

    def _violation(
        self, rule: str, value: Any, call_id: Any, index: int, line: int | None, where: str
    ) -> None:
        if rule == "GA-5":
            self._unanswered(index, line, f"{where} ({value.get('role')}) comes")
        elif rule == "GA-3":
            self.report(
                rule,
                f"{where} answers {clip(call_id)} with no assistant tool_call before it",
                index=index,
                line=line,
                ids=(call_id,),
                path=where,
            )
        elif rule == "GA-4":
            self.report(
                rule,
                f"{where}.id {clip(call_id)} is not the id of a call of messages[{self._opened_at}] "
                f"({_listed(self._pending)})",
                index=index,
                line=line,
                ids=(call_id,),
                path=f"{where}.id",
            )
        else:
            self.report(
                rule, f"{where} answers {clip(call_id)} a second time", index=index, line=line,
                ids=(call_id,), path=where,
            )  # fmt: skip

    def _unanswered(self, index: int | None, line: int | None, what: str) -> None:
        pending = [k if not k.startswith("\0") else f"parts[{k[1:]}] (no id)" for k in self._pending]
        self.report(
            "GA-5",
            f"{what} while calls {', '.join(pending)} of messages[{self._opened_at}] are unanswered",
            index=self._opened_at,
            line=line,
            ids=[k for k in self._pending if not k.startswith("\0")],
            path=f"messages[{self._opened_at}]",
        )
        self._pending.clear()
        self._answered.clear()

    def finish(self, index: int, line: int | None) -> None:
        if self._pending and self._state == _AWAITING:
            self._unanswered(index, line, "the messages end")


class OutputMonitor(_Parts):
    """Checks ``gen_ai.output.messages``: the calls the model made (GA-1, GA-6), kept for the round trip.

    >>> m = OutputMonitor()
    >>> calls = [{"type": "tool_call", "id": "c1"}, {"type": "tool_call", "id": "c1", "name": "f"}]
    >>> m.feed({"role": "assistant", "parts": calls}, 0, None, None)
    >>> sorted(f.rule for f in m.findings)
    ['GA-1', 'GA-6']
    """

    protocol = OUTPUT

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        path = f"messages[{index}]"
        if not recognises(value):
            self.notice(index, line, f"{path} is not a GenAI message (role and typed parts); skipped")
            return
        self._calls(value, index, line, path)
