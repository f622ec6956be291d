"""Input formats: AWS event-stream frames, VCR cassettes and HAR files."""

from __future__ import annotations

import base64
import gzip
import io
import json
import struct
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import toolwire
from helpers.recordings import DATA, RECORDINGS, TRAFFIC, fixtures, frame_events, framed_jsonl
from toolwire.cli import main
from toolwire.engines.checking._exchanges import check_recording
from toolwire.models import detect_format, encode_frame, read_eventstream

STREAMS = sorted((DATA / "bedrock-converse-stream").glob("*.jsonl")) + sorted(
    TRAFFIC.glob("*/bedrock-converse-stream/*.jsonl")
)


def _events(raw: bytes) -> tuple[list[Any], list[tuple[int | None, str]]]:
    problems: list[tuple[int | None, str]] = []
    frames = list(read_eventstream(io.BytesIO(raw), lambda line, message: problems.append((line, message))))
    return [value for _, value, _ in frames], problems


def _verdict(report: toolwire.Report) -> list[tuple[str, str, str, int | None]]:
    return [(f.rule, f.severity, f.message, f.index) for f in report.findings]


# --- AWS event-stream -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", STREAMS, ids=lambda p: p.name)
def test_a_framed_stream_checks_as_its_json_lines_do(path: Path, tmp_path: Path) -> None:
    framed = tmp_path / "stream.eventstream"
    framed.write_bytes(framed_jsonl(path))
    assert detect_format(framed.read_bytes()[:65536]) == "eventstream"
    as_lines = toolwire.check_file(path, "bedrock-converse-stream")
    as_frames = toolwire.check_file(framed, "bedrock-converse-stream")
    assert _verdict(as_frames) == _verdict(as_lines)
    assert as_frames.events == as_lines.events
    assert as_frames.exit_code == as_lines.exit_code


def test_botocore_reads_the_frames_as_toolwire_does() -> None:
    from botocore.eventstream import EventStreamBuffer

    raw = framed_jsonl(DATA / "bedrock-converse-stream" / "good-parallel-same-tool.jsonl")
    buffer = EventStreamBuffer()
    buffer.add_data(raw)
    theirs = [{m.headers[":event-type"]: json.loads(m.payload)} for m in buffer]
    ours, problems = _events(raw)
    assert ours == theirs and not problems
    assert len(ours) == len(
        DATA.joinpath("bedrock-converse-stream/good-parallel-same-tool.jsonl").read_text().splitlines()
    )


def test_framing_the_decoded_corpus_gives_back_the_recorded_bytes() -> None:
    """The first and last bytes of test_converse_stream_with_content_tool_call.yaml (interaction 1)."""
    name = "open-telemetry__opentelemetry-python-contrib/bedrock-converse-stream/"
    raw = framed_jsonl(TRAFFIC / name / "test_converse_stream_with_content_tool_call.i1.jsonl")
    encoded = base64.b64encode(raw).decode()
    assert encoded.startswith("AAAAiwAAAFImcW4yCzpldmVudC10eXBlBwAMbWVzc2FnZVN0YXJ0DTpjb250ZW50LXR5cGUHABBh")
    assert encoded.endswith("MjAyLCJ0b3RhbFRva2VucyI6NjE3fX0EzYWg")


def test_a_frame_with_a_bad_crc_is_reported_by_number_and_the_rest_read() -> None:
    raw = bytearray(framed_jsonl(DATA / "bedrock-converse-stream" / "good-text-then-tool.jsonl"))
    (first,) = struct.unpack("!I", raw[:4])
    (second,) = struct.unpack("!I", raw[first : first + 4])
    raw[first + second - 5] ^= 0xFF  # a payload byte of frame 2
    events, problems = _events(bytes(raw))
    assert problems == [(2, "event-stream frame 2: message CRC32 mismatch; frame skipped")]
    total = len(DATA.joinpath("bedrock-converse-stream/good-text-then-tool.jsonl").read_text().splitlines())
    assert len(events) == total - 1


def test_a_bad_prelude_or_a_cut_frame_ends_the_reading_with_the_frame_number(tmp_path: Path) -> None:
    raw = framed_jsonl(DATA / "bedrock-converse-stream" / "good-text-then-tool.jsonl")
    (first,) = struct.unpack("!I", raw[:4])
    broken = bytearray(raw)
    broken[first + 9] ^= 0x01  # the prelude CRC of frame 2
    events, problems = _events(bytes(broken))
    assert len(events) == 1 and problems[0][0] == 2 and "prelude CRC32 mismatch" in problems[0][1]
    lines = DATA.joinpath("bedrock-converse-stream/good-text-then-tool.jsonl").read_text().splitlines()
    last = len(frame_events([json.loads(lines[-1])]))
    events, problems = _events(raw[:-3])
    n = len(lines)
    assert problems == [(n, f"event-stream frame {n} is cut short: {last - 3} of {last} bytes")]
    assert len(events) == n - 1
    cut = tmp_path / "cut.eventstream"
    cut.write_bytes(raw[:-3])
    report = toolwire.check_file(cut, "bedrock-converse-stream")
    assert report.exit_code == 2
    assert [p.line for p in report.problems if "cut short" in p.message] == [n]


