"""Monitors of AI SDK message lists: ``UIMessage[]`` (VM-1 to VM-4), ``ModelMessage[]`` (VS-6, VP-1..4)."""

from __future__ import annotations

from typing import Any, Final

from toolwire.machines import ModelConversation, UIToolPart, compile_machine
from toolwire.models import aisdk as wire
from toolwire.properties._monitor import Monitor, Violations
from toolwire.properties._text import clip, json_text
from toolwire.properties._turn import Call, Turn
from toolwire.protocols.aisdk.rules import MODEL_MESSAGES, MODELLED_SDK, RULES, UI_MESSAGES

__all__ = ["ModelMessagesMonitor", "UIMessagesMonitor", "state_problem", "ui_state"]

_BOOK: Final = {rule.id: rule for rule in RULES}
_PARTS: Final = compile_machine(UIToolPart)
#: UI tool part state (``input-available``) -> its state in :class:`UIToolPart` (``input_available``).
_STATES: Final = {name: _PARTS.state(name.replace("-", "_")) for name in wire.UI_TOOL_STATES}
#: The state whose call has no outcome yet: the SDK sends its tool-call without a result.
_WAITING: Final = _PARTS.state("input_available")
_CONVERSATION: Final = compile_machine(ModelConversation)
_CONVERSATION_VIOLATIONS: Final = Violations.declare(
    _CONVERSATION, {("idle", "*"): "VP-1", ("awaiting", "user"): ("VS-6", "idle")}
)
_MISSING: Final = "AI_MissingToolResultsError"


def ui_state(part: dict[str, Any]) -> int | None:
    """The :class:`UIToolPart` state a tool part is in, or None for an unknown state."""
    state = part.get("state")
    return _STATES.get(state) if isinstance(state, str) else None


def state_problem(part: dict[str, Any]) -> str | None:
    """Why a tool part's fields do not fit its state (``UIToolInvocation``), or None when they do.

    >>> state_problem({"type": "tool-f", "toolCallId": "c", "state": "output-available", "input": {}})
    'state output-available without output'
    >>> state_problem({"type": "tool-f", "toolCallId": "c", "state": "input-available", "input": {},
    ...                "errorText": "x"})
    'errorText in state input-available (only output-error has one)'
    """
    state = part.get("state")
    if not isinstance(state, str) or state not in _STATES:  # a list or an object cannot be looked up
        return f"state {clip(state)} is none of {', '.join(wire.UI_TOOL_STATES)}"
    if not isinstance(part.get("toolCallId"), str):
        return f"toolCallId is {clip(part.get('toolCallId'))}, not a string"
    if part.get("type") == wire.DYNAMIC_TOOL and not isinstance(part.get("toolName"), str):
        return "a dynamic-tool part without toolName"
    for field, owner in (("output", "output-available"), ("errorText", "output-error")):
        if (field in part and part[field] is not None) != (state == owner):
            return (
                f"{field} in state {state} (only {owner} has one)"
                if state != owner
                else f"state {state} without {field}"
            )
    if state == "output-error" and not isinstance(part.get("errorText"), str):
        return "errorText is not a string"
    if state not in ("input-streaming", "output-error") and "input" not in part:
        return f"state {state} without input"
    return _approval_problem(state, part.get("approval"))


def _approval_problem(state: str, approval: Any) -> str | None:
    needed = state in ("approval-requested", "approval-responded", "output-denied")
    if approval is None:
        return f"state {state} without approval" if needed else None
    if state in ("input-streaming", "input-available"):
        return f"approval in state {state}"
    if not isinstance(approval, dict) or not isinstance(approval.get("id"), str):
        return f"approval {clip(approval)} without a string id"
    approved = approval.get("approved")
    want = {
        "approval-requested": approved is None,
        "approval-responded": isinstance(approved, bool),
        "output-denied": approved is False,
    }.get(state, approved is True)
    return None if want else f"approval.approved is {clip(approved)} in state {state}"


