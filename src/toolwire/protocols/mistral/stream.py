"""The monitor for Mistral chat streams (MI-6a to MI-6e, and the stream forms of MI-1 to MI-3).

Mistral streams the Chat Completions chunk shape (``CompletionChunk``), but
``mistralai`` parses each ``tool_calls`` entry as a whole ``ToolCall``: name
and arguments required, ``index`` defaulting to 0 and ``id`` to ``"null"``.
Each call runs :class:`ChatToolCallStream`, the OpenAI Chat fragment machine,
keyed by (choice, index); a fragment with a new id where another call sits is
a new call (read apart, reported as MI-6a), so the calls handed to the
relations are the calls Mistral meant.
"""

from __future__ import annotations

from typing import Any, Final

import orjson

from toolwire.machines import ChatToolCallStream, compile_machine
from toolwire.models import DONE
from toolwire.models import mistral as wire
from toolwire.properties._fragments import FragmentMonitor
from toolwire.properties._text import clip
from toolwire.protocols.mistral.monitors import PROFILES, TokenizerProfile, check_id
from toolwire.protocols.mistral.rules import CHAT_STREAM, RULES

__all__ = ["StreamMonitor"]

_BOOK: Final = {rule.id: rule for rule in RULES}
_FRAGMENTS: Final = compile_machine(ChatToolCallStream)


class _Call:
    __slots__ = ("choice", "id", "index", "line", "name", "parts", "position", "state")

    def __init__(self, choice: Any, position: int, call_id: Any, index: int, line: int | None) -> None:
        self.choice, self.position, self.id = choice, position, call_id
        self.index, self.line = index, line
        self.state = _FRAGMENTS.initial
        self.name: str | None = None
        self.parts: list[Any] = []

    def arguments(self) -> Any:
        if len(self.parts) == 1 and isinstance(self.parts[0], dict):
            return orjson.dumps(self.parts[0]).decode()
        return "".join(p if isinstance(p, str) else orjson.dumps(p).decode() for p in self.parts)


class StreamMonitor(FragmentMonitor):
    """Checks Mistral chat chunks: one :class:`ChatToolCallStream` per call.

    >>> m = StreamMonitor()
    >>> m.feed({"choices": [{"index": 0, "delta": {"tool_calls": [{"id": "null",
    ...     "function": {"name": "f", "arguments": "{}"}, "index": 0}]}, "finish_reason": None}]}, 0, 1, None)
    >>> [f.rule for f in m.findings]
    ['MI-3']
    """

    protocol = CHAT_STREAM
    fragments = _FRAGMENTS
    tools_reason = wire.FINISH_TOOL_CALLS
    finish_rule = "MI-6d"
    arguments_rule = "MI-6e"

    def __init__(self, profile: TokenizerProfile = PROFILES["v11"]) -> None:
        super().__init__(_BOOK)
        self.profile = profile
        self._live: dict[tuple[Any, int], _Call] = {}
        self._all: list[_Call] = []
        self._finished: dict[Any, int] = {}
        self._done = False

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        if value is DONE:
            self._done = True
            return
        choices = value.get("choices") if isinstance(value, dict) else None
        if not isinstance(choices, list):
            what = "an error object" if isinstance(value, dict) and "error" in value else "not a chunk"
            self.notice(index, line, f"{what} (no choices); skipped")
            return
        for choice in choices:
            if not isinstance(choice, dict):
                self.notice(index, line, "a choice that is not an object; skipped")
                continue
            number = choice.get("index", 0)
            number = number if isinstance(number, int | str) else 0
            delta = choice.get("delta")
            fragments = delta.get("tool_calls") if isinstance(delta, dict) else None
            for k, fragment in enumerate(fragments if isinstance(fragments, list) else []):
                self._fragment(number, k, fragment, index, line)
            reason = choice.get("finish_reason")
            if reason is not None:
                self._finish(number, reason, index, line)

    def _fragment(self, choice: Any, k: int, fragment: Any, index: int, line: int | None) -> None:
        where = f"choices[{choice}].delta.tool_calls[{k}]"
        if not isinstance(fragment, dict):
            self.notice(index, line, f"{where} is not an object; skipped")
            return
        call_id = fragment.get("id")
        position = fragment.get("index")
        if type(position) is not int:
            self.report(
                "MI-6a",
                f"{where} has no index: mistralai reads it as {wire.DEFAULT_INDEX}",
                index=index,
                line=line,
                ids=(call_id,),
                path=f"{where}.index",
            )
            position = wire.DEFAULT_INDEX
        if choice in self._finished:
            self.report(
                "MI-6d",
                f"{where} comes after choice {choice} finished (event {self._finished[choice]})",
                index=index,
                line=line,
                ids=(call_id,),
                path=where,
            )
            return
        function = fragment.get("function")
        function = function if isinstance(function, dict) else {}
        name, arguments = function.get("name"), function.get("arguments")
        missing = [f for f, v in (("name", name), ("arguments", arguments)) if v is None]
        if missing:
            self.report(
                "MI-6c",
                f"{where}.function has no {' and no '.join(missing)}: mistralai cannot parse the chunk",
                index=index,
                line=line,
                ids=(call_id,),
                path=f"{where}.function",
            )
        key = (choice, position)
        call = self._live.get(key)
        blank = call_id is None or call_id == wire.NULL_ID
        if call is not None and (blank or call_id == call.id):
            if call_id == wire.NULL_ID:
                self.report(
                    "MI-6b",
                    f'{where} continues call {call.id} with id "null"',
                    index=index,
                    line=line,
                    ids=(call.id,),
                    path=f"{where}.id",
                )
            event = "more"
        else:
            if call is not None:
                self.report(
                    "MI-6a",
                    f"{where} opens call {clip(call_id)} at index {position}, where call {call.id} "
                    "is: index-keyed readers merge the two",
                    index=index,
                    line=line,
                    ids=(call.id, call_id),
                    path=f"{where}.index",
                )
            call = self._open(key, call_id, index, line)
            self._check_id(call_id, index, line, f"{where}.id")
            call.name = name if isinstance(name, str) else None
            event = "start"
        call.state = _FRAGMENTS.rows[event][call.state]
        if isinstance(arguments, str | dict):
            call.parts.append(arguments)

    def _check_id(self, call_id: Any, index: int, line: int | None, where: str) -> None:
        what = "no id" if call_id is None else 'id "null"'
        check_id(self, self.profile, call_id, index, line, where, f"{where}: a call opens with {what}")

    def _open(self, key: tuple[Any, int], call_id: Any, index: int, line: int | None) -> _Call:
        call = _Call(key[0], key[1], None if call_id == wire.NULL_ID else call_id, index, line)
        self._live[key] = call
        self._all.append(call)
        return call
