"""Render a :class:`Plan` as the message list a request carries: calls, then their results."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from hypothesis import strategies as st

from toolwire.properties._strategies._plan import Call, Plan, Turn
from toolwire.properties._strategies._streams import chat_id, gemini_call, gemini_id

__all__ = ["CONVERSATIONS"]

Wire = list[dict[str, Any]]
Renderer = Callable[[st.DrawFn, Plan, frozenset[str]], Wire]
#: How one protocol spells a conversation: (user text, assistant turn, its results, assistant text).
_Spelling = tuple[
    Callable[[str], dict[str, Any]],
    Callable[[Turn], Wire],
    Callable[[list[Call], str], Wire],
    Callable[[str], dict[str, Any]],
]


def _conversation(spell: Callable[[frozenset[str]], _Spelling], *, any_order: bool) -> Renderer:
    """Each turn: a user message, the assistant's calls, their results; an answer between turns.

    With ``any_order`` the results of one turn come in a drawn order, as the
    protocol allows; otherwise in call order.
    """

    def render(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
        user, assistant, results, answer = spell(quirks)
        messages: Wire = []
        for number, turn in enumerate(plan.turns):
            if number:
                messages.append(answer("Done."))
            messages.append(user(turn.user))
            messages.extend(assistant(turn))
            calls = list(turn.calls)
            if any_order:
                calls = draw(st.permutations(calls))
            if calls:
                messages.extend(results(calls, turn.user))
        if not plan.turns[-1].calls:
            messages.append(answer("Done."))
        return messages

    return render


def _chat(quirks: frozenset[str], *, mistral: bool = False) -> _Spelling:
    def ident(call: Call) -> str:
        return call.token[:9] if mistral else chat_id(call)

    def assistant(turn: Turn) -> Wire:
        if not turn.calls:
            return []
        calls = [
            {"id": ident(c), "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in turn.calls
        ]
        return [{"role": "assistant", "content": turn.text or None, "tool_calls": calls}]

    def results(calls: list[Call], _: str) -> Wire:
        out = []
        for call in calls:
            message = {"role": "tool", "tool_call_id": ident(call), "content": call.result}
            if mistral:
                message["name"] = call.name
            out.append(message)
        return out

    return (
        lambda text: {"role": "user", "content": text},
        assistant,
        results,
        lambda text: {"role": "assistant", "content": text},
    )


def _responses(quirks: frozenset[str]) -> _Spelling:
    def assistant(turn: Turn) -> Wire:
        items: Wire = [{"role": "assistant", "content": turn.text}] if turn.text else []
        for call in turn.calls:
            items.append(
                {
                    "type": "function_call",
                    "id": f"fc_{call.token * 2}",
                    "call_id": chat_id(call),
                    "name": call.name,
                    "arguments": call.arguments,
                }
            )
        return items

    def results(calls: list[Call], _: str) -> Wire:
        return [{"type": "function_call_output", "call_id": chat_id(c), "output": c.result} for c in calls]

    return (
        lambda text: {"role": "user", "content": text},
        assistant,
        results,
        lambda text: {"role": "assistant", "content": text},
    )


def _anthropic(quirks: frozenset[str]) -> _Spelling:
    def assistant(turn: Turn) -> Wire:
        blocks: Wire = [{"type": "text", "text": turn.text}] if turn.text else []
        for call in turn.calls:
            blocks.append(
                {
                    "type": "tool_use",
                    "id": f"toolu_01{call.token[:22]}",
                    "name": call.name,
                    "input": call.input,
                }
            )
        return [{"role": "assistant", "content": blocks}] if blocks else []

    def results(calls: list[Call], _: str) -> Wire:
        blocks = [
            {"type": "tool_result", "tool_use_id": f"toolu_01{c.token[:22]}", "content": c.result}
            for c in calls
        ]
        return [{"role": "user", "content": blocks}]

    return (
        lambda text: {"role": "user", "content": text},
        assistant,
        results,
        lambda text: {"role": "assistant", "content": [{"type": "text", "text": text}]},
    )


def _bedrock(quirks: frozenset[str]) -> _Spelling:
    def assistant(turn: Turn) -> Wire:
        blocks: Wire = [{"text": turn.text}] if turn.text else []
        for c in turn.calls:
            blocks.append(
                {"toolUse": {"toolUseId": f"tooluse_{c.token[:22]}", "name": c.name, "input": c.input}}
            )
        return [{"role": "assistant", "content": blocks}] if blocks else []

    def results(calls: list[Call], _: str) -> Wire:
        blocks = [
            {
                "toolResult": {
                    "toolUseId": f"tooluse_{c.token[:22]}",
                    "content": [{"json": {"result": c.result}}],
                    "status": "success",
                }
            }
            for c in calls
        ]
        return [{"role": "user", "content": blocks}]

    return (
        lambda text: {"role": "user", "content": [{"text": text}]},
        assistant,
        results,
        lambda text: {"role": "assistant", "content": [{"text": text}]},
    )


def _gemini(quirks: frozenset[str]) -> _Spelling:
    def assistant(turn: Turn) -> Wire:
        parts: Wire = [{"text": turn.text}] if turn.text else []
        parts.extend(gemini_call(call, quirks) for call in turn.calls)
        return [{"role": "model", "parts": parts}] if parts else []

    def results(calls: list[Call], _: str) -> Wire:
        parts = []
        for call in calls:
            body: dict[str, Any] = {"name": call.name, "response": {"output": call.result}}
            if "missing-ids" not in quirks:
                body["id"] = gemini_id(call)
            parts.append({"functionResponse": body})
        return [{"role": "user", "parts": parts}]

    return (
        lambda text: {"role": "user", "parts": [{"text": text}]},
        assistant,
        results,
        lambda text: {"role": "model", "parts": [{"text": text}]},
    )


CONVERSATIONS: Final[dict[str, Renderer]] = {
    "openai-chat": _conversation(_chat, any_order=True),
    "mistral-chat": _conversation(lambda q: _chat(q, mistral=True), any_order=False),
    "openai-responses": _conversation(_responses, any_order=True),
    "anthropic-messages": _conversation(_anthropic, any_order=True),
    "bedrock-converse": _conversation(_bedrock, any_order=True),
    "gemini-contents": _conversation(_gemini, any_order=False),
}