class UIMessagesMonitor(Monitor):
    """Checks ``UIMessage[]``: each tool part's state and fields, ids, and where parts sit.

    >>> m = UIMessagesMonitor()
    >>> m.feed({"id": "m1", "role": "assistant", "parts": [{"type": "tool-f", "toolCallId": "c1",
    ...         "state": "input-available", "input": {}}]}, 0, None, None)
    >>> m.feed({"id": "m2", "role": "user", "parts": [{"type": "text", "text": "And?"}]}, 1, None, None)
    >>> [f.rule for f in m.findings]
    ['VM-4']
    """

    protocol = UI_MESSAGES
    modelled_sdk = MODELLED_SDK

    def __init__(self) -> None:
        super().__init__(_BOOK)
        self._ids: dict[str, str] = {}
        self._waiting: dict[str, tuple[int, str]] = {}
        self._turns: list[Turn] = []

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        path = f"messages.{index}"
        if not isinstance(value, dict) or value.get("role") not in wire.UI_ROLES:
            self.notice(
                index, line, f"{path} is not a UI message (no system, user or assistant role); skipped"
            )
            return
        role = value["role"]
        parts = value.get("parts")
        if not isinstance(parts, list):
            self.notice(index, line, f"{path} has no parts list; skipped")
            return
        if role == "user":
            # A list that ends with a call waiting for its output or approval is the client's state
            # (addToolOutput, addToolApprovalResponse come next); a user message after it is not.
            self._unanswered(self._waiting, index, line, f"user message {path}")
        turn = Turn(index, line, path)
        for k, part in enumerate(parts):
            name = wire.tool_part_name(part)
            if name is not None:
                self._tool(part, name, role, turn, index, line, f"{path}.parts.{k}")
            elif (
                isinstance(part, dict)
                and isinstance(kind := part.get("type"), str)
                and kind not in wire.UI_PART_TYPES
                and not kind.startswith("data-")
            ):
                self.unknown("UI message part", kind, index, line, "passed over", skipped=False)
        if turn.calls:
            self._turns.append(turn)

    def _tool(
        self, part: dict[str, Any], name: str, role: str, turn: Turn, index: int, line: int | None, where: str
    ) -> None:
        call_id = part.get("toolCallId")
        if role != "assistant":
            self.report(
                "VM-3",
                f"{where} is a tool part in a {role} message: convertToModelMessages drops it",
                index=index,
                line=line,
                ids=(call_id,),
                path=where,
            )
        problem = state_problem(part)
        if problem is not None:
            self.report("VM-2", f"{where}: {problem}", index=index, line=line, ids=(call_id,), path=where)
        if not isinstance(call_id, str):
            return
        if call_id in self._ids:
            self.report(
                "VM-1",
                f"{where} repeats toolCallId {clip(call_id)} of {self._ids[call_id]}",
                index=index,
                line=line,
                ids=(call_id,),
                path=where,
            )
        self._ids.setdefault(call_id, where)
        state = ui_state(part)
        self.results_checked += part.get("state") in ("output-available", "output-error")
        if state == _WAITING and role == "assistant":
            self._waiting[call_id] = (index, where)
        if state is not None and part.get("state") != "input-streaming":
            turn.calls.append(Call(call_id, name, json_text(part.get("input"))))

    def _unanswered(
        self, pending: dict[str, tuple[int, str]], index: int, line: int | None, what: str
    ) -> None:
        for call_id, (at, where) in pending.items():
            self.report(
                "VM-4",
                f"{where} ({call_id}) is still input-available "
                f"at the {what}: its tool-call goes to the model without a result ({_MISSING})",
                index=at,
                line=line,
                ids=(call_id,),
                path=where,
                id=call_id,
            )
        pending.clear()

    def calls(self) -> list[Turn]:
        return self._turns


