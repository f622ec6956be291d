"""Seed 003: Google ADK function calls -> AI SDK v6 UI message stream, with a name-keyed id map.

``stream_protocol.py`` ignored ``function_call.id``, minted ``call_0``,
``call_1``... and stored ``tool_call_id_map[tool_name] = tool_call_id``, so
when one tool is called twice the first response looks up the name and gets
the second call's id.  ``fixed`` uses ADK's id, and for id-less calls (the
Gemini API omits ids) falls back to the oldest open call of that name.

    toolwire fuzz examples/seed003_adk_to_aisdk.py:buggy --from gemini-contents --to aisdk-ui-stream
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

Event = dict[str, Any]


class _StreamProtocol:
    def __init__(self, use_adk_ids: bool) -> None:
        self.use_adk_ids = use_adk_ids
        self.counter = 0
        self.tool_call_id_map: dict[str, str] = {}
        self.open: dict[str, list[str]] = {}
        self.by_adk_id: dict[str, str] = {}

    def _generate_tool_call_id(self) -> str:
        ident = f"call_{self.counter}"
        self.counter += 1
        return ident

    def function_call(self, call: dict[str, Any]) -> Iterator[Event]:
        name = call["name"]
        tool_call_id = call["id"] if self.use_adk_ids and call.get("id") else self._generate_tool_call_id()
        self.tool_call_id_map[name] = tool_call_id
        self.open.setdefault(name, []).append(tool_call_id)
        yield {"type": "tool-input-start", "toolCallId": tool_call_id, "toolName": name}
        yield {
            "type": "tool-input-available",
            "toolCallId": tool_call_id,
            "toolName": name,
            "input": call.get("args", {}),
        }

    def function_response(self, response: dict[str, Any]) -> Iterator[Event]:
        name = response["name"]
        if self.use_adk_ids:
            pending = self.open.get(name, [])
            tool_call_id = (
                response["id"] if response.get("id") in pending else (pending[0] if pending else None)
            )
            if tool_call_id in pending:
                pending.remove(tool_call_id)
        else:
            tool_call_id = self.tool_call_id_map.get(name)
        if tool_call_id is not None:
            yield {
                "type": "tool-output-available",
                "toolCallId": tool_call_id,
                "output": response.get("response"),
            }

    def convert(self, contents: Iterable[dict[str, Any]]) -> Iterator[Event]:
        yield {"type": "start", "messageId": "msg_0"}
        for content in contents:
            parts = content.get("parts") or []
            yield {"type": "start-step"}
            for part in parts:
                # The REST API spells parts in camelCase; ADK and the Python SDK in snake_case.
                call = part.get("functionCall", part.get("function_call"))
                response = part.get("functionResponse", part.get("function_response"))
                if call is not None:
                    yield from self.function_call(call)
                elif response is not None:
                    yield from self.function_response(response)
            yield {"type": "finish-step"}
        yield {"type": "finish"}


def buggy(contents: Iterable[dict[str, Any]]) -> Iterator[Event]:
    """As reported: generated ids, and responses found through ``tool_call_id_map[tool_name]``."""
    return _StreamProtocol(use_adk_ids=False).convert(contents)


def fixed(contents: Iterable[dict[str, Any]]) -> Iterator[Event]:
    """ADK's ``function_call.id`` as ``toolCallId``; id-less calls pair with the oldest open call."""
    return _StreamProtocol(use_adk_ids=True).convert(contents)
