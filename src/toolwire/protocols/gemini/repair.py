"""Gemini contents as the repairer sees them: functionResponse parts of the next user content (a
content without ``role`` is a user content, as ``check`` reads it)."""

from __future__ import annotations

from typing import Any, Final

from toolwire.models import gemini
from toolwire.properties._change import Change
from toolwire.properties._repair import (
    NOT_RUN,
    Adapter,
    Block,
    Message,
    as_dict,
    blocks_left,
    nonempty,
    numbered,
    parts_of,
    replaced,
)

__all__ = ["ADAPTER"]


def _id_and_name(found: Any) -> tuple[Any, str | None] | None:
    return None if found is None else (found.get("id"), found.get("name"))


def _gemini_calls(msg: Any) -> list[tuple[Block, Any, str | None]]:
    return parts_of(msg, "model", "parts", lambda part: _id_and_name(gemini.function_call(part)))


def _user(msg: Any) -> bool:
    """A user content: its role ``user``, or no role at all (the ContentsMonitor's default)."""
    return isinstance(msg, dict) and msg.get("role", gemini.ROLE_USER) == gemini.ROLE_USER


def _gemini_results(msg: Any) -> list[tuple[Block, Any, str | None]]:
    if not _user(msg):
        return []
    # parts_of reads one role: a content without role is read as the user content it is.
    user = msg if "role" in msg else {**msg, "role": gemini.ROLE_USER}
    return parts_of(user, "user", "parts", lambda part: _id_and_name(gemini.function_response(part)))


def _gemini_key(part: dict[str, Any], camel: str) -> str:
    return camel if camel in part else "function_call" if camel == "functionCall" else "function_response"


def _gemini_put(part: Any, new: Any) -> Any:
    key = _gemini_key(part, "functionCall")
    call = dict(part[key])
    if new is None:
        call.pop("id", None)
    else:
        call["id"] = new
    return {**part, key: call}


def _gemini_answer(msg: Message | None, block: Block, new: Any, name: str | None) -> Any:
    if msg is not None:
        part = msg["parts"][block]
        key = _gemini_key(part, "functionResponse")
        carried = dict(part[key])
        if new is not None:
            carried["id"] = new
        return {**part, key: carried}
    made: dict[str, Any] = {"name": name, "response": {"error": NOT_RUN}}
    if new is not None:
        made["id"] = new
    return {"functionResponse": made}


def _parts_left(out: Message | None) -> Message | None:
    return blocks_left(out, "parts")


#: The keys a part's thought signature goes under (the API's JSON, then google-genai's dump).
_SIGNATURES: Final = ("thoughtSignature", "thought_signature")


def _with_calls(msg: Message, edits: dict[Block, Any]) -> Message | None:
    """The model content with its calls edited; a thought signature whose call was dropped goes on
    to the first call left (the part Gemini 3 requires it on: "the first functionCall part in each
    step", https://ai.google.dev/gemini-api/docs/thought-signatures, else 400 "Function call is
    missing a thought_signature"), or to the last part when no call is left (where Gemini puts the
    signature of a turn without calls)."""
    out = _parts_left(replaced(msg, "parts", edits, _gemini_put))
    signed = [
        (k, key, part[key]) for k, part in enumerate(msg["parts"]) for key in _SIGNATURES if _signs(part, key)
    ]
    if out is None or not signed or any(_signs(p, key) for p in out["parts"] for key in _SIGNATURES):
        return out
    _, key, signature = signed[0]
    parts = list(out["parts"])
    calls = [k for k, part in enumerate(parts) if gemini.function_call(part) is not None]
    at = calls[0] if calls else len(parts) - 1
    parts[at] = {**parts[at], key: signature}
    return {**out, "parts": parts}


def _merged(contents: list[Any], changes: list[Change]) -> list[Any]:
    """Model turns without calls right before a model turn with calls (what dropping a duplicated
    turn's unanswered calls leaves) merged into it: Gemini takes a call turn only right after a user
    or function-response turn (GM-2).  Nothing else is touched."""
    out: list[Any] = []
    for position, content in enumerate(contents):
        if _gemini_calls(content):
            merged = content
            while out and _text_turn(out[-1]):
                merged = {**merged, "parts": [*out.pop()["parts"], *merged["parts"]]}
            if merged is not content:
                changes.append(
                    Change(
                        "GM-2",
                        f"contents[{position}]",
                        "merge",
                        None,
                        None,
                        "model turns left without calls merged into the function call turn right after "
                        "them (path: in the repaired contents)",
                    )
                )
                content = merged
        out.append(content)
    return out


def _text_turn(content: Any) -> bool:
    """A model turn with parts and no function call."""
    return (
        isinstance(content, dict)
        and content.get("role") == "model"
        and isinstance(content.get("parts"), list)
        and not _gemini_calls(content)
    )


def _signs(part: Any, key: str) -> bool:
    return isinstance(part, dict) and bool(part.get(key))


_GEMINI_RULES: Final = {
    "unanswered": "GM-4", "orphan": "GM-3", "move": "GM-3", "duplicate": "GM-1",
    "id": "GM-1", "missing": "GM-1", "second": "GM-4",
}  # fmt: skip


class _GeminiAdapter(Adapter):
    """Results are carried by user contents, those without role among them (the answer made for a
    call goes first in such a content, which keeps no role; a content made anew says ``user``)."""

    def is_carrier(self, msg: Any) -> bool:
        return _user(msg) and not self.calls(msg)


ADAPTER: Final = _GeminiAdapter(
    protocol="gemini-contents",
    container="contents",
    layout="block",
    rules=_GEMINI_RULES,
    calls=_gemini_calls,
    results=_gemini_results,
    call_path=lambda i, b: f"contents[{i}].parts[{b}].functionCall.id",
    result_path=lambda i, b: f"contents[{i}].parts[{b}]",
    with_calls=_with_calls,
    answer=_gemini_answer,
    said=lambda m, b: as_dict(gemini.function_response(m["parts"][b])).get("response"),
    note=lambda text: {"text": text},
    accepts=nonempty,
    fresh=numbered("tw-call-"),
    blocks_key="parts",
    ids_optional=True,
    after=_merged,
)
