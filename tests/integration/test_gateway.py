"""Fuzzing an HTTP gateway: toolwire plays the provider (the mock) and the client, judges both turns.

The gateway under test is ``tests/helpers/gateway_app.py`` (Chat clients in front of a Chat or a
Gemini upstream), run with uvicorn in a thread on a free loopback port; each planted bug is found
and shrunk, and its fixed twin passes.  Every test checks that no port is left listening.
"""

from __future__ import annotations

import io
import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from helpers.gateway_app import gateway_app
from helpers.proxy_support import free_port, serving
from toolwire.engines.fuzzing._campaign import FuzzRun, fuzz
from toolwire.engines.fuzzing._counterexample import load_counterexample, replay
from toolwire.engines.gateway._mock_provider import MockProvider
from toolwire.engines.gateway._target import GatewayTarget, parse_headers, parse_upstream
from toolwire.errors import UsageError
from toolwire.models._wire import DONE, plain, read_frames
from toolwire.protocols._http import face, faced

CHAT = "/v1/chat/completions"
#: Each planted bug: the gateway's upstream family, --from, and a finding it must show.
PLANTED = {
    "index-0": ("chat", "openai-chat-stream", "validity:CC-6c"),
    "crossed": ("chat", "openai-chat-stream", "correlation:turn-2-crossed"),
    "name-keyed": ("gemini", "gemini-stream", "identity:turn-2-replaced"),
    "text-drop": ("gemini", "gemini-stream", "one-to-one:lost"),
}


