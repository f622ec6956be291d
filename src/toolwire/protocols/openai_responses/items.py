"""The output items of a Responses stream: each one's machine state and what the stream said of
it, a done function call packed into one int (and what comes back of it), and the checks the
stream monitor makes of one item (:class:`ItemChecks`, a base of
:class:`~toolwire.protocols.openai_responses.stream.StreamMonitor`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Final

from toolwire.machines import FunctionCallItem, OutputItem, compile_machine
from toolwire.models import openai_responses as wire
from toolwire.properties._monitor import Monitor, Violations

if TYPE_CHECKING:
    from toolwire.properties._rule import Severity
    from toolwire.protocols.openai_responses.stream import StreamProfile

__all__ = ["ItemChecks"]

_FUNCTION: Final = compile_machine(FunctionCallItem)
_OTHER: Final = compile_machine(OutputItem)


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


class ItemChecks(Monitor):
    """What the stream monitor does for one output item: find it (back from the shelf when it was
    done and forgotten), step its machine, forget it once done, and say what is wrong with it."""

    # Set up by StreamMonitor.__init__.
    _profile: StreamProfile
    _items: dict[int | None, _Item]
    _item_violations: dict[str, Violations]
    _finished: _Shelf
    _call_owner: dict[str, _Item]
    _forgotten_calls: set[int]
    _incomplete: _Item | None

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

    @staticmethod
    def _severity(*items: _Item | None) -> Severity | None:
        """A warning for a finding about items whose type no real recorded stream shows, else the rule's.

        Issue 38: a modelled hosted or client-executed item type outside
        ``RECORDED_STREAM_ITEM_TYPES`` is known from SDK types and docs only; an unknown type
        (open world) and a function call keep the rule's severity.
        """
        types = [item.type for item in items if item is not None]  # a type may be any JSON value
        unrecorded = [
            t
            for t in types
            if isinstance(t, str) and t in wire.OUTPUT_ITEM_TYPES and t not in wire.RECORDED_STREAM_ITEM_TYPES
        ]
        return "warning" if types and len(unrecorded) == len(types) else None

    def _item_violation(self, item: _Item, event: str, what: str, index: int, line: int | None) -> None:
        rule, recovery = item.violations.by_pair[item.state, event]
        state = item.table.states[item.state].replace("_", " ")
        self.report(
            rule,
            f"{what} for output_index {item.output_index} (call_id {item.call_id}) when the item is {state}",
            index=index,
            line=line,
            ids=item.ids(),
            severity=self._severity(item),
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
