"""Recorded-exchange fixtures built from the real traffic corpus: AWS event-stream frames, a VCR
cassette and a HAR file (``python tests/helpers/recordings.py`` rewrites them; a test keeps them in step)."""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from toolwire.models import encode_frame

DATA = Path(__file__).parent.parent / "data"
TRAFFIC = DATA / "traffic"
RECORDINGS = DATA / "recordings"


def frame_events(events: Iterable[dict[str, Any]], *, chunks: bool = False) -> bytes:
    """ConverseStream events ``{"<event-type>": payload}`` framed as Bedrock frames them (headers in
    the recorded order); with ``chunks``, model events as InvokeModelWithResponseStream frames them."""
    out: list[bytes] = []
    for event in events:
        if chunks:
            # InvokeModelWithResponseStream: each model event rides base64 in a chunk's bytes.
            event = {"chunk": {"bytes": base64.b64encode(json.dumps(event).encode()).decode()}}
        ((kind, payload),) = event.items()
        headers = {":event-type": kind, ":content-type": "application/json", ":message-type": "event"}
        out.append(
            encode_frame(headers, json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode())
        )
    return b"".join(out)


def framed_jsonl(path: Path) -> bytes:
    """A JSON Lines Bedrock stream trace, framed (an InvokeModelWithResponseStream one in chunks)."""
    events = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return frame_events(events, chunks="invoke_model" in path.name)


def _body(path: str) -> bytes:
    return (TRAFFIC / path).read_bytes()


_JSON = "application/json"
_SSE = "text/event-stream"
_EVENTSTREAM = "application/vnd.amazon.eventstream"
_BEDROCK = "https://bedrock-runtime.us-east-1.amazonaws.com/model/"
_DD = "DataDog__dd-trace-py/"
_CHATLAS = "posit-dev__chatlas/"
_CREW = "crewAIInc__crewAI/"
_OTEL = "open-telemetry__opentelemetry-python-contrib/"
_PLANNING = "TestAnthropicStructuredPlanning.test_anthropic_research_workf-4555e263.i11"
_GEMINI = "TestGeminiStructuredPlanning.test_gemini_research_workflow_ge-4c306779.i3"
_KICKOFF = "TestBedrockNativeToolCalling.test_bedrock_agent_kickoff_with_-26f806d3"