def test_an_exception_frame_and_a_model_chunk_are_read_as_botocore_reads_them() -> None:
    exception = encode_frame(
        {
            ":exception-type": "throttlingException",
            ":content-type": "application/json",
            ":message-type": "exception",
        },
        b'{"message":"Too many requests"}',
    )
    inner = {
        "type": "content_block_start",
        "index": 1,
        "content_block": {"type": "tool_use", "id": "toolu_1"},
    }
    chunk = encode_frame(
        {":event-type": "chunk", ":message-type": "event"},
        json.dumps({"bytes": base64.b64encode(json.dumps(inner).encode()).decode()}).encode(),
    )
    events, problems = _events(exception + chunk)
    assert events == [inner]
    assert problems == [(1, "event-stream frame 1 is an exception (throttlingException): "
                            "b'{\"message\":\"Too many requests\"}'")]  # fmt: skip


def test_the_committed_fixtures_are_built_from_the_corpus() -> None:
    for path, data in fixtures().items():
        assert path.read_bytes() == data, f"{path} is stale: run python tests/helpers/recordings.py"


def test_check_detects_a_framed_stream_without_p(capsys: pytest.CaptureFixture[str]) -> None:
    path = DATA / "bedrock-converse-stream" / "duplicate-start.eventstream"
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}: detected bedrock-converse-stream" in out
    assert f"{path}:3 event 2: BR-9b error" in out


# --- cassettes and HAR ----------------------------------------------------------------------------

#: What each part of the mixed recordings is: the protocol detected from its endpoint and content.
MIXED = {
    "#1 request": "openai-chat",
    "#1 response": "openai-chat-stream",
    "#2 request": "openai-chat",
    "#2 response": "openai-chat-response",
    "#3 request": "openai-responses",
    "#3 response": "openai-responses-stream",
    "#4 request": "openai-responses",
    "#4 response": "openai-responses-response",
    "#5 request": "anthropic-messages",
    "#5 response": "anthropic-stream",
    "#6 request": "anthropic-messages",
    "#6 response": "anthropic-message-response",
    "#7 request": "gemini-contents",
    "#7 response": "gemini-stream",
    "#8 request": "gemini-contents",
    "#8 response": "gemini-response",
    "#9 request": "bedrock-converse",
    "#9 response": "bedrock-converse-stream",
    "#10 request": "bedrock-converse",
    "#10 response": "bedrock-converse-response",
    "#11 request": "mistral-chat",
    "#11 response": "mistral-chat-stream",
    "#12 exchange": "mcp",
    "#13 request": "mcp",
    "#14 exchange": "mcp",
    "#15 exchange": "mcp",
}


@pytest.mark.parametrize("name", ["mixed.yaml", "mixed.har"])
def test_every_exchange_of_a_recording_is_checked_with_its_own_protocol(name: str) -> None:
    path = RECORDINGS / name
    reports = check_recording(path, path.read_bytes())
    found = {r.source.removeprefix(str(path)): r.protocol or None for r in reports}
    assert found == MIXED
    for report in reports:
        assert report.exit_code == 0, report
        if not report.protocol:
            # Skipped, with the reason: never silently clean.
            assert report.events == 0
            assert [p.message for p in report.problems if p.message.startswith("skipped: ")]
        else:
            assert report.events > 0 and not report.findings


def test_a_gzip_body_and_a_binary_body_are_decoded() -> None:
    from toolwire.models import read_recording

    exchanges = read_recording((RECORDINGS / "mixed.yaml").read_bytes(), "cassette")
    assert (RECORDINGS / "mixed.yaml").read_text().count("Content-Encoding:\n      - gzip") == 1
    gzipped = TRAFFIC / "DataDog__dd-trace-py/openai-chat-response/openai_chat_completions_post_1d538f35.json"
    assert exchanges[1].response == gzipped.read_bytes()
    binary = (
        "crewAIInc__crewAI/anthropic-messages/TestAnthropicStructuredPlanning.test_anthropic_research_workf"
    )
    assert exchanges[5].request == next(TRAFFIC.glob(binary + "*.i11.req.json")).read_bytes()
    har = read_recording((RECORDINGS / "mixed.har").read_bytes(), "har")
    assert [(e.request, e.response) for e in har] == [(e.request, e.response) for e in exchanges]


