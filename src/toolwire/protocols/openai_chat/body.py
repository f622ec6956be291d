"""The OpenAI Chat Completions response body: a ``chat.completion`` (CC-5b, CC-9a to CC-9c).

Its reader also serves the Mistral chat completion, which has this shape.
"""

from __future__ import annotations

from typing import Any, Final

from toolwire.models import openai_chat as wire
from toolwire.properties._body import BodyCall, BodyMonitor, BodyRules, BodyTurn
from toolwire.protocols.openai_chat.rules import CHAT_RESPONSE, RULES

__all__ = ["ResponseMonitor", "chat_turns"]

_BOOK: Final = {rule.id: rule for rule in RULES}
_RULES: Final = BodyRules(
    call="CC-9a",
    arguments="CC-9b",
    unique="CC-5b",
    stop="CC-9c",
    text=True,
    tools=frozenset({wire.FINISH_TOOL_CALLS}),
    ends=frozenset({wire.FINISH_STOP}),
)


def chat_turns(body: dict[str, Any]) -> list[BodyTurn] | str:
    """One turn per choice: its message's ``tool_calls`` and its ``finish_reason``.

    >>> [t.reason for t in chat_turns({"object": "chat.completion", "choices": [
    ...     {"index": 0, "message": {"role": "assistant"}, "finish_reason": "stop"}]})]
    ['stop']
    """
    choices = body.get("choices")
    if not isinstance(choices, list):
        return "an error object" if "error" in body else "a body without choices"
    if body.get("object") == wire.OBJECT_CHUNK or any(isinstance(c, dict) and "delta" in c for c in choices):
        return "a chat.completion.chunk (a stream event, not a body)"
    turns = []
    for n, choice in enumerate(choices):
        if not isinstance(choice, dict):
            continue
        path = f"choices[{n}]"
        turn = BodyTurn(path, reason=choice.get("finish_reason"), reason_path=f"{path}.finish_reason")
        message = choice.get("message")
        entries = message.get("tool_calls") if isinstance(message, dict) else None
        for k, call in enumerate(entries if isinstance(entries, list) else []):
            where = f"{path}.message.tool_calls[{k}]"
            call = call if isinstance(call, dict) else {}
            if call.get("type") == wire.TYPE_CUSTOM:
                custom = call.get("custom")
                custom = custom if isinstance(custom, dict) else {}
                turn.calls.append(
                    BodyCall(where, call.get("id"), custom.get("name"), custom.get("input"), True)
                )
                continue
            function = call.get("function")
            function = function if isinstance(function, dict) else {}
            turn.calls.append(
                BodyCall(where, call.get("id"), function.get("name"), function.get("arguments"))
            )
        turns.append(turn)
    return turns


class ResponseMonitor(BodyMonitor):
    """Checks ``chat.completion`` bodies: each choice's calls and finish reason.

    >>> m = ResponseMonitor()
    >>> m.feed({"object": "chat.completion", "choices": [{"index": 0, "finish_reason": "tool_calls",
    ...     "message": {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
    ...     "function": {"name": "f", "arguments": {"a": 1}}}]}}]}, 0, None, None)
    >>> [f.rule for f in m.findings]
    ['CC-9b']
    """

    protocol = CHAT_RESPONSE
    rules = _RULES
    book = _BOOK
    noun = "chat.completion"

    def read(self, body: dict[str, Any]) -> list[BodyTurn] | str:
        return chat_turns(body)

    def check_body(self, body: dict[str, Any], turns: list[BodyTurn], index: int, line: int | None) -> None:
        for n, choice in enumerate(body.get("choices") or []):
            message = choice.get("message") if isinstance(choice, dict) else None
            entries = message.get("tool_calls") if isinstance(message, dict) else None
            for k, call in enumerate(entries if isinstance(entries, list) else []):
                kind = call.get("type") if isinstance(call, dict) else None
                if kind not in (wire.TYPE_FUNCTION, wire.TYPE_CUSTOM):
                    where = f"choices[{n}].message.tool_calls[{k}].type"
                    self.report(
                        "CC-9a", f"{where} is {kind!r}, not 'function'", index=index, line=line, path=where
                    )
