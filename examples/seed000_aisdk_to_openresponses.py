"""Seed 000: AI SDK stream parts -> Open Responses events, with its two emitting paths.

The Vercel AI Gateway converter emits ``response.output_item.added`` from the
streaming path (``tool-input-start``) and again from the whole-call path
(``tool-call``) for the same call, each time with a fresh item id: two items,
one ``call_id``.  ``buggy`` keeps that shape; ``fixed`` tracks calls by their
upstream id across both paths (the report's recommended fix).

    toolwire fuzz examples/seed000_aisdk_to_openresponses.py:buggy \\
        --from aisdk-stream --to open-responses-stream
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from typing import Any

Event = dict[str, Any]


def _item_id(call_id: str, serial: int) -> str:
    # generateFunctionCallId(): a new id on every call, deterministic here so runs replay.
    return "fc_" + hashlib.sha256(f"{call_id}/{serial}".encode()).hexdigest()[:48]


class _Converter:
    def __init__(self, dedupe: bool) -> None:
        self.dedupe = dedupe
        self.sequence = 0
        self.next_output = 0
        self.serial = 0
        self.items: dict[str, dict[str, Any]] = {}

    def event(self, kind: str, **fields: Any) -> Event:
        event = {"type": kind, "sequence_number": self.sequence, **fields}
        self.sequence += 1
        return event

    def new_item(self, call_id: str, name: str) -> dict[str, Any]:
        self.serial += 1
        item = {"id": _item_id(call_id, self.serial), "index": self.next_output, "name": name, "buffer": ""}
        item |= {"call_id": call_id, "added": False, "done": False}
        self.next_output += 1
        return item

    def added(self, item: dict[str, Any], arguments: str) -> Event:
        item["added"] = True
        body = {"type": "function_call", "id": item["id"], "call_id": item["call_id"], "name": item["name"]}
        body |= {"arguments": arguments, "status": "in_progress"}
        return self.event("response.output_item.added", output_index=item["index"], item=body)

    def done(self, item: dict[str, Any], arguments: str) -> Iterator[Event]:
        item["done"] = True
        yield self.event(
            "response.function_call_arguments.done",
            item_id=item["id"],
            output_index=item["index"],
            arguments=arguments,
        )
        body = {"type": "function_call", "id": item["id"], "call_id": item["call_id"], "name": item["name"]}
        body |= {"arguments": arguments, "status": "completed"}
        yield self.event("response.output_item.done", output_index=item["index"], item=body)

    def convert(self, parts: Iterable[Event]) -> Iterator[Event]:
        response = {"id": "resp_0", "object": "response", "status": "in_progress", "output": []}
        yield self.event("response.created", response=response)
        yield self.event("response.in_progress", response=response)
        for part in parts:
            kind = part.get("type")
            if kind == "tool-input-start":
                item = self.new_item(part["id"], part["toolName"])
                self.items[part["id"]] = item
                yield self.added(item, "")
            elif kind == "tool-input-delta" and part["id"] in self.items:
                item = self.items[part["id"]]
                item["buffer"] += part["delta"]
                yield self.event(
                    "response.function_call_arguments.delta",
                    item_id=item["id"],
                    output_index=item["index"],
                    delta=part["delta"],
                )
            elif kind == "tool-input-end" and part["id"] in self.items:
                item = self.items[part["id"]]
                yield from self.done(item, item["buffer"])
            elif kind == "tool-call":
                yield from self.tool_call(part)
        yield self.event("response.completed", response=response | {"status": "completed"})

    def tool_call(self, part: Event) -> Iterator[Event]:
        arguments = part["input"] if isinstance(part["input"], str) else json.dumps(part["input"])
        known = self.items.get(part["toolCallId"]) if self.dedupe else None
        if known is not None:
            if not known["done"]:
                yield from self.done(known, arguments)
            return
        # The non-streaming path: never consults the streamed items when not deduplicating.
        item = self.new_item(part["toolCallId"], part["toolName"])
        self.items[part["toolCallId"]] = item
        yield self.added(item, arguments)
        yield from self.done(item, arguments)


def buggy(parts: Iterable[Event]) -> Iterator[Event]:
    """As reported: ``tool-call`` emits a second item for a call ``tool-input-start`` already opened."""
    return _Converter(dedupe=False).convert(parts)


def fixed(parts: Iterable[Event]) -> Iterator[Event]:
    """Cross-path deduplication by the upstream call id: one item per call."""
    return _Converter(dedupe=True).convert(parts)