#: (uri, request body file, response body file or bytes, response content type, note).
EXCHANGES: list[tuple[str, str | None, str | bytes, str, str]] = [
    (
        "https://api.openai.com/v1/chat/completions",
        _DD + "openai-chat/agent_run_stream_structured_with_tool.i2.req.json",
        _DD + "openai-chat-stream/agent_run_stream_structured_with_tool.i2.sse",
        _SSE,
        "one recorded exchange (pydantic_ai agent_run_stream_structured_with_tool.yaml, interaction 2)",
    ),
    (
        "https://api.openai.com/v1/chat/completions",
        _DD + "openai-chat/openai_chat_completions_post_1d538f35.req.json",
        _DD + "openai-chat-response/openai_chat_completions_post_1d538f35.json",
        _JSON,
        "one recorded exchange; the response stored gzip-compressed with Content-Encoding: gzip",
    ),
    (
        "https://api.openai.com/v1/responses",
        _CHATLAS + "openai-responses/openai.test_openai_tool_variations.i10.req.json",
        _CHATLAS + "openai-responses-stream/openai.test_openai_tool_variations.i10.sse",
        _SSE,
        "one recorded exchange (test_openai_tool_variations.yaml, interaction 10)",
    ),
    (
        "https://api.openai.com/v1/responses",
        _CHATLAS
        + "openai-responses/parallel_chat_improved.test_parallel_chat_chained_tool_calls.i3.req.json",
        _CHATLAS
        + "openai-responses-response/parallel_chat_improved.test_parallel_chat_chained_tool_calls.i3.json",
        _JSON,
        "one recorded exchange (test_parallel_chat_chained_tool_calls.yaml, interaction 3)",
    ),
    (
        "https://api.anthropic.com/v1/messages",
        _CHATLAS + "anthropic-messages/anthropic.test_anthropic_tool_variations.i7.req.json",
        _CHATLAS + "anthropic-stream/anthropic.test_anthropic_tool_variations.i7.sse",
        _SSE,
        "one recorded exchange (test_anthropic_tool_variations.yaml, interaction 7)",
    ),
    (
        "https://api.anthropic.com/v1/messages",
        f"{_CREW}anthropic-messages/{_PLANNING}.req.json",
        f"{_CREW}anthropic-message-response/{_PLANNING}.json",
        _JSON,
        "one recorded exchange (interaction 11); the request body stored as !!binary, as vcrpy writes bytes",
    ),
    (
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
        _CHATLAS + "gemini-contents/google.test_google_mixed_tools_end_to_end.i2.req.json",
        _CHATLAS + "gemini-stream/google.test_google_mixed_tools_end_to_end.i2.sse",
        _SSE,
        "one recorded exchange (test_google_mixed_tools_end_to_end.yaml, interaction 2)",
    ),
    (
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent",
        f"{_CREW}gemini-contents/{_GEMINI}.req.json",
        f"{_CREW}gemini-response/{_GEMINI}.json",
        _JSON,
        "one recorded exchange (interaction 3)",
    ),
    (
        _BEDROCK + "amazon.nova-micro-v1%3A0/converse-stream",
        _OTEL + "bedrock-converse/test_converse_stream_tool_call_parsing_errors.i2.req.json",
        framed_jsonl(
            TRAFFIC / _OTEL / "bedrock-converse-stream/test_converse_stream_tool_call_parsing_errors.i2.jsonl"
        ),
        _EVENTSTREAM,
        "one recorded exchange (interaction 2); the decoded events framed again as Bedrock sent them",
    ),
    (
        _BEDROCK + "us.anthropic.claude-3-haiku-20240307-v1%3A0/converse",
        f"{_CREW}bedrock-converse/{_KICKOFF}.i2.req.json",
        f"{_CREW}bedrock-converse-response/{_KICKOFF}.i1.json",
        _JSON,
        "request of interaction 2, response of interaction 1 of one cassette (interaction 1's request "
        "holds no tool call, so the corpus has no copy of it)",
    ),
    (
        "https://api.mistral.ai/v1/chat/completions",
        _DD + "mistral-chat/mistral_v1_chat_completions_post_5e983449.req.json",
        _DD + "openai-chat-stream/mistral_v1_chat_completions_post_1798d156.sse",
        _SSE,
        "request and stream from two recordings of one test module (tests/cassettes/mistral/)",
    ),
]
#: The MCP session of the corpus, one exchange per request that has an answer.
MCP = _CHATLAS + "mcp/test_call_http_mcp_tool.jsonl"


def _mcp_exchanges() -> list[tuple[bytes, bytes | None]]:
    lines = [line for line in _body(MCP).splitlines() if line.strip()]
    out: list[tuple[bytes, bytes | None]] = []
    for line in lines:
        message = json.loads(line)
        if "method" in message:
            out.append((line, None))
        else:
            out[-1] = (out[-1][0], b"event: message\r\ndata: " + line + b"\r\n\r\n")
    return out


def _headers(content_type: str, **more: str) -> dict[str, list[str]]:
    return {"Content-Type": [content_type], **{k.replace("_", "-"): [v] for k, v in more.items()}}


