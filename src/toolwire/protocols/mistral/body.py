"""The Mistral chat completion body: Chat Completions' shape, Mistral's ids (MI-1, MI-3, MI-7a to MI-7c).

The reader of the body is OpenAI Chat Completions' (the family's ``__init__`` hands it in).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from toolwire.models import mistral as wire
from toolwire.properties._body import BodyCall, BodyMonitor, BodyRules, BodyTurn
from toolwire.properties._text import clip
from toolwire.protocols.mistral.rules import RESPONSE, RULES

__all__ = ["ResponseMonitor"]

_BOOK: Final = {rule.id: rule for rule in RULES}
_RULES: Final = BodyRules(
    call="MI-7a",
    arguments="MI-7a",
    unique="MI-7b",
    stop="MI-7c",
    text=True,
    objects_too=True,
    tools=frozenset({"tool_calls"}),
    ends=frozenset({"stop"}),
)


class ResponseMonitor(BodyMonitor):
    """Checks Mistral chat completion bodies, read by ``reader`` (the Chat Completions reader)."""

    protocol = RESPONSE
    rules = _RULES
    book = _BOOK
    noun = "chat completion"

    def __init__(self, reader: Callable[[dict[str, Any]], list[BodyTurn] | str]) -> None:
        super().__init__()
        self._reader = reader

    def read(self, body: dict[str, Any]) -> list[BodyTurn] | str:
        return self._reader(body)

    def check_id(self, call: BodyCall, index: int, line: int | None) -> None:
        where = f"{call.path}.id"
        if call.id == wire.NULL_ID:
            self.report(
                "MI-3", f'{where} is the "null" sentinel (serving mode)', index=index, line=line, path=where
            )
        elif not wire.TOOL_CALL_ID.fullmatch(call.id):
            self.report(
                "MI-1",
                f"{where} is {clip(call.id)}, not 9 letters and digits",
                index=index,
                line=line,
                ids=(call.id,),
                path=where,
                id=call.id,
            )
