"""The monitor for Mistral chat requests (MI-1 to MI-5), with a profile per tokenizer version."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from toolwire.machines import MistralConversation, compile_machine
from toolwire.models import mistral as wire
from toolwire.properties._monitor import Monitor, Violations
from toolwire.properties._text import clip
from toolwire.properties._turn import Call, Turn
from toolwire.protocols.mistral.rules import CHAT, MODELLED_SDK, RULES

__all__ = ["PROFILES", "ConversationMonitor", "TokenizerProfile", "check_id"]

_BOOK: Final = {rule.id: rule for rule in RULES}
_TABLE: Final = compile_machine(MistralConversation)
_VIOLATIONS: Final = Violations.declare(
    _TABLE,
    {
        ("calling", "assistant"): ("MI-4", "said"),
        ("calling", "calls"): ("MI-4", "calling"),
        ("calling", "to_user"): ("MI-4", "user"),
        ("*", "to_system"): ("MI-5", "system"),
        ("system", "*"): "MI-5",
        ("user", "*"): "MI-5",
        ("*", "*"): "MI-4",
    },
)


@dataclass(frozen=True, slots=True)
class TokenizerProfile:
    """What a tokenizer version checks: the 9-character id rule (v3 to v11), ids in pairing (v11+)."""

    name: str
    nine_characters: bool
    pair_ids: bool


PROFILES: Final = {
    p.name: p
    for p in (
        TokenizerProfile("v11", nine_characters=True, pair_ids=True),
        TokenizerProfile("v3", nine_characters=True, pair_ids=False),
        TokenizerProfile("v13", nine_characters=False, pair_ids=True),
    )
}


def check_id(
    monitor: Monitor,
    profile: TokenizerProfile,
    call_id: Any,
    index: int,
    line: int | None,
    where: str,
    undefined: str,
) -> None:
    """Report ``call_id`` at ``where``: MI-3 (``undefined`` says how), MI-1 or MI-2, as ``profile`` checks."""
    if call_id is None or call_id == wire.NULL_ID:
        monitor.report("MI-3", undefined, index=index, line=line, path=where)
    elif profile.nine_characters:
        if not isinstance(call_id, str) or not wire.TOOL_CALL_ID.fullmatch(call_id):
            monitor.report(
                "MI-1",
                f"{where} is {clip(call_id)}",
                index=index,
                line=line,
                ids=(call_id,),
                path=where,
                id=call_id,
            )
    elif not isinstance(call_id, str) or not call_id:
        monitor.report("MI-2", f"{where} is {clip(call_id)}", index=index, line=line, path=where)


class ConversationMonitor(Monitor):
    """Checks a Mistral request's ``messages`` with :class:`MistralConversation`.

    >>> m = ConversationMonitor()
    >>> m.feed({"role": "assistant", "tool_calls": [{"id": "call_abc123", "type": "function",
    ...         "function": {"name": "f", "arguments": "{}"}}]}, 0, None, None)
    >>> [f.rule for f in m.findings]
    ['MI-1']
    """

    protocol = CHAT
    modelled_sdk = MODELLED_SDK

    def __init__(self, profile: TokenizerProfile = PROFILES["v11"]) -> None:
        super().__init__(_BOOK)
        self.profile = profile
        self._state = _TABLE.initial
        self._previous: str | None = None
        self._pending: list[str] = []
        self._expected = 0
        self._answered: set[str] = set()
        self._opened_at: int | None = None
        self._turns: list[Turn] = []

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        path = f"messages[{index}]"
        if isinstance(value, dict) and isinstance(value.get("role"), str) and value["role"] not in wire.ROLES:
            self.unknown("message role", value["role"], index, line, "skipped")
            return
        if not isinstance(value, dict) or value.get("role") not in wire.ROLES:
            what = "is not an object" if not isinstance(value, dict) else f"has role {value.get('role')!r}"
            self.notice(index, line, f"{path} {what}; skipped")
            return
        role = value["role"]
        calls = value.get("tool_calls") if role == "assistant" else None
        calls = calls if isinstance(calls, list) and calls else None
        if role == "tool":
            tool_call_id = value.get("tool_call_id")
            self._check_id(tool_call_id, index, line, f"{path}.tool_call_id", tool=True)
            event = "extra" if self._expected <= 0 else "last" if self._expected == 1 else "answer"
        else:
            event = "calls" if calls else "assistant" if role == "assistant" else f"to_{role}"
        target = _TABLE.rows[event][self._state]
        if target < 0:
            rule, target = _VIOLATIONS.by_pair[self._state, event]
            self._violation(rule, role, index, line, path)
        elif role == "tool" and self.profile.pair_ids:
            self._pair(value.get("tool_call_id"), index, line, path)
        if role == "tool":
            self._expected -= 1
        self._state, self._previous = target, role
        if calls:
            self._open(calls, index, line, path)

    def _open(self, calls: list[Any], index: int, line: int | None, path: str) -> None:
        turn = Turn(index, line, path)
        self._pending, self._answered = [], set()
        self._expected, self._opened_at = len(calls), index
        for k, call in enumerate(calls):
            call = call if isinstance(call, dict) else {}
            function = call.get("function")
            function = function if isinstance(function, dict) else {}
            call_id, name = call.get("id"), function.get("name")
            turn.calls.append(Call(call_id, name, function.get("arguments")))
            where = f"{path}.tool_calls[{k}]"
            self._check_id(call_id, index, line, f"{where}.id", tool=False)
            if not isinstance(name, str) or not wire.FUNCTION_NAME.fullmatch(name):
                self.report(
                    "MI-5",
                    f"{where}.function.name {clip(name)} does not match ^{wire.FUNCTION_NAME.pattern}$",
                    index=index,
                    line=line,
                    path=where,
                    rejected=False,  # the rule's recorded text is of a role out of order
                )
            if self.profile.pair_ids and str(call_id) in self._pending:
                self.report(
                    "MI-4",
                    f"Duplicate tool call id {call_id} in assistant message ({where})",
                    index=index,
                    line=line,
                    ids=(call_id,),
                    path=where,
                )
            self._pending.append(str(call_id))
        self._turns.append(turn)

    def _check_id(self, call_id: Any, index: int, line: int | None, where: str, *, tool: bool) -> None:
        what = "has no tool_call_id" if tool and call_id is None else f'has id "{call_id}"'
        check_id(self, self.profile, call_id, index, line, where, f"{where} {what} (serving mode)")

    def _pair(self, call_id: Any, index: int, line: int | None, path: str) -> None:
        self.results_checked += 1
        call_id = call_id if isinstance(call_id, str) else str(call_id)
        if call_id in self._answered:
            self.report(
                "MI-4",
                f"Duplicate tool call id {call_id} in tool results ({path})",
                index=index,
                line=line,
                ids=(call_id,),
                path=path,
            )
        elif call_id not in self._pending:
            self.report(
                "MI-4",
                f"Unexpected tool call id {clip(call_id)} in tool results ({path}); the "
                f"calls of messages[{self._opened_at}] are {', '.join(self._pending)}",
                index=index,
                line=line,
                ids=(call_id,),
                path=path,
            )
        self._answered.add(str(call_id))

    def _violation(self, rule: str, role: str, index: int, line: int | None, path: str) -> None:
        if rule == "MI-5":
            self.report(
                rule,
                f"{path}: role {role!r} after role {self._previous!r}",
                index=index,
                line=line,
                path=f"{path}.role",
                current=role,
                previous=self._previous,
            )
            return
        if self._expected > 0:
            calls = f"{len(self._pending)} call(s) of messages[{self._opened_at}]"
            what = f"{self._expected} of the {calls} unanswered"
        else:
            what = "a tool message with no call left to answer"
        self.report(rule, f"{path} ({role}): {what}", index=index, line=line, ids=self._pending, path=path)
        if role != "tool":
            self._expected = 0

    def finish(self, index: int, line: int | None) -> None:
        if self._state == _TABLE.state("calling"):
            self.report(
                "MI-4",
                f"the request ends with {self._expected} call(s) of messages[{self._opened_at}] unanswered",
                index=self._opened_at,
                line=line,
                ids=self._pending,
                path=f"messages[{self._opened_at}]",
            )

    def calls(self) -> list[Turn]:
        return self._turns