class ModelMessagesMonitor(Monitor):
    """Checks ``ModelMessage[]`` with :class:`ModelConversation`: every client call answered (VS-6).

    >>> m = ModelMessagesMonitor()
    >>> m.feed({"role": "assistant", "content": [{"type": "tool-call", "toolCallId": "call_1",
    ...         "toolName": "f", "input": {}}]}, 0, None, None)
    >>> m.feed({"role": "user", "content": "And?"}, 1, None, None)
    >>> [(f.rule, f.provider_error) for f in m.findings]
    [('VS-6', 'Tool result is missing for tool call call_1.')]
    """

    protocol = MODEL_MESSAGES
    modelled_sdk = MODELLED_SDK

    def __init__(self) -> None:
        super().__init__(_BOOK)
        self._state = _CONVERSATION.initial
        self._pending: dict[str, int] = {}
        self._calls: dict[str, str] = {}
        self._answered: set[str] = set()
        self._approvals: dict[str, str] = {}
        self._turns: list[Turn] = []

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        path = f"messages.{index}"
        if not isinstance(value, dict) or value.get("role") not in wire.MODEL_ROLES:
            self.notice(
                index,
                line,
                f"{path} is not a model message (no system, user, assistant or tool role); skipped",
            )
            return
        role = value["role"]
        content = value.get("content")
        parts = content if isinstance(content, list) else []
        if not isinstance(content, list) and (role == "tool" or not isinstance(content, str)):
            self.report("VP-3", f"{path}.content is {clip(content)}", index=index, line=line, path=path)
        answering = bool(self._pending)
        turn = Turn(index, line, path)
        for k, part in enumerate(parts):
            self._part(role, part, turn, index, line, f"{path}.content.{k}")
        if role in ("user", "system"):
            event = "user"
        elif role == "assistant":
            event = "calls" if turn.calls else "assistant"
        elif not answering:
            return  # results that answer nothing: each was reported (VP-1)
        else:
            event = "partial" if self._pending else "results"
        self._step(event, role, index, line, path)
        if turn.calls:
            self._turns.append(turn)

    def _step(self, event: str, role: str, index: int, line: int | None, path: str) -> None:
        target = _CONVERSATION.rows[event][self._state]
        if target < 0:
            rule, target = _CONVERSATION_VIOLATIONS.by_pair[self._state, event]
            if rule == "VS-6":
                self._missing(index, line, f"{path} ({role}) comes")
        self._state = target

    def _part(self, role: str, part: Any, turn: Turn, index: int, line: int | None, where: str) -> None:
        if not isinstance(part, dict):
            return
        kind = part.get("type")
        if isinstance(kind, str) and kind not in wire.MODEL_PART_TYPES:
            self.unknown("model message part", kind, index, line, "passed over", skipped=False)
        allowed = {
            "assistant": ("tool-call", "tool-result", "tool-approval-request"),
            "tool": ("tool-result", "tool-approval-response"),
        }.get(role, ())
        if kind in ("tool-call", "tool-result", "tool-approval-request", "tool-approval-response") and (
            kind not in allowed
        ):
            self.report(
                "VP-3",
                f"{where} is a {kind} part in a {role} message",
                index=index,
                line=line,
                ids=(part.get("toolCallId"),),
                path=where,
            )
            return
        if kind == "tool-call":
            self._call(part, turn, index, line, where)
        elif kind == "tool-result":
            self.results_checked += 1
            self._result(part, index, line, where)
        elif kind == "tool-approval-request" and isinstance(part.get("approvalId"), str):
            self._approvals[part["approvalId"]] = str(part.get("toolCallId"))
        elif kind == "tool-approval-response":
            self._approval_response(part, index, line, where)

    def _call(self, part: dict[str, Any], turn: Turn, index: int, line: int | None, where: str) -> None:
        call_id, name = part.get("toolCallId"), part.get("toolName")
        if not isinstance(call_id, str) or not isinstance(name, str) or "input" not in part:
            missing = [f for f in ("toolCallId", "toolName", "input") if not isinstance(part.get(f), str)]
            missing = [f for f in missing if f != "input" or "input" not in part]
            self.report(
                "VP-4",
                f"{where}: a tool-call without {', '.join(missing)}",
                index=index,
                line=line,
                path=where,
            )
            if not isinstance(call_id, str):
                return
        if call_id in self._calls:
            self.report(
                "VP-2",
                f"{where} repeats toolCallId {clip(call_id)} of {self._calls[call_id]}",
                index=index,
                line=line,
                ids=(call_id,),
                path=where,
            )
        self._calls.setdefault(call_id, where)
        named = name if isinstance(name, str) else None
        turn.calls.append(Call(call_id, named, json_text(part.get("input"))))
        if part.get("providerExecuted") is not True:
            self._pending[call_id] = index

    def _result(self, part: dict[str, Any], index: int, line: int | None, where: str) -> None:
        call_id = part.get("toolCallId")
        problem = _result_problem(part)
        if problem is not None:
            self.report("VP-4", f"{where}: {problem}", index=index, line=line, ids=(call_id,), path=where)
        if not isinstance(call_id, str):
            return
        if call_id in self._pending:
            del self._pending[call_id]
        elif call_id not in self._calls or call_id in self._answered:
            said = "answers it again" if call_id in self._answered else "answers no earlier tool-call"
            self.report(
                "VP-1",
                f"{where} (toolCallId {clip(call_id)}) {said}",
                index=index,
                line=line,
                ids=(call_id,),
                path=where,
            )
        self._answered.add(call_id)

    def _approval_response(self, part: dict[str, Any], index: int, line: int | None, where: str) -> None:
        approval = part.get("approvalId")
        call_id = self._approvals.get(approval) if isinstance(approval, str) else None
        if call_id is None:
            self.report(
                "VP-1",
                f"{where} answers approval {clip(approval)}, which no tool-approval-request asked "
                f'(the SDK: Tool approval response references unknown approvalId: "{approval}".)',
                index=index,
                line=line,
                path=where,
            )
            return
        # streamText runs (or denies) an approved call before it converts the prompt.
        self._pending.pop(call_id, None)

    def _missing(self, index: int, line: int | None, what: str) -> None:
        pending = list(self._pending)
        first = min(self._pending.values())
        self.report(
            "VS-6",
            f"{what} while tool-call {', '.join(pending)} of messages.{first} "
            f"{'has' if len(pending) == 1 else 'have'} no tool-result ({_MISSING})",
            index=first,
            line=line,
            ids=pending,
            path=f"messages.{first}",
            id=", ".join(pending),
        )
        self._pending.clear()

    def finish(self, index: int, line: int | None) -> None:
        if self._pending:
            self._missing(index, line, "the messages end")

    def calls(self) -> list[Turn]:
        return self._turns


def _result_problem(part: dict[str, Any]) -> str | None:
    for field in ("toolCallId", "toolName"):
        if not isinstance(part.get(field), str):
            return f"tool-result without {field}"
    output = part.get("output")
    if not isinstance(output, dict) or output.get("type") not in wire.TOOL_OUTPUT_TYPES:
        return f"output {clip(output)} is not {{type: {' | '.join(sorted(wire.TOOL_OUTPUT_TYPES))}, value}}"
    if output["type"] != "execution-denied" and "value" not in output:
        return f"output of type {output['type']} without value"
    if output["type"] in ("text", "error-text") and not isinstance(output["value"], str):
        return f"output of type {output['type']} with a value that is not a string"
    return None
