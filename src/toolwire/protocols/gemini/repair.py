"""Gemini contents as the repairer sees them: functionResponse parts of the next user content."""

from __future__ import annotations

from typing import Any, Final

from toolwire.models import gemini
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


def _gemini_results(msg: Any) -> list[tuple[Block, Any, str | None]]:
    return parts_of(msg, "user", "parts", lambda part: _id_and_name(gemini.function_response(part)))


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


_GEMINI_RULES: Final = {
    "unanswered": "GM-4", "orphan": "GM-3", "move": "GM-3", "duplicate": "GM-1",
    "id": "GM-1", "missing": "GM-1", "second": "GM-4",
}  # fmt: skip


ADAPTER: Final = Adapter(
    protocol="gemini-contents",
    container="contents",
    layout="block",
    rules=_GEMINI_RULES,
    calls=_gemini_calls,
    results=_gemini_results,
    call_path=lambda i, b: f"contents[{i}].parts[{b}].functionCall.id",
    result_path=lambda i, b: f"contents[{i}].parts[{b}]",
    with_calls=lambda m, e: _parts_left(replaced(m, "parts", e, _gemini_put)),
    answer=_gemini_answer,
    said=lambda m, b: as_dict(gemini.function_response(m["parts"][b])).get("response"),
    note=lambda text: {"text": text},
    accepts=nonempty,
    fresh=numbered("tw-call-"),
    blocks_key="parts",
    ids_optional=True,
)
