"""Streams of content blocks by index (Anthropic Messages, Bedrock ConverseStream).

Both open a block with a start event carrying the call's id and name, stream
its input as string fragments that correlate by index alone, and close it; the
message ends with a stop reason that must say the turn called tools.  A
protocol names its rules in a :class:`BlockRules` and parses its own events;
the block lifecycle and the checks are shared.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolwire.machines import ContentBlock
from toolwire.properties._lifecycle import Item, KeyedMonitor, Lifecycle
from toolwire.properties._rule import Rule
from toolwire.properties._text import clip, json_problem
from toolwire.properties._turn import Call, Turn

__all__ = ["MESSAGE", "BlockRules", "BlockStreamMonitor"]

#: The key of the stream envelope among the block keys (which are ints).
MESSAGE = "message"


@dataclass(frozen=True, slots=True)
class BlockRules:
    """Which rule of a protocol each shared block check reports."""

    envelope: str
    order: str
    open: str
    input: str
    stop_reason: str
    id: str
    duplicate: str | None
    stop_tool_use: str
    #: Block indexes run 0, 1, 2, ... without gaps (Anthropic); otherwise they only grow (Bedrock).
    contiguous: bool = True
    #: The rule a tool block's unparsable input breaks when the message then stops unfinished
    #: (a stop reason in ``unfinished``): the call was cut off, not malformed.  ``None``: ``input``.
    truncated: str | None = None
    unfinished: frozenset[str] = frozenset()

    def lifecycle(self) -> Lifecycle:
        """The :class:`ContentBlock` lifecycle with these rules on its illegal steps."""
        return Lifecycle.declare(
            ContentBlock,
            {
                ("absent", "*"): (self.open, "streaming"),
                ("streaming", "start"): self.order,
                ("stopped", "start"): (self.order, "streaming"),
                ("stopped", "*"): self.open,
            },
            {"streaming": self.open},
        )


class BlockStreamMonitor(KeyedMonitor):
    """The shared half of a block stream monitor; subclasses parse the wire and call in."""

    rules: BlockRules
    envelope: Lifecycle

    def __init__(self, book: Mapping[str, Rule]) -> None:
        super().__init__(book)
        self._ids: dict[str, int] = {}
        self._next = 0
        self._ended = False
        self._stop_reason_at: int | None = None
        #: Tool blocks whose input did not parse, judged when the stop reason says whether the
        #: message was cut off: (block, problem, event, line, where its finding goes).
        self._unparsed: list[tuple[Item, str, int, int | None, int]] = []

    def describe(self, item: Item) -> str:
        if item.key == MESSAGE:
            return "the message"
        named = f" ({item.name} {clip(str(item.id))})" if item.id is not None else ""
        return f"block {item.key}{named}"

    def message(self, event: str, what: str, index: int, line: int | None) -> None:
        """Step the envelope."""
        self.step(MESSAGE, event, index, line, what=what, lifecycle=self.envelope, type=what)

    def end_with_error(self) -> None:
        """An error event ended the stream: what was open is not a violation."""
        self._ended = True

    def block_start(
        self,
        key: int,
        tool: bool,
        call_id: Any,
        name: Any,
        bad_id: str | None,
        index: int,
        line: int | None,
        what: str,
    ) -> Item:
        """A block opens at ``key``; ``bad_id`` says why ``call_id`` breaks the id rule, if it does."""
        known = key in self.items
        expected = self._next
        if not known:
            self._next = max(expected, key + 1)
        if not known and (key < expected or (self.rules.contiguous and key != expected)):
            self.report(
                self.rules.order,
                f"{what} for index {key} where index {expected} comes next",
                index=index,
                line=line,
                ids=(call_id,),
            )
        repeated = known and self.items[key].id == call_id
        item = self.step(key, "start", index, line, what=what, ids=(call_id,))
        item.data["tool"] = tool
        if not tool:
            return item
        item.id, item.name, item.parts = call_id, name, []
        if bad_id is not None:
            self.report(self.rules.id, f"block {key}: {bad_id}", index=index, line=line, ids=(call_id,))
        elif repeated or self.rules.duplicate is None:
            pass
        elif call_id in self._ids:
            self.report(
                self.rules.duplicate,
                f"block {key} repeats id {call_id} of block {self._ids[call_id]}",
                index=index,
                line=line,
                ids=(call_id,),
                m=0,
                k=key,
            )
        else:
            self._ids[call_id] = key
        return item

    def block_delta(
        self, key: int, fragment: str | None, tool_fragment: bool, index: int, line: int | None, what: str
    ) -> None:
        """A fragment for the block at ``key``; ``tool_fragment`` says it streams tool input."""
        item = self.step(key, "delta", index, line, what=what)
        if tool_fragment and fragment is not None:
            item.parts.append(fragment)
        elif item.data.get("tool") and not tool_fragment:
            self.report(
                self.rules.input,
                f"{what} for tool block {key} does not stream input",
                index=index,
                line=line,
                ids=(item.id,),
            )

    def block_stop(self, key: int, index: int, line: int | None, what: str) -> None:
        """The block at ``key`` closes: its input must parse to an object."""
        item = self.step(key, "stop", index, line, what=what)
        if item.data.get("tool") and item.text():
            # No fragments, or only empty ones (a tool without arguments streams one
            # partial_json ""): the SDKs keep the start's input {}.
            self._check_input(item, index, line)

    def _check_input(self, item: Item, index: int, line: int | None) -> None:
        problem = json_problem(item.text(), want_object=True)
        if problem is None:
            return
        if self.rules.truncated is None:
            self._report_input(self.rules.input, item, problem, index, line)
        else:
            self._unparsed.append((item, problem, index, line, len(self.findings)))

    def _report_input(self, rule: str, item: Item, problem: str, index: int, line: int | None) -> None:
        text = item.text()
        if rule == self.rules.input:
            message = f"the input fragments of block {item.key} ({item.id}) joined {problem}: {clip(text)}"
        else:
            message = (
                f"the message stopped unfinished while block {item.key} ({item.id}) streamed its input, "
                f"which {problem}: {clip(text)}; the call is incomplete"
            )
        self.report(rule, message, index=index, line=line, ids=(item.id,))

    def _judge_unparsed(self, reason: Any) -> None:
        """Report the unparsed inputs: cut off when ``reason`` says the message stopped unfinished."""
        # Any JSON value may come as a stop reason (a list is not hashable): only a string is one.
        cut = self.rules.truncated if isinstance(reason, str) and reason in self.rules.unfinished else None
        for shift, (item, problem, index, line, at) in enumerate(self._unparsed):
            self._report_input(cut or self.rules.input, item, problem, index, line)
            # In event order: where the finding would have gone had it been reported at once.
            self.findings.insert(at + shift, self.findings.pop())
        self._unparsed.clear()

    def close_blocks(self, what: str, index: int, line: int | None) -> None:
        """The message is ending: every block still streaming breaks the open rule."""
        streaming = self.lifecycle.table.state("streaming")
        for item in self.order:
            if item.key != MESSAGE and item.state == streaming:
                self.report(
                    self.rules.open,
                    f"{what} while {self.describe(item)} (opened at event {item.index}) is streaming",
                    index=index,
                    line=line,
                    ids=(item.id,),
                )
                item.state = self.lifecycle.table.state("stopped")

    def tool_calls(self) -> list[Item]:
        """The tool blocks, in the order they opened."""
        return [item for item in self.order if item.data.get("tool")]

    def stop_reason(self, reason: Any, index: int, line: int | None) -> None:
        """The message's stop reason: it says ``tool_use`` when the message called tools."""
        self._stop_reason_at = index
        self._judge_unparsed(reason)
        calls = [item.id for item in self.tool_calls()]
        unfinished = isinstance(reason, str) and reason in self.rules.unfinished
        if calls and reason != self.rules.stop_tool_use and not unfinished:
            self.report(
                self.rules.stop_reason,
                f"stop reason {reason!r} on a message that calls {', '.join(map(str, calls))}",
                index=index,
                line=line,
                ids=calls,
            )

    def finish(self, index: int, line: int | None) -> None:
        self._judge_unparsed(None)
        if self._ended:
            return
        self.finish_items(index, line)
        calls = [item.id for item in self.tool_calls()]
        message = self.items.get(MESSAGE)
        stopped = message is not None and message.state in self.envelope.table.finals
        if calls and stopped and self._stop_reason_at is None:
            self.report(
                self.rules.stop_reason,
                f"the message calls {', '.join(map(str, calls))} but the stream gives no stop reason",
                index=index,
                line=line,
                ids=calls,
            )

    def calls(self) -> list[Turn]:
        """The streamed tool blocks, as one turn."""
        blocks = self.tool_calls()
        if not blocks:
            return []
        turn = Turn(blocks[0].index, blocks[0].line, "message")
        turn.calls.extend(Call(item.id, item.name, item.text() or "{}") for item in blocks)
        return [turn]
