"""Generated Anthropic Messages traffic: stream events and request messages.

Where real traffic varies (tests/data/traffic), each trace draws its shape with
:func:`pick`, the commonest real shape first: the API itself or Bedrock's
InvokeModel stream, ``caller`` fields, thinking blocks, a server tool's blocks,
the empty first ``partial_json``; in requests, how results are written.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from hypothesis import strategies as st

from toolwire.properties._strategies._plan import Plan, PlannedCall, PlannedTurn, timeline
from toolwire.properties._strategies._render import Generator, Spelling, Wire, conversation, pick

__all__ = ["MESSAGES", "RESPONSE", "STREAM"]

#: An opaque thinking signature, as the API sends it (base64).
SIGNATURE: Final = (
    "EoQDCm0IDhgCKkCDzGs2kL2PgnDCZU/nM2wG2P1VIXCRHVnhDDzBQxNF1fl4QBXEKLxRItNJ2MwFdW9eeZPhsxSQIxD54cv3"
    "zs29MhljbGF1ZGUtaGFpa3UtNC01LTIwMjUxMDAxOABCCHRoaW5raW5nEgy/OWlwTmmqUjC6L70aDJ4P0R5NfuIe9U5zAiIw"
)
THOUGHT: Final = "The user wants the weather."
#: A server tool's id (one server tool call per generated trace), its query and the text citing it.
SERVER_ID: Final = "srvtoolu_01SPfvT38PDPAFnkcrMNGUrM"
QUERY: Final = {"query": "weather today"}
CITED: Final = "It is overcast."
SEARCH_RESULT: Final = {
    "type": "web_search_result",
    "title": "San Francisco, CA Weather Forecast | AccuWeather",
    "url": "https://www.accuweather.com/en/us/san-francisco/94103/weather-forecast/347629",
    "encrypted_content": "Eo4UCioICRgCIiRiMzIwZGYxNi1jNzYzLTQ0NTUtYjkwMS0zZjdkNTRlOWEwMTISDBKj80joO",
    "page_age": None,
}
CITATION: Final = {
    "type": "web_search_result_location",
    "cited_text": "Hourly Forecast for Today · 18% / 0 in · Overcast.",
    "url": "https://www.accuweather.com/en/us/san-francisco/94103/weather-forecast/347629",
    "title": "San Francisco, CA Weather Forecast | AccuWeather",
    "encrypted_index": "EpMBCioICRgCIiRiMzIwZGYxNi1jNzYzLTQ0NTUtYjkwMS0zZjdkNTRlOWEwMTISDNLhGIq9",
}
#: A 1x1 PNG, as computer-use tool results carry screenshots.
PNG: Final = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg=="
)


@dataclass(frozen=True, slots=True)
class _Host:
    """Where the stream comes from: the Anthropic API, or Bedrock's InvokeModel stream of Claude."""

    message_id: str
    tool_prefix: str
    bedrock: bool


_API: Final = _Host("msg_014p7gG3wDgGV9EUtLvnow3U", "toolu_01", bedrock=False)
_BEDROCK: Final = _Host("msg_bdrk_01NBUvvcS6aKrQB4TD7RpJZH", "toolu_bdrk_01", bedrock=True)


