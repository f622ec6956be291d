"""Generated Google Gemini traffic: streamGenerateContent chunks and request contents."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any, Final

from hypothesis import strategies as st

from toolwire.properties._strategies._plan import Call, Plan, Tokened, Turn
from toolwire.properties._strategies._render import Generator, Spelling, Wire, conversation

__all__ = ["CONTENTS", "STREAM", "api_id", "gemini_call", "gemini_id"]


def _uuid(token: str) -> str:
    hexa = "".join(f"{ord(c) % 16:x}" for c in (token * 2)[:32])
    return f"{hexa[:8]}-{hexa[8:12]}-4{hexa[13:16]}-8{hexa[17:20]}-{hexa[20:32]}"


def gemini_id(call: Tokened) -> str:
    """Google ADK's client-side id: ``adk-`` and a UUID4 (ADK writes it into the histories it sends)."""
    return f"adk-{_uuid(call.token)}"


def api_id(call: Tokened) -> str:
    """The Gemini API's own id: 8 letters and digits, as Gemini 3 models send (``"89nz05jy"``).

    The recorded ``streamGenerateContent`` streams (shared/traffic) carry such
    ids from Gemini 3 models and none from Gemini 2.x; none carries ``adk-``.
    """
    return call.token[:8]


def gemini_call(
    call: Call, quirks: frozenset[str], ident: Callable[[Tokened], str] = gemini_id
) -> dict[str, Any]:
    """A ``functionCall`` part, its id made by ``ident``; Gemini sends whole calls, never fragments."""
    body: dict[str, Any] = {"name": call.name, "args": call.input}
    if "missing-ids" not in quirks:
        body["id"] = ident(call)
    return {"functionCall": body}


def gemini_stream(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """``streamGenerateContent`` chunks: whole calls, split over chunks at drawn points.

    Calls carry the API's own ids (Gemini 3); under ``missing-ids`` none (Gemini 2.x).
    """
    turn = plan.turns[0]
    parts: list[dict[str, Any]] = [{"text": turn.text}] if turn.text else []
    parts.extend(gemini_call(call, quirks, api_id) for call in turn.calls)
    if not parts:
        parts.append({"text": "Hello"})
    cuts = sorted(set(draw(st.lists(st.integers(1, max(1, len(parts) - 1)), max_size=2))))
    bounds = [0, *(c for c in cuts if c < len(parts)), len(parts)]
    model = "gemini-2.5-flash" if "missing-ids" in quirks else "gemini-3.5-flash"
    events = []
    for a, b in itertools.pairwise(bounds):
        candidate: dict[str, Any] = {"content": {"parts": parts[a:b], "role": "model"}, "index": 0}
        if b == len(parts):
            candidate["finishReason"] = "STOP"
        events.append(
            {
                "candidates": [candidate],
                "modelVersion": model,
                "responseId": "jr1qaLbPO8Ga1MkP2qXwuAU",
            }
        )
    return events


def _spelling(quirks: frozenset[str]) -> Spelling:
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


#: Whole calls with the API's ids, the parts split over chunks at drawn points.
STREAM: Final = Generator(gemini_stream, fragments=False)
#: A request's ``contents``; one user content answers a turn's calls, in call order.
CONTENTS: Final = Generator.conversation(conversation(_spelling, any_order=False))
