"""The monitor of a Responses request's ``input`` items (RS-1 to RS-5)."""

from __future__ import annotations

from typing import Any, Final

from toolwire.machines import FunctionCallPairing, compile_machine
from toolwire.models import openai_responses as wire
from toolwire.properties._monitor import Monitor, Violations
from toolwire.properties._rule import Severity
from toolwire.properties._turn import Call, Turn
from toolwire.protocols.openai_responses.rules import INPUT, MODELLED_SDK, RULES

__all__ = ["InputMonitor"]

_BOOK: Final = {rule.id: rule for rule in RULES}
_PAIRING: Final = compile_machine(FunctionCallPairing)
_PAIRING_VIOLATIONS: Final = Violations.declare(
    _PAIRING,
    {("*", "repeated_call"): "RS-4b", ("*", "repeated_output"): "RS-3b", ("*", "*"): "RS-4b"},
)


class InputMonitor(Monitor):
    """Checks the ``input`` items of a Responses request (RS-1 to RS-5).

    >>> m = InputMonitor()
    >>> m.feed({"type": "function_call_output", "call_id": "call_1", "output": "ok"}, 0, None, None)
    >>> m.finish(1, None)
    >>> [f.rule for f in m.findings]
    ['RS-3']
    """

    protocol = INPUT
    modelled_sdk = MODELLED_SDK

    def __init__(self) -> None:
        super().__init__(_BOOK)
        self._pairs: dict[str, tuple[int, int]] = {}
        self._item_ids: dict[str, int] = {}
        self._stored_context = False
        self._turns: list[Turn] = []
        self._last_call_index = -2

    def open_document(self, document: dict[str, Any]) -> None:
        """Note the request-level fields that change what can be judged."""
        self._stored_context = bool(document.get("previous_response_id") or document.get("conversation"))

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        if not isinstance(value, dict):
            self.notice(index, line, f"input[{index}] is not an object; skipped")
            return
        kind = value.get("type")
        item_id = value.get("id")
        path = f"input[{index}]"
        if isinstance(item_id, str):
            first = self._item_ids.setdefault(item_id, index)
            if first != index:
                self.report(
                    "RS-5",
                    f"{path} repeats item id {item_id} of input[{first}]",
                    index=index,
                    line=line,
                    ids=(item_id,),
                    path=f"{path}.id",
                    id=item_id,
                )
        if kind not in (wire.FUNCTION_CALL, wire.FUNCTION_CALL_OUTPUT):
            # A type of any JSON shape: a list or an object cannot be looked up in a set.
            if kind is not None and (not isinstance(kind, str) or kind not in wire.INPUT_ITEM_TYPES):
                self.unknown("input item", kind, index, line, "its id is judged, nothing else", skipped=False)
            return
        call_id = value.get("call_id")
        if not isinstance(call_id, str) or not (wire.CALL_ID_MIN <= len(call_id) <= wire.CALL_ID_MAX):
            length = len(call_id) if isinstance(call_id, str) else 0
            what = "has no call_id" if call_id is None else f"has a call_id of length {length}"
            self.report(
                "RS-2",
                f"{path} ({kind}) {what}",
                index=index,
                line=line,
                ids=(call_id,),
                path=f"{path}.call_id",
                n=index,
                length=length,
            )
            if not isinstance(call_id, str) or not call_id:
                return
        if kind == wire.FUNCTION_CALL:
            if isinstance(item_id, str) and not item_id.startswith(wire.FUNCTION_CALL_ITEM_ID_PREFIX):
                self.report(
                    "RS-1b",
                    f"{path} is a function_call with id {item_id!r}",
                    index=index,
                    line=line,
                    ids=(item_id, call_id),
                    path=f"{path}.id",
                    n=index,
                    id=item_id,
                )
            self._record_call(value, index, line)
        else:
            self.results_checked += 1
        self._pair(call_id, "call" if kind == wire.FUNCTION_CALL else "output", index, line, path)

    def _pair(self, call_id: str, event: str, index: int, line: int | None, path: str) -> None:
        state, _ = self._pairs.get(call_id, (_PAIRING.initial, index))
        target = _PAIRING.rows[event][state]
        if target < 0:
            repeated = "repeated_call" if event == "call" else "repeated_output"
            rule, target = _PAIRING_VIOLATIONS.by_pair[state, repeated]
            what = "function_call" if event == "call" else "function_call_output"
            self.report(
                rule,
                f"{path} is a second {what} for call_id {call_id}",
                index=index,
                line=line,
                ids=(call_id,),
                path=path,
            )
        self._pairs[call_id] = (target, index)

    def _record_call(self, value: dict[str, Any], index: int, line: int | None) -> None:
        call = Call(value.get("call_id"), value.get("name"), value.get("arguments"))
        if self._last_call_index == index - 1 and self._turns:
            self._turns[-1].calls.append(call)
        else:
            self._turns.append(Turn(index, line, f"input[{index}]", [call]))
        self._last_call_index = index

    def finish(self, index: int, line: int | None) -> None:
        for call_id, (state, where) in self._pairs.items():
            name = _PAIRING.states[state]
            if name == "called":
                self.report(
                    "RS-4",
                    f"function_call {call_id} (input[{where}]) has no function_call_output",
                    index=where,
                    line=line,
                    ids=(call_id,),
                    path=f"input[{where}]",
                    call_id=call_id,
                )
            elif name == "output_first":
                note = ""
                severity: Severity | None = None
                if self._stored_context:
                    note = " here; it may be in the previous_response_id context, which toolwire cannot see"
                    severity = "warning"
                self.report(
                    "RS-3",
                    f"function_call_output for {call_id} (input[{where}]) answers no function_call{note}",
                    index=where,
                    line=line,
                    ids=(call_id,),
                    path=f"input[{where}]",
                    severity=severity,
                    call_id=call_id,
                )

    def calls(self) -> list[Turn]:
        return self._turns
