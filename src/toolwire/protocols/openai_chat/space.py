"""Explored OpenAI Chat Completions traffic: the stream of chunks, and a request's messages."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from toolwire.machines import ILLEGAL, ChatConversation, ChatToolCallStream, compile_machine
from toolwire.properties._spaces._bodies import BodySpace
from toolwire.properties._spaces._conversations import ConversationSpace, TurnCall
from toolwire.properties._spaces._lanes import Lanes, LaneSpace, taken
from toolwire.properties._spaces._space import Move, Step, Wire
from toolwire.protocols.openai_chat.generate import (
    RESPONSE,
    add_fragment,
    chat_fragment,
    chat_id,
    chunk,
)

__all__ = ["ChatResponseSpace", "ChatSpace", "ChatStreamSpace"]


class ChatStreamSpace(LaneSpace):
    """Chat Completions chunks: a role chunk, tool-call fragments by ``index``, a ``finish_reason`` chunk.

    Quirks: ``two-per-chunk`` (a fragment of another call joins the chunk
    before it), ``repeated-ids`` / ``null-ids`` (continuations carry the id /
    the string ``"null"``), ``index-0`` (every call at ``index`` 0, one after
    the other).
    """

    protocol = "openai-chat-stream"
    lanes = Lanes(
        lane=compile_machine(ChatToolCallStream),
        events=("start", "more"),
        fragments=frozenset({"start", "more"}),
        broadcast="finish",
    )
    quirks = frozenset({"two-per-chunk", "repeated-ids", "null-ids", "index-0"})

    def default_interleave(self) -> bool:
        return "index-0" not in self.bounds.quirks

    def render(self, path: Sequence[Move]) -> Wire:
        calls = self.calls(path)
        quirks = self.bounds.quirks
        events: Wire = [chunk({"role": "assistant", "content": None})]
        seen: dict[int, int] = {}
        merged: dict[str, Any] | None = None
        for move in path:
            if move[0] == "close":
                events.append(chunk({}, "tool_calls" if calls else "stop"))
                continue
            call = calls[move[1]]
            j = taken(seen, call)
            index = 0 if "index-0" in quirks else call.position
            fragment = chat_fragment(call, call.name, call.pieces[j], j, index, quirks)
            merged = add_fragment(events, merged, fragment, quirks)
        return events


class ChatSpace(ConversationSpace):
    """Chat Completions ``messages``: tool messages answer pending calls one at a time, in any order."""

    protocol = "openai-chat"
    table = compile_machine(ChatConversation)
    user = "other"
    text = "other"
    call = "calls"

    def results(self, state: Any) -> Iterator[Step]:
        table_state, turns, _, pending, used = state
        event = "answer" if len(pending) > 1 else "last_answer"
        target = self.table.rows[event][table_state]
        if target == ILLEGAL:
            return
        for n in pending:
            rest = tuple(p for p in pending if p != n)
            yield ("result", n), (target, turns, "result", rest, used), ((0, table_state, event),)

    def user_message(self, text: str) -> dict[str, Any]:
        return {"role": "user", "content": text}

    def text_message(self, text: str) -> dict[str, Any]:
        return {"role": "assistant", "content": text}

    def call_message(self, calls: list[TurnCall]) -> dict[str, Any]:
        return {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": chat_id(c), "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                for c in calls
            ],
        }

    def result_message(self, calls: list[TurnCall]) -> dict[str, Any]:
        (call,) = calls
        return {"role": "tool", "tool_call_id": chat_id(call), "content": call.result}


class ChatResponseSpace(BodySpace):
    """A ``openai-chat-response`` body: its calls whole, then its stop reason."""

    protocol = "openai-chat-response"
    quirks = frozenset()
    generator = RESPONSE
