"""Monitors for Vercel AI SDK streams: provider stream parts per spec version, and UI message chunks."""

from __future__ import annotations

from typing import Any, Final

from toolwire.machines import StreamToolCall, UIToolPart
from toolwire.models import DONE
from toolwire.models import aisdk as wire
from toolwire.properties._lifecycle import Item, KeyedMonitor, Lifecycle
from toolwire.properties._text import clip, json_problem
from toolwire.properties._turn import Call, Turn
from toolwire.protocols.aisdk.rules import RULES, STREAM, UI_STREAM

__all__ = ["PROFILES", "StreamMonitor", "UIStreamMonitor", "typed"]

_BOOK: Final = {rule.id: rule for rule in RULES}
#: The provider specification versions, newest first (the default).
PROFILES: Final = ("v4", "v3", "v2")

CALLS: Final = Lifecycle.declare(
    StreamToolCall,
    {
        ("*", "input_start"): ("VS-1", "streaming"),
        ("*", "call"): ("VS-1", "called"),
        ("absent", "input_delta"): ("VS-2", "streaming"),
        ("absent", "input_end"): ("VS-2", "ended"),
        ("absent", "approval"): ("VS-2", "called"),
        ("absent", "preliminary"): ("VS-2", "previewing"),
        ("absent", "result"): ("VS-2", "resulted"),
        ("*", "*"): "VS-2",
    },
    {"streaming": "VS-2", "ended": "VS-2", "previewing": "VS-3"},
)
_ENDED: Final = CALLS.table.state("ended")
#: A call streaming its input: a start repeated then restarts it and changes no call (VS-1's source).
_STREAMING: Final = frozenset({CALLS.table.state("streaming"), _ENDED})
PARTS: Final = Lifecycle.declare(
    UIToolPart,
    {
        ("absent", "delta"): ("VU-1", "input_streaming"),
        ("absent", "*"): "VU-2",
        ("*", "start"): ("VU-3", "input_streaming"),
        ("*", "*"): "VU-4",
    },
    {"input_streaming": "VU-4"},
)
#: A tool part's outcomes: another outcome replaces the output and keeps the call (VU-4's source).
_ANSWERED: Final = frozenset(
    PARTS.table.state(s) for s in ("output_available", "output_error", "output_denied")
)


def typed(
    monitor: KeyedMonitor, value: Any, index: int, line: int | None, noun: str
) -> tuple[str, dict[str, Any]] | None:
    """The ``type`` of an AI SDK part or chunk and the part itself; a notice and None when it has none."""
    if value is DONE:
        return None
    if not isinstance(value, dict):
        monitor.notice(index, line, f"{noun} is not a JSON object; skipped")
        return None
    kind = value.get("type")
    if not isinstance(kind, str):
        monitor.notice(index, line, f"{noun} with type {clip(kind)}; skipped")
        return None
    return kind, value


class StreamMonitor(KeyedMonitor):
    """Checks provider stream parts (LanguageModelV2/V3/V4): a :class:`StreamToolCall` per call id.

    >>> m = StreamMonitor()
    >>> m.feed({"type": "tool-input-start", "id": "call_1", "toolName": "search"}, 0, 1, None)
    >>> m.feed({"type": "tool-call", "toolCallId": "call_1", "toolName": "search", "input": "{}"}, 1, 2, None)
    >>> m.findings
    []
    """

    protocol = STREAM
    lifecycle = CALLS

    def __init__(self, version: str = "v4") -> None:
        super().__init__(_BOOK)
        self.version = version
        self._parts = wire.PART_TYPES[version]

    def describe(self, item: Item) -> str:
        return f"call {clip(item.key)}" + (f" ({item.name})" if item.name else "")

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        found = typed(self, value, index, line, "part")
        if found is None:
            return
        kind, value = found
        if kind in wire.OTHER_PART_TYPES:
            return
        if kind not in self._parts:
            self.notice(
                index, line, f"part type {kind!r} is not a {self.version.upper()} stream part; skipped"
            )
            return
        field = "id" if kind in wire.INPUT_PART_TYPES else "toolCallId"
        call_id = value.get(field)
        if not isinstance(call_id, str) or not call_id:
            if kind in ("tool-input-start", "tool-call"):
                self.report(
                    "VS-5",
                    f"{kind} without {field}: consumers pass the call on without an id or make one up",
                    index=index,
                    line=line,
                )
            else:
                self.notice(index, line, f"{kind} without {field}; skipped")
            return
        event = {
            "tool-input-start": "input_start",
            "tool-input-delta": "input_delta",
            "tool-input-end": "input_end",
            "tool-call": "call",
            "tool-approval-request": "approval",
        }.get(kind)
        if kind == "tool-result":
            event = "preliminary" if value.get("preliminary") is True and self.version != "v2" else "result"
            self.results_checked += event == "result"
        assert event is not None
        deviation: dict[str, Any] = {}
        known = self.items.get(call_id)
        if event == "input_delta" and known is not None and known.state == _ENDED:
            # Before its tool-call, a late delta changes no consumer's call (VS-2's source).
            deviation["severity"] = "warning"
        elif event == "input_start" and known is not None and known.state in _STREAMING:
            # Before its tool-call, a repeated start changes no consumer's call (VS-1's source).
            deviation["severity"] = "warning"
        item = self.step(call_id, event, index, line, what=str(kind), **deviation)
        if kind in ("tool-input-start", "tool-call"):
            item.name = value.get("toolName")
        if kind == "tool-input-delta" and isinstance(value.get("delta"), str):
            item.parts.append(value["delta"])
        elif kind == "tool-call":
            self._check_input(item, value, index, line)

    def _check_input(self, item: Item, value: dict[str, Any], index: int, line: int | None) -> None:
        item.data["input"] = text = value.get("input")
        item.data["provider"] = value.get("providerExecuted") is True
        if isinstance(text, str) and json_problem(text) is None:
            return
        self.report(
            "VS-4",
            f"tool-call {item.key} has input {clip(text)}, which is not a JSON-encoded string",
            index=index,
            line=line,
            ids=(item.id,),
        )

    def finish(self, index: int, line: int | None) -> None:
        self.finish_items(index, line)

    def calls(self) -> list[Turn]:
        """The calls of the stream, one turn, in the order they opened."""
        if not self.order:
            return []
        turn = Turn(self.order[0].index, self.order[0].line, "stream")
        for item in self.order:
            arguments = item.data.get("input", item.text())
            turn.calls.append(Call(str(item.key), item.name, arguments))
        return [turn]


