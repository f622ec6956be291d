"""OpenAI Responses and Open Responses: input items (RS-1 to RS-5), streams (RS-7 to RS-9, OR), RS-10 bodies.

The family's places: ``models/_openai_responses.py`` (the wire),
``machines/_openai_responses.py`` (the lifecycles) and this package: ``rules``,
``stream`` and ``input`` (the monitors), ``calls`` (readers, mutation sites, the
id probe), ``generate`` (Hypothesis), ``space`` (explore) and ``shapes`` (shape features).
"""

from typing import Final

from toolwire.machines import (
    ChatConversation,
    FunctionCallItem,
    FunctionCallPairing,
    OutputItem,
    ResponseBody,
    ResponseStream,
)
from toolwire.properties._protocol import Family, Protocol, Quirk, load
from toolwire.protocols.openai_responses import calls
from toolwire.protocols.openai_responses.body import ResponseMonitor
from toolwire.protocols.openai_responses.input import InputMonitor
from toolwire.protocols.openai_responses.rules import INPUT, OPEN_STREAM, RESPONSE, RULES, STREAM
from toolwire.protocols.openai_responses.shapes import INPUT_SHAPES, RESPONSE_SHAPES, STREAM_SHAPES
from toolwire.protocols.openai_responses.stream import (
    OPEN_RESPONSES,
    OPENAI_RESPONSES,
    StreamMonitor,
    StreamProfile,
)

__all__ = [
    "FAMILY",
    "OPENAI_RESPONSES",
    "OPEN_RESPONSES",
    "InputMonitor",
    "ResponseMonitor",
    "StreamMonitor",
    "StreamProfile",
]

FAMILY: Final = Family(
    "openai-responses",
    catalogue=2,
    protocols=(
        Protocol(
            INPUT,
            "OpenAI Responses request: the input items (RS-1 to RS-5)",
            "conversation",
            InputMonitor,
            repair=load(f"{__name__}.repair", "ADAPTER"),
            call_types=("responses", "aresponses"),
            endpoints=(r"/responses/?$",),
            container="input",
            follows=(STREAM, OPEN_STREAM, RESPONSE),
            probe=calls.probe,
            results=calls.results,
            intact=calls.intact,
            space=load(f"{__name__}.space", "ResponsesInputSpace"),
            recognises=calls.recognises,
            sites=calls.INPUT_SITES,
            breaks={"drop-id": "RS-2", "duplicate": "RS-5", "truncate": "RS-4"},
            generator=load(f"{__name__}.generate", "INPUT"),
            shapes=INPUT_SHAPES,
        ),
        Protocol(
            STREAM,
            "OpenAI Responses stream events (RS-1, RS-7 to RS-9)",
            "stream",
            lambda: StreamMonitor(OPENAI_RESPONSES),
            endpoints=(r"/responses/?$",),
            sites=calls.STREAM_SITES,
            breaks={"drop-id": "RS-7f", "duplicate": "RS-9a", "reorder": "RS-9b", "truncate": "RS-9e"},
            generator=load(f"{__name__}.generate", "STREAM"),
            space=load(f"{__name__}.space", "ResponsesSpace"),
            shapes=STREAM_SHAPES,
        ),
        Protocol(
            OPEN_STREAM,
            "Open Responses stream events (RS rules with the OR-1 to OR-8 profile)",
            "stream",
            lambda: StreamMonitor(OPEN_RESPONSES),
            variant_of=STREAM,
            sites=calls.STREAM_SITES,
            breaks={"drop-id": "OR-1", "duplicate": "RS-9a", "reorder": "OR-3", "truncate": "RS-9e"},
            generator=load(f"{__name__}.generate", "OPEN_STREAM"),
            space=load(f"{__name__}.space", "OpenResponsesSpace"),
            shapes=STREAM_SHAPES,
        ),
        Protocol(
            RESPONSE,
            "OpenAI Responses response body: a response object's output items, one JSON document "
            "(RS-1b, RS-2, RS-4b, RS-5, RS-10)",
            "stream",
            ResponseMonitor,
            probe=calls.response_probe,
            recognises=calls.recognises_response,
            sites=calls.RESPONSE_SITES,
            breaks={"drop-id": "RS-10a"},
            generator=load(f"{__name__}.generate", "BODY"),
            space=load(f"{__name__}.space", "ResponsesResponseSpace"),
            shapes=RESPONSE_SHAPES,
            endpoints=(r"/responses/?$",),
            document=True,
        ),
    ),
    rules=RULES,
    # ChatConversation too: explore steps a request's input turns with it (space.ResponsesInputSpace).
    machines=(
        ResponseStream,
        FunctionCallItem,
        OutputItem,
        FunctionCallPairing,
        ResponseBody,
        ChatConversation,
    ),
    quirks=(
        Quirk(
            "no-item-ids",
            "function_call items without their item id and status, as clients that build them send",
            (INPUT,),
            "tests/data/traffic: 90 of the 116 recorded requests with function_call items "
            "(posit-dev/chatlas, simonw/llm, charmbracelet/fantasy, ...); docs/protocol-rules.md RS "
            "(id is optional on input). Without item ids a duplicated call is only RS-4b, a warning; "
            "accepted by: OpenAI (84 of those requests) and Azure OpenAI (6: charmbracelet__fantasy "
            "openai-responses TestAzureResponsesCommon.azure-gpt-5-mini.tool.i2.req.json and 5 more), "
            "all answered HTTP 200",
            features=("call-item-without-id",),
            providers=("openai", "azure"),
        ),
        Quirk(
            "unnumbered",
            "events without sequence_number (or obfuscation): streams from before 2025-05-21",
            (STREAM,),
            "docs/protocol-rules.md RS-8 (check warns RS-8a: an older stream); tests/data/traffic "
            "DataDog__dd-trace-py response_function_call_streamed.sse (gpt-4.1, 2025-05-20); sent by: "
            "OpenAI, that recording",
            features=("no-sequence-number",),
            providers=("openai",),
        ),
    ),
    id_shapes=calls.ID_SHAPES,
    envelope_ids=("resp_", "msg_"),
)