def cassette() -> dict[str, Any]:
    """The mixed cassette, in vcrpy's serialized form."""
    interactions = []
    for number, (uri, request, response, kind, _) in enumerate(EXCHANGES):
        body: str | bytes | None = _body(request).decode() if request else None
        if number == 5 and body is not None:
            body = body.encode()
        answer = response if isinstance(response, bytes) else _body(response)
        res_headers = _headers(kind)
        string: str | bytes = answer if kind == _EVENTSTREAM else answer.decode()
        if number == 1:
            string = gzip.compress(answer, mtime=0)
            res_headers["Content-Encoding"] = ["gzip"]
        interactions.append(
            {
                "request": {"body": body, "headers": _headers(_JSON), "method": "POST", "uri": uri},
                "response": {
                    "body": {"string": string},
                    "headers": res_headers,
                    "status": {"code": 200, "message": "OK"},
                },
            }
        )
    for request, answer in _mcp_exchanges():
        interactions.append(
            {
                "request": {
                    "body": request.decode(),
                    "headers": _headers(_JSON),
                    "method": "POST",
                    "uri": "http://127.0.0.1:8000/mcp",
                },
                "response": {
                    "body": {"string": (answer or b"").decode()},
                    "headers": _headers(_SSE) if answer else {},
                    "status": {"code": 200 if answer else 202, "message": "OK" if answer else "Accepted"},
                },
            }
        )
    return {"interactions": interactions, "version": 1}


def har() -> dict[str, Any]:
    """The same exchanges as a HAR 1.2 log; binary and compressed bodies base64, as browsers save them."""
    entries = []
    for interaction in cassette()["interactions"]:
        request, response = interaction["request"], interaction["response"]
        body = response["body"]["string"]
        if response["headers"].get("Content-Encoding"):
            body = gzip.decompress(body)
        content: dict[str, Any] = {"mimeType": (response["headers"].get("Content-Type") or [""])[0]}
        if isinstance(body, bytes):
            content |= {"text": base64.b64encode(body).decode(), "encoding": "base64"}
        else:
            content["text"] = body
        text = request["body"].decode() if isinstance(request["body"], bytes) else request["body"]
        entries.append(
            {
                "startedDateTime": "2025-02-26T10:27:38.000Z",
                "time": 0,
                "request": {
                    "method": request["method"],
                    "url": request["uri"],
                    "httpVersion": "HTTP/1.1",
                    "headers": [{"name": "Content-Type", "value": "application/json"}],
                    "queryString": [],
                    "cookies": [],
                    "headersSize": -1,
                    "bodySize": len(text.encode()),
                    "postData": {"mimeType": "application/json", "text": text},
                },
                "response": {
                    "status": response["status"]["code"],
                    "statusText": response["status"]["message"],
                    "httpVersion": "HTTP/1.1",
                    "headers": [{"name": k, "value": v[0]} for k, v in response["headers"].items()],
                    "cookies": [],
                    "content": content | {"size": len(body)},
                    "redirectURL": "",
                    "headersSize": -1,
                    "bodySize": -1,
                },
                "cache": {},
                "timings": {"send": 0, "wait": 0, "receive": 0},
            }
        )
    return {
        "log": {"version": "1.2", "creator": {"name": "toolwire tests", "version": "1"}, "entries": entries}
    }


def _provenance() -> str:
    lines = [
        "# Built by tests/helpers/recordings.py from real bodies of tests/data/traffic"
        " (see its manifest.toml):"
    ]
    for number, (uri, request, response, _, note) in enumerate(EXCHANGES, 1):
        source = response if isinstance(response, str) else "(framed from the .jsonl of the same exchange)"
        lines.append(f"# {number}. {uri}: {note}")
        lines.append(f"#    request {request}")
        lines.append(f"#    response {source}")
    lines.append(f"# {len(EXCHANGES) + 1}-. the MCP session {MCP}, one exchange per client message")
    return "\n".join(lines) + "\n"


def fixtures() -> dict[Path, bytes]:
    """Every fixture file and its bytes."""
    streams = DATA / "bedrock-converse-stream"
    out = {
        RECORDINGS / "mixed.yaml": (_provenance() + yaml.dump(cassette(), allow_unicode=True)).encode(),
        RECORDINGS / "mixed.har": json.dumps(har(), indent=1, ensure_ascii=False).encode(),
    }
    for name in ("good-parallel-same-tool", "good-text-then-tool", "duplicate-start"):
        out[streams / f"{name}.eventstream"] = framed_jsonl(streams / f"{name}.jsonl")
    return out


if __name__ == "__main__":
    for path, data in fixtures().items():
        path.write_bytes(data)
        print(path)
