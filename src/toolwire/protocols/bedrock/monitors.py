"""Monitors for AWS Bedrock Converse: ConverseStream (BR-9) and the request's messages (BR-1 to BR-4)."""

from __future__ import annotations

from typing import Any, Final

from toolwire.machines import ConverseConversation, ConverseStream, compile_machine
from toolwire.models import bedrock as wire
from toolwire.properties._blocks import BlockRules, BlockStreamMonitor
from toolwire.properties._lifecycle import Lifecycle
from toolwire.properties._monitor import Monitor, Violations
from toolwire.properties._text import clip
from toolwire.properties._turn import Call, Turn
from toolwire.protocols.bedrock.rules import CONVERSE, MODELLED_SDK, RULES, STREAM

__all__ = ["ConversationMonitor", "StreamMonitor", "id_problem"]

_BOOK: Final = {rule.id: rule for rule in RULES}

BLOCK_RULES: Final = BlockRules(
    envelope="BR-9a",
    order="BR-9b",
    open="BR-9c",
    input="BR-9d",
    stop_reason="BR-9e",
    id="BR-1",
    duplicate=None,
    stop_tool_use=wire.STOP_TOOL_USE,
    contiguous=False,
)
BLOCKS: Final = BLOCK_RULES.lifecycle()
ENVELOPE: Final = Lifecycle.declare(
    ConverseStream,
    {
        ("waiting", "block"): ("BR-9a", "streaming"),
        ("waiting", "stop"): ("BR-9a", "stopped"),
        ("waiting", "metadata"): ("BR-9a", "closed"),
        ("streaming", "start"): "BR-9a",
        ("streaming", "metadata"): ("BR-9a", "closed"),
        ("stopped", "*"): "BR-9a",
        ("closed", "*"): "BR-9a",
    },
    {"streaming": "BR-9a"},
)
_CONVERSATION: Final = compile_machine(ConverseConversation)
_CONVERSATION_VIOLATIONS: Final = Violations.declare(
    _CONVERSATION,
    {
        ("idle", "results"): "BR-3",
        ("awaiting", "calls"): ("BR-2", "awaiting"),
        ("*", "*"): ("BR-2", "idle"),
    },
)


def id_problem(value: Any, field: str = "toolUseId") -> str | None:
    """Why ``value`` is not a valid ``ToolUseId`` (BR-1), or ``None``.

    >>> id_problem("functions.Bash:0") is None
    True
    >>> id_problem("call 1")
    "toolUseId 'call 1' does not match [a-zA-Z0-9_.:-]+"
    """
    pattern, limit = (wire.TOOL_USE_ID, wire.TOOL_USE_ID_MAX)
    if field == "name":
        pattern, limit = (wire.TOOL_NAME, wire.TOOL_NAME_MAX)
    if not isinstance(value, str) or not value:
        return f"{field} is missing"
    if len(value) > limit:
        return f"{field} {clip(value)} is {len(value)} characters long (at most {limit})"
    if not pattern.fullmatch(value):
        return f"{field} {clip(value)} does not match {pattern.pattern}"
    return None


class StreamMonitor(BlockStreamMonitor):
    """Checks ConverseStream events: a ``ContentBlock`` per ``contentBlockIndex`` in a ``ConverseStream``.

    Text and reasoning blocks may open with their first delta (Bedrock sends
    no ``contentBlockStart`` for them); a tool block must start first.

    >>> m = StreamMonitor()
    >>> m.feed({"messageStart": {"role": "assistant"}}, 0, 1, None)
    >>> m.feed({"contentBlockDelta": {"contentBlockIndex": 0,
    ...         "delta": {"toolUse": {"input": "{}"}}}}, 1, 2, None)
    >>> [f.rule for f in m.findings]
    ['BR-9c']
    """

    protocol = STREAM
    modelled_sdk = MODELLED_SDK
    rules = BLOCK_RULES
    lifecycle = BLOCKS
    envelope = ENVELOPE

    def __init__(self) -> None:
        super().__init__(_BOOK)

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        if not isinstance(value, dict) or not value:
            self.notice(index, line, "event is not a JSON object with one member; skipped")
            return
        kind, body = next(iter(value.items()))
        body = body if isinstance(body, dict) else {}
        if kind in (wire.BLOCK_START, wire.BLOCK_DELTA, wire.BLOCK_STOP):
            self.message("block", kind, index, line)
            key = body.get("contentBlockIndex")
            if type(key) is not int:
                self.notice(index, line, f"{kind} without an integer contentBlockIndex; skipped")
            elif kind == wire.BLOCK_START:
                self._start(key, body, index, line)
            elif kind == wire.BLOCK_DELTA:
                self._delta(key, body, index, line)
            else:
                self.block_stop(key, index, line, kind)
        elif kind == wire.MESSAGE_START:
            self.message("start", kind, index, line)
        elif kind == wire.MESSAGE_STOP:
            self.close_blocks(kind, index, line)
            self.message("stop", kind, index, line)
            self.stop_reason(body.get("stopReason"), index, line)
        elif kind == wire.METADATA:
            self.message("metadata", kind, index, line)
        elif kind in wire.EXCEPTIONS:
            self.end_with_error()
        else:
            self.unknown("event", kind, index, line, "skipped")

    def _start(self, key: int, body: dict[str, Any], index: int, line: int | None) -> None:
        start = body.get("start")
        start = start if isinstance(start, dict) else {}
        for member in sorted(start.keys() - wire.START_MEMBERS):
            self.unknown("contentBlockStart member", member, index, line, f"block {key} opens", skipped=False)
        tool = start.get(wire.TOOL_USE)
        if not isinstance(tool, dict) or tool.get("type") is not None:
            # A system tool's call (ToolUseType server_tool_use) is Bedrock's to run and answer.
            self.block_start(key, False, None, None, None, index, line, wire.BLOCK_START)
            return
        call_id, name = tool.get("toolUseId"), tool.get("name")
        bad = id_problem(call_id) or id_problem(name, "name")
        self.block_start(key, True, call_id, name, bad, index, line, wire.BLOCK_START)

    def _delta(self, key: int, body: dict[str, Any], index: int, line: int | None) -> None:
        delta = body.get("delta")
        delta = delta if isinstance(delta, dict) else {}
        for member in sorted(delta.keys() - wire.DELTA_MEMBERS):
            self.unknown("contentBlockDelta member", member, index, line, "passed over", skipped=False)
        tool = delta.get(wire.TOOL_USE)
        if not isinstance(tool, dict) and key not in self.items:
            self.block_start(key, False, None, None, None, index, line, wire.BLOCK_DELTA)
        fragment = tool.get("input") if isinstance(tool, dict) else None
        what = f"contentBlockDelta ({next(iter(delta), None)})"
        text = fragment if isinstance(fragment, str) else None
        self.block_delta(key, text, isinstance(tool, dict), index, line, what)


