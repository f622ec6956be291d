"""Where calls and results sit in Vercel AI SDK traces: readers, sites, probe."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from toolwire.properties._protocol import Result
from toolwire.properties._sites import Sites, key
from toolwire.properties._text import json_text
from toolwire.properties._turn import Call

__all__ = ["STREAM_SITES", "UI_SITES", "probe", "results", "ui_calls", "ui_results"]

#: ``tool-input-start`` opens a call.
STREAM_SITES: Final = Sites(key("tool-input-start", "id"))
#: ``tool-input-start`` opens a call (its id is ``toolCallId`` here).
UI_SITES: Final = Sites(key("tool-input-start", "toolCallId"))


def results(trace: list[Any]) -> Iterable[Result]:
    """The ``tool-result`` parts: the call id each answers, its tool and result."""
    for e in trace:
        if isinstance(e, dict) and e.get("type") == "tool-result":
            yield e.get("toolCallId"), e.get("toolName"), e.get("result", e.get("output"))


def ui_calls(trace: list[Any]) -> list[Call]:
    """The calls of a UI message stream, as ``tool-input-available`` chunks carry them whole."""
    return [
        (e.get("toolCallId"), e.get("toolName"), json_text(e.get("input")))
        for e in trace
        if isinstance(e, dict) and e.get("type") == "tool-input-available"
    ]


def ui_results(trace: list[Any]) -> Iterable[Result]:
    """The ``tool-output-available`` chunks: the call id each answers and its output."""
    for e in trace:
        if isinstance(e, dict) and e.get("type") == "tool-output-available":
            yield e.get("toolCallId"), None, e.get("output")


def probe(call_id: str) -> list[dict[str, Any]]:
    """The smallest stream in which ``call_id`` is a call's id."""
    return [
        {"type": "tool-input-start", "id": call_id, "toolName": "get_weather"},
        {"type": "tool-input-end", "id": call_id},
        {"type": "tool-call", "toolCallId": call_id, "toolName": "get_weather", "input": "{}"},
    ]
