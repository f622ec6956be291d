"""Monitors for OpenAI Chat Completions: streamed chunks (CC-6) and request messages (CC-1 to CC-5)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from toolwire.machines import ChatConversation, ChatToolCallStream, compile_machine
from toolwire.models import DONE, Frame, plain
from toolwire.models import openai_chat as wire
from toolwire.properties._fragments import FragmentCall, FragmentMonitor
from toolwire.properties._monitor import Monitor, Violations, hot_type
from toolwire.properties._text import clip as _clip
from toolwire.properties._turn import Call, Turn
from toolwire.protocols.openai_chat.rules import CHAT, CHAT_STREAM, MODELLED_SDK, RULES

if TYPE_CHECKING:
    from toolwire.models._openai_chat_hot import ArgumentsChunk, RequestMessage

#: Where its typed events are (see ``Monitor.load_hot``).
_HOT: Final = "toolwire.models._openai_chat_hot"

__all__ = ["ConversationMonitor", "StreamMonitor"]

_BOOK: Final = {rule.id: rule for rule in RULES}
_FRAGMENTS: Final = compile_machine(ChatToolCallStream)
_CONVERSATION: Final = compile_machine(ChatConversation)
_AWAITING: Final = _CONVERSATION.state("awaiting")

_FRAGMENT_VIOLATIONS: Final = Violations.declare(
    _FRAGMENTS,
    {
        ("absent", "more"): ("CC-6a", "open"),
        ("open", "start"): "CC-6c",
        ("closed", "*"): "CC-6d",
        ("absent", "finish"): "CC-6d",
    },
)
_CONVERSATION_VIOLATIONS: Final = Violations.declare(
    _CONVERSATION,
    {
        ("idle", "stray"): "CC-2",
        ("*", "stray"): "CC-3",
        ("*", "repeat"): "CC-5c",
        ("awaiting", "other"): ("CC-4", "idle"),
        ("awaiting", "calls"): ("CC-4", "awaiting"),
        ("*", "*"): "CC-2",
    },
)


class _StreamedCall:
    __slots__ = ("choice", "id", "index", "line", "name", "parts", "position", "repeated", "state")

    def __init__(self, choice: Any, position: int, index: int, line: int | None) -> None:
        self.choice = choice
        self.position = position
        self.state = _FRAGMENTS.initial
        self.id: str | None = None
        self.name: str | None = None
        self.parts: list[str] = []
        self.index = index
        self.line = line
        self.repeated = False

    def arguments(self) -> str:
        return "".join(self.parts)


class StreamMonitor(FragmentMonitor):
    """Checks Chat Completions chunks: one :class:`ChatToolCallStream` per (choice, index).

    >>> m = StreamMonitor()
    >>> m.feed({"choices": [{"index": 0, "delta": {"tool_calls": [
    ...     {"index": 0, "function": {"arguments": "{}"}}]}}]}, 0, 1, None)
    >>> [f.rule for f in m.findings]
    ['CC-6a']
    """

    protocol = CHAT_STREAM
    hot = (_HOT, ("ArgumentsChunk",))
    modelled_sdk = MODELLED_SDK
    fragments = _FRAGMENTS
    tools_reason = wire.FINISH_TOOL_CALLS
    finish_rule = "CC-6d"
    arguments_rule = "CC-6e"

    def __init__(self) -> None:
        super().__init__(_BOOK)
        self._live: dict[tuple[Any, int], _StreamedCall] = {}
        self._all: list[_StreamedCall] = []
        #: (choice, index) pairs a tool_calls entry of a type toolwire does not model holds.
        self._opaque: set[tuple[Any, int]] = set()
        self._finished: dict[Any, int] = {}
        self._done = False

    def consume(self, frames: Iterable[Frame]) -> tuple[int, int | None]:
        """The hot path: a typed chunk that only streams more arguments of one open call.

        Its step is a self-loop of the call's machine, so appending the arguments is all
        :meth:`feed` would do; any other chunk goes through :meth:`feed`.
        """
        index = 0
        line: int | None = None
        feed, live, finished = self.feed, self._live, self._finished
        more = _FRAGMENTS.rows["more"]
        typed: type[ArgumentsChunk] = hot_type(_HOT, "ArgumentsChunk")
        # The (choice, index) the last chunk streamed to and its call's parts, while no other
        # chunk came between: the next chunk for the same pair takes the same self-loop.  Plain
        # ints in locals, and one-item unpacking for the lengths: fewer steps per chunk.
        last_choice: Any = None
        last_position: Any = None
        parts: list[str] = []
        for line, value, event in frames:
            if type(value) is typed:
                try:
                    (choice,) = value.choices
                    (fragment,) = choice.delta.tool_calls
                except ValueError:
                    pass  # no choice or fragment, or several: read plain
                else:
                    if fragment.index == last_position and choice.index == last_choice:
                        parts.append(fragment.function.arguments)
                        index += 1
                        continue
                    call = live.get((choice.index, fragment.index))
                    if call is not None and choice.index not in finished and more[call.state] == call.state:
                        parts = call.parts
                        parts.append(fragment.function.arguments)
                        last_choice, last_position = choice.index, fragment.index
                        index += 1
                        continue
                value = plain(value)
            last_choice = last_position = None
            feed(value, index, line, event)
            index += 1
        return index, line

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        if value is DONE:
            self._done = True
            return
        if not isinstance(value, dict):
            self.notice(index, line, "chunk is not a JSON object; skipped")
            return
        choices = value.get("choices")
        if not isinstance(choices, list):
            what = "an error object" if "error" in value else "a chunk without choices"
            self.notice(index, line, f"{what}; skipped")
            return
        for choice in choices:
            if not isinstance(choice, dict):
                self.notice(index, line, "a choice that is not an object; skipped")
                continue
            number = choice.get("index", 0)
            if not isinstance(number, int | str):
                self.notice(index, line, f"a choice with index {number!r}; read as 0")
                number = 0
            delta = choice.get("delta")
            fragments = delta.get("tool_calls") if isinstance(delta, dict) else None
            if isinstance(fragments, list):
                for fragment in fragments:
                    self._fragment(number, fragment, index, line)
            reason = choice.get("finish_reason")
            if reason is not None:
                self._finish(number, reason, index, line)

    def _fragment(self, choice: Any, fragment: Any, index: int, line: int | None) -> None:
        if not isinstance(fragment, dict):
            self.notice(index, line, "a tool_calls entry that is not an object; skipped")
            return
        position = fragment.get("index")
        if type(position) is not int:
            said = "a tool_calls fragment without index (read as index 0, as the mistralai SDK does)"
            self.report("CC-6c", said, index=index, line=line, ids=(fragment.get("id"),))
            position = 0
        if choice in self._finished:
            self.report(
                "CC-6d",
                f"a fragment for index {position} after choice {choice} finished "
                f"(event {self._finished[choice]})",
                index=index,
                line=line,
                ids=(fragment.get("id"),),
            )
            return
        kind = fragment.get("type")
        if kind is not None and kind != "function":
            # Open world (ChoiceDeltaToolCall.type is only "function" in the SDK): the entry
            # holds its index, and its fragments are not judged.
            self._opaque.add((choice, position))
            self.unknown(
                "tool_calls entry", kind, index, line, f"index {position} passed over", skipped=False
            )
            return
        if kind is None and (choice, position) in self._opaque:
            return
        self._opaque.discard((choice, position))
        function = fragment.get("function")
        function = function if isinstance(function, dict) else {}
        call_id = fragment.get("id")
        if call_id == wire.NULL_ID_PLACEHOLDER:
            self.report(
                "CC-6b", f'the string "null" as id on a fragment for index {position}', index=index, line=line
            )
            call_id = None
        key = (choice, position)
        call = self._live.get(key)
        if call is None:
            call = self._open(key, index, line)
        if call_id is None:
            event = "more"
        elif call.id is None and call.state == _FRAGMENTS.initial:
            event = "start"
        elif call_id == call.id:
            event = "more"
            if not call.repeated:
                call.repeated = True
                self.report(
                    "CC-6b",
                    f"id {call_id} repeated on a continuation fragment for index {position}",
                    index=index,
                    line=line,
                    ids=(call_id,),
                    severity="warning",
                )
        else:
            event = "start"
        target = _FRAGMENTS.rows[event][call.state]
        if target < 0:
            rule, target = _FRAGMENT_VIOLATIONS.by_pair[call.state, event]
            if rule == "CC-6c":
                hint = " (every call at index 0, as Mistral and Ollama send)" if position == 0 else ""
                self.report(
                    "CC-6c",
                    f"index {position} already carries call {call.id}; a fragment "
                    f"with id {call_id} reuses it{hint}",
                    index=index,
                    line=line,
                    ids=(call.id, call_id),
                )
                call = self._open(key, index, line)
            else:
                self.report(
                    rule,
                    f"a continuation fragment for index {position} with no call "
                    "opened there (the first fragment must carry id and function.name)",
                    index=index,
                    line=line,
                )
        call.state = target
        if event == "start":
            call.id = call_id
            name = function.get("name")
            call.name = name if isinstance(name, str) else None
            if not call.name:
                self.report(
                    "CC-6a",
                    f"the first fragment of call {call_id} (index {position}) has no function.name",
                    index=index,
                    line=line,
                    ids=(call_id,),
                )
        arguments = function.get("arguments")
        if isinstance(arguments, str):
            call.parts.append(arguments)

    def _open(self, key: tuple[Any, int], index: int, line: int | None) -> _StreamedCall:
        self.calls_checked += 1
        call = _StreamedCall(key[0], key[1], index, line)
        self._live[key] = call
        if self.keep_calls:
            self._all.append(call)
        return call

    def _unfinished(self, call: FragmentCall) -> str:
        if self._done:
            return (
                f"the stream ends with [DONE] and no finish_reason for call {call.id} "
                f"(index {call.position}) of choice {call.choice}"
            )
        return super()._unfinished(call)


def _unanswered(pending: list[str], opened_at: int | None) -> str:
    """The calls left unanswered, for a CC-4 message: a call without an id has none to name."""
    if not pending:
        return f"a call without an id (messages[{opened_at}]) is unanswered"
    return f"calls {', '.join(pending)} (messages[{opened_at}]) are unanswered"


class ConversationMonitor(Monitor):
    """Checks a Chat Completions request's ``messages`` with :class:`ChatConversation`.

    >>> m = ConversationMonitor()
    >>> m.feed({"role": "tool", "tool_call_id": "call_1", "content": "Result"}, 0, None, None)
    >>> [f.rule for f in m.findings]
    ['CC-2']
    """

    protocol = CHAT
    hot = (_HOT, ("RequestBody",))
    modelled_sdk = MODELLED_SDK

    def __init__(self) -> None:
        super().__init__(_BOOK)
        self._state = _CONVERSATION.initial
        self._pending: dict[str, int] = {}
        self._answered: set[str] = set()
        self._opened_at: int | None = None
        self._turns: list[Turn] = []

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        if not isinstance(value, dict):
            self.notice(index, line, f"messages[{index}] is not an object; skipped")
            return
        if not isinstance(value.get("role"), str):
            role = value.get("role")
            self.notice(index, line, f"messages[{index}].role is {role!r}, not a string; skipped")
            return
        if value["role"] not in wire.MESSAGE_ROLES:
            self.unknown("message role", value["role"], index, line, "skipped")
            return
        calls = wire.message_tool_calls(value)
        tool_call_id: Any = None
        if value.get("role") == wire.ROLE_TOOL:
            self.results_checked += 1
            tool_call_id = value.get("tool_call_id")
            event = self._classify_answer(tool_call_id)
            if isinstance(tool_call_id, str) and len(tool_call_id) > wire.CHAT_TOOL_CALL_ID_MAX:
                where = f"messages[{index}].tool_call_id"
                said = f"{where} is {len(tool_call_id)} characters long"
                self.report("CC-1b", said, index=index, line=line, ids=(tool_call_id,), path=where)
        else:
            event = "calls" if calls else "other"
        target = _CONVERSATION.rows[event][self._state]
        if target < 0:
            rule, target = _CONVERSATION_VIOLATIONS.by_pair[self._state, event]
            self._violation(rule, value, tool_call_id, index, line, f"messages[{index}]")
        self._state = target
        if event in ("answer", "last_answer"):
            del self._pending[tool_call_id]
            self._answered.add(tool_call_id)
        elif event == "repeat":
            pass
        elif event == "calls" and calls is not None:
            self._open_turn(calls, index, line)
        elif event == "other":
            self._pending.clear()
            self._answered.clear()

    def feed_document(self, items: list[Any], line: int | None) -> None:
        """The hot path: the usual messages take the step :meth:`feed` would take, inline.

        A message that is neither a tool result nor an assistant's tool calls steps ``other``
        and forgets the pending calls; an assistant's tool calls whose ids are all new,
        non-empty strings of at most 40 characters open them (unless calls are kept for the
        round trip); a tool result answering a pending call with such an id answers it.  Each
        only when its machine step is legal.  Every other message goes through :meth:`feed`,
        so findings are the same either way (a test compares the two).  The messages of a body
        read typed (:class:`~toolwire.models.openai_chat.RequestBody`) take :meth:`_feed_typed`.
        """
        if items and type(items[0]) is not dict and type(items[0]) is hot_type(_HOT, "RequestMessage"):
            self._feed_typed(items, line)
            return
        rows = _CONVERSATION.rows
        other, opening, answer, last = rows["other"], rows["calls"], rows["answer"], rows["last_answer"]
        TOOL, ASSISTANT, LONGEST = wire.ROLE_TOOL, wire.ROLE_ASSISTANT, wire.CHAT_TOOL_CALL_ID_MAX
        ROLES = wire.MESSAGE_ROLES
        fast_calls = not self.keep_calls
        feed = self.feed
        state, pending, answered = self._state, self._pending, self._answered
        answers = called = 0  # what the fast steps judged (feed counts its own)
        for position, item in enumerate(items):
            if type(item) is dict:
                role = item.get("role")
                if role == TOOL:
                    answering = item.get("tool_call_id")
                    if type(answering) is str and answering in pending and len(answering) <= LONGEST:
                        target = (last if len(pending) == 1 else answer)[state]
                        if target >= 0:
                            state = target
                            del pending[answering]
                            answered.add(answering)
                            answers += 1
                            continue
                elif type(role) is not str or role not in ROLES:
                    pass  # feed says what is wrong with it
                elif role != ASSISTANT or not (calls := item.get("tool_calls")):
                    target = other[state]
                    if target >= 0:
                        state = target
                        if pending:
                            pending.clear()
                        if answered:
                            answered.clear()
                        continue
                elif fast_calls and type(calls) is list and opening[state] >= 0:
                    opened: dict[str, int] = {}
                    for k, call in enumerate(calls):
                        call_id = call.get("id") if type(call) is dict else None
                        if type(call_id) is not str or not 0 < len(call_id) <= LONGEST or call_id in opened:
                            break
                        opened[call_id] = k
                    else:
                        state = opening[state]
                        pending = opened
                        answered = set()
                        self._opened_at = position
                        called += len(opened)
                        continue
            self._state, self._pending, self._answered = state, pending, answered
            feed(item, position, line, None)
            state, pending, answered = self._state, self._pending, self._answered
        self._state, self._pending, self._answered = state, pending, answered
        self.results_checked, self.calls_checked = self.results_checked + answers, self.calls_checked + called

    def _feed_typed(self, items: list[RequestMessage], line: int | None) -> None:
        """:meth:`feed_document`'s hot path over typed messages: the same steps, with the types
        the decoder checked (``role`` a string, ``tool_call_id`` one or None, every call's
        ``id`` one) not checked again."""
        rows = _CONVERSATION.rows
        other, opening, answer, last = rows["other"], rows["calls"], rows["answer"], rows["last_answer"]
        TOOL, ASSISTANT, LONGEST = wire.ROLE_TOOL, wire.ROLE_ASSISTANT, wire.CHAT_TOOL_CALL_ID_MAX
        ROLES = wire.MESSAGE_ROLES
        fast_calls = not self.keep_calls
        feed = self.feed
        state, pending, answered = self._state, self._pending, self._answered
        answers = called = 0  # what the fast steps judged (feed counts its own)
        for position, item in enumerate(items):
            role = item.role
            if role == TOOL:
                answering = item.tool_call_id
                if answering in pending and len(answering) <= LONGEST:
                    target = (last if len(pending) == 1 else answer)[state]
                    if target >= 0:
                        state = target
                        del pending[answering]
                        answered.add(answering)
                        answers += 1
                        continue
            elif role not in ROLES:
                pass  # feed says it is not modelled
            elif role != ASSISTANT or not (calls := item.tool_calls):
                target = other[state]
                if target >= 0:
                    state = target
                    if pending:
                        pending.clear()
                    if answered:
                        answered.clear()
                    continue
            elif fast_calls and opening[state] >= 0:
                opened: dict[str, int] = {}
                for k, call in enumerate(calls):
                    call_id = call.id
                    if not 0 < len(call_id) <= LONGEST or call_id in opened:
                        break
                    opened[call_id] = k
                else:
                    state = opening[state]
                    pending = opened
                    answered = set()
                    self._opened_at = position
                    called += len(opened)
                    continue
            self._state, self._pending, self._answered = state, pending, answered
            feed(plain(item), position, line, None)
            state, pending, answered = self._state, self._pending, self._answered
        self._state, self._pending, self._answered = state, pending, answered
        self.results_checked, self.calls_checked = self.results_checked + answers, self.calls_checked + called

    def _classify_answer(self, tool_call_id: Any) -> str:
        if not isinstance(tool_call_id, str) or tool_call_id not in self._pending:
            if isinstance(tool_call_id, str) and tool_call_id in self._answered:
                return "repeat"
            return "stray"
        return "last_answer" if len(self._pending) == 1 else "answer"

    def _violation(
        self, rule: str, message: dict[str, Any], tool_call_id: Any, index: int, line: int | None, path: str
    ) -> None:
        if rule == "CC-4":
            pending = list(self._pending)
            self.report(
                rule,
                f"{path} ({message.get('role')}) comes while {_unanswered(pending, self._opened_at)}",
                index=index,
                line=line,
                ids=pending,
                path=f"{path}.role",
                tool_call_ids=", ".join(pending),
            )
            self._pending.clear()
            self._answered.clear()
        elif rule == "CC-2":
            self.report(
                rule,
                f"{path} is a tool message (tool_call_id {tool_call_id!r}) with no "
                "assistant tool_calls message before it",
                index=index,
                line=line,
                ids=(tool_call_id,),
                path=f"{path}.role",
            )
        elif rule == "CC-3":
            what = (
                "has no tool_call_id"
                if tool_call_id is None
                else (f"answers {_clip(tool_call_id)}, which is not a call of messages[{self._opened_at}]")
            )
            self.report(
                rule,
                f"{path} {what}",
                index=index,
                line=line,
                ids=(tool_call_id,),
                path=f"{path}.tool_call_id",
                tool_call_id=tool_call_id,
            )
        else:
            self.report(
                rule,
                f"{path} answers {tool_call_id} a second time",
                index=index,
                line=line,
                ids=(tool_call_id,),
                path=path,
            )

    def _open_turn(self, calls: list[Any], index: int, line: int | None) -> None:
        known = wire.MESSAGE_TOOL_CALL_TYPES  # an entry of a type no SDK has is no call
        self.calls_checked += sum(type(c) is not dict or c.get("type", "function") in known for c in calls)
        self._pending = {}
        self._answered = set()
        self._opened_at = index
        path = f"messages[{index}]"
        turn = Turn(index, line, path) if self.keep_calls else None
        for k, call in enumerate(calls):
            call = call if isinstance(call, dict) else {}
            call_id = call.get("id")
            if turn is not None:
                function = call.get("function")
                function = function if isinstance(function, dict) else {}
                turn.calls.append(Call(call_id, function.get("name"), function.get("arguments")))
            if (
                type(call_id) is str
                and 0 < len(call_id) <= wire.CHAT_TOOL_CALL_ID_MAX
                and call_id not in self._pending
            ):
                self._pending[call_id] = k  # the usual case, with nothing to report
                continue
            where = f"{path}.tool_calls[{k}].id"
            if not isinstance(call_id, str) or not call_id:
                # The recorded rejection is of an id too long; none is recorded for a missing one.
                self.report("CC-1", f"{where} is missing", index=index, line=line, path=where, rejected=False)
                continue
            if len(call_id) > wire.CHAT_TOOL_CALL_ID_MAX:
                self.report(
                    "CC-1",
                    f"{where} is {len(call_id)} characters long: {_clip(call_id)}",
                    index=index,
                    line=line,
                    ids=(call_id,),
                    path=where,
                    m=index,
                    k=k,
                    length=len(call_id),
                )
            if call_id in self._pending:
                self.report(
                    "CC-5b",
                    f"{where} repeats id {call_id} of tool_calls[{self._pending[call_id]}]",
                    index=index,
                    line=line,
                    ids=(call_id,),
                    path=where,
                )
                continue
            self._pending[call_id] = k
        if turn is not None:
            self._turns.append(turn)

    def finish(self, index: int, line: int | None) -> None:
        if self._pending and self._state == _AWAITING:
            pending = list(self._pending)
            self.report(
                "CC-4",
                f"the request ends while {_unanswered(pending, self._opened_at)}",
                index=self._opened_at,
                line=line,
                ids=pending,
                path=f"messages[{self._opened_at}]",
                tool_call_ids=", ".join(pending),
            )

    def calls(self) -> list[Turn]:
        return self._turns
