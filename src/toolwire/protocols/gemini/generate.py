"""Generated Google Gemini traffic: streamGenerateContent chunks and request contents."""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable
from typing import Any, Final

from hypothesis import strategies as st

from toolwire.properties._strategies._plan import Plan, PlannedCall, PlannedTurn, Tokened
from toolwire.properties._strategies._render import Generator, Spelling, Wire, conversation, pick

__all__ = ["CONTENTS", "RESPONSE", "STREAM", "api_id", "gemini_call", "gemini_id"]


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


#: An opaque thought signature, as the API sends it on a turn's first function call (base64).
SIGNATURE: Final = (
    "CrICAb4-9vtrrkiSatPyOs7fssb9akcgCIiQdJKp_k-hcEZVNFvU_H0e4FFmLIhTCPRyHxmU-AQPtBZ5vg6y9ZCcv11RdcWg"
)
#: ``usageMetadata`` as every chunk of a recorded stream carries it.
USAGE: Final = {
    "promptTokenCount": 157,
    "candidatesTokenCount": 32,
    "totalTokenCount": 627,
    "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 157}],
    "thoughtsTokenCount": 438,
}


def gemini_call(
    call: PlannedCall, quirks: frozenset[str], ident: Callable[[Tokened], str] = gemini_id
) -> dict[str, Any]:
    """A ``functionCall`` part, its id made by ``ident``; Gemini sends whole calls, never fragments."""
    body: dict[str, Any] = {"name": call.name, "args": call.input}
    if "missing-ids" not in quirks:
        body["id"] = ident(call)
    return {"functionCall": body}


def _signed(parts: Wire, signed: bool) -> Wire:
    """The thought signature goes on the first function call of a turn (Gemini 2.5 and 3)."""
    for part in parts if signed else []:
        if "functionCall" in part:
            part["thoughtSignature"] = SIGNATURE
            break
    return parts