def _cassette(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cassette.yaml"
    path.write_text(textwrap.dedent(text))
    return path


def test_the_older_vcrpy_forms_are_read(tmp_path: Path) -> None:
    body = json.dumps({"messages": [{"role": "tool", "tool_call_id": "call_1", "content": "x"}]})
    stream = gzip.compress(b'data: {"choices": []}\n\n', mtime=0)
    path = _cassette(
        tmp_path,
        f"""\
        interactions:
        - request:
            body: !!python/unicode '{body}'
            headers: {{}}
            method: POST
            uri: https://api.openai.com/v1/chat/completions
          response:
            body: {{string: !!binary '{base64.b64encode(stream).decode()}'}}
            headers: {{Content-Encoding: [gzip]}}
            status: {{code: 200, message: OK}}
        version: 1
        """,
    )
    reports = check_recording(path, path.read_bytes())
    assert [(r.source.split("#")[1], r.protocol) for r in reports] == [
        ("1 request", "openai-chat"),
        ("1 response", "openai-chat-stream"),
    ]
    assert [f.rule for f in reports[0].findings] == ["CC-2"]
    assert main(["check", str(path)]) == 1


def test_p_chooses_and_an_error_response_is_skipped(tmp_path: Path) -> None:
    path = _cassette(
        tmp_path,
        """\
        interactions:
        - request:
            body: '{"messages": [{"role": "user", "content": "Hi"}]}'
            headers: {}
            method: POST
            uri: https://example.test/v1/chat
          response:
            body: {string: '{"error": {"message": "bad"}}'}
            headers: {}
            status: {code: 400, message: Bad Request}
        """,
    )
    reports = check_recording(path, path.read_bytes())
    assert "ambiguous: it reads as openai-chat, anthropic-messages" in reports[0].problems[-1].message
    assert reports[1].problems[-1].message == "skipped: HTTP 400 error response"
    chosen = check_recording(path, path.read_bytes(), "anthropic-messages")
    assert chosen[0].protocol == "anthropic-messages" and chosen[0].exit_code == 0
    other = check_recording(path, path.read_bytes(), "gemini-contents")
    assert "is not gemini-contents traffic" in other[0].problems[-1].message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("interactions: [\n", "not valid YAML"),
        ("interactions: 3\n", "has no 'interactions' list"),
    ],
)
def test_an_unreadable_cassette_is_a_usage_error(tmp_path: Path, text: str, message: str) -> None:
    path = _cassette(tmp_path, text)
    result = subprocess.run(
        [sys.executable, "-m", "toolwire", "check", str(path)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_checking_a_plain_trace_never_imports_yaml() -> None:
    code = (
        "import sys; from toolwire.cli import main; "
        f"main(['check', {str(DATA / 'mistral-chat-stream' / 'good-recorded.sse')!r}]); "
        "print('yaml' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip().endswith("False")


def test_a_profile_applies_to_the_parts_whose_protocol_has_it() -> None:
    path = RECORDINGS / "mixed.yaml"
    reports = check_recording(path, path.read_bytes(), profile="v13")
    assert {r.source.removeprefix(str(path)): r.protocol or None for r in reports} == MIXED
    assert all(r.exit_code == 0 for r in reports)


def test_a_real_cassette_is_read_as_vcrpy_recorded_it() -> None:
    """crewAI's cassette: vcrpy's request string and its gzip response body as !!binary."""
    path = RECORDINGS / "crewai-anthropic-gzip.yaml"
    request, response = check_recording(path, path.read_bytes())
    assert (request.protocol, request.events, request.exit_code) == ("anthropic-messages", 1, 0)
    assert (response.protocol, response.events, response.exit_code) == ("anthropic-message-response", 1, 0)
    from toolwire.models import read_recording

    (exchange,) = read_recording(path.read_bytes(), "cassette")
    assert json.loads(exchange.response or b"")["content"] == [{"type": "text", "text": "SUCCESS"}]


def test_an_exchange_without_a_body_is_reported_as_skipped(tmp_path: Path) -> None:
    har = {
        "log": {
            "version": "1.2",
            "entries": [
                {
                    "request": {"method": "GET", "url": "https://api.openai.com/v1/models", "headers": []},
                    "response": {"status": 200, "headers": [], "content": {"mimeType": "text/event-stream"}},
                }
            ],
        }
    }
    path = tmp_path / "browser.har"
    path.write_text(json.dumps(har))
    (report,) = check_recording(path, path.read_bytes())
    assert report.source.endswith("#1 response") and report.exit_code == 0
    assert report.problems[-1].message == (
        "skipped: the recording holds no response body (GET https://api.openai.com/v1/models)"
    )
