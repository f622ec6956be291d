"""Generated OpenAI Responses traffic: stream events (OpenAI's and Open Responses') and input items.

Where providers and clients differ, a trace draws one shape with
:func:`~toolwire.properties._strategies._render.pick`, keyed by the shape
feature (``shapes.py``) each shows: the commonest in the recorded traffic
(tests/data/traffic) first, unless another takes fewer events (counterexamples
shrink to the first option, and a campaign keeps the one with the fewest events).
"""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any, Final

from hypothesis import strategies as st

from toolwire.properties._strategies._plan import NAMES, Plan, PlannedCall, Tokened, timeline, token
from toolwire.properties._strategies._render import Generator, Wire, pick

__all__ = ["BODY", "INPUT", "OPEN_STREAM", "RESPONSE", "STREAM", "call_id", "envelope"]

#: The ``response`` object of the envelope events, as it is while in progress; ``parallel_tool_calls``,
#: ``tool_choice`` and ``tools`` are required by openai 3.54.0 ``Response`` (and always sent).
RESPONSE: Final[dict[str, Any]] = {
    "id": "resp_a4c123b1612dd272d1371c17149d439536b3216fdaeeb975",
    "object": "response",
    "created_at": 1764000000,
    "status": "in_progress",
    "model": "gpt-4.1-2025-04-14",
    "output": [],
    "parallel_tool_calls": True,
    "tool_choice": "auto",
    "tools": [
        {
            "type": "function",
            "name": name,
            "parameters": {"type": "object", "properties": {}},
            "strict": False,
        }
        for name in NAMES
    ],
}
#: The usage every recorded ``response.completed`` carries (openai 3.54.0 ``ResponseUsage`` also
#: requires ``cache_write_tokens``).
_USAGE: Final = {
    "input_tokens": 104,
    "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
    "output_tokens": 51,
    "output_tokens_details": {"reasoning_tokens": 0},
    "total_tokens": 155,
}
#: What ``include: ["reasoning.encrypted_content"]`` adds to a reasoning item (shortened).
_ENCRYPTED: Final = "gAAAAABqPBJRAhmec86Fy9tP-ivVhrv0x9ECGIiqBAfx7OXcUgKd9ho8SvUUUilI37luuawhXJw"
_SUMMARY: Final = "**Choosing a tool**\n\nI need the weather tool for this."


def envelope(status: str) -> dict[str, Any]:
    """A fresh copy of :data:`RESPONSE` with ``status``."""
    return copy.deepcopy(RESPONSE) | {"status": status}


def call_id(call: Tokened) -> str:
    """``call_`` and 24 characters, as OpenAI's call ids look."""
    return f"call_{call.token}"


def _item_id(prefix: str, seed: str) -> str:
    """An item id as OpenAI's look (``rs_``, ``msg_``, ``ws_`` and 48 hex digits), distinct per seed.

    ``prefix`` may end in ``_``: ``"mcp_"``, since the bare name is the MCP family's protocol name.
    """
    return f"{prefix.removesuffix('_')}_{hashlib.blake2b(seed.encode(), digest_size=24).hexdigest()}"


class _Obfuscation:
    """The ``obfuscation`` padding of delta events (``stream_options.include_obfuscation``, on by default)."""

    def __init__(self, on: bool) -> None:
        self.on = on
        self.count = 0

    def __call__(self, event: dict[str, Any]) -> dict[str, Any]:
        if not self.on:
            return event
        self.count += 1
        return event | {"obfuscation": token(self.count, 16)[: 15 - len(event["delta"]) % 16]}