def anthropic_stream(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """Anthropic Messages events: one ``tool_use`` content block per call, blocks in order.

    Each trace draws its host (the API's full usage on ``message_delta``, or
    Bedrock's invocation metrics on ``message_stop``), ``caller`` fields, a
    thinking block, a server tool with its result and cited text, and whether
    a tool block's input starts with an empty ``partial_json`` (as the API
    always sends; a tool without arguments then sends nothing else).
    """
    turn = plan.turns[0]
    host = pick(draw, {"message-delta-full-usage": _API, "bedrock-invocation-metrics": _BEDROCK}, quirks)
    if "programmatic-tool-call" in quirks:
        host = _API  # Bedrock's InvokeModel stream carries no caller fields (tests/data/traffic)
    caller = not host.bedrock and pick(draw, {"no-caller-field": False, "caller-field": True}, quirks)
    thinking = pick(
        draw,
        {"no-thinking": None, "thinking-block": "thinking", "redacted-thinking": "redacted_thinking"},
        quirks,
    )
    kinds = {
        "web-search-tool-result": "web_search",
        "tool-search-tool-result": "tool_search",
        "code-execution-tool-result": "code_execution",
        "programmatic-tool-call": "programmatic",
    }
    # Naming a kind of server tool (a swarm, --like) switches server tools on.
    named = {"server-tool-use"} if not quirks.isdisjoint(kinds) else set()
    server = pick(draw, {"no-server-tool": False, "server-tool-use": True}, quirks | named) and pick(
        draw, kinds, quirks
    )
    if server == "programmatic" and (host.bedrock or not turn.calls):
        # Code that calls no client tool; Bedrock's InvokeModel stream carries no caller fields.
        server = "code_execution"
    cited = server == "web_search" and pick(draw, {"citations-delta": True, "no-citations": False}, quirks)
    programmatic = server == "programmatic" and turn.calls
    empty_first = pick(draw, {"empty-partial-json": True, "no-empty-partial-json": False}, quirks)
    usage: dict[str, Any] = {"input_tokens": 472, "output_tokens": 2}
    if not host.bedrock:
        usage |= {"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
    message: dict[str, Any] = {
        "id": host.message_id,
        "type": "message",
        "role": "assistant",
        "content": [],
        "model": "claude-opus-4-6",
        "stop_reason": None,
        "stop_sequence": None,
        "usage": usage,
    }
    events: Wire = [{"type": "message_start", "message": message}]
    block = 0
    if thinking == "thinking":
        start = {"type": "thinking", "thinking": "", "signature": ""}
        deltas = [{"type": "thinking_delta", "thinking": t} for t in (THOUGHT, "")]
        events.extend(_block(block, start, [*deltas, {"type": "signature_delta", "signature": SIGNATURE}]))
        block += 1
    elif thinking == "redacted_thinking":
        events.extend(_block(block, {"type": "redacted_thinking", "data": SIGNATURE}, []))
        block += 1
    # A turn without calls answers in text.
    text = turn.text or ("" if turn.calls or server else "Hello")
    if text:
        events.extend(_block(block, {"type": "text", "text": ""}, [_text(text)]))
        block += 1
    if server == "web_search":
        events.extend(_server_tool(block, empty_first, cited))
        block += 3
    elif server:
        blocks = _other_server_tool(block, server, empty_first, [call.name for call in turn.calls])
        events.extend(blocks)
        block += sum(event["type"] == "content_block_start" for event in blocks)
    caller_of: dict[str, Any] | None = {"type": "direct"} if caller else None
    if programmatic:
        caller_of = {"type": draw(st.sampled_from(_CODE_EXECUTION)), "tool_id": CODE_ID}
    for filler, k, j, last in timeline(turn):
        call = turn.calls[k]
        if filler:
            events.append({"type": "ping"})
        if j == 0:
            use: dict[str, Any] = {"type": "tool_use", "id": f"{host.tool_prefix}{call.token[:22]}"}
            # A call made from code (programmatic tool calling) comes whole in its start.
            use |= {"name": call.name, "input": call.input if programmatic else {}}
            if caller_of is not None:
                use["caller"] = caller_of
            events.append({"type": "content_block_start", "index": block, "content_block": use})
            if empty_first and not programmatic:
                events.append(_input(block, ""))
        if not (empty_first and call.arguments == "{}") and not programmatic:
            events.append(_input(block, call.pieces[j]))
        if last:
            events.append({"type": "content_block_stop", "index": block})
            block += 1
    reason = "tool_use" if turn.calls else "end_turn"
    events.append(_message_delta(host, reason, server == "web_search", server in _CONTAINED))
    stop: dict[str, Any] = {"type": "message_stop"}
    if host.bedrock:
        stop["amazon-bedrock-invocationMetrics"] = {
            "inputTokenCount": 472,
            "outputTokenCount": 89,
            "invocationLatency": 1298,
            "firstByteLatency": 1175,
        }
    events.append(stop)
    return events


def _block(index: int, start: dict[str, Any], deltas: list[dict[str, Any]]) -> Wire:
    return [
        {"type": "content_block_start", "index": index, "content_block": start},
        *({"type": "content_block_delta", "index": index, "delta": d} for d in deltas),
        {"type": "content_block_stop", "index": index},
    ]


def _text(text: str) -> dict[str, Any]:
    return {"type": "text_delta", "text": text}


def _input(index: int, fragment: str) -> dict[str, Any]:
    delta = {"type": "input_json_delta", "partial_json": fragment}
    return {"type": "content_block_delta", "index": index, "delta": delta}


def _server_tool(index: int, empty_first: bool, cited: bool) -> Wire:
    """A web search the API runs: its ``server_tool_use`` block, its result, then text citing it."""
    start = {"type": "server_tool_use", "id": SERVER_ID, "name": "web_search", "input": {}}
    query = json.dumps(QUERY)
    pieces = [query[:9], query[9:]]
    events: Wire = [{"type": "content_block_start", "index": index, "content_block": start}]
    events.extend(_input(index, piece) for piece in ([""] if empty_first else []) + pieces)
    events.append({"type": "content_block_stop", "index": index})
    result = {"type": "web_search_tool_result", "tool_use_id": SERVER_ID, "content": [SEARCH_RESULT]}
    events.extend(_block(index + 1, result, []))
    text: dict[str, Any] = {"type": "text", "text": ""}
    deltas = [_text(CITED)]
    if cited:
        text = {"citations": [], **text}
        deltas.insert(0, {"type": "citations_delta", "citation": CITATION})
    events.extend(_block(index + 2, text, deltas))
    return events


def _message_delta(host: _Host, reason: str, searched: bool, contained: bool) -> dict[str, Any]:
    """The message's end: its stop reason, usage, and the code-execution container it used."""
    usage: dict[str, Any] = {"output_tokens": 89}
    if not host.bedrock:
        # The API sends the whole usage again; Bedrock's InvokeModel stream the output tokens only.
        usage = {"input_tokens": 472, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0} | usage
        if searched:
            usage["server_tool_use"] = {"web_search_requests": 1, "web_fetch_requests": 0}
    delta: dict[str, Any] = {"stop_reason": reason, "stop_sequence": None}
    if contained:
        delta["container"] = CONTAINER
    return {"type": "message_delta", "delta": delta, "usage": usage}


#: The code-execution tool's ``server_tool_use`` id, and the container its code runs in
#: (``message_delta.delta.container``: anthropic 2.12.0 ``RawMessageDeltaEvent.Delta.container``).
CODE_ID: Final = "srvtoolu_01Hq7ZpV3kN8sW2xLm5Tb9Rc"
CONTAINER: Final = {"id": "container_011CWv8MTdoH3U8GqjRmtZkv", "expires_at": "2026-03-02T10:41:12.345678Z"}
#: The code-execution tool versions a programmatic call's ``caller`` names (anthropic 2.12.0
#: ``ServerToolCaller``, ``ServerToolCaller20260120``).
_CODE_EXECUTION: Final = ("code_execution_20260120", "code_execution_20250825")
#: Server tools whose code runs in a container.
_CONTAINED: Final = frozenset({"code_execution", "programmatic"})
_TOOL_SEARCH_ID: Final = "srvtoolu_01TsQ4nV7bLm2Xk9Rw5Hc8Jd"


def _other_server_tool(index: int, kind: str, empty_first: bool, names: list[str]) -> Wire:
    """A server tool besides web search: its ``server_tool_use`` block, then its result block.

    ``tool_search``: a regex search over deferred tools, its result naming the tools the model
    then calls; ``code_execution``: code and its output; ``programmatic``: code that calls the
    client's tools (the calls follow, each with a ``caller``; its result comes in a later
    response, once the client answered them).  Src: anthropic 2.12.0 ``ServerToolUseBlock``,
    ``ToolSearchToolResultBlock``, ``CodeExecutionToolResultBlock``; platform.claude.com docs
    agents-and-tools/tool-use/programmatic-tool-calling, tool-search-tool.
    """
    if kind == "tool_search":
        server_id, name, query = _TOOL_SEARCH_ID, "tool_search_tool_regex", {"query": "weather|search|file"}
        references = [{"type": "tool_reference", "tool_name": n} for n in dict.fromkeys(names)]
        result: dict[str, Any] = {
            "type": "tool_search_tool_result",
            "tool_use_id": server_id,
            "content": {"type": "tool_search_tool_search_result", "tool_references": references},
        }
    else:
        code = "print(2 + 2)" if kind == "code_execution" else _CODE
        server_id, name, query = CODE_ID, "code_execution", {"code": code}
        output = {"type": "code_execution_result", "stdout": "4\n", "stderr": "", "return_code": 0}
        result = {
            "type": "code_execution_tool_result",
            "tool_use_id": server_id,
            "content": output | {"content": []},
        }
    start = {"type": "server_tool_use", "id": server_id, "name": name, "input": {}}
    text = json.dumps(query)
    pieces = [""] if empty_first else []
    events: Wire = [{"type": "content_block_start", "index": index, "content_block": start}]
    events.extend(_input(index, piece) for piece in [*pieces, text[:11], text[11:]])
    events.append({"type": "content_block_stop", "index": index})
    if kind != "programmatic":
        events.extend(_block(index + 1, result, []))
    return events


#: The code a programmatic turn runs: it awaits the client's tools.
_CODE: Final = "import asyncio\nr = await asyncio.gather(get_weather(location='Paris'))\nprint(r)"


def anthropic_messages(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """A request's ``messages``: the shapes a client writes are drawn once per trace."""
    spelling = _spelling(draw, quirks)
    return conversation(lambda _: spelling, any_order=True)(draw, plan, quirks)


def _spelling(draw: st.DrawFn, quirks: frozenset[str]) -> Spelling:
    """How one client writes its requests: user content, thinking, results, error flags, caching."""
    string_user = pick(draw, {"user-text-blocks": False, "user-content-string": True}, quirks)
    thinking = pick(
        draw,
        {"no-thinking": None, "thinking-block": "thinking", "redacted-thinking": "redacted_thinking"},
        quirks,
    )
    server = pick(draw, {"no-server-tool": False, "server-tool-use": True}, quirks)
    result = pick(
        draw,
        {
            "result-string": "string",
            "result-text-blocks": "blocks",
            "result-json-string": "json",
            "result-image-blocks": "image",
        },
        quirks,
    )
    flagged = pick(draw, {"no-is-error": False, "result-is-error-false": True}, quirks)
    cached = pick(draw, {"no-cache-control": False, "cache-control": True}, quirks)
    first = [True]

    def user(text: str) -> dict[str, Any]:
        return {"role": "user", "content": text if string_user else [{"type": "text", "text": text}]}

    def assistant(turn: PlannedTurn) -> Wire:
        blocks: Wire = []
        if turn.calls and thinking == "thinking":
            blocks.append({"type": "thinking", "thinking": THOUGHT, "signature": SIGNATURE})
        elif turn.calls and thinking == "redacted_thinking":
            blocks.append({"type": "redacted_thinking", "data": SIGNATURE})
        if turn.text:
            blocks.append({"type": "text", "text": turn.text})
        if turn.calls and server and first[0]:
            # The first turn with calls also searched the web (a server tool: no result to send).
            first[0] = False
            blocks.extend(
                [
                    {"type": "server_tool_use", "id": SERVER_ID, "name": "web_search", "input": QUERY},
                    {"type": "web_search_tool_result", "tool_use_id": SERVER_ID, "content": [SEARCH_RESULT]},
                    {"type": "text", "text": CITED},
                ]
            )
        for call in turn.calls:
            blocks.append(
                {
                    "type": "tool_use",
                    "id": f"toolu_01{call.token[:22]}",
                    "name": call.name,
                    "input": call.input,
                }
            )
        return [{"role": "assistant", "content": blocks}] if blocks else []

    def results(calls: list[PlannedCall], _: str) -> Wire:
        blocks: Wire = []
        for c in calls:
            block: dict[str, Any] = {"type": "tool_result", "tool_use_id": f"toolu_01{c.token[:22]}"}
            if flagged:
                block["is_error"] = False
            block["content"] = _content(c.result, result)
            blocks.append(block)
        if cached:
            blocks[-1]["cache_control"] = {"type": "ephemeral"}
        return [{"role": "user", "content": blocks}]

    return (
        user,
        assistant,
        results,
        lambda text: {"role": "assistant", "content": [{"type": "text", "text": text}]},
    )


def _content(result: str, shape: str) -> Any:
    """A tool's result as a client writes it: a string, text blocks, JSON text, or with an image.

    The API rejects empty text blocks: an empty result is no block at all.
    """
    texts = [{"type": "text", "text": result}] if result else []
    if shape == "blocks":
        return texts
    if shape == "json":
        return json.dumps({"result": result})
    if shape == "image":
        return [
            *texts,
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
        ]
    return result


#: Extended thinking's first block of a message (a request option, in 3 of 70 recorded messages):
#: drawn only where a campaign's swarm or ``--like`` switches its feature on.
_THOUGHTS: Final = {
    "thinking-block": {"type": "thinking", "thinking": THOUGHT, "signature": SIGNATURE},
    "redacted-thinking": {"type": "redacted_thinking", "data": SIGNATURE},
}


#: One ``tool_use`` content block per call, blocks in order.
def anthropic_response(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> Wire:
    """A ``message`` body of the first turn: a thinking block or not, text, then whole tool_use
    blocks (``caller`` or not)."""
    turn = plan.turns[0]
    caller = pick(draw, {"no-caller-field": False, "caller-field": True}, quirks)
    thoughts = {name: block for name, block in _THOUGHTS.items() if name in quirks}
    content: Wire = [dict(pick(draw, thoughts, quirks))] if thoughts else []
    if turn.text or not turn.calls:
        content.append({"type": "text", "text": turn.text or "Done."})
    for call in turn.calls:
        use: dict[str, Any] = {"type": "tool_use", "id": f"{_API.tool_prefix}{call.token[:22]}"}
        use |= {"name": call.name, "input": call.input}
        if caller:
            use["caller"] = {"type": "direct"}
        content.append(use)
    body = {
        "id": _API.message_id,
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
    }
    reason = "tool_use" if turn.calls else "end_turn"
    usage = {"input_tokens": 472, "output_tokens": 89}
    return [body | {"content": content, "stop_reason": reason, "stop_sequence": None, "usage": usage}]


#: A ``message`` body: whole tool_use blocks.
RESPONSE: Final = Generator(anthropic_response, fragments=False)
STREAM: Final = Generator(anthropic_stream)
#: A request's ``messages``; one user message answers a turn's calls, in any order.
MESSAGES: Final = Generator.conversation(anthropic_messages)