class UIStreamMonitor(KeyedMonitor):
    """Checks UI message stream chunks: a :class:`UIToolPart` per ``toolCallId``.

    >>> m = UIStreamMonitor()
    >>> m.feed({"type": "tool-input-delta", "toolCallId": "call_1", "inputTextDelta": "{"}, 0, 1, None)
    >>> [f.rule for f in m.findings]
    ['VU-1']
    """

    protocol = UI_STREAM
    lifecycle = PARTS

    def __init__(self) -> None:
        super().__init__(_BOOK)
        self._approvals: dict[str, str] = {}
        #: The tool parts of the current step, in the order they opened (a reset-step removes them).
        self._step: list[str] = []

    def describe(self, item: Item) -> str:
        return f"tool part {clip(item.key)}" + (f" ({item.name})" if item.name else "")

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        found = typed(self, value, index, line, "chunk")
        if found is None:
            return
        kind, value = found
        event = wire.UI_TOOL_CHUNKS.get(kind)
        if event is None:
            if kind == "start-step":
                self._step = []
            elif kind == "reset-step":
                self._reset_step()
            elif kind not in wire.OTHER_UI_CHUNK_TYPES and not kind.startswith("data-"):
                self.notice(index, line, f"unknown chunk type {kind!r}; skipped")
            return
        if event == "reply":
            approval = value.get("approvalId")
            call_id: Any = self._approvals.get(approval) if isinstance(approval, str) else None
            if call_id is None:
                self.report(
                    "VU-2",
                    f"tool-approval-response for approval {clip(approval)}, which no "
                    "tool-approval-request asked",
                    index=index,
                    line=line,
                    id=approval,
                )
                return
        else:
            call_id = value.get("toolCallId")
        if not isinstance(call_id, str):
            self.notice(index, line, f"{kind} without toolCallId; skipped")
            return
        if call_id not in self.items:
            self._step.append(call_id)
            self.calls_checked += 1
        outcome = event in ("output", "failed", "denied")
        self.results_checked += outcome
        deviation: dict[str, Any] = {}
        known = self.items.get(call_id)
        if outcome and known is not None and known.state in _ANSWERED:
            # A second outcome replaces the first and keeps the call (VU-4's source).
            deviation["severity"] = "warning"
        item = self.step(call_id, event, index, line, what=str(kind), ids=(call_id,), id=call_id, **deviation)
        if "toolName" in value:
            item.name = value.get("toolName")
        if event == "ask" and isinstance(value.get("approvalId"), str):
            self._approvals[value["approvalId"]] = call_id

    def finish(self, index: int, line: int | None) -> None:
        self.finish_items(index, line)

    def _reset_step(self) -> None:
        """``reset-step``: ``ai``'s ``processUIMessageStream`` removes every part since the last
        ``start-step`` (``getCurrentStepParts``), so their calls may stream again."""
        removed = set(self._step)
        self.order = [item for item in self.order if item.key not in removed]
        for call_id in removed:
            del self.items[call_id]
        self._approvals = {k: v for k, v in self._approvals.items() if v not in removed}
        self._step = []
