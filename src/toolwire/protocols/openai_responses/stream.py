"""The monitor of OpenAI Responses / Open Responses streams.

One stream monitor serves both stream protocols through a :class:`StreamProfile`;
the differences (which fields an item needs, OR-4/OR-5, ``name`` on
``arguments.done``) are data, not a second copy of the code.  What it does for one output
item (find, step, forget, say what is wrong) is in :mod:`.items`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from toolwire.machines import (
    ResponseStream,
    Table,
    compile_machine,
)
from toolwire.models import DONE, Frame, plain
from toolwire.models import openai_responses as wire
from toolwire.properties._monitor import Violations, hot_type
from toolwire.properties._text import clip as _clip
from toolwire.properties._turn import Call, Turn
from toolwire.protocols.openai_responses.items import (
    _FUNCTION,
    _MASK,
    _OTHER,
    ItemChecks,
    _digest,
    _Forgotten,
    _Item,
    _Shelf,
)
from toolwire.protocols.openai_responses.rules import MODELLED_SDK, OPEN_STREAM, RULES, STREAM

if TYPE_CHECKING:
    from toolwire.models._openai_responses_hot import ArgumentsDelta
    from toolwire.properties._rule import Severity

#: Where its typed events are (see ``Monitor.load_hot``).
_HOT: Final = "toolwire.models._openai_responses_hot"
#: The envelope events a big line of which is read for its type and sequence_number alone: no
#: rule here reads their ``response`` (see ``toolwire.models._lean``).
_LEAN: Final = ("Created", "Queued", "InProgress", "Completed", "Failed", "Incomplete")

__all__ = ["OPENAI_RESPONSES", "OPEN_RESPONSES", "StreamMonitor", "StreamProfile"]

_BOOK: Final = {rule.id: rule for rule in RULES}
_ENVELOPE: Final = compile_machine(ResponseStream)

_ENVELOPE_EVENTS: Final = {
    wire.CREATED: "response_created",
    wire.QUEUED: "queued",
    wire.IN_PROGRESS: "response_in_progress",
    wire.COMPLETED: "completed",
    wire.FAILED: "failed",
    wire.INCOMPLETE: "incomplete",
    wire.ERROR: "error",
}
_ENVELOPE_VIOLATIONS: Final = Violations.declare(
    _ENVELOPE,
    {("start", "*"): ("RS-7a", "in_progress"), ("ended", "*"): "RS-7b", ("*", "*"): "RS-7a"},
)

_ITEM_VIOLATIONS: dict[tuple[str, str], Violations] = {}


@dataclass(frozen=True, slots=True)
class StreamProfile:
    """What differs between the OpenAI Responses stream and the Open Responses stream."""

    protocol: str
    before_added: str
    item_fields: tuple[str, ...]
    item_fields_rule: str
    check_status: bool
    check_sse: bool

    def item_violations(self, table: Table) -> Violations:
        """The rule each illegal step of an item machine breaks, in this profile (declared once)."""
        key = (self.protocol, table.name)
        if key not in _ITEM_VIOLATIONS:
            _ITEM_VIOLATIONS[key] = self._declare_items(table)
        return _ITEM_VIOLATIONS[key]

    def _declare_items(self, table: Table) -> Violations:
        return Violations.declare(
            table,
            {
                ("absent", "*"): self.before_added,
                ("*", "item_added"): "RS-9a",
                ("*", "item_done"): ("RS-7d", "done"),
                ("*", "*"): "RS-7d",
            },
        )


OPENAI_RESPONSES: Final = StreamProfile(
    protocol=STREAM,
    before_added="RS-9b",
    item_fields=("call_id", "name"),
    item_fields_rule="RS-7f",
    check_status=False,
    check_sse=False,
)
OPEN_RESPONSES: Final = StreamProfile(
    protocol=OPEN_STREAM,
    before_added="OR-3",
    item_fields=wire.OPEN_RESPONSES_FUNCTION_CALL_FIELDS,
    item_fields_rule="OR-1",
    check_status=True,
    check_sse=True,
)
# Declared now, not at a monitor's first use, so that diagrams can name the rules.
for _profile in (OPENAI_RESPONSES, OPEN_RESPONSES):
    for _table in (_FUNCTION, _OTHER):
        _profile.item_violations(_table)


class StreamMonitor(ItemChecks):
    """Checks a Responses (or Open Responses) SSE stream, event by event.

    >>> from toolwire.protocols.openai_responses import OPENAI_RESPONSES, StreamMonitor
    >>> m = StreamMonitor(OPENAI_RESPONSES)
    >>> m.feed({"type": "response.output_item.done", "sequence_number": 0,
    ...         "output_index": 0, "item": {"type": "message"}}, 0, 1, None)
    >>> sorted({f.rule for f in m.findings})
    ['RS-7a', 'RS-9b']
    """

    hot = (_HOT, ("ArgumentsDelta", *_LEAN))
    modelled_sdk = MODELLED_SDK

    def __init__(self, profile: StreamProfile = OPENAI_RESPONSES) -> None:
        super().__init__(_BOOK)
        self.protocol = profile.protocol
        self._profile = profile
        self._item_violations = {table.name: profile.item_violations(table) for table in (_FUNCTION, _OTHER)}
        self._envelope = _ENVELOPE.initial
        self._envelope_rows = {etype: _ENVELOPE.rows[event] for etype, event in _ENVELOPE_EVENTS.items()}
        self._item_row = _ENVELOPE.rows["item"]
        self._items: dict[int | None, _Item] = {}
        self._order: list[_Item] = []
        #: Function calls done and forgotten (when :attr:`keep_calls` is off): ``_Item.packed``.
        self._finished = _Shelf()
        #: call_id -> the item that first carried it; the hashes of those since forgotten.
        self._call_owner: dict[str, _Item] = {}
        self._forgotten_calls: set[int] = set()
        self._sequence = -1
        self._unnumbered = False
        self._incomplete: _Item | None = None
        self._done_marker: int | None = None
        self._handlers = {
            wire.ARGS_DELTA: self._delta,
            wire.ARGS_DONE: self._arguments_done,
            wire.ITEM_ADDED: self._added,
            wire.ITEM_DONE: self._item_done,
        }
        self._delta_row = _FUNCTION.rows["delta"]

    # -- the hot path -------------------------------------------------------

    def consume(self, frames: Iterable[Frame]) -> tuple[int, int | None]:
        """Feed every frame; argument deltas that change nothing but state skip :meth:`feed`.

        A delta takes the fast path only when it is clean: an integer
        ``sequence_number`` above the last, an existing ``function_call`` item
        whose machine accepts ``delta``, the item's own ``item_id``, a string
        ``delta``, an envelope that accepts item events unchanged, and a
        matching SSE event name.  Anything else goes through :meth:`feed`, so
        findings are the same either way (a test compares the two).
        """
        index = 0
        line: int | None = None
        items = self._items
        delta_row = self._delta_row
        item_row = self._item_row
        feed = self.feed
        delta_type = wire.ARGS_DELTA
        sequence = self._sequence
        fast = item_row[self._envelope] == self._envelope and self._done_marker is None
        typed: type[ArgumentsDelta] = hot_type(_HOT, "ArgumentsDelta")
        for line, value, event in frames:
            if type(value) is typed:
                # Read typed: every field is there with its type (see _HOT).
                if fast and (event is None or event == delta_type):
                    item = items.get(value.output_index)
                    if value.sequence_number > sequence and item is not None and item.function:
                        target = delta_row[item.state]
                        if target >= 0 and value.item_id == item.id:
                            item.state = target
                            item.deltas.append(value.delta)
                            sequence = value.sequence_number
                            index += 1
                            continue
                value = plain(value)
            elif fast and type(value) is dict and value.get("type") == delta_type:
                number = value.get("sequence_number")
                output_index = value.get("output_index")
                item = items.get(output_index) if type(output_index) is int else None
                if (
                    type(number) is int
                    and number > sequence
                    and item is not None
                    and item.function
                    and (event is None or event == delta_type)
                ):
                    target = delta_row[item.state]
                    delta = value.get("delta")
                    if target >= 0 and type(delta) is str and value.get("item_id") == item.id:
                        item.state = target
                        item.deltas.append(delta)
                        sequence = number
                        index += 1
                        continue
            self._sequence = sequence
            feed(value, index, line, event)
            sequence = self._sequence
            fast = item_row[self._envelope] == self._envelope and self._done_marker is None
            index += 1
        self._sequence = sequence
        return index, line

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        if type(value) is not dict:
            if value is DONE:
                self._on_done(index, line)
            else:
                self.notice(index, line, "event is not a JSON object; skipped")
            return
        etype = value.get("type")
        if type(etype) is not str:
            self.notice(index, line, "event has no string 'type'; skipped")
            return
        if self._done_marker is not None and self._profile.check_sse:
            self.report("OR-5b", f"{etype} after data: [DONE]", index=index, line=line)
        sequence = value.get("sequence_number")
        if type(sequence) is int and sequence > self._sequence:
            self._sequence = sequence
        else:
            self._bad_sequence(sequence, etype, index, line)
        if sse_event is not None and sse_event != etype and self._profile.check_sse:
            self.report(
                "OR-5a", f"SSE event: {sse_event} carries a body of type {etype}", index=index, line=line
            )
        target = self._envelope_rows.get(etype, self._item_row)[self._envelope]
        if target < 0:
            self._envelope_violation(etype, index, line)
        else:
            self._envelope = target
        handler = self._handlers.get(etype)
        if handler is not None:
            handler(value, index, line)
        elif etype in wire.ITEM_EVENT_TYPES:
            self._content(value, etype, index, line)
        elif etype in _ENVELOPE_EVENTS:
            self._terminal(etype, index, line)
        elif not wire.is_extension_type(etype):
            self.unknown("event", etype, index, line, "not checked")

    def _delta(self, event: dict[str, Any], index: int, line: int | None) -> None:
        item = self._item(_output_index(event))
        if item is None or not item.function:
            self._unaddressed(event, "response.function_call_arguments.delta", item, index, line)
            return
        target = self._delta_row[item.state]
        if target < 0:
            self._item_violation(item, "delta", "arguments delta", index, line)
        else:
            item.state = target
        if event.get("item_id") != item.id and item.id is not None:
            self._wrong_item_id(item, event, index, line)
        delta = event.get("delta")
        if type(delta) is str:
            item.deltas.append(delta)
        else:
            self._missing(item, "delta", "response.function_call_arguments.delta", index, line)

    # -- item events --------------------------------------------------------

    def _added(self, event: dict[str, Any], index: int, line: int | None) -> None:
        output_index = event.get("output_index")
        raw = event.get("item")
        if type(output_index) is not int:
            self.report(
                "OR-8", "response.output_item.added has no integer output_index", index=index, line=line
            )
            return
        if not isinstance(raw, dict):
            what = "has no item" if raw is None else "carries an item that is not an object"
            self.report("OR-8", f"response.output_item.added {what}", index=index, line=line)
            raw = None
        known = self._item(output_index)
        if known is not None:
            item = _Item(output_index, raw, index, line, self._item_violations)
            self.report(
                "RS-9a",
                f"a second response.output_item.added for output_index {output_index} "
                f"(first at event {known.index})",
                index=index,
                line=line,
                ids=(*known.ids(), *item.ids()),
                severity=self._severity(known, item),
                output_index=output_index,
            )
            return
        item = _Item(output_index, raw, index, line, self._item_violations)
        item.state = item.table.rows["item_added"][item.state]
        self._items[output_index] = item
        self.calls_checked += item.function
        if self.keep_calls:
            self._order.append(item)
        if self._incomplete is not None:
            self.report(
                "OR-4b",
                f"item added at output_index {output_index} after the incomplete item at "
                f"output_index {self._incomplete.output_index}",
                index=index,
                line=line,
                ids=item.ids(),
            )
        if raw is None:
            return
        if not isinstance(item.type, str) or item.type not in wire.OUTPUT_ITEM_TYPES:
            self.unknown(
                "output item",
                item.type,
                index,
                line,
                f"it holds output_index {output_index} until its output_item.done, its content is not judged",
                skipped=False,
            )
        if item.function:
            self._require_fields(item, raw, "response.output_item.added", index, line)
            self._claim_call_id(item, index, line)
        if self._profile.check_status and raw.get("status") != "in_progress":
            self.report(
                "OR-4a",
                f"item at output_index {output_index} added with status "
                f"{raw.get('status')!r}, not 'in_progress'",
                index=index,
                line=line,
                ids=item.ids(),
            )

    def _claim_call_id(self, item: _Item, index: int, line: int | None) -> None:
        call_id = item.call_id
        if not isinstance(call_id, str):
            return
        owner = self._call_owner.get(call_id)
        if owner is None and _digest(call_id) in self._forgotten_calls:
            # Its owner is on the shelf, or back from it (a later event addressed it).
            owner = next(
                (
                    self._item(k)
                    for k, packed in self._finished.items()
                    if (packed >> 120) & _MASK == _digest(call_id)
                ),
                None,
            ) or next(
                (
                    back
                    for back in self._items.values()
                    if type(back.call_id) is _Forgotten and back.call_id == call_id
                ),
                None,
            )
        if owner is None:
            self._call_owner[call_id] = item
            return
        self._call_owner[call_id] = owner
        self.report(
            "RS-7c",
            f"a second response.output_item.added for call_id {call_id}: output_index "
            f"{item.output_index} (id {item.id}) after output_index {owner.output_index} "
            f"(id {owner.id}, event {owner.index})",
            index=index,
            line=line,
            ids=(call_id, owner.id, item.id),
        )

    def _arguments_done(self, event: dict[str, Any], index: int, line: int | None) -> None:
        item = self._item(_output_index(event))
        if item is None or not item.function:
            self._unaddressed(event, "response.function_call_arguments.done", item, index, line)
            return
        self._step(item, "arguments_complete", "function_call_arguments.done", index, line)
        if event.get("item_id") != item.id and item.id is not None:
            self._wrong_item_id(item, event, index, line)
        arguments = event.get("arguments")
        if not isinstance(arguments, str):
            self._missing(item, "arguments", "response.function_call_arguments.done", index, line)
            return
        if item.args_done is None:
            item.args_done = arguments
        expected = item.prefix + "".join(item.deltas)
        if (item.deltas or item.prefix) and arguments != expected:
            self.report(
                "RS-7e",
                f"arguments.done for call_id {item.call_id} carries {_clip(arguments)}, but its "
                f"deltas concatenate to {_clip(expected)}",
                index=index,
                line=line,
                ids=item.ids(),
            )
        # No rule asks for ``name`` here: the OpenAPI schema lists it, but none of the 50
        # recorded done events of real OpenAI streams (tests/data/traffic) carries it.

    def _item_done(self, event: dict[str, Any], index: int, line: int | None) -> None:
        output_index = event.get("output_index")
        item = self._item(_output_index(event))
        if item is None:
            self._unaddressed(event, "response.output_item.done", None, index, line)
            return
        self._item_done_checked(item, event, output_index, index, line)
        self._forget(item)

    def _item_done_checked(
        self, item: _Item, event: dict[str, Any], output_index: Any, index: int, line: int | None
    ) -> None:
        self._step(item, "item_done", "output_item.done", index, line)
        raw = event.get("item")
        if not isinstance(raw, dict):
            return
        # An item of a type toolwire does not model keeps only its type: what its ids mean is not known.
        identity = (
            (("type", item.type), ("call_id", item.call_id), ("id", item.id))
            if isinstance(item.type, str) and item.type in wire.OUTPUT_ITEM_TYPES
            else (("type", item.type),)
        )
        changed = [
            name
            for name, before in identity
            if before is not None and raw.get(name) is not None and raw.get(name) != before
        ]
        if changed:
            self.report(
                "RS-9c",
                f"output_item.done at output_index {output_index} changes "
                + ", ".join(f"{name} {getattr(item, name)!r} -> {raw.get(name)!r}" for name in changed),
                index=index,
                line=line,
                ids=(*item.ids(), raw.get("call_id"), raw.get("id")),
                severity=self._severity(item),
            )
        if item.function:
            self._require_fields(item, raw, "response.output_item.done", index, line)
            final = raw.get("arguments")
            if isinstance(final, str) and item.args_done is not None and final != item.args_done:
                self.report(
                    "RS-7e",
                    f"output_item.done for call_id {item.call_id} carries arguments "
                    f"{_clip(final)}, but arguments.done said {_clip(item.args_done)}",
                    index=index,
                    line=line,
                    ids=item.ids(),
                )
        if self._profile.check_status:
            status = raw.get("status")
            if status not in ("completed", "incomplete"):
                self.report(
                    "OR-4a",
                    f"item at output_index {output_index} done with status {status!r}",
                    index=index,
                    line=line,
                    ids=item.ids(),
                )
            elif status == "incomplete" and self._incomplete is None:
                self._incomplete = item

    def _content(self, event: dict[str, Any], etype: str, index: int, line: int | None) -> None:
        item = self._item(_output_index(event))
        if item is None:
            self._unaddressed(event, etype, None, index, line)
        elif not item.function:
            self._step(item, "content", etype, index, line)

    # -- envelope -----------------------------------------------------------

    def _terminal(self, etype: str, index: int, line: int | None) -> None:
        if etype == wire.COMPLETED:
            open_items = [item for item in self._items.values() if item.state not in item.table.finals]
            if open_items:
                self.report(
                    "RS-9d",
                    "response.completed while output_index "
                    + ", ".join(str(item.output_index) for item in open_items)
                    + " not done",
                    index=index,
                    line=line,
                    ids=[i for item in open_items for i in item.ids()],
                    severity=self._severity(*open_items),
                )
        if etype in wire.TERMINAL_EVENT_TYPES and self._incomplete is not None and etype != wire.INCOMPLETE:
            self.report(
                "OR-4b",
                f"the response ends with {etype} after an incomplete item",
                index=index,
                line=line,
                ids=self._incomplete.ids(),
            )

    def _envelope_violation(self, etype: str, index: int, line: int | None) -> None:
        event = _ENVELOPE_EVENTS.get(etype, "item")
        rule, recovery = _ENVELOPE_VIOLATIONS.by_pair[self._envelope, event]
        state = _ENVELOPE.states[self._envelope]
        severity: Severity | None = None
        if state == "start":
            message = f"{etype} before response.created"
        elif state == "ended" and event != "item":
            # An envelope event after the end changes no consumer's calls; an item event does
            # (RS-7b's source).
            message, severity = f"{etype} after the response ended (no item: a warning)", "warning"
        elif state == "ended":
            message = f"{etype} after the response ended"
        else:
            message = f"{etype} out of order (the response is {state.replace('_', ' ')})"
        self.report(rule, message, index=index, line=line, severity=severity, type=etype)
        self._envelope = recovery

    def _on_done(self, index: int, line: int | None) -> None:
        if self._done_marker is not None and self._profile.check_sse:
            self.report("OR-5b", "a second data: [DONE]", index=index, line=line)
        self._done_marker = index

    def finish(self, index: int, line: int | None) -> None:
        if self._envelope not in _ENVELOPE.finals:
            self.report(
                "RS-9e",
                "the stream ends without response.completed, .failed or .incomplete",
                index=index,
                line=line,
            )
        if self._profile.check_sse and self.input_format == "sse" and self._done_marker is None:
            self.report("OR-5b", "the SSE stream ends without data: [DONE]", index=index, line=line)

    def calls(self) -> list[Turn]:
        """The function calls of this response, in output order, as one turn."""
        calls: list[Call] = [
            Call(
                item.call_id,
                item.name,
                item.args_done if item.args_done is not None else item.prefix + "".join(item.deltas),
            )
            for item in self._order
            if item.function
        ]
        return [Turn(0, 1, "stream", calls)] if calls else []

    def _bad_sequence(self, sequence: Any, etype: str, index: int, line: int | None) -> None:
        if sequence is None and self._sequence == -1:
            # Streams recorded before sequence_number existed (before 2025-05-21) carry none.
            if not self._unnumbered:
                self._unnumbered = True
                self.report(
                    "RS-8a",
                    f"{etype} has no sequence_number (an older stream?)",
                    index=index,
                    line=line,
                    severity="warning",
                )
            return
        if type(sequence) is not int:
            self.report("RS-8a", f"{etype} has sequence_number {sequence!r}", index=index, line=line)
            return
        self.report(
            "RS-8b",
            f"{etype} has sequence_number {sequence} after {self._sequence}",
            index=index,
            line=line,
        )
        self._sequence = sequence


def _output_index(event: dict[str, Any]) -> int | None:
    """The event's ``output_index`` when it is an integer (anything else addresses nothing)."""
    value = event.get("output_index")
    return value if type(value) is int else None
