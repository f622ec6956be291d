"""The monitor of ``streamText``'s full stream (``TextStreamPart``): VF-1 to VF-9."""

from __future__ import annotations

from typing import Any, Final

from toolwire.machines import FullStream, FullStreamToolCall
from toolwire.models import aisdk as wire
from toolwire.properties._lifecycle import Item, KeyedMonitor, Lifecycle
from toolwire.properties._text import clip, json_text
from toolwire.properties._turn import Call, Turn
from toolwire.protocols.aisdk.monitors import typed
from toolwire.protocols.aisdk.rules import FULL_STREAM, RULES

__all__ = ["FullStreamMonitor"]

_BOOK: Final = {rule.id: rule for rule in RULES}

CALLS: Final = Lifecycle.declare(
    FullStreamToolCall,
    {
        ("absent", "input_delta"): ("VF-2", "streaming"),
        ("absent", "input_end"): ("VF-2", "ended"),
        ("absent", "ask"): "VF-9",
        ("absent", "*"): "VF-3",
        ("done", "input_start"): ("VF-1", "streaming"),
        ("done", "call"): ("VF-1", "called"),
        ("*", "input_start"): ("VF-1", "streaming"),
        ("*", "call"): ("VF-1", "called"),
        ("*", "input_delta"): "VF-2",
        ("*", "input_end"): "VF-2",
        ("*", "*"): "VF-3",
    },
    {"streaming": "VF-2", "ended": "VF-2", "previewing": "VF-3"},
)
ENVELOPE: Final = Lifecycle.declare(
    FullStream,
    {
        ("waiting", "step"): ("VF-5", "stepping"),
        ("waiting", "part"): ("VF-5", "stepping"),
        ("waiting", "step_end"): ("VF-5", "open"),
        ("waiting", "finish"): ("VF-5", "finished"),
        ("open", "part"): ("VF-5", "stepping"),
        ("stepping", "finish"): ("VF-5", "finished"),
        ("*", "*"): "VF-5",
    },
    {"open": "VF-6", "stepping": "VF-6"},
)
_CALLED: Final = CALLS.table.state("called")
_ENDED: Final = CALLS.table.state("ended")
#: A call streaming its input: a start repeated then restarts it and changes no call (VF-1's source).
_STREAMING: Final = frozenset({CALLS.table.state("streaming"), _ENDED})
#: The envelope's key among the calls' (no call id is a tuple).
_RUN: Final = ("stream",)
_ENVELOPE_EVENTS: Final = {
    "start": "start",
    "start-step": "step",
    "finish-step": "step_end",
    "finish": "finish",
}
#: Parts that may come anywhere: outside steps, or after an abort.
_ANYWHERE: Final = frozenset({"error", "abort", "ping", "raw", "steering-message"})
_OUTCOMES: Final = frozenset({"tool-result", "tool-error"})
#: The parts that answer a call (what a report counts as results checked).
_ANSWERS: Final = frozenset({*_OUTCOMES, "tool-output-denied"})