def gemini_stream(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """``streamGenerateContent`` chunks: whole calls split over chunks at drawn points, or streamed args.

    Calls carry the API's own ids (Gemini 3); under ``missing-ids`` none (Gemini 2.x).
    Each trace draws a thought signature, ``usageMetadata`` on every chunk, a
    thought part first, and how the turn ends: ``finishReason`` on the last
    part's chunk, with an empty text part after it, or in a chunk of its own.
    A Gemini 3 trace may stream its calls' arguments (:func:`_streamed`), and
    come as Vertex AI sends it: ``createTime`` on every chunk, no candidate ``index``.
    """
    turn = plan.turns[0]
    signed = pick(draw, {"thought-signature": True, "no-thought-signature": False}, quirks)
    usage = pick(draw, {"usage-metadata": True, "no-usage-metadata": False}, quirks)
    thought = pick(draw, {"no-thought-part": False, "thought-part": True}, quirks)
    ending = pick(
        draw,
        {
            "finish-with-last-part": "last",
            "empty-text-part": "empty",
            "finish-reason-in-later-chunk": "later",
        },
        quirks,
    )
    gemini3 = "missing-ids" not in quirks
    # A feature of streamed arguments named (a quirk profile, a swarm, --like) switches them on.
    named = {"partial-arguments"} if not quirks.isdisjoint(_STREAMED_FEATURES) else set()
    streamed = gemini3 and pick(
        draw, {"whole-function-calls": False, "partial-arguments": True}, quirks | named
    )
    vertex = gemini3 and pick(draw, {"gemini-api-chunks": False, "vertex-chunks": True}, quirks)
    parts: Wire = [{"text": turn.text}] if turn.text else []
    calls = _signed([gemini_call(call, quirks, api_id) for call in turn.calls], signed)
    if streamed and any(call["functionCall"]["args"] for call in calls):
        chunks = [[part] for part in parts] + _streamed(draw, calls, quirks)
    else:
        parts.extend(calls)
        chunks = []
    if not parts and not chunks:
        parts.append({"text": "Hello"})
    if thought:
        parts.insert(0, {"text": "The user wants the weather.", "thought": True})
        if chunks:
            chunks.insert(0, [parts[0]])
    if not chunks:
        cuts = sorted(set(draw(st.lists(st.integers(1, max(1, len(parts) - 1)), max_size=2))))
        bounds = [0, *(c for c in cuts if c < len(parts)), len(parts)]
        chunks = [parts[a:b] for a, b in itertools.pairwise(bounds)]
    if "partialArgs" in chunks[-1][-1].get("functionCall", {}):
        # A stream whose last call is closed by its end sends the finish in a chunk of its own.
        ending = "later"
    if ending == "empty":
        chunks[-1].append({"text": ""})
    elif ending == "later":
        chunks.append([{"text": ""}])
    model = "gemini-2.5-flash" if "missing-ids" in quirks else "gemini-3.5-flash"
    events = []
    for number, chunk in enumerate(chunks):
        candidate: dict[str, Any] = {"content": {"parts": chunk, "role": "model"}}
        if not vertex:
            candidate["index"] = 0
        if number == len(chunks) - 1:
            candidate["finishReason"] = "STOP"
        event: dict[str, Any] = {"candidates": [candidate]}
        if usage:
            event["usageMetadata"] = copy.deepcopy(USAGE)
        event |= {"modelVersion": model}
        if vertex:
            event["createTime"] = VERTEX_TIME
        events.append(event | {"responseId": "jr1qaLbPO8Ga1MkP2qXwuAU"})
    return events


#: What marks streamed arguments: the quirk profile, and the shape features only they show.
_STREAMED_FEATURES: Final = frozenset(
    {
        "streamed-arguments",
        "nested-partial-arguments",
        "partial-string-continued",
        "streamed-call-without-terminal",
    }
)
#: When Vertex AI says the response was made (every chunk of one response carries the same).
VERTEX_TIME: Final = "2026-03-02T10:11:12.345678Z"


def _streamed(draw: st.DrawFn, calls: Wire, quirks: frozenset[str]) -> list[Wire]:
    """The chunks of calls that stream their arguments (Gemini 3, ``streamFunctionCallArguments``).

    A call opens with a part carrying its name, id and ``willContinue: true``; parts without a
    name carry its ``partialArgs`` (a ``jsonPath`` and a typed value; a string may come in pieces,
    each but the last with ``willContinue``), in drawn groups; an empty ``functionCall`` closes
    it, except that the stream's last call may be closed by the stream's end.  The arguments may
    sit in a nested object or an array.  A call without arguments comes whole.  Src: googleapis
    commit 286c66a (``FunctionCall.partial_args``, ``will_continue``; ``PartialArg``);
    vercel/ai#13929 (Vertex AI: a call starts with its name and ``willContinue: true`` and ends
    with an empty ``functionCall``; string pieces are concatenated across chunks).
    """
    layout = pick(draw, {"flat-partial-arguments": "flat", "nested-partial-arguments": "nested"}, quirks)
    open_end = pick(draw, {"streamed-call-closed": False, "streamed-call-without-terminal": True}, quirks)
    chunks: list[Wire] = []
    for number, part in enumerate(calls):
        call = part["functionCall"]
        if not call["args"]:
            chunks.append([part])
            continue
        args = call["args"]
        if layout == "nested":
            args = {"request": args} if draw(st.booleans()) else {"items": [args]}
        opening = {k: v for k, v in call.items() if k != "args"} | {"willContinue": True}
        chunks.append([{k: v for k, v in part.items() if k != "functionCall"} | {"functionCall": opening}])
        pieces = [piece for path, value in _leaves(args, "$") for piece in _pieces(draw, path, value)]
        cuts = sorted(set(draw(st.lists(st.integers(1, max(1, len(pieces) - 1)), max_size=3))))
        bounds = [0, *(c for c in cuts if c < len(pieces)), len(pieces)]
        for a, b in itertools.pairwise(bounds):
            chunks.append([{"functionCall": {"partialArgs": pieces[a:b], "willContinue": True}}])
        if not (open_end and number == len(calls) - 1):
            chunks.append([{"functionCall": {}}])
    return chunks


def _leaves(value: Any, path: str) -> list[tuple[str, Any]]:
    """The scalar values of ``value`` with their RFC 9535 paths (``$.a.b``, ``$.a[0]``), in order."""
    if isinstance(value, dict) and value:
        return [leaf for key, item in value.items() for leaf in _leaves(item, f"{path}.{key}")]
    if isinstance(value, list) and value:
        return [leaf for n, item in enumerate(value) for leaf in _leaves(item, f"{path}[{n}]")]
    return [(path, value)]


def _pieces(draw: st.DrawFn, path: str, value: Any) -> Wire:
    """One value as ``PartialArg`` pieces: a string in drawn pieces, any other value whole."""
    if isinstance(value, bool):
        return [{"jsonPath": path, "boolValue": value}]
    if isinstance(value, int | float):
        return [{"jsonPath": path, "numberValue": value}]
    if value is None:
        return [{"jsonPath": path, "nullValue": "NULL_VALUE"}]
    text = str(value)
    cuts = sorted(set(draw(st.lists(st.integers(1, len(text) - 1), max_size=2)))) if len(text) > 1 else []
    bounds = [0, *cuts, len(text)]
    pieces: Wire = [{"jsonPath": path, "stringValue": text[a:b]} for a, b in itertools.pairwise(bounds)]
    for piece in pieces[:-1]:
        piece["willContinue"] = True
    return pieces


def gemini_contents(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """A request's ``contents``: how the client writes them is drawn once per trace."""
    spelling = _spelling(draw, quirks)
    return conversation(lambda _: spelling, any_order=False)(draw, plan, quirks)


def _spelling(draw: st.DrawFn, quirks: frozenset[str]) -> Spelling:
    """Thought signatures replayed, the response's wrapper key, a file beside the first question.

    Under ``snake-case`` parts are spelled as a Python SDK dumps them
    (``function_call``); under ``split-responses`` each response comes in a
    user content of its own.  Only those quirk profiles turn them on (not
    ``--like`` or swarm switches): a converter may rightly not read them.
    """
    signed = pick(draw, {"thought-signature": True, "no-thought-signature": False}, quirks)
    key = pick(
        draw,
        {"response-result-key": "result", "response-output-key": "output", "response-other-keys": "content"},
        quirks,
    )
    attached = pick(draw, {"text-only-question": False, "inline-data": True}, quirks)
    call_key, response_key = (
        ("function_call", "function_response")
        if "snake-case" in quirks
        else ("functionCall", "functionResponse")
    )
    first = [True]

    def user(text: str) -> dict[str, Any]:
        parts: Wire = [{"text": text}]
        if attached and first[0]:
            first[0] = False
            parts.append({"inlineData": {"data": "MTIz", "mimeType": "text/plain"}})
        return {"role": "user", "parts": parts}

    def assistant(turn: PlannedTurn) -> Wire:
        parts: Wire = [{"text": turn.text}] if turn.text else []
        calls = _signed([gemini_call(call, quirks) for call in turn.calls], signed)
        parts.extend({call_key if k == "functionCall" else k: v for k, v in c.items()} for c in calls)
        return [{"role": "model", "parts": parts}] if parts else []

    def results(calls: list[PlannedCall], _: str) -> Wire:
        parts = []
        for call in calls:
            body: dict[str, Any] = {"name": call.name, "response": {key: call.result}}
            if "missing-ids" not in quirks:
                body["id"] = gemini_id(call)
            parts.append({response_key: body})
        if "split-responses" in quirks:
            return [{"role": "user", "parts": [part]} for part in parts]
        return [{"role": "user", "parts": parts}]

    return (
        user,
        assistant,
        results,
        lambda text: {"role": "model", "parts": [{"text": text}]},
    )


#: Whole calls with the API's ids, the parts split over chunks at drawn points.
def gemini_response(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """A ``generateContent`` response of the first turn: one candidate, its parts whole.

    Gemini 3 ids its calls, Gemini 2.x does not (or ``missing-ids``); the first call carries a
    thought signature or not; a thought part may come first; ``finishReason`` is "STOP", or its
    enum number 1 where a client dumps the proto; Vertex adds ``createTime``.
    """
    turn = plan.turns[0]
    ids = "missing-ids" not in quirks and pick(
        draw, {"no-function-call-id": False, "function-call-id": True}, quirks
    )
    signed = pick(draw, {"thought-signature": True, "no-thought-signature": False}, quirks)
    thought = pick(draw, {"no-thought-part": False, "thought-part": True}, quirks)
    reason = pick(draw, {"finish-reason-name": "STOP", "finish-reason-number": 1}, quirks)
    vertex = pick(draw, {"no-create-time": False, "create-time-field": True}, quirks)
    calls = frozenset() if ids else frozenset({"missing-ids"})
    parts: Wire = [{"text": turn.text}] if turn.text else []
    parts.extend(_signed([gemini_call(call, calls, api_id) for call in turn.calls], signed))
    if not parts:
        parts.append({"text": "Hello"})
    if thought:
        parts.insert(0, {"text": "The user wants the weather.", "thought": True})
    candidate = {"content": {"parts": parts, "role": "model"}, "finishReason": reason, "index": 0}
    body: dict[str, Any] = {"candidates": [candidate], "usageMetadata": copy.deepcopy(USAGE)}
    if vertex:
        body["createTime"] = "2025-10-01T09:12:44.123456Z"
    model = "gemini-3.5-flash" if ids else "gemini-2.5-flash"
    return [body | {"modelVersion": model, "responseId": "jr1qaLbPO8Ga1MkP2qXwuAU"}]


#: A ``generateContent`` response body: whole functionCall parts.
RESPONSE: Final = Generator(gemini_response, fragments=False)
STREAM: Final = Generator(gemini_stream, fragments=False)
#: A request's ``contents``; one user content answers a turn's calls, in call order.
CONTENTS: Final = Generator.conversation(gemini_contents)