class ConversationMonitor(Monitor):
    """Checks a Converse request's ``messages`` with :class:`ConverseConversation`.

    >>> m = ConversationMonitor()
    >>> m.feed({"role": "user", "content": [{"toolResult": {"toolUseId": "t1",
    ...         "content": [{"text": "ok"}]}}]}, 0, None, None)
    >>> [f.rule for f in m.findings]
    ['BR-3']
    """

    protocol = CONVERSE
    modelled_sdk = MODELLED_SDK

    def __init__(self) -> None:
        super().__init__(_BOOK)
        self._state = _CONVERSATION.initial
        self._pending: list[str] = []
        self._split: set[str] = set()
        self._turns: list[Turn] = []

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        path = f"messages.{index}"
        if not isinstance(value, dict):
            self.notice(index, line, f"{path} is not an object; skipped")
            return
        content = value.get("content")
        blocks = [b if isinstance(b, dict) else {} for b in content] if isinstance(content, list) else []
        uses = self._blocks(blocks, wire.TOOL_USE, index, line, path)
        results = self._blocks(blocks, wire.TOOL_RESULT, index, line, path)
        self.results_checked += len(results)
        split, self._split = self._split, set()
        if uses:
            event = "calls"
        elif not results or (self._state == _CONVERSATION.initial and set(results) <= split):
            event = "other"
        elif set(self._pending) <= set(results):
            event = "results"
        else:
            event = "partial"
        target = _CONVERSATION.rows[event][self._state]
        if target < 0:
            rule, target = _CONVERSATION_VIOLATIONS.by_pair[self._state, event]
            self._violation(rule, results, index, line, path)
        elif event == "results" and len(results) > len(self._pending):
            self._violation("BR-3", results, index, line, path)
        self._state = target
        if uses:
            turn = Turn(index, line, path)
            turn.calls.extend(Call(b.get("toolUseId"), b.get("name"), b.get("input")) for b in uses.values())
            self._turns.append(turn)
            self._pending = list(uses)

    def _blocks(
        self, blocks: list[dict[str, Any]], kind: str, index: int, line: int | None, path: str
    ) -> dict[str, dict[str, Any]]:
        found: dict[str, dict[str, Any]] = {}
        for k, block in enumerate(blocks):
            if kind == wire.TOOL_USE:
                for member in sorted(block.keys() - wire.CONTENT_BLOCKS):
                    self.unknown("content block", member, index, line, "passed over", skipped=False)
            body = block.get(kind)
            if not isinstance(body, dict):
                continue
            where = f"{path}.content.{k}.{kind}"
            call_id = body.get("toolUseId")
            problem = id_problem(call_id) or (
                id_problem(body.get("name"), "name") if kind == wire.TOOL_USE else None
            )
            if problem is not None:
                self.report("BR-1", f"{where}: {problem}", index=index, line=line, ids=(call_id,), path=where)
            if body.get("type") is not None:
                continue  # a system tool's call or result: Bedrock ran and answered it in this message
            key = str(call_id)
            if key in found:
                self.report(
                    "BR-4",
                    f"{where} repeats id {call_id} within {path}",
                    index=index,
                    line=line,
                    ids=(call_id,),
                    path=f"{path}.content",
                    m=index,
                    id=call_id,
                )
                key = f"{key}#{k}"
            found[key] = body
        return found

    def _violation(
        self, rule: str, results: dict[str, dict[str, Any]], index: int, line: int | None, path: str
    ) -> None:
        if rule == "BR-3":
            self.report(
                rule,
                f"{path} holds {len(results)} toolResult block(s) where the turn before had "
                f"{len(self._pending)} toolUse block(s)",
                index=index,
                line=line,
                ids=list(results),
                path=f"{path}.content",
                m=index,
            )
            return
        missing = [call_id for call_id in self._pending if call_id not in results]
        self._split = set(missing) if results else set()
        self.report(
            rule,
            f"{path} does not answer {', '.join(missing)}"
            + (" (results split over two messages)" if results else ""),
            index=index,
            line=line,
            ids=missing,
            path=f"{path}.content",
            m=index,
            ids_text=", ".join(missing),
        )
        self._pending = []

    def finish(self, index: int, line: int | None) -> None:
        if self._state != _CONVERSATION.initial and self._pending:
            self._violation("BR-2", {}, index, line, f"messages.{index}")

    def calls(self) -> list[Turn]:
        return self._turns