class FullStreamMonitor(KeyedMonitor):
    """Checks a full stream: a :class:`FullStreamToolCall` per call id inside a :class:`FullStream`.

    >>> m = FullStreamMonitor()
    >>> for n, part in enumerate([{"type": "start"}, {"type": "start-step"},
    ...         {"type": "tool-result", "toolCallId": "call_1", "toolName": "f", "input": {}, "output": 1}]):
    ...     m.feed(part, n, n + 1, None)
    >>> [f.rule for f in m.findings]
    ['VF-3']
    """

    protocol = FULL_STREAM
    lifecycle = CALLS

    def __init__(self) -> None:
        super().__init__(_BOOK)
        self._step = 0
        self._approvals: dict[str, str] = {}
        self._aborted = False

    def describe(self, item: Item) -> str:
        if item.key == _RUN:
            return "the stream"
        return f"call {clip(item.key)}" + (f" ({item.name})" if item.name else "")

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        found = typed(self, value, index, line, "part")
        if found is None:
            return
        kind, value = found
        event = wire.FULL_TOOL_PARTS.get(kind)
        if event is None and kind not in wire.FULL_OTHER_PARTS:
            self.notice(index, line, f"unknown part type {kind!r}; skipped")
            return
        self._envelope(kind, index, line)
        if event is not None:
            self._tool(kind, event, value, index, line)

    def _envelope(self, kind: str, index: int, line: int | None) -> None:
        if self._aborted or kind in _ANYWHERE:
            self._aborted = self._aborted or kind == "abort"
            if kind == "abort":
                self.step(_RUN, "abort", index, line, what=kind, lifecycle=ENVELOPE)
            return
        self.step(_RUN, _ENVELOPE_EVENTS.get(kind, "part"), index, line, what=kind, lifecycle=ENVELOPE)
        if kind == "start-step":
            self._step += 1
        elif kind == "finish-step":
            self._unanswered(index, line)

    def _tool(self, kind: str, event: str, value: dict[str, Any], index: int, line: int | None) -> None:
        call_id = self._call_id(kind, value)
        if not isinstance(call_id, str) or not call_id:
            where = "id" if kind in wire.INPUT_PART_TYPES else "toolCallId"
            if kind in ("tool-input-start", "tool-call"):
                self.report("VF-1", f"{kind} without {where}", index=index, line=line)
            elif kind == "tool-approval-response":
                approval = value.get("approvalId")
                self.report(
                    "VF-3",
                    f"tool-approval-response for approval {clip(approval)}, which no "
                    "tool-approval-request asked",
                    index=index,
                    line=line,
                    id=approval,
                )
            else:
                self.notice(index, line, f"{kind} without {where}; skipped")
            return
        if kind == "tool-result" and value.get("preliminary") is True:
            event = "preliminary"
        else:
            self.results_checked += kind in _ANSWERS
        deviation: dict[str, Any] = {}
        known = self.items.get(call_id)
        if event == "input_delta" and known is not None and known.state == _ENDED:
            # Before its tool-call, a late delta changes no consumer's call (VF-2's source).
            deviation["severity"] = "warning"
        elif event == "input_start" and known is not None and known.state in _STREAMING:
            # Before its tool-call, a repeated start changes no consumer's call (VF-1's source).
            deviation["severity"] = "warning"
        item = self.step(
            call_id,
            event,
            index,
            line,
            what=kind,
            ids=(call_id,),
            id=call_id,
            approvalId=value.get("approvalId"),
            **deviation,
        )
        item.id = call_id
        if kind == "tool-approval-request" and isinstance(value.get("approvalId"), str):
            self._approvals[value["approvalId"]] = call_id
        if kind in ("tool-input-start", "tool-call"):
            item.name = value.get("toolName", item.name)
            item.data.setdefault("step", self._step)
        if kind == "tool-input-delta" and isinstance(value.get("delta"), str):
            item.parts.append(value["delta"])
        elif kind == "tool-call":
            self._called(item, value, index, line)
        elif kind in _OUTCOMES and value.get("providerExecuted") is not True:
            self._same_step(item, kind, index, line)
        if kind == "tool-result" and "output" not in value:
            said = " (result is ai 4's name for it)" if "result" in value else ""
            self.report(
                "VF-7",
                f"tool-result for {clip(item.key)} has no output{said}",
                index=index,
                line=line,
                ids=(item.key,),
            )

    def _call_id(self, kind: str, value: dict[str, Any]) -> Any:
        if kind in wire.INPUT_PART_TYPES:
            return value.get("id")
        if kind in ("tool-approval-request", "tool-approval-response"):
            call = value.get("toolCall")
            if isinstance(call, dict) and "toolCallId" in call:
                return call.get("toolCallId")
            approval = value.get("approvalId")
            return self._approvals.get(approval) if isinstance(approval, str) else None
        return value.get("toolCallId")

    def _called(self, item: Item, value: dict[str, Any], index: int, line: int | None) -> None:
        item.data["step"] = self._step
        item.data["input"] = value.get("input", value.get("args"))
        item.data["client"] = value.get("providerExecuted") is not True and value.get("invalid") is not True
        if "input" not in value:
            self.report(
                "VF-7",
                f"tool-call {clip(item.key)} has no input"
                + (" (args is ai 4's name for it)" if "args" in value else ""),
                index=index,
                line=line,
                ids=(item.key,),
            )
        elif isinstance(value.get("input"), str) and value.get("invalid") is not True:
            self.report(
                "VF-7",
                f"tool-call {clip(item.key)} has input {clip(value.get('input'))}: JSON text, not the "
                "parsed value",
                index=index,
                line=line,
                ids=(item.key,),
            )

    def _same_step(self, item: Item, kind: str, index: int, line: int | None) -> None:
        step = item.data.get("step")
        if step is not None and step != self._step:
            self.report(
                "VF-4",
                f"{kind} for call {clip(item.key)} comes in step {self._step}; the call was made in "
                f"step {step}",
                index=index,
                line=line,
                ids=(item.key,),
            )

    def _unanswered(self, index: int, line: int | None) -> None:
        for item in self.order:
            if (
                item.key != _RUN
                and item.data.get("client")
                and item.data.get("step") == self._step
                and item.state == _CALLED
            ):
                self.report(
                    "VF-8",
                    f"step {self._step} finishes while client call {clip(item.key)} has no outcome "
                    "(fine only if its tool has no execute function)",
                    index=index,
                    line=line,
                    ids=(item.key,),
                )

    def finish(self, index: int, line: int | None) -> None:
        self.finish_items(index, line)

    def calls(self) -> list[Turn]:
        """The calls of the stream, one turn, in the order they opened."""
        items = [item for item in self.order if item.key != _RUN]
        if not items:
            return []
        turn = Turn(items[0].index, items[0].line, "stream")
        for item in items:
            arguments = json_text(item.data["input"]) if "input" in item.data else item.text()
            turn.calls.append(Call(str(item.key), item.name, arguments))
        return [turn]
