"""Monitors for Google Gemini: ``contents`` (GM-1 to GM-5b, GM-7, ADK-1, ADK-2) and stream chunks (GM-7)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from toolwire.machines import GeminiContents, compile_machine
from toolwire.models import gemini as wire
from toolwire.properties._monitor import Monitor, Violations
from toolwire.properties._text import clip
from toolwire.properties._turn import Call, Turn
from toolwire.protocols.gemini.rules import CONTENTS, MODELLED_SDK, RULES, STREAM

__all__ = ["ContentsMonitor", "StreamMonitor"]

_BOOK: Final = {rule.id: rule for rule in RULES}
_CONTENTS: Final = compile_machine(GeminiContents)
_VIOLATIONS: Final = Violations.declare(
    _CONTENTS,
    {
        ("*", "call_turn"): ("GM-2", "calling"),
        ("calling", "call_turn"): ("GM-7", "calling"),
        ("*", "response_turn"): ("GM-3", "asked"),
        ("calling", "user_turn"): ("GM-4", "asked"),
        ("calling", "model_turn"): ("GM-4", "said"),
    },
)


def _whole(call: dict[str, Any]) -> str | None:
    """Why a functionCall is not whole (GM-7), or ``None``."""
    name = call.get("name")
    if not isinstance(name, str) or not name:
        return "has no name"
    if "args" in call and not isinstance(call["args"], dict):
        return f"has args {clip(call['args'])}, not an object"
    return None


@dataclass(slots=True)
class _Run:
    """Consecutive response-only user contents answering one call turn."""

    start: int
    contents: int
    answered: int
    #: The turn's calls no response has answered yet.
    pending: list[dict[str, Any]]


class ContentsMonitor(Monitor):
    """Checks a Gemini request's ``contents`` with :class:`GeminiContents`.

    >>> m = ContentsMonitor()
    >>> m.feed({"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]}, 0, None, None)
    >>> [f.rule for f in m.findings]
    ['GM-2']
    """

    protocol = CONTENTS

    def __init__(self) -> None:
        super().__init__(_BOOK)
        self._state = _CONTENTS.initial
        self._calls: list[dict[str, Any]] = []
        self._opened_at: int | None = None
        self._turns: list[Turn] = []
        self._run: _Run | None = None

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        path = f"contents[{index}]"
        if not isinstance(value, dict):
            self.notice(index, line, f"{path} is not an object; skipped")
            return
        parts = value.get("parts")
        parts = parts if isinstance(parts, list) else []
        calls = [(k, c) for k, c in enumerate(map(wire.function_call, parts)) if c is not None]
        responses = [(k, r) for k, r in enumerate(map(wire.function_response, parts)) if r is not None]
        self.results_checked += len(responses)
        for k, body in (*calls, *responses):
            self._check_id(body.get("id"), index, line, f"{path}.parts[{k}]")
        role = value.get("role", wire.ROLE_USER)
        if calls:
            event = "call_turn"
        elif responses:
            event = "response_turn"
        else:
            event = "model_turn" if role == wire.ROLE_MODEL else "user_turn"
        if self._run is not None:
            if event == "response_turn" and role == wire.ROLE_USER:
                self._run.contents += 1
                self._run.answered += len(responses)
                self._run.pending = self._answer(responses, index, line, path, self._run.pending)
                return
            self._close_run(line)
        target = _CONTENTS.rows[event][self._state]
        if target < 0:
            rule, target = _VIOLATIONS.by_pair[self._state, event]
            self._violation(rule, event, index, line, path, len(responses))
        elif event == "response_turn":
            pending = self._answer(responses, index, line, path, self._calls)
            self._run = _Run(index, 1, len(responses), pending)
        merged = self._state == target == _CONTENTS.state("calling")
        self._state = target
        if calls:
            turn = Turn(index, line, path)
            for k, call in calls:
                problem = _whole(call)
                if problem is not None:
                    self.report(
                        "GM-7",
                        f"{path}.parts[{k}].functionCall {problem}",
                        index=index,
                        line=line,
                        ids=(call.get("id"),),
                        path=f"{path}.parts[{k}]",
                    )
                turn.calls.append(Call(call.get("id"), call.get("name"), call.get("args")))
            if merged:
                self._turns[-1].calls.extend(turn.calls)
                self._calls.extend(call for _, call in calls)
                return
            self._turns.append(turn)
            self._calls = [call for _, call in calls]
            self._opened_at = index

    def _check_id(self, call_id: Any, index: int, line: int | None, where: str) -> None:
        if not isinstance(call_id, str) or not call_id.startswith(wire.ADK_ID_PREFIX):
            return
        if not wire.ADK_ID.fullmatch(call_id):
            self.report(
                "ADK-1",
                f"{where} has id {clip(call_id)}: ADK's prefix without ADK's 'adk-' + uuid4 shape",
                index=index,
                line=line,
                ids=(call_id,),
                path=where,
            )
        else:
            self.report(
                "ADK-2",
                f"{where} carries ADK fallback id {call_id}, which ADK strips before calling Gemini",
                index=index,
                line=line,
                ids=(call_id,),
                path=where,
            )

    def _violation(self, rule: str, event: str, index: int, line: int | None, path: str, count: int) -> None:
        if rule == "GM-4":
            self.report(
                rule,
                f"{path} has no function responses for the {len(self._calls)} call(s) of "
                f"contents[{self._opened_at}]",
                index=index,
                line=line,
                ids=[c.get("id") for c in self._calls],
                path=path,
            )
        elif rule == "GM-7":
            self.report(
                rule,
                f"{path} is a second call turn right after contents[{self._opened_at}]: the calls "
                "of one streamed turn were not merged into one content",
                index=index,
                line=line,
                path=path,
            )
        elif rule == "GM-2":
            before = "nothing" if self._state == _CONTENTS.initial else "a model turn"
            self.report(
                rule, f"{path} is a function call turn after {before}", index=index, line=line, path=path
            )
        else:
            self.report(
                rule,
                f"{path} holds {count} function response(s) but the turn before it calls nothing",
                index=index,
                line=line,
                path=path,
            )

    def _close_run(self, line: int | None) -> None:
        """The responses to a call turn have ended: they must answer every call (GM-4), in one content."""
        assert self._run is not None
        start, contents, answered = self._run.start, self._run.contents, self._run.answered
        self._run = None
        calls = self._calls
        where = f"contents[{start}]" if contents == 1 else f"contents[{start}..{start + contents - 1}]"
        if answered != len(calls):
            self.report(
                "GM-4",
                f"{where} holds {answered} function response(s) for the {len(calls)} call(s) of "
                f"contents[{self._opened_at}]",
                index=start,
                line=line,
                ids=[c.get("id") for c in calls],
                path=f"contents[{start}]",
            )
        elif contents > 1:
            self.report(
                "GM-5b",
                f"{where} answer the {len(calls)} call(s) of contents[{self._opened_at}] in {contents} "
                "consecutive user contents, not one",
                index=start,
                line=line,
                path=f"contents[{start}]",
            )

    def finish(self, index: int, line: int | None) -> None:
        if self._run is not None:
            self._close_run(line)
        super().finish(index, line)

    def _answer(
        self,
        responses: list[tuple[int, dict[str, Any]]],
        index: int,
        line: int | None,
        path: str,
        calls: list[dict[str, Any]],
    ) -> list[dict[str, Any]]:
        by_id = {c["id"]: c for c in calls if isinstance(c.get("id"), str) and c["id"]}
        unpaired = [c for c in calls if not (isinstance(c.get("id"), str) and c["id"])]
        order_names = []
        for k, response in responses:
            where = f"{path}.parts[{k}].functionResponse"
            response_id, name = response.get("id"), response.get("name")
            response_id = response_id if isinstance(response_id, str) else None
            call = by_id.pop(response_id, None) if response_id else None
            if call is None and response_id and response_id not in {str(c.get("id")) for c in calls}:
                self.report(
                    "GM-1",
                    f"{where}.id {clip(response_id)} names no call of contents[{self._opened_at}]",
                    index=index,
                    line=line,
                    ids=(response_id,),
                    path=where,
                )
                continue
            if call is None:
                if not by_id and not unpaired:
                    continue
                match = next((c for c in unpaired if c.get("name") == name), None)
                if match is None and by_id:
                    self.report(
                        "GM-1",
                        f"{where} has no id, but its call of contents[{self._opened_at}] has one",
                        index=index,
                        line=line,
                        path=where,
                    )
                    continue
                call = match or (unpaired[0] if unpaired else None)
                if call is None:
                    continue
                unpaired.remove(call)
                order_names.append(name)
            if call.get("name") != name:
                self.report(
                    "GM-1",
                    f"{where}.name is {clip(name)} but its call is named {clip(call.get('name'))}",
                    index=index,
                    line=line,
                    ids=(call.get("id"),),
                    path=where,
                )
        expected = [c.get("name") for c in calls if not c.get("id")]
        if order_names and order_names != expected[: len(order_names)]:
            self.report(
                "GM-5a",
                f"{path} answers calls without ids in the order {order_names}, the calls were {expected}",
                index=index,
                line=line,
                path=path,
            )
        return [*by_id.values(), *unpaired]

    def calls(self) -> list[Turn]:
        return self._turns


#: The fields of ``google-genai`` 3.6.1 ``Part``, as the REST API and the SDK spell them.
_PART_FIELDS: Final = frozenset(
    {
        *("audioMetadata", "audioTranscription", "codeExecutionResult", "documentMetadata"),
        *("executableCode", "fileData", "functionCall", "functionResponse", "inlineData"),
        *("mediaProcessing", "mediaResolution", "partMetadata", "speechMetadata"),
        *("spreadsheetMetadata", "text", "thought", "thoughtSignature", "toolCall", "toolResponse"),
        *("videoMetadata", "audio_metadata", "audio_transcription", "code_execution_result"),
        *("document_metadata", "executable_code", "file_data", "function_call", "function_response"),
        *("inline_data", "media_processing", "media_resolution", "part_metadata", "speech_metadata"),
        *("spreadsheet_metadata", "thought_signature", "tool_call", "tool_response", "video_metadata"),
    }
)


class StreamMonitor(Monitor):
    """Checks ``streamGenerateContent`` chunks: whole function calls, gathered into one turn per candidate.

    A call may also stream its arguments (Gemini 3, on the Gemini API and on Vertex AI): a part
    with its name and ``willContinue: true`` opens it, parts without a name carry
    ``partialArgs`` pieces, and a part without ``willContinue`` (or the end of the stream)
    closes it.

    >>> m = StreamMonitor()
    >>> m.feed({"candidates": [{"content": {"role": "model", "parts": [
    ...     {"functionCall": {"name": "f", "args": '{"a": 1}'}}]}}]}, 0, 1, None)
    >>> [f.rule for f in m.findings]
    ['GM-7']
    """

    protocol = STREAM
    modelled_sdk = MODELLED_SDK

    def __init__(self) -> None:
        super().__init__(_BOOK)
        self._turns: dict[Any, Turn] = {}
        #: By candidate: the name and arguments of the call whose arguments are streaming, and
        #: the paths whose last piece said ``willContinue``.
        self._streaming: dict[Any, tuple[Any, dict[str, Any], set[str]]] = {}

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        if isinstance(value, list):
            for chunk in value:
                self.feed(chunk, index, line, sse_event)
            return
        if not isinstance(value, dict):
            self.notice(index, line, "chunk is not a JSON object; skipped")
            return
        candidates = value.get("candidates")
        if not isinstance(candidates, list):
            if "error" in value:
                self.notice(index, line, "an error chunk; skipped")
            return
        for number, candidate in enumerate(candidates):
            if not isinstance(candidate, dict):
                continue
            key = candidate.get("index", number)
            key = key if isinstance(key, int) else number
            content = candidate.get("content")
            parts = content.get("parts") if isinstance(content, dict) else None
            for k, part in enumerate(parts if isinstance(parts, list) else []):
                call = wire.function_call(part)
                if call is None:
                    self._unknown_part(part, index, line)
                elif key in self._streaming and not call.get("name"):
                    self._continue(key, call, index, line)
                else:
                    self._call(key, k, call, index, line)

    def _call(self, key: int, k: int, call: dict[str, Any], index: int, line: int | None) -> None:
        self._streaming.pop(key, None)
        problem = _whole(call)
        if problem is not None:
            # Args that are not an object fail the SDK's FunctionCall (args: dict), and whole args
            # without a name are a call pydantic-ai drops (GM-7's source); a nameless part without
            # args (a Gemini 3 partialArgs fragment, an empty closing part) is sent by the API
            # itself: a warning.
            nameless_fragment = problem == "has no name" and "args" not in call
            self.report(
                "GM-7",
                f"candidate {key} part {k}: functionCall {problem}",
                index=index,
                line=line,
                ids=(call.get("id"),),
                severity="warning" if nameless_fragment else None,
            )
        call_args = call.get("args")
        if wire.member(call, "willContinue") is True and problem is None:
            call_args = dict(call_args) if isinstance(call_args, dict) else {}
            self._streaming[key] = (call.get("name"), call_args, set())
            self._continue(key, call, index, line, opening=True)
        turn = self._turns.setdefault(key, Turn(index, line, f"candidate {key}"))
        turn.calls.append(Call(call.get("id"), call.get("name"), call_args))

    def _continue(
        self, key: int, call: dict[str, Any], index: int, line: int | None, *, opening: bool = False
    ) -> None:
        """A piece of the streaming call of candidate ``key``: its partialArgs go into its args."""
        name, args, open_paths = self._streaming[key]
        pieces = wire.member(call, "partialArgs")
        for piece in pieces if isinstance(pieces, list) else []:
            path = wire.member(piece, "jsonPath") if isinstance(piece, dict) else None
            opened = isinstance(path, str) and path in open_paths
            if not isinstance(piece, dict) or not wire.set_partial(args, piece, opened):
                self.notice(index, line, f"a partialArgs piece of {name} at {clip(path)} not read")
                continue
            if not isinstance(path, str):
                continue
            if wire.member(piece, "willContinue") is True:
                open_paths.add(path)
            else:
                open_paths.discard(path)
        if not opening and wire.member(call, "willContinue") is not True:
            del self._streaming[key]

    def _unknown_part(self, part: Any, index: int, line: int | None) -> None:
        """A part toolwire does not model: one notice per kind of part, never a finding."""
        if not isinstance(part, dict):
            return
        data = [name for name in part if name not in _PART_FIELDS]
        if data:
            self.unknown("part", data[0], index, line, "passed over", skipped=False)

    def calls(self) -> list[Turn]:
        """Every candidate's calls, from all chunks, as one turn: how they must be replayed."""
        return list(self._turns.values())
