"""Shape features of Google Gemini traffic: streamGenerateContent chunks and request contents."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Final

from toolwire.properties._body import BodyTurn, body_catalogue
from toolwire.properties._shapes import Feature, Shapes, calls_shapes
from toolwire.protocols.gemini.body import candidate_turns

__all__ = ["CONTENTS_SHAPES", "RESPONSE_SHAPES", "STREAM_SHAPES"]

_TYPES: Final = "google-genai types"
_VERCEL: Final = "vercel/ai#13929 (Vertex AI streamed arguments)"
#: Streamed function-call arguments (Gemini 3, on the Gemini API and Vertex AI).
_STREAMED: Final = (
    f"{_TYPES}.FunctionCall: partial_args, will_continue; googleapis/googleapis 286c66a; {_VERCEL}: "
    "a call starts with its name and willContinue true and ends with an empty functionCall"
)
#: A ``jsonPath`` with more than one step.
_NESTED: Final = re.compile(r"^\$(\.[^.\[]+|\[[^\]]*\])[.\[]")
#: The part keys of calls and responses, as the REST API spells them and as Python SDKs dump them.
_CALL: Final = ("functionCall", "function_call")
_RESPONSE: Final = ("functionResponse", "function_response")


def _field(part: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any] | None:
    for name in names:
        if isinstance(part.get(name), dict):
            return part[name]  # type: ignore[no-any-return]
    return None


def _parts(content: Any) -> list[dict[str, Any]]:
    parts = content.get("parts") if isinstance(content, dict) else None
    return [p for p in parts if isinstance(p, dict)] if isinstance(parts, list) else []


def _call(part: dict[str, Any]) -> Iterator[str]:
    """Features of one part: ids, thought signatures, thoughts."""
    call = _field(part, _CALL)
    if "thoughtSignature" in part or "thought_signature" in part:
        yield "thought-signature"
    if part.get("thought") is True:
        yield "thought-part"
    if call is None or _piece(call):
        return
    yield "call-with-id" if call.get("id") else "call-without-id"
    if not call.get("args") and call.get("willContinue") is not True:
        yield "empty-arguments"


def _piece(call: dict[str, Any]) -> bool:
    """A part of a call that streams its arguments, after the one that names it: a piece or the end."""
    return not call.get("name") and ("partialArgs" in call or "willContinue" in call or not call)


_COMMON: Final = (
    Feature("call-with-id", "functionCall parts carry an id"),
    Feature("call-without-id", "functionCall parts without an id (quirk missing-ids)"),
    Feature("empty-arguments", "a functionCall with args {} or none"),
    Feature("thought-signature", "parts carry a thoughtSignature"),
)

_STREAM: Final = (
    Feature("several-calls", "two or more functionCall parts"),
    Feature("same-tool-twice", "two functionCall parts of one tool"),
    Feature(
        "no-calls",
        "a stream without functionCall parts",
        documented="ai.google.dev/gemini-api/docs/function-calling: with function calling in AUTO mode "
        "the model may answer in text alone",
    ),
    *_COMMON,
    Feature(
        "several-calls-in-one-chunk", "one chunk carries two or more functionCall parts (parallel calls)"
    ),
    Feature("calls-in-separate-chunks", "the calls of a turn arrive in different chunks"),
    Feature(
        "partial-arguments",
        "a functionCall streamed in pieces (partialArgs, willContinue)",
        documented=_STREAMED,
    ),
    Feature(
        "nested-partial-arguments",
        "a partialArgs piece whose jsonPath goes into a nested object or an array ($.a.b, $.a[0])",
        documented=f"{_TYPES}.PartialArg.json_path: RFC 9535, e.g. $.foo.bar[0].data",
    ),
    Feature(
        "partial-string-continued",
        "a string argument streamed in several partialArgs pieces (willContinue on a PartialArg)",
        documented=f"{_TYPES}.PartialArg.will_continue; {_VERCEL}: string pieces are concatenated",
    ),
    Feature(
        "streamed-call-without-terminal",
        "the stream ends while a call streams its arguments (no closing functionCall)",
        documented=f"{_TYPES}.FunctionCall.will_continue: a part without it is the last; "
        "GM-7 (a streamed call is closed by the end of the stream)",
    ),
    Feature(
        "vertex-chunks",
        "chunks carry createTime and candidates no index (Vertex AI)",
        documented="cloud.google.com/vertex-ai/docs/reference/rest/v1/GenerateContentResponse: createTime; "
        "Candidate.index is omitted when 0 (proto3 JSON)",
    ),
    Feature("thought-part", "a thought part (thought: true)"),
    Feature(
        "text-with-calls",
        "text parts in the same turn as calls",
        documented=f"{_TYPES}.GenerateContentResponse.text: warns when a response holds non-text parts "
        "(function_call) beside its text",
    ),
    Feature("empty-text-part", 'a part with text ""'),
    Feature("usage-metadata", "chunks carry usageMetadata"),
    Feature("finish-reason-stop-with-calls", 'a turn with calls ends with finishReason "STOP"'),
    Feature(
        "malformed-function-call",
        'finishReason "MALFORMED_FUNCTION_CALL"',
        documented=f"{_TYPES}.FinishReason",
    ),
    Feature("finish-reason-in-later-chunk", "finishReason arrives in a chunk after the last call"),
)


def _stream(trace: list[Any]) -> Iterator[str]:
    names: list[Any] = []
    chunks_with_calls = 0
    finish: Any = None
    finish_after = False
    text = False
    streaming = False
    for chunk in _chunks(trace):
        if chunk.get("usageMetadata"):
            yield "usage-metadata"
        candidates = chunk.get("candidates")
        for candidate in candidates if isinstance(candidates, list) else []:
            if not isinstance(candidate, dict):
                continue
            if "createTime" in chunk and "index" not in candidate:
                yield "vertex-chunks"
            calls = 0
            for part in _parts(candidate.get("content")):
                yield from _call(part)
                if part.get("text") == "":
                    yield "empty-text-part"
                elif isinstance(part.get("text"), str) and part.get("thought") is not True:
                    text = True
                if (call := _field(part, _CALL)) is None:
                    continue
                if not _piece(call):
                    calls += 1
                    names.append(call.get("name"))
                if "partialArgs" in call or "willContinue" in call:
                    yield "partial-arguments"
                    yield from _partial(call.get("partialArgs"))
                streaming = call.get("willContinue") is True
            if calls > 1:
                yield "several-calls-in-one-chunk"
            chunks_with_calls += calls > 0
            if candidate.get("finishReason"):
                finish = candidate["finishReason"]
                finish_after = bool(names) and not calls
    if finish == "MALFORMED_FUNCTION_CALL":
        yield "malformed-function-call"
    if streaming:
        yield "streamed-call-without-terminal"
    if not names:
        yield "no-calls"
        return
    yield from calls_shapes(names)
    if chunks_with_calls > 1:
        yield "calls-in-separate-chunks"
    if text:
        yield "text-with-calls"
    if finish == "STOP":
        yield "finish-reason-stop-with-calls"
    if finish_after:
        yield "finish-reason-in-later-chunk"


def _partial(pieces: Any) -> Iterator[str]:
    for piece in pieces if isinstance(pieces, list) else []:
        if not isinstance(piece, dict):
            continue
        if isinstance(piece.get("jsonPath"), str) and _NESTED.match(piece["jsonPath"]):
            yield "nested-partial-arguments"
        if piece.get("willContinue") is True:
            yield "partial-string-continued"


def _chunks(trace: list[Any]) -> Iterator[dict[str, Any]]:
    """The chunks of a stream; a JSON-array response body is one value holding them all."""
    for value in trace:
        for chunk in value if isinstance(value, list) else [value]:
            if isinstance(chunk, dict):
                yield chunk


STREAM_SHAPES: Final = Shapes(_STREAM, lambda trace: set(_stream(trace)))

_CONTENTS: Final = (
    Feature("several-calls", "a model content with two or more functionCall parts"),
    Feature("same-tool-twice", "two functionCall parts of one tool in one content"),
    Feature("several-turns", "two or more model contents with calls"),
    Feature("results-out-of-call-order", "functionResponse parts answer a turn's calls in another order"),
    *_COMMON,
    Feature("response-without-id", "functionResponse parts without an id"),
    Feature("snake-case-parts", "function_call / function_response parts (a Python SDK's dump)"),
    Feature("responses-split-over-contents", "one turn's functionResponse parts spread over user contents"),
    Feature("response-result-key", 'a functionResponse whose response is {"result": ...}'),
    Feature("response-output-key", 'a functionResponse whose response is {"output": ...}'),
    Feature("response-other-keys", "a functionResponse whose response has other keys"),
    Feature(
        "response-error-key",
        'a functionResponse whose response is {"error": ...}',
        documented=f'{_TYPES}.FunctionResponse.response: "output" for results, "error" for errors',
    ),
    Feature("text-with-calls", "a model content with text besides its calls"),
    Feature("inline-data", "an inlineData part (image, file bytes)"),
    Feature("thought-part", "a thought part replayed", documented=f"{_TYPES}.Part: thought"),
)


def _contents(trace: list[Any]) -> Iterator[str]:
    turns = 0
    pending: list[Any] = []
    answered: list[Any] = []
    previous_answered = False
    for content in trace:
        if not isinstance(content, dict):
            continue
        parts = _parts(content)
        calls = [call for part in parts if (call := _field(part, _CALL)) is not None]
        responses = [response for part in parts if (response := _field(part, _RESPONSE)) is not None]
        if any(name in part for part in parts for name in ("function_call", "function_response")):
            yield "snake-case-parts"
        if any("inlineData" in part or "inline_data" in part for part in parts):
            yield "inline-data"
        for part in parts:
            yield from _call(part)
        if calls:
            turns += 1
            yield from _order(pending, answered)
            pending, answered = [(c.get("id"), c.get("name")) for c in calls], []
            yield from calls_shapes([c.get("name") for c in calls])
            if any(isinstance(p.get("text"), str) and p.get("thought") is not True for p in parts):
                yield "text-with-calls"
        if responses:
            if previous_answered:
                yield "responses-split-over-contents"
            answered.extend((r.get("id"), r.get("name")) for r in responses)
            for response in responses:
                yield from _response(response)
        previous_answered = bool(responses)
    yield from _order(pending, answered)
    if turns > 1:
        yield "several-turns"


def _order(pending: list[Any], answered: list[Any]) -> Iterator[str]:
    """Responses pair with calls by id, or by name where ids are missing."""
    if any(a != b for a, b in zip(pending, answered, strict=False)) and sorted(map(str, pending)) == sorted(
        map(str, answered)
    ):
        yield "results-out-of-call-order"


def _response(response: dict[str, Any]) -> Iterator[str]:
    if not response.get("id"):
        yield "response-without-id"
    body = response.get("response")
    keys = set(body) if isinstance(body, dict) else set()
    if keys == {"result"}:
        yield "response-result-key"
    elif keys == {"output"}:
        yield "response-output-key"
    elif "error" in keys:
        yield "response-error-key"
    else:
        yield "response-other-keys"


CONTENTS_SHAPES: Final = Shapes(_CONTENTS, lambda trace: set(_contents(trace)))


_BODY: Final = (
    Feature("function-call-id", "functionCall parts carry an id (Gemini 3)"),
    Feature("no-function-call-id", "functionCall parts carry no id (Gemini 2.x)"),
    Feature("thought-signature", "the first functionCall part carries a thoughtSignature"),
    Feature("no-thought-signature", "no part carries a thoughtSignature"),
    Feature("thought-part", "a thought text part"),
    Feature("no-thought-part", "no thought part"),
    Feature("finish-reason-name", 'finishReason is the enum name ("STOP")'),
    Feature("finish-reason-number", "finishReason is the enum number (a client dumped the proto)"),
    Feature("create-time-field", "the response carries createTime (Vertex AI)"),
    Feature("no-create-time", "the response carries no createTime"),
)


def _candidate_parts(body: dict[str, Any], turn: BodyTurn) -> list[Any]:
    candidate = body["candidates"][int(turn.path.removeprefix("candidates[").removesuffix("]"))]
    content = candidate.get("content") if isinstance(candidate, dict) else None
    parts = content.get("parts") if isinstance(content, dict) else None
    return [p for p in parts if isinstance(p, dict)] if isinstance(parts, list) else []


def _body(body: dict[str, Any], turns: list[BodyTurn]) -> Iterator[str]:
    yield "create-time-field" if "createTime" in body else "no-create-time"
    for turn in turns:
        parts = _candidate_parts(body, turn)
        yield "thought-part" if any(p.get("thought") for p in parts) else "no-thought-part"
        if turn.reason is not None:
            yield "finish-reason-number" if isinstance(turn.reason, int) else "finish-reason-name"
        if turn.calls:
            yield "function-call-id" if any(c.id for c in turn.calls) else "no-function-call-id"
            yield (
                "thought-signature" if any("thoughtSignature" in p for p in parts) else "no-thought-signature"
            )


def _body_texts(body: dict[str, Any], turn: BodyTurn) -> bool:
    return any(p.get("text") and not p.get("thought") for p in _candidate_parts(body, turn))


RESPONSE_SHAPES: Final = body_catalogue(
    candidate_turns,
    _BODY,
    _body_texts,
    _body,
    {
        "empty-arguments": f"{_TYPES}.FunctionCall.args: the parameters as a JSON object, {{}} for none",
        "no-calls": "ai.google.dev/gemini-api/docs/function-calling: with function calling in AUTO mode the "
        "model may answer in text alone",
        "text-with-calls": f"{_TYPES}.GenerateContentResponse.text: warns when a response holds non-text "
        "parts next to text",
    },
)
