"""Monitors for Anthropic Messages: the stream (AN-10) and the request's messages (AN-1 to AN-7)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from toolwire.machines import AnthropicConversation, MessageStream, compile_machine
from toolwire.models import Frame, plain
from toolwire.models import anthropic as wire
from toolwire.properties._blocks import MESSAGE, BlockRules, BlockStreamMonitor
from toolwire.properties._lifecycle import Item, Lifecycle
from toolwire.properties._monitor import Monitor, Violations, hot_type
from toolwire.properties._text import clip
from toolwire.properties._turn import Call, Turn
from toolwire.protocols.anthropic.rules import MESSAGES, MODELLED_SDK, RULES, STREAM

if TYPE_CHECKING:
    from toolwire.models._anthropic_hot import ToolInputDelta

#: Where its typed events are (see ``Monitor.load_hot``).
_HOT: Final = "toolwire.models._anthropic_hot"

__all__ = ["ConversationMonitor", "StreamMonitor"]

_BOOK: Final = {rule.id: rule for rule in RULES}

BLOCK_RULES: Final = BlockRules(
    envelope="AN-10a",
    order="AN-10b",
    open="AN-10c",
    input="AN-10d",
    stop_reason="AN-10e",
    id="AN-1",
    duplicate="AN-2",
    stop_tool_use=wire.STOP_TOOL_USE,
    truncated="AN-10f",
    unfinished=wire.UNFINISHED_STOP_REASONS,
)
ENVELOPE: Final = Lifecycle.declare(
    MessageStream,
    {
        ("waiting", "block"): ("AN-10a", "streaming"),
        ("waiting", "delta"): ("AN-10a", "ending"),
        ("waiting", "stop"): ("AN-10a", "stopped"),
        ("streaming", "start"): "AN-10a",
        ("streaming", "stop"): ("AN-10a", "stopped"),
        ("ending", "*"): "AN-10a",
        ("stopped", "*"): "AN-10a",
    },
    {"streaming": "AN-10a", "ending": "AN-10a"},
)
_CONVERSATION: Final = compile_machine(AnthropicConversation)
_CONVERSATION_VIOLATIONS: Final = Violations.declare(
    _CONVERSATION,
    {
        ("idle", "*"): "AN-4",
        ("awaiting", "calls"): ("AN-3", "awaiting"),
        ("answering", "calls"): ("AN-3", "awaiting"),
        ("*", "*"): ("AN-3", "idle"),
    },
)


BLOCKS: Final = BLOCK_RULES.lifecycle()
_BLOCK_STREAMING: Final = BLOCKS.table.state("streaming")
_MESSAGE_STREAMING: Final = ENVELOPE.table.state("streaming")


def id_problem(kind: Any, call_id: Any) -> str | None:
    """Why ``call_id`` breaks AN-1 for a block of ``kind`` (tool_use or server_tool_use), or ``None``.

    >>> id_problem("tool_use", "functions.Bash:0")
    "'functions.Bash:0' does not match ^[a-zA-Z0-9_-]+$"
    """
    pattern = wire.TOOL_USE_ID if kind == wire.TOOL_USE else wire.SERVER_TOOL_USE_ID
    if isinstance(call_id, str) and pattern.fullmatch(call_id):
        return None
    return f"{clip(call_id)} does not match ^{pattern.pattern}$"


class StreamMonitor(BlockStreamMonitor):
    """Checks an Anthropic message stream: a ``ContentBlock`` per ``index`` in a :class:`MessageStream`.

    >>> m = StreamMonitor()
    >>> m.feed({"type": "content_block_delta", "index": 0,
    ...         "delta": {"type": "input_json_delta", "partial_json": "{}"}}, 0, 1, None)
    >>> sorted({f.rule for f in m.findings})
    ['AN-10a', 'AN-10c']
    """

    protocol = STREAM
    rules = BLOCK_RULES
    lifecycle = BLOCKS
    envelope = ENVELOPE

    hot = (_HOT, ("ToolInputDelta",))
    modelled_sdk = MODELLED_SDK

    def __init__(self) -> None:
        super().__init__(_BOOK)

    def consume(self, frames: Iterable[Frame]) -> tuple[int, int | None]:
        """The hot path: an input_json_delta for a streaming tool block is appended in place.

        Both steps it takes are self-loops (the block stays ``streaming``, the
        message stays ``streaming``), so skipping them changes nothing;
        everything else goes through :meth:`feed`.
        """
        index = 0
        line: int | None = None
        feed, items = self.feed, self.items
        streaming, open_message = _BLOCK_STREAMING, _MESSAGE_STREAMING
        BLOCK_DELTA, INPUT_JSON_DELTA = wire.BLOCK_DELTA, wire.INPUT_JSON_DELTA
        typed: type[ToolInputDelta] = hot_type(_HOT, "ToolInputDelta")
        for line, value, event in frames:
            if type(value) is typed:
                # Read typed: every field is there with its type (see _HOT).
                item = items.get(value.index)
                message = items.get(MESSAGE)
                if (
                    item is not None
                    and item.state == streaming
                    and message is not None
                    and message.state == open_message
                    and item.data.get("tool")
                    and "whole" not in item.data
                ):
                    item.parts.append(value.delta.partial_json)
                    index += 1
                    continue
                value = plain(value)
            elif type(value) is dict and value.get("type") == BLOCK_DELTA:
                delta = value.get("delta")
                if type(delta) is dict and delta.get("type") == INPUT_JSON_DELTA:
                    key = value.get("index")
                    item = items.get(key) if type(key) is int else None
                    message = items.get(MESSAGE)
                    fragment = delta.get("partial_json")
                    if (
                        item is not None
                        and item.state == streaming
                        and type(fragment) is str
                        and message is not None
                        and message.state == open_message
                        and item.data.get("tool")
                        and "whole" not in item.data
                        and "whole" not in item.data
                    ):
                        item.parts.append(fragment)
                        index += 1
                        continue
            feed(value, index, line, event)
            index += 1
        return index, line

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        if not isinstance(value, dict):
            self.notice(index, line, "event is not a JSON object; skipped")
            return
        kind = value.get("type", sse_event)
        if kind in (wire.BLOCK_START, wire.BLOCK_DELTA, wire.BLOCK_STOP):
            self.message("block", kind, index, line)
            key = value.get("index")
            if type(key) is not int:
                self.notice(index, line, f"{kind} without an integer index; skipped")
            elif kind == wire.BLOCK_START:
                self._start(key, value, index, line)
            elif kind == wire.BLOCK_DELTA:
                delta = value.get("delta")
                delta = delta if isinstance(delta, dict) else {}
                tool = delta.get("type") == wire.INPUT_JSON_DELTA
                fragment = delta.get("partial_json")
                what = f"content_block_delta ({delta.get('type')})"
                if "type" in delta and (
                    not isinstance(delta["type"], str) or delta["type"] not in wire.DELTA_TYPES
                ):
                    # Open world: the block's lifecycle goes on, what the delta says is not judged.
                    self.unknown("content block delta", delta["type"], index, line, skipped=False)
                    self.step(key, "delta", index, line, what=what)
                    return
                if tool:
                    self._whole_at_start(key, index, line)
                self.block_delta(
                    key, fragment if isinstance(fragment, str) else None, tool, index, line, what
                )
            else:
                self.block_stop(key, index, line, kind)
        elif kind == wire.MESSAGE_START:
            self.message("start", kind, index, line)
        elif kind == wire.MESSAGE_DELTA:
            self.close_blocks(kind, index, line)
            self.message("delta", kind, index, line)
            delta = value.get("delta")
            reason = delta.get("stop_reason") if isinstance(delta, dict) else None
            if reason is not None:
                self.stop_reason(reason, index, line)
        elif kind == wire.MESSAGE_STOP:
            self.message("stop", kind, index, line)
        elif kind == wire.ERROR:
            self.end_with_error()
        elif kind != wire.PING:
            self.unknown("event", kind, index, line, "skipped")

    def _start(self, key: int, value: dict[str, Any], index: int, line: int | None) -> None:
        block = value.get("content_block")
        block = block if isinstance(block, dict) else {}
        kind = block.get("type")
        if "type" in block and (not isinstance(kind, str) or kind not in wire.BLOCK_TYPES):
            # Open world: it still occupies its index; it is not a tool call toolwire knows.
            self.unknown("content block", kind, index, line, f"it holds index {key}", skipped=False)
        tool = kind in (wire.TOOL_USE, wire.SERVER_TOOL_USE)
        call_id = block.get("id")
        problem = id_problem(kind, call_id) if tool else None
        bad = None if problem is None else f"{kind} id {problem}"
        item = self.block_start(key, tool, call_id, block.get("name"), bad, index, line, wire.BLOCK_START)
        item.data["client"] = kind == wire.TOOL_USE
        start_input = block.get("input", {})
        if kind == wire.TOOL_USE and not isinstance(start_input, dict):
            self.report(
                "AN-10d",
                f"tool_use block {key} starts with input {clip(start_input)}, not an object",
                index=index,
                line=line,
                ids=(call_id,),
            )
        elif kind == wire.TOOL_USE and start_input != {}:
            # A programmatic call (made from inside the code-execution tool, with a ``caller``)
            # comes whole in its start, with no input_json_delta after it: judged at its first
            # fragment, if one comes.
            item.data["whole"] = start_input
            caller = block.get("caller")
            item.data["programmatic"] = isinstance(caller, dict) and caller.get("type") != "direct"

    def _whole_at_start(self, key: int, index: int, line: int | None) -> None:
        """An input fragment for a tool block whose start carried a non-empty input: AN-10d."""
        item = self.items.get(key)
        if item is None or "whole" not in item.data:
            return
        start_input = item.data.pop("whole")
        self.report(
            "AN-10d",
            f"tool_use block {key} starts with input {clip(start_input)} and then streams "
            "input_json_delta: the input streams after an empty {}, or comes whole in the start "
            "with no fragment",
            index=index,
            line=line,
            ids=(item.id,),
            # Issue 38: no real recording of a programmatic call (one with a caller) was found.
            severity="warning" if item.data.get("programmatic") else None,
        )

    def calls(self) -> list[Turn]:
        """The streamed client tool blocks, as one turn; a programmatic call's input is its start's."""
        blocks = self.tool_calls()
        if not blocks:
            return []
        turn = Turn(blocks[0].index, blocks[0].line, "message")
        for item in blocks:
            text = item.text()
            if not text and isinstance(item.data.get("whole"), dict):
                text = json.dumps(item.data["whole"])
            turn.calls.append(Call(item.id, item.name, text or "{}"))
        return [turn]

    def tool_calls(self) -> list[Item]:
        """Client tool_use blocks only: server tools are run by Anthropic."""
        return [item for item in self.order if item.data.get("client")]


class ConversationMonitor(Monitor):
    """Checks an Anthropic request's ``messages`` with :class:`AnthropicConversation`.

    >>> m = ConversationMonitor()
    >>> m.feed({"role": "assistant", "content": [
    ...     {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {}}]}, 0, None, None)
    >>> m.feed({"role": "user", "content": "What now?"}, 1, None, None)
    >>> [f.rule for f in m.findings]
    ['AN-3']
    """

    protocol = MESSAGES

    def __init__(self) -> None:
        super().__init__(_BOOK)
        self._state = _CONVERSATION.initial
        self._pending: dict[str, str] = {}
        self._opened_at: int | None = None
        self._ids: dict[str, str] = {}
        self._servers: set[str] = set()
        self._turns: list[Turn] = []

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        path = f"messages.{index}"
        if not isinstance(value, dict):
            self.notice(index, line, f"{path} is not an object; skipped")
            return
        role = value.get("role")
        content = value.get("content")
        blocks = [b if isinstance(b, dict) else {} for b in content] if isinstance(content, list) else []
        turn: Turn | None = None
        answered: list[str] = []
        if role == wire.ROLE_ASSISTANT:
            turn = self._assistant(blocks, index, line, path)
            event = "assistant" if turn is None else "calls"
        elif role == wire.ROLE_USER:
            event, answered = self._user(blocks, index, line, path)
        else:
            self.notice(index, line, f"{path} has role {role!r}; skipped")
            return
        target = _CONVERSATION.rows[event][self._state]
        if target < 0:
            rule, target = _CONVERSATION_VIOLATIONS.by_pair[self._state, event]
            if rule == "AN-3":
                self._unanswered(index, line, f"{path} ({role}) comes")
        elif self._state == _CONVERSATION.state("answering"):
            self.report(
                "AN-6",
                f"{path} is a second user message answering messages.{self._opened_at}",
                index=index,
                line=line,
                ids=answered,
                path=path,
            )
        for call_id in answered:
            self._pending.pop(call_id, None)
        self._state = target
        if turn is not None:
            self._turns.append(turn)
            self._pending = {str(call[0]): str(call[1]) for call in turn.calls}
            self._opened_at = index

    def _assistant(
        self, blocks: list[dict[str, Any]], index: int, line: int | None, path: str
    ) -> Turn | None:
        turn = Turn(index, line, path)
        for k, block in enumerate(blocks):
            kind = block.get("type")
            where = f"{path}.content.{k}"
            if kind == wire.TOOL_RESULT:
                self._misplaced(block, "tool_result", "an assistant", index, line, where)
            elif kind in (wire.TOOL_USE, wire.SERVER_TOOL_USE):
                call_id = block.get("id")
                if self._check_id(kind, call_id, index, line, where, k) and kind == wire.TOOL_USE:
                    turn.calls.append(Call(call_id, block.get("name"), block.get("input")))
                elif kind == wire.SERVER_TOOL_USE and isinstance(call_id, str):
                    self._servers.add(call_id)
            elif wire.is_server_result(block) and str(block.get("tool_use_id")) not in self._servers:
                self.report(
                    "AN-4",
                    f"{where} is a {kind} for {block.get('tool_use_id')!r} with no server_tool_use before it",
                    index=index,
                    line=line,
                    ids=(block.get("tool_use_id"),),
                    path=where,
                    m=index,
                    k=k,
                    id=block.get("tool_use_id"),
                )
        return turn if turn.calls else None

    def _check_id(self, kind: str, call_id: Any, index: int, line: int | None, where: str, k: int) -> bool:
        problem = id_problem(kind, call_id)
        if problem is not None:
            self.report(
                "AN-1",
                f"{where}.id is {problem}",
                index=index,
                line=line,
                ids=(call_id,),
                path=f"{where}.{kind}.id",
                m=index,
                k=k,
            )
            return isinstance(call_id, str) and bool(call_id)
        if call_id in self._ids:
            self.report(
                "AN-2",
                f"{where} repeats tool_use id {call_id} of {self._ids[call_id]}",
                index=index,
                line=line,
                ids=(call_id,),
                path=where,
                m=index,
                k=k,
            )
            return True
        self._ids[call_id] = where
        return True

    def _user(
        self, blocks: list[dict[str, Any]], index: int, line: int | None, path: str
    ) -> tuple[str, list[str]]:
        answered: list[str] = []
        results = 0
        other_at: int | None = None
        for k, block in enumerate(blocks):
            kind = block.get("type")
            where = f"{path}.content.{k}"
            if kind in (wire.TOOL_USE, wire.SERVER_TOOL_USE):
                self._misplaced(block, str(kind), "a user", index, line, where)
                continue
            if kind != wire.TOOL_RESULT:
                other_at = k if other_at is None else other_at
                continue
            results += 1
            self.results_checked += 1
            if other_at is not None:
                self.report(
                    "AN-5",
                    f"{where} is a tool_result after a {blocks[other_at].get('type')} block "
                    f"({path}.content.{other_at}); results come first",
                    index=index,
                    line=line,
                    ids=(block.get("tool_use_id"),),
                    path=where,
                )
                other_at = None
            call_id = block.get("tool_use_id")
            if isinstance(call_id, str) and call_id in self._pending and call_id not in answered:
                answered.append(call_id)
            else:
                where_from = (
                    f"messages.{self._opened_at}"
                    if self._pending
                    else "the message before (it has no tool_use)"
                )
                self.report(
                    "AN-4",
                    f"{where}.tool_use_id {clip(call_id)} answers no pending tool_use of {where_from}",
                    index=index,
                    line=line,
                    ids=(call_id,),
                    path=where,
                    m=index,
                    k=k,
                    id=call_id,
                )
        if not results:
            return "user", answered
        if not answered:
            return ("user" if self._pending else "results"), answered
        return ("results" if set(answered) == set(self._pending) else "partial"), answered

    def _misplaced(
        self, block: dict[str, Any], kind: str, role: str, index: int, line: int | None, where: str
    ) -> None:
        self.report(
            "AN-7",
            f"{where} is a {kind} block in {role} message",
            index=index,
            line=line,
            ids=(block.get("id") or block.get("tool_use_id"),),
            path=where,
        )

    def _unanswered(self, index: int, line: int | None, what: str) -> None:
        pending = list(self._pending)
        self.report(
            "AN-3",
            f"{what} while tool_use {', '.join(pending)} of messages.{self._opened_at} are unanswered",
            index=self._opened_at,
            line=line,
            ids=pending,
            path=f"messages.{self._opened_at}",
            m=self._opened_at,
            tool_use_ids=", ".join(pending),
        )
        self._pending.clear()

    def finish(self, index: int, line: int | None) -> None:
        if self._pending and self._state != _CONVERSATION.initial:
            self._unanswered(index, line, "the request ends")

    def calls(self) -> list[Turn]:
        return self._turns
