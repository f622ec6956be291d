"""OpenAI Responses input items as the repairer sees them: each call and each output an item."""

from __future__ import annotations

from typing import Any, Final

from toolwire.models import openai_responses
from toolwire.properties._change import Change
from toolwire.properties._repair import (
    DROP,
    NOT_RUN,
    Adapter,
    Block,
    Message,
    numbered,
)

__all__ = ["ADAPTER"]


def _responses_calls(item: Any) -> list[tuple[Block, Any, str | None]]:
    if isinstance(item, dict) and item.get("type") == openai_responses.FUNCTION_CALL:
        return [(None, item.get("call_id"), item.get("name"))]
    return []


def _responses_results(item: Any) -> list[tuple[Block, Any, str | None]]:
    if isinstance(item, dict) and item.get("type") == openai_responses.FUNCTION_CALL_OUTPUT:
        return [(None, item.get("call_id"), None)]
    return []


def _responses_with_calls(item: Message, edit: dict[Block, Any]) -> Message | None:
    new = edit.get(None, item.get("call_id"))
    return None if new is DROP else {**item, "call_id": new}


def _responses_answer(item: Message | None, block: Block, new: Any, name: str | None) -> Message:
    if item is not None:
        return {**item, "call_id": new}
    return {"type": openai_responses.FUNCTION_CALL_OUTPUT, "call_id": new, "output": NOT_RUN}


def _responses_renamed(item: Message) -> Message:
    # Its item id is the original's: a second item of that id breaks RS-5 (and it is optional).
    return {k: v for k, v in item.items() if k != "id"}


def _responses_accepts(value: str) -> bool:
    return openai_responses.CALL_ID_MIN <= len(value) <= openai_responses.CALL_ID_MAX


_RESPONSES_RULES: Final = {
    "unanswered": "RS-4", "orphan": "RS-3", "move": "RS-4", "duplicate": "RS-4b",
    "id": "RS-2", "missing": "RS-2", "second": "RS-3b",
}  # fmt: skip


def _item_ids(items: list[Any], changes: list[Change]) -> list[Any]:
    """Responses input: an optional item id that breaks RS-1b (a function_call's not starting
    with 'fc') or RS-5 (a second item of one id) is left out; the call_id still pairs."""
    seen: set[Any] = set()
    out: list[Any] = []
    for i, item in enumerate(items):
        if (
            isinstance(item, dict)
            and item.get("type") in ("function_call", "function_call_output")
            and "id" in item
        ):
            ident = item["id"]
            rule = None
            if item["type"] == "function_call" and isinstance(ident, str) and not ident.startswith("fc"):
                rule = "RS-1b"
            elif ident in seen:
                rule = "RS-5"
            if rule is not None:
                item = {k: v for k, v in item.items() if k != "id"}
                changes.append(
                    Change(
                        rule,
                        f"input[{i}].id",
                        "drop-item-id",
                        ident,
                        None,
                        "an optional item id that breaks the rule, left out",
                    )
                )
        if isinstance(item, dict) and item.get("id") is not None:
            seen.add(item["id"])
        out.append(item)
    return out


ADAPTER: Final = Adapter(
    protocol="openai-responses",
    container="input",
    layout="message",
    rules=_RESPONSES_RULES,
    calls=_responses_calls,
    results=_responses_results,
    call_path=lambda i, b: f"input[{i}].call_id",
    result_path=lambda i, b: f"input[{i}]",
    with_calls=_responses_with_calls,
    answer=_responses_answer,
    said=lambda m, b: m.get("output"),
    note=lambda text: {"role": "user", "content": [{"type": "input_text", "text": text}]},
    accepts=_responses_accepts,
    fresh=numbered("call_tw"),
    run_calls=True,
    renamed=_responses_renamed,
    after=_item_ids,
)