def responses_stream(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """OpenAI's Responses stream: :func:`_stream`, with the items of tools the API runs."""
    return _stream(draw, plan, quirks, hosted=True)


def open_responses_stream(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """An Open Responses stream: :func:`_stream` with function calls, messages and reasoning only.

    The Open Responses schema (items.tsp) has no tool search or MCP items.
    """
    return _stream(draw, plan, quirks, hosted=False)


def _stream(draw: st.DrawFn, plan: Plan, quirks: frozenset[str], *, hosted: bool) -> Wire:
    """Responses events: an envelope, then each item added, its deltas, done, one after the other.

    ``function_call_arguments.done`` carries no ``name``: openai 3.54.0's
    ``ResponseFunctionCallArgumentsDoneEvent`` has none, and none of the
    recorded OpenAI streams sends one (tests/data/traffic), so the OpenAI and
    Open Responses streams render alike.  Each trace draws whether delta
    events carry ``obfuscation``, and whether reasoning items stream a summary
    and carry ``encrypted_content``; ``response.completed`` carries usage.
    ``unnumbered`` streams, as recorded before 2025-05-21, carry neither
    ``sequence_number`` nor (which came later) ``obfuscation``.
    """
    turn = plan.turns[0]
    obfuscated = pick(draw, {"obfuscation-field": True, "no-obfuscation-field": False}, quirks)
    obfuscate = _Obfuscation(obfuscated and "unnumbered" not in quirks)
    summary = pick(draw, {"no-reasoning-summary": False, "reasoning-summary-streamed": True}, quirks)
    encrypted = pick(draw, {"no-encrypted-reasoning": False, "encrypted-reasoning": True}, quirks)
    kinds = {"tool-search-item": _tool_search, "mcp-call-item": _mcp_call}
    # Naming a kind of hosted item (a swarm, --like) switches hosted items on.
    named = {"hosted-tool-item"} if hosted and not quirks.isdisjoint(kinds) else set()
    server = (
        hosted
        and pick(draw, {"no-hosted-tool-item": None, "hosted-tool-item": True}, quirks | named)
        and pick(draw, kinds, quirks)
    )
    events: Wire = [
        {"type": "response.created", "response": envelope("in_progress")},
        {"type": "response.in_progress", "response": envelope("in_progress")},
    ]
    position = 0
    if turn.text:
        events.extend(_responses_message(position, turn.text, obfuscate))
        position += 1
    if server:
        # A tool the API runs (it needs no answer from the client) before the function calls.
        items = server(position, [call.name for call in turn.calls] or ["get_weather"], obfuscate)
        events.extend(items)
        position += sum(event["type"] == "response.output_item.added" for event in items)
    for filler, k, j, last in timeline(turn):
        call = turn.calls[k]
        item_id = f"fc_{call.token * 2}"
        if filler and j == 0:
            events.extend(_responses_reasoning(position, call.token, summary, encrypted, obfuscate))
            position += 1
        item = {
            "id": item_id,
            "type": "function_call",
            "status": "in_progress",
            "arguments": "",
            "call_id": call_id(call),
            "name": call.name,
        }
        if j == 0:
            events.append({"type": "response.output_item.added", "output_index": position, "item": item})
        delta = {
            "type": "response.function_call_arguments.delta",
            "item_id": item_id,
            "output_index": position,
            "delta": call.pieces[j],
        }
        events.append(obfuscate(delta))
        if last:
            events.append(
                {
                    "type": "response.function_call_arguments.done",
                    "item_id": item_id,
                    "output_index": position,
                    "arguments": call.arguments,
                }
            )
            item = item | {"status": "completed", "arguments": call.arguments}
            events.append({"type": "response.output_item.done", "output_index": position, "item": item})
            position += 1
    events.append({"type": "response.completed", "response": envelope("completed") | {"usage": _USAGE}})
    if "unnumbered" not in quirks:
        for number, event in enumerate(events):
            event["sequence_number"] = number
    return events


def _tool_search(position: int, names: list[str], obfuscate: _Obfuscation) -> Wire:
    """Tool search run by the API: a ``tool_search_call`` item, then the deferred tools it loaded.

    Src: openai 3.54.0 ``ResponseToolSearchCall``, ``ResponseToolSearchOutputItem`` (``execution``
    ``"server"``: no ``call_id``, the client answers nothing).
    """
    found = [
        {"type": "function", "name": name, "defer_loading": True, "parameters": _PARAMETERS, "strict": False}
        for name in dict.fromkeys(names)
    ]
    call = {
        "id": _item_id("tsc", names[0]),
        "type": "tool_search_call",
        "execution": "server",
        "call_id": None,
        "arguments": {"query": " ".join(dict.fromkeys(names))},
    }
    output = {
        "id": _item_id("tso", names[0]),
        "type": "tool_search_output",
        "execution": "server",
        "call_id": None,
        "tools": found,
    }
    return [*_whole(position, call), *_whole(position + 1, output)]


_PARAMETERS: Final = {"type": "object", "properties": {}}


def _whole(position: int, item: dict[str, Any]) -> Wire:
    """An item added in progress and done completed, with nothing streamed between."""
    return [
        {
            "type": "response.output_item.added",
            "output_index": position,
            "item": item | {"status": "in_progress"},
        },
        {
            "type": "response.output_item.done",
            "output_index": position,
            "item": item | {"status": "completed"},
        },
    ]


def _mcp_call(position: int, names: list[str], obfuscate: _Obfuscation) -> Wire:
    """A remote MCP server's tool run by the API: its tools listed, then an ``mcp_call`` item.

    Src: openai 3.54.0 ``McpListTools``, ``McpCall`` and the ``response.mcp_list_tools.*``,
    ``response.mcp_call.*`` and ``response.mcp_call_arguments.*`` events.
    """
    listed = {"id": _item_id("mcpl", names[0]), "type": "mcp_list_tools", "server_label": "weather"}
    tools = [
        {"name": "forecast", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}
    ]
    arguments = json.dumps({"city": "Paris"})
    call_item = {"id": _item_id("mcp_", names[0]), "type": "mcp_call", "server_label": "weather"}
    call_item |= {"name": "forecast", "arguments": "", "status": "in_progress"}
    at = {"output_index": position, "item_id": listed["id"]}
    then = {"output_index": position + 1, "item_id": call_item["id"]}
    done = call_item | {"arguments": arguments, "status": "completed", "output": "Sunny, 21 C", "error": None}
    return [
        {"type": "response.output_item.added", "output_index": position, "item": listed | {"tools": []}},
        {"type": "response.mcp_list_tools.in_progress", **at},
        {"type": "response.mcp_list_tools.completed", **at},
        {"type": "response.output_item.done", "output_index": position, "item": listed | {"tools": tools}},
        {"type": "response.output_item.added", "output_index": position + 1, "item": call_item},
        {"type": "response.mcp_call.in_progress", **then},
        obfuscate({"type": "response.mcp_call_arguments.delta", **then, "delta": arguments}),
        {"type": "response.mcp_call_arguments.done", **then, "arguments": arguments},
        {"type": "response.mcp_call.completed", **then},
        {"type": "response.output_item.done", "output_index": position + 1, "item": done},
    ]


def _responses_message(position: int, text: str, obfuscate: _Obfuscation) -> Wire:
    item_id = "msg_34d6608697a8d41bed440e50454f31af3176813e02ea68ef"
    part = {"type": "output_text", "annotations": [], "text": text}
    where = {"item_id": item_id, "output_index": position, "content_index": 0}
    item = {"id": item_id, "type": "message", "role": "assistant", "status": "in_progress", "content": []}
    return [
        {"type": "response.output_item.added", "output_index": position, "item": item},
        {"type": "response.content_part.added", **where, "part": part | {"text": ""}},
        obfuscate({"type": "response.output_text.delta", **where, "delta": text, "logprobs": []}),
        {"type": "response.output_text.done", **where, "text": text, "logprobs": []},
        {"type": "response.content_part.done", **where, "part": part},
        {
            "type": "response.output_item.done",
            "output_index": position,
            "item": item | {"status": "completed", "content": [part]},
        },
    ]


def _responses_reasoning(
    position: int, seed: str, summary: bool, encrypted: bool, obfuscate: _Obfuscation
) -> Wire:
    """A reasoning item: added, its summary streamed (``summary``), done."""
    item: dict[str, Any] = {
        "id": f"rs_{seed * 2}",
        "type": "reasoning",
        "summary": [],
        "status": "in_progress",
    }
    if encrypted:
        item["encrypted_content"] = _ENCRYPTED
    events: Wire = [{"type": "response.output_item.added", "output_index": position, "item": item}]
    parts: list[dict[str, Any]] = []
    if summary:
        where = {"item_id": item["id"], "output_index": position, "summary_index": 0}
        part = {"type": "summary_text", "text": _SUMMARY}
        events += [
            {"type": "response.reasoning_summary_part.added", **where, "part": part | {"text": ""}},
            obfuscate({"type": "response.reasoning_summary_text.delta", **where, "delta": _SUMMARY}),
            {"type": "response.reasoning_summary_text.done", **where, "text": _SUMMARY},
            {"type": "response.reasoning_summary_part.done", **where, "part": part},
        ]
        parts.append(part)
    done = item | {"status": "completed", "summary": parts}
    events.append({"type": "response.output_item.done", "output_index": position, "item": done})
    return events


def responses_input(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """A request's ``input`` items: instructions, then each turn; one client's shape per trace.

    Clients differ in how they spell messages (content parts or a string; the
    model's messages replayed as typed ``message`` items), whether each output
    follows its own call or all outputs follow the calls (in any order), in
    JSON or text, and whether reasoning items (encrypted or not) and hosted
    tool items (web search, file search) are replayed.  ``function_call`` items
    carry their item ``id`` and ``status``, as the SDKs replay output items;
    ``no-item-ids`` leaves both out, as clients that build the items do.
    """
    # No instructions first, though most recorded requests have them: fewer items shrink better.
    instructions = pick(
        draw, {"no-instructions": None, "system-message": "system", "developer-message": "developer"}, quirks
    )
    parts = pick(draw, {"message-content-parts": True, "message-content-string": False}, quirks)
    typed = pick(draw, {"typed-message-item": True, "untyped-message-item": False}, quirks)
    between = pick(draw, {"outputs-after-calls": False, "outputs-between-calls": True}, quirks)
    as_json = pick(draw, {"output-string": False, "output-json-string": True}, quirks)
    reasoning = pick(
        draw, {"no-reasoning-item": None, "reasoning-item": False, "encrypted-reasoning": True}, quirks
    )
    hosted = pick(
        draw,
        {"no-hosted-tool-item": None, "web-search-call-item": "ws", "other-hosted-tool-item": "fs"},
        quirks,
    )

    def message(role: str, text: str) -> dict[str, Any]:
        return {"role": role, "content": [{"type": "input_text", "text": text}] if parts else text}

    def answer(text: str, seed: str) -> dict[str, Any]:
        if not typed:
            return {"role": "assistant", "content": text}
        return {
            "id": _item_id("msg", seed),
            "type": "message",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}],
        }

    def call_item(call: PlannedCall) -> dict[str, Any]:
        item = {
            "type": "function_call",
            "call_id": call_id(call),
            "name": call.name,
            "arguments": call.arguments,
        }
        if "no-item-ids" in quirks:
            return item
        return item | {"id": f"fc_{call.token * 2}", "status": "completed"}

    def output(call: PlannedCall) -> dict[str, Any]:
        text = json.dumps({"result": call.result}, ensure_ascii=False) if as_json else call.result
        return {"type": "function_call_output", "call_id": call_id(call), "output": text}

    items: Wire = [message(instructions, "Use the tools to answer.")] if instructions else []
    for number, turn in enumerate(plan.turns):
        if number:
            items.append(answer("Done.", f"answer {number}"))
        items.append(message("user", turn.user))
        if number == 0 and hosted:
            items.append(_hosted(hosted, turn.user))
        if turn.calls and reasoning is not None:
            items.append(_reasoning(turn.calls[0].token, reasoning))
        if turn.text:
            items.append(answer(turn.text, f"text {number}"))
        if between:
            for call in turn.calls:
                items += [call_item(call), output(call)]
        else:
            items += [call_item(call) for call in turn.calls]
            items += [output(call) for call in draw(st.permutations(turn.calls))]
    if not plan.turns[-1].calls:
        items.append(answer("Done.", "answer"))
    return items


def _reasoning(seed: str, encrypted: bool) -> dict[str, Any]:
    item: dict[str, Any] = {"type": "reasoning", "id": f"rs_{seed * 2}", "summary": []}
    return item | {"encrypted_content": _ENCRYPTED} if encrypted else item


def _hosted(kind: str, query: str) -> dict[str, Any]:
    """A built-in tool's call, replayed: a web search or a file search."""
    if kind == "ws":
        item: dict[str, Any] = {"type": "web_search_call", "action": {"type": "search", "query": query}}
    else:
        item = {"type": "file_search_call", "queries": [query]}
    return {"id": _item_id(kind, query), "status": "completed"} | item


def responses_body(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """A completed ``response`` of the first turn: a reasoning item or not, text, whole function calls."""
    turn = plan.turns[0]
    reasoning = pick(draw, {"no-reasoning-item": False, "reasoning-item": True}, quirks)
    output: Wire = []
    if reasoning:
        output.append({"id": _item_id("rs", turn.user), "type": "reasoning", "summary": []})
    if turn.text or not turn.calls:
        part = {"type": "output_text", "annotations": [], "logprobs": [], "text": turn.text or "Done."}
        message = {"id": _item_id("msg", turn.user), "type": "message", "role": "assistant"}
        output.append(message | {"status": "completed", "content": [part]})
    for call in turn.calls:
        item = {"id": f"fc_{call.token * 2}", "type": "function_call", "status": "completed"}
        output.append(item | {"arguments": call.arguments, "call_id": call_id(call), "name": call.name})
    return [envelope("completed") | {"output": output, "usage": _USAGE}]


#: A completed ``response`` body: whole function_call items.
BODY: Final = Generator(responses_body, fragments=False)
#: OpenAI's stream: one item after the other.
STREAM: Final = Generator(responses_stream)
#: Open Responses: the same events as OpenAI's, without the items of OpenAI's hosted tools.
OPEN_STREAM: Final = Generator(open_responses_stream)
#: A request's ``input`` items; outputs answer a turn's calls in any order.
INPUT: Final = Generator.conversation(responses_input)