def port_is_free(port: int) -> bool:
    """Nothing listens on ``port`` (connections closing there, in TIME_WAIT, do not count)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


@contextmanager
def gateway(family: str, bug: str | None) -> Iterator[tuple[str, int]]:
    """The test gateway on a free port, its upstream a free port for the mock; yields (URL, upstream port)."""
    upstream = free_port()
    with serving(gateway_app(f"http://127.0.0.1:{upstream}", family, bug)) as url:
        yield url + CHAT, upstream
    assert port_is_free(upstream), "the mock provider's port is still taken"


def campaign(family: str, bug: str | None, source: str, examples: int = 60, **options: Any) -> FuzzRun:
    with gateway(family, bug) as (url, upstream):
        target = GatewayTarget(url, source, "openai-chat-stream", upstream=f"127.0.0.1:{upstream}")
        try:
            return fuzz(target, source, "openai-chat-stream", max_examples=examples, **options)
        finally:
            target.close()


# -- the faces and the options (no network) --------------------------------------------------------


def test_every_provider_answer_has_a_face_and_request_bodies_have_none() -> None:
    assert {"openai-chat-stream", "anthropic-stream", "openai-responses-stream", "gemini-stream"} <= set(
        faced()
    )
    assert {"bedrock-converse-stream", "mistral-chat-stream", "anthropic-message-response"} <= set(faced())
    with pytest.raises(UsageError, match="request body"):
        face("openai-chat")


@pytest.mark.parametrize(
    ("path", "protocol"),
    [
        ("/v1/chat/completions", "openai-chat-stream"),
        ("/chat/completions", "openai-chat-stream"),
        ("/v1/responses", "openai-responses-stream"),
        ("/responses", "openai-responses-stream"),
        ("/v1/messages", "anthropic-stream"),
        ("/v1beta/models/gemini-2.5-flash:streamGenerateContent", "gemini-stream"),
        ("/models/gemini-2.5-flash:generateContent", "gemini-response"),
        ("/model/anthropic.claude-3/converse-stream", "bedrock-converse-stream"),
        ("/model/anthropic.claude-3/converse", "bedrock-converse-response"),
        ("/v1/chat/completions", "mistral-chat-stream"),
    ],
)
def test_the_mock_answers_every_upstream_path_form_of_its_family(path: str, protocol: str) -> None:
    assert face(protocol).matches(path)


def test_upstream_must_be_loopback_and_headers_name_value() -> None:
    assert parse_upstream("127.0.0.1:8788") == ("127.0.0.1", 8788)
    assert parse_upstream("localhost:1") == ("127.0.0.1", 1)
    with pytest.raises(UsageError, match="loopback"):
        parse_upstream("10.0.0.1:8788")
    with pytest.raises(UsageError, match="HOST:PORT"):
        parse_upstream("8788x")
    assert parse_headers(["x-provider: anthropic"]) == [("x-provider", "anthropic")]
    with pytest.raises(UsageError, match="Name: value"):
        parse_headers(["no colon"])


# -- the mock provider on the wire ------------------------------------------------------------------


def _events(raw: bytes) -> list[Any]:
    return [plain(v) for _, v, _ in read_frames(io.BytesIO(raw), lambda *_: None) if v is not DONE]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("protocol", "path", "body", "media"),
    [
        ("openai-chat-stream", "/chat/completions", {"stream": True}, "text/event-stream"),
        ("anthropic-stream", "/v1/messages", {"stream": True}, "text/event-stream"),
        ("openai-responses-stream", "/v1/responses", {"stream": True}, "text/event-stream"),
        ("gemini-stream", "/v1beta/models/m:streamGenerateContent?alt=sse", {}, "text/event-stream"),
        ("gemini-stream", "/models/m:streamGenerateContent", {}, "application/json"),
        ("bedrock-converse-stream", "/model/m/converse-stream", {}, "application/vnd.amazon.eventstream"),
        ("openai-chat-response", "/v1/chat/completions", {"stream": False}, "application/json"),
    ],
)
def test_the_mock_frames_its_traffic_as_the_request_asks(
    protocol: str, path: str, body: dict[str, Any], media: str
) -> None:
    mock = MockProvider(protocol)
    reply = face(protocol).reply("m", protocol != "openai-chat-response")
    conversation = mock.open(reply)
    with serving(mock.app) as url:
        answer = httpx.post(url + path, json=body | {"note": conversation.marker})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith(media)
    assert _events(answer.content) == reply
    assert conversation.requests(1)[0]["body"]["json"]["note"] == conversation.marker


@pytest.mark.slow
def test_the_mock_refuses_a_foreign_path_and_a_stream_it_cannot_give() -> None:
    mock = MockProvider("anthropic-stream")
    mock.open([])
    with serving(mock.app) as url:
        wrong = httpx.post(url + "/v1/chat/completions", json={"stream": True})
        whole = httpx.post(url + "/v1/messages", json={"stream": False})
    assert wrong.status_code == 404
    assert "plays anthropic-stream" in wrong.json()["error"]["message"]
    assert whole.status_code == 400
    assert "--from anthropic-message-response" in whole.json()["error"]["message"]


# -- campaigns against the test gateway ---------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("family", "source"), [("chat", "openai-chat-stream"), ("gemini", "gemini-stream")])
def test_the_fixed_gateway_passes(family: str, source: str) -> None:
    run = campaign(family, None, source, examples=80, out=None)
    assert run.examples == 80
    assert run.counterexamples == [], [c.message for c in run.counterexamples]


@pytest.mark.slow
@pytest.mark.parametrize("bug", PLANTED)
def test_each_planted_gateway_bug_is_found_and_shrunk(bug: str, tmp_path: Path) -> None:
    family, source, finding = PLANTED[bug]
    run = campaign(family, bug, source, out=tmp_path)
    found = {c.finding: c for c in run.counterexamples}
    assert finding in found, sorted(found)
    minimal = found[finding]
    # One chunk for one call (Gemini), or role + a call's fragments + the finish (Chat).
    assert len(minimal.input) <= (1 if family == "gemini" else 6), minimal.input
    exchange = minimal.exchange
    assert exchange is not None and exchange["turns"][0]["upstream"], "the exchange is saved"
    path = next(tmp_path.glob(f"*{finding.replace(':', '-')}*.json"))
    saved = load_counterexample(path)
    assert saved.exchange == json.loads(json.dumps(exchange))
    # The four legs of each turn as a HAR file beside it: client request and gateway answer, upstream
    # request and the mock's answer.
    har = json.loads(path.with_suffix(".har").read_text())["log"]["entries"]
    assert len(har) >= 2
    assert har[0]["request"]["url"].endswith(CHAT)
    assert har[1]["request"]["url"].startswith("http://127.0.0.1:")
    assert len(list(tmp_path.glob("*.har"))) == len(list(tmp_path.glob("*.json")))


@pytest.mark.slow
def test_a_gateway_that_answers_with_an_error_is_a_crash_and_leaves_no_port() -> None:
    with gateway("chat", None) as (url, _):
        # The gateway sends upstream elsewhere: it answers 502 or 500.
        _assert_one_crash(url, examples=5, says="the gateway")


def _assert_one_crash(url: str, *, examples: int, says: str) -> None:
    """A campaign on the gateway at ``url`` finds one crash, whose message says ``says``; no port is left."""
    upstream = free_port()
    target = GatewayTarget(url, "openai-chat-stream", "openai-chat-stream", upstream=f"127.0.0.1:{upstream}")
    try:
        run = fuzz(target, "openai-chat-stream", "openai-chat-stream", max_examples=examples, out=None)
    finally:
        target.close()
    assert [c.finding for c in run.counterexamples] == ["crashes"]
    assert says in run.counterexamples[0].message
    assert port_is_free(upstream)


@pytest.mark.slow
def test_a_gateway_that_is_not_there_is_a_crash() -> None:
    _assert_one_crash(f"http://127.0.0.1:{free_port()}{CHAT}", examples=3, says="ConnectError")


@pytest.mark.slow
def test_the_upstream_port_taken_is_a_usage_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(UsageError, match="cannot listen"):
            GatewayTarget(
                f"http://127.0.0.1:1{CHAT}",
                "openai-chat-stream",
                "openai-chat-stream",
                upstream=f"127.0.0.1:{port}",
            )


@pytest.mark.slow
def test_a_counterexample_replays_against_the_gateway(tmp_path: Path) -> None:
    run = campaign("chat", "crossed", "openai-chat-stream", out=tmp_path)
    assert run.counterexamples
    path = next(tmp_path.glob("*turn-2-crossed*.json"))
    with gateway("chat", "crossed") as (url, upstream):
        target = GatewayTarget(
            url, "openai-chat-stream", "openai-chat-stream", upstream=f"127.0.0.1:{upstream}"
        )
        try:
            saved, outcome = replay(path, target)
        finally:
            target.close()
    assert "correlation:turn-2-crossed" in {f.finding for f in outcome.faults()}
    assert saved.finding == "correlation:turn-2-crossed"


# -- the command line ----------------------------------------------------------------------------------


def _toolwire(*words: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolwire", *words],
        check=False,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=240,
    )


@pytest.mark.slow
def test_the_cli_fuzzes_a_gateway_prints_fail_lines_and_replays(tmp_path: Path) -> None:
    with gateway("chat", "crossed") as (url, upstream):
        done = _toolwire(
            "fuzz", url, "--from", "openai-chat-stream", "--to", "openai-chat-stream",
            "--upstream", f"127.0.0.1:{upstream}", "--max-examples", "40",
            "--header", "Authorization: Bearer sk-test-abcdefghijklmnopqrstuv", cwd=tmp_path,
        )  # fmt: skip
        assert done.returncode == 1, done.stderr
        assert "FAIL correlation [turn-2-crossed]: turn 2" in done.stdout, done.stdout
        saved = next((tmp_path / "counterexamples").glob("*turn-2-crossed*.json"))
        assert "sk-test-abcdefghijklmnopqrstuv" not in saved.read_text() + done.stdout + done.stderr
        assert f"{url} --upstream 127.0.0.1:{upstream}" in done.stdout
        again = _toolwire("replay", str(saved), url, "--upstream", f"127.0.0.1:{upstream}", cwd=tmp_path)
        assert again.returncode == 1, again.stdout + again.stderr
    with gateway("chat", None) as (url, upstream):
        clean = _toolwire(
            "fuzz", url, "--from", "openai-chat-stream", "--to", "openai-chat-stream",
            "--upstream", f"127.0.0.1:{upstream}", "--max-examples", "30", cwd=tmp_path,
        )  # fmt: skip
        assert clean.returncode == 0, clean.stdout + clean.stderr


def test_the_cli_wants_upstream_for_a_gateway(tmp_path: Path) -> None:
    done = _toolwire(
        "fuzz", "http://127.0.0.1:1/v1/chat/completions", "--from", "openai-chat-stream", "--to",
        "openai-chat-stream", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 2
    assert "--upstream" in done.stderr


@pytest.mark.slow
def test_a_warning_rule_broken_in_the_second_turn_fails_a_strict_campaign_only() -> None:
    """The gateway splits the tool results over user contents upstream (GM-5b, a warning rule)."""
    plain = campaign("gemini", "split-results", "gemini-stream", out=None)
    assert plain.counterexamples == [], [c.finding for c in plain.counterexamples]
    strict = campaign("gemini", "split-results", "gemini-stream", out=None, strict=True)
    found = {c.finding: c for c in strict.counterexamples}
    assert any("GM-5b" in finding for finding in found), sorted(found)
    fixed = campaign("gemini", None, "gemini-stream", out=None, strict=True)
    assert fixed.counterexamples == [], [c.finding for c in fixed.counterexamples]
