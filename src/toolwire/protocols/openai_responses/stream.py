"""The monitor of OpenAI Responses / Open Responses streams.

One stream monitor serves both stream protocols through a :class:`StreamProfile`;
the differences (which fields an item needs, OR-4/OR-5, ``name`` on
``arguments.done``) are data, not a second copy of the code.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from toolwire.machines import (
    FunctionCallItem,
    OutputItem,
    ResponseStream,
    Table,
    compile_machine,
)
from toolwire.models import DONE, Frame, plain
from toolwire.models import openai_responses as wire
from toolwire.properties._monitor import Monitor, Violations, hot_type
from toolwire.properties._text import clip as _clip
from toolwire.properties._turn import Call, Turn
from toolwire.protocols.openai_responses.rules import MODELLED_SDK, OPEN_STREAM, RULES, STREAM

if TYPE_CHECKING:
    from toolwire.models._openai_responses_hot import ArgumentsDelta

#: Where its typed events are (see ``Monitor.load_hot``).
_HOT: Final = "toolwire.models._openai_responses_hot"
#: The envelope events a big line of which is read for its type and sequence_number alone: no
#: rule here reads their ``response`` (see ``toolwire.models._lean``).
_LEAN: Final = ("Created", "Queued", "InProgress", "Completed", "Failed", "Incomplete")

__all__ = ["OPENAI_RESPONSES", "OPEN_RESPONSES", "StreamMonitor", "StreamProfile"]

_BOOK: Final = {rule.id: rule for rule in RULES}
_ENVELOPE: Final = compile_machine(ResponseStream)
_FUNCTION: Final = compile_machine(FunctionCallItem)
_OTHER: Final = compile_machine(OutputItem)

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


class _Item:
    """One output item: its machine state and what the stream said about it."""

    __slots__ = (
        "args_done",
        "call_id",
        "deltas",
        "function",
        "id",
        "index",
        "line",
        "name",
        "output_index",
        "prefix",
        "reported",
        "state",
        "table",
        "type",
        "violations",
    )

    def __init__(
        self,
        output_index: int,
        item: dict[str, Any] | None,
        index: int,
        line: int | None,
        profile_violations: dict[str, Violations],
    ) -> None:
        item = item or {}
        self.output_index = output_index
        self.type = item.get("type")
        self.function = self.type == wire.FUNCTION_CALL
        self.table = _FUNCTION if self.function else _OTHER
        self.violations = profile_violations[self.table.name]
        self.state = self.table.initial
        self.id = item.get("id")
        self.call_id = item.get("call_id")
        self.name = item.get("name")
        arguments = item.get("arguments")
        self.prefix = arguments if isinstance(arguments, str) else ""
        self.deltas: list[str] = []
        self.args_done: str | None = None
        self.index = index
        self.line = line
        self.reported: set[str] = set()

    def ids(self) -> tuple[Any, ...]:
        return (self.call_id, self.id)

    def packed(self) -> int:
        """What later rules need of this done function call, in one int (``StreamMonitor._forget``).

        Its state, the event that added it, and 64-bit hashes of what a later event of it is
        compared with: its id and call_id, its name, the text its deltas made, and what
        arguments.done said (each hash with a bit saying whether there was one).  Enough to step
        it again and to break the same rules at the same events, in about 80 bytes.
        """
        text = self.prefix + "".join(self.deltas)
        packed = self.state | self.index << 8 | _digest(self.id) << 56 | _digest(self.call_id) << 120
        for shift, value, present in (
            # 65 bits each: a 64-bit hash and the bit that says there was one.
            (184, text, bool(text)),
            (249, self.args_done, self.args_done is not None),
            (314, self.name, self.name is not None),
        ):
            if present:
                packed |= (_digest(value) | 1 << 64) << shift
        return packed

    @classmethod
    def unpacked(cls, output_index: int, packed: int, violations: dict[str, Violations]) -> _Item:
        """A done function call back from :meth:`packed`; what it said compares by its hashes."""
        item = cls(output_index, {"type": wire.FUNCTION_CALL}, (packed >> 8) & _INDEX, None, violations)
        item.state = packed & 0xFF
        item.id = _Forgotten((packed >> 56) & _MASK, "id")
        item.call_id = _Forgotten((packed >> 120) & _MASK, "call_id")
        fields = [(packed >> shift) & ((1 << 65) - 1) for shift in (184, 249, 314)]
        text, done, name = (
            _Forgotten(f & _MASK, what) if f >> 64 else None
            for f, what in zip(fields, ("arguments", "arguments.done", "name"), strict=True)
        )
        item.prefix = text if text is not None else ""  # type: ignore[assignment]
        item.args_done = done  # type: ignore[assignment]
        item.name = name
        return item


_MASK: Final = (1 << 64) - 1
_INDEX: Final = (1 << 48) - 1


def _digest(value: Any) -> int:
    try:
        return hash(value) & _MASK
    except TypeError:  # a name or id of a broken stream may be a JSON list or object: digest its text
        return hash(repr(value)) & _MASK


class _Shelf:
    """Packed done calls by output_index: a list while the indexes run 0, 1, 2, ... (8 bytes a
    slot), a dict for the rest."""

    __slots__ = ("dense", "sparse")

    def __init__(self) -> None:
        self.dense: list[int | None] = []
        self.sparse: dict[int, int] = {}

    def put(self, key: int, packed: int) -> None:
        dense = self.dense
        if 0 <= key < len(dense) + 64:
            if key >= len(dense):
                dense.extend([None] * (key + 1 - len(dense)))
            dense[key] = packed
        else:
            self.sparse[key] = packed

    def pop(self, key: int) -> int | None:
        if 0 <= key < len(self.dense):
            packed, self.dense[key] = self.dense[key], None
            return packed
        return self.sparse.pop(key, None)

    def items(self) -> Iterator[tuple[int, int]]:
        yield from ((key, packed) for key, packed in enumerate(self.dense) if packed is not None)
        yield from self.sparse.items()


class _Forgotten:
    """The id of a done call that was forgotten: equal to the ids with its hash, named by it."""

    __slots__ = ("digest", "field")

    def __init__(self, digest: int, field: str) -> None:
        self.digest = digest
        self.field = field

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _Forgotten):
            return self.digest == other.digest
        return other is not None and _digest(other) == self.digest

    def __hash__(self) -> int:
        return self.digest

    def __add__(self, other: str) -> _Forgotten:
        # A forgotten call's arguments text, joined with its (forgotten, so empty) deltas.
        if other:
            raise TypeError("a forgotten call's arguments take no more text")
        return self

    def __repr__(self) -> str:
        return f"<{self.field} of a finished call>"

    __str__ = __repr__


class StreamMonitor(Monitor):
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
        if item.type not in wire.OUTPUT_ITEM_TYPES:
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
            if item.type in wire.OUTPUT_ITEM_TYPES
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
        if state == "start":
            message = f"{etype} before response.created"
        elif state == "ended":
            message = f"{etype} after the response ended"
        else:
            message = f"{etype} out of order (the response is {state.replace('_', ' ')})"
        self.report(rule, message, index=index, line=line, type=etype)
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

    # -- memory -------------------------------------------------------------

    def _item(self, output_index: int | None) -> _Item | None:
        """The item at ``output_index``; one done and forgotten comes back in its state."""
        item = self._items.get(output_index)
        packed = None if output_index is None else self._finished.pop(output_index)
        if item is None and packed is not None and output_index is not None:
            item = _Item.unpacked(output_index, packed, self._item_violations)
            self._items[output_index] = item
        return item

    def _forget(self, item: _Item) -> None:
        """Drop a done function call but for its ids' hashes, when no one will ask for :meth:`calls`.

        Later events that address it find it again in its state, and its ids compare by their
        hashes, so the rules they break are the same; findings name its ids as forgotten, and
        its arguments are gone, which no rule reads once it is done.
        """
        if (
            self.keep_calls
            or not item.function
            or item.state not in item.table.finals
            or item is self._incomplete
            or item.reported
            # Only string ids pack into hashes that compare as the ids did (a None id equals None).
            or not isinstance(item.id, str)
            or not isinstance(item.call_id, str)
        ):
            return
        del self._items[item.output_index]
        self._finished.put(item.output_index, item.packed())
        if isinstance(item.call_id, str) and self._call_owner.get(item.call_id) is item:
            del self._call_owner[item.call_id]
            self._forgotten_calls.add(_digest(item.call_id))

    # -- shared helpers -----------------------------------------------------

    def _step(self, item: _Item, event: str, what: str, index: int, line: int | None) -> None:
        target = item.table.rows[event][item.state]
        if target < 0:
            self._item_violation(item, event, what, index, line)
        else:
            item.state = target

    def _item_violation(self, item: _Item, event: str, what: str, index: int, line: int | None) -> None:
        rule, recovery = item.violations.by_pair[item.state, event]
        state = item.table.states[item.state].replace("_", " ")
        self.report(
            rule,
            f"{what} for output_index {item.output_index} (call_id {item.call_id}) when the item is {state}",
            index=index,
            line=line,
            ids=item.ids(),
            output_index=item.output_index,
        )
        item.state = recovery

    def _unaddressed(
        self, event: dict[str, Any], etype: str, item: _Item | None, index: int, line: int | None
    ) -> None:
        output_index = event.get("output_index")
        if item is not None and item.type is None:
            return  # its output_item.added had no item, and OR-8 said so: nothing more to say of it
        if item is not None:
            self.report(
                "RS-1a",
                f"{etype} addresses output_index {output_index}, which holds a "
                f"{item.type} item, not a function_call",
                index=index,
                line=line,
                ids=(event.get("item_id"), item.id),
            )
            return
        if type(output_index) is not int:
            self.report(
                "OR-8",
                f"{etype} has no integer output_index",
                index=index,
                line=line,
                ids=(event.get("item_id"),),
            )
            return
        self.report(
            self._profile.before_added,
            f"{etype} for output_index {output_index} before its response.output_item.added",
            index=index,
            line=line,
            ids=(event.get("item_id"),),
            output_index=output_index,
        )

    def _wrong_item_id(self, item: _Item, event: dict[str, Any], index: int, line: int | None) -> None:
        if "RS-1a" in item.reported:
            return
        item.reported.add("RS-1a")
        given = event.get("item_id")
        hint = " (that is the call_id)" if given == item.call_id else ""
        self.report(
            "RS-1a",
            f"{event.get('type')} carries item_id {given!r}{hint}, but the item at output_index "
            f"{item.output_index} has id {item.id!r}; later events of this item are not "
            "reported again",
            index=index,
            line=line,
            ids=(item.call_id, item.id, given),
        )

    def _missing(self, item: _Item, field: str, etype: str, index: int, line: int | None) -> None:
        self.report(
            "OR-8",
            f"{etype} for output_index {item.output_index} has no string {field}",
            index=index,
            line=line,
            ids=item.ids(),
        )

    def _require_fields(
        self, item: _Item, raw: dict[str, Any], etype: str, index: int, line: int | None
    ) -> None:
        missing = [
            name
            for name in self._profile.item_fields
            if raw.get(name) in (None, "") and not (name == "arguments" and raw.get(name) == "")
        ]
        if missing:
            self.report(
                self._profile.item_fields_rule,
                f"the function_call item of {etype} at output_index {item.output_index} lacks "
                + ", ".join(missing),
                index=index,
                line=line,
                ids=item.ids(),
            )

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
