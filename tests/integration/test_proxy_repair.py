"""``toolwire proxy --repair`` (``engines/proxy/_repairing.py``): a request's history repaired on its
way upstream, each change told, the request recorded as sent and as forwarded; a request that needs
nothing, or that the repair cannot handle, forwarded byte for byte.

The upstream here is a stand-in for OpenAI's Chat Completions (uvicorn and Starlette, started by
the test on a free loopback port, as the proxy is): it answers an orphaned ``tool`` message with
OpenAI's own 400, and anything else with a 200 completion.  Each test stops both servers.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from helpers.proxy_support import free_port, recording_to, serving, telling
from toolwire.cli.handlers._record import Recorder
from toolwire.engines import LiveFinding
from toolwire.engines.proxy import Proxy, RequestRepair

#: OpenAI's answer to a ``tool`` message whose call is not in the history, word for word (typo too).
ORPHAN_400 = {
    "error": {
        "message": "Invalid parameter: messages with role 'tool' must be a response to a preceeding "
        "message with 'tool_calls'.",
        "type": "invalid_request_error",
        "param": "messages.[1].role",
        "code": None,
    }
}
#: A history whose call was compacted away: its result is an orphan.
ORPHANED = {
    "model": "gpt-4o",
    "messages": [
        {"role": "user", "content": "Send the money"},
        {"role": "tool", "tool_call_id": "call_9", "content": "Transfer completed, transaction 123"},
        {"role": "user", "content": "Did it go through?"},
    ],
}
#: A clean request, laid out as no serialiser would: a re-serialised body would not match it.
CLEAN = b'{ "model":"gpt-4o",  "messages" : [{"role": "user","content":"Hello \\u00e9"}] ,"stream":false}'


class Upstream:
    """The stand-in for OpenAI: what it received, and its answers."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []
        self.lengths: list[str | None] = []
        self.app = Starlette(routes=[Route("/v1/chat/completions", self.answer, methods=["POST"])])

    async def answer(self, request: Request) -> JSONResponse:
        raw = await request.body()
        self.bodies.append(raw)
        self.lengths.append(request.headers.get("content-length"))
        if request.headers.get("content-encoding") == "gzip":
            raw = gzip.decompress(raw)
        messages = orjson.loads(raw)["messages"]
        for i, message in enumerate(messages):
            if message.get("role") == "tool" and not any(
                call.get("id") == message.get("tool_call_id")
                for earlier in messages[:i]
                for call in earlier.get("tool_calls") or []
            ):
                return JSONResponse(ORPHAN_400, status_code=400)
        reply = {"role": "assistant", "content": "Yes: transaction 123 went through."}
        return JSONResponse(
            {
                "id": "chatcmpl-1",
                "object": "chat.completion",
                "created": 1,
                "model": "gpt-4o",
                "choices": [{"index": 0, "message": reply, "finish_reason": "stop"}],
            }
        )


@contextmanager
def proxied(**options: Any) -> Iterator[tuple[Upstream, str, list[LiveFinding]]]:
    """The stand-in upstream and the proxy in front of it; yields the upstream, the proxy's URL and
    what the proxy told."""
    upstream = Upstream()
    told: list[LiveFinding] = []
    handlers = [telling(told.append), *options.pop("handlers", ())]
    with serving(upstream.app) as base:
        proxy = Proxy(base, handlers=handlers, **options)
        with serving(proxy.app) as url:
            yield upstream, url, told
            proxy.drain(30)


@pytest.mark.slow
def test_without_repair_the_client_gets_openais_400_for_an_orphaned_tool_message() -> None:
    with proxied() as (upstream, url, told):
        response = httpx.post(url + "/v1/chat/completions", json=ORPHANED)
    assert response.status_code == 400
    assert (
        "must be a response to a preceeding message with 'tool_calls'" in response.json()["error"]["message"]
    )
    assert orjson.loads(upstream.bodies[0]) == ORPHANED
    # CC-2: a tool message no assistant message with tool_calls comes before; RT-1: no response
    # through the proxy emitted its call.
    assert sorted((t.finding.rule, t.side) for t in told if t.finding is not None) == [
        ("CC-2", "request"),
        ("RT-1", "request"),
    ]
    assert not [t for t in told if t.change is not None]


@pytest.mark.slow
@pytest.mark.parametrize("isolate", [False, True], ids=["in-thread", "isolated"])
def test_with_repair_the_orphan_is_kept_as_a_note_the_client_gets_200_and_both_bodies_are_recorded(
    tmp_path: Path, isolate: bool
) -> None:
    har = tmp_path / "run.har"
    recorder = Recorder(har)
    sent = orjson.dumps(ORPHANED)
    with proxied(repair=True, record=True, isolate=isolate, handlers=[recording_to(recorder)]) as (
        upstream,
        url,
        told,
    ):
        response = httpx.post(
            url + "/v1/chat/completions", content=sent, headers={"content-type": "application/json"}
        )
    recorder.close()
    assert response.status_code == 200, response.text
    forwarded = orjson.loads(upstream.bodies[0])
    assert [m["role"] for m in forwarded["messages"]] == ["user", "user", "user"]
    assert "Transfer completed, transaction 123" in forwarded["messages"][1]["content"]
    assert upstream.lengths[0] == str(len(upstream.bodies[0]))  # Content-Length fixed to the new body
    # Told live: the change (rule, path, action, before, after), and the finding on the request as sent.
    changes = [t.change for t in told if t.change is not None]
    assert [(c.rule, c.path, c.action, c.before) for c in changes] == [
        ("CC-3", "messages[1]", "note", "Transfer completed, transaction 123")
    ]
    assert changes[0].after == forwarded["messages"][1]["content"]
    assert sorted(t.finding.rule for t in told if t.finding is not None) == ["CC-2", "RT-1"]
    # Recorded both ways: the request as the client sent it, and (HAR's own extension field) as forwarded.
    (entry,) = orjson.loads(har.read_bytes())["log"]["entries"]
    assert orjson.loads(entry["request"]["postData"]["text"]) == ORPHANED
    assert entry["request"]["_forwarded"]["postData"]["text"].encode() == upstream.bodies[0]
    assert entry["request"]["_forwarded"]["bodySize"] == len(upstream.bodies[0])
    assert [c["rule"] for c in entry["request"]["_forwarded"]["changes"]] == ["CC-3"]
    assert entry["response"]["status"] == 200


@pytest.mark.slow
@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_a_clean_request_is_forwarded_byte_identical_under_repair(chunked: bool) -> None:
    with proxied(repair=True) as (upstream, url, told):
        body: Any = iter([CLEAN[:20], CLEAN[20:]]) if chunked else CLEAN
        response = httpx.post(
            url + "/v1/chat/completions", content=body, headers={"content-type": "application/json"}
        )
    assert response.status_code == 200
    assert hashlib.sha256(upstream.bodies[0]).hexdigest() == hashlib.sha256(CLEAN).hexdigest()
    assert upstream.lengths[0] == (None if chunked else str(len(CLEAN)))
    assert told == []


@pytest.mark.slow
def test_a_body_past_the_bound_is_forwarded_byte_identical_and_told_not_repaired(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from toolwire.engines.proxy import _pipe

    monkeypatch.setattr(_pipe, "MAX_BODY", 1 << 16)
    body = orjson.dumps(ORPHANED | {"user": "x" * (1 << 17)})
    with proxied(repair=True) as (upstream, url, told):
        response = httpx.post(
            url + "/v1/chat/completions",
            content=iter([body[:1000], body[1000:]]),  # chunked: the rest follows what was held
            headers={"content-type": "application/json"},
        )
    assert response.status_code == 400
    assert upstream.bodies == [body]
    said = [t.problem.message for t in told if t.problem and t.problem.message.startswith("not repaired")]
    assert said == ["not repaired: it is over 65536 bytes; forwarded as sent"]


@pytest.mark.slow
def test_a_gzip_body_is_repaired_and_forwarded_gzip_again() -> None:
    with proxied(repair=True) as (upstream, url, told):
        response = httpx.post(
            url + "/v1/chat/completions",
            content=gzip.compress(orjson.dumps(ORPHANED)),
            headers={"content-type": "application/json", "content-encoding": "gzip"},
        )
    assert response.status_code == 200
    forwarded = orjson.loads(gzip.decompress(upstream.bodies[0]))
    assert [m["role"] for m in forwarded["messages"]] == ["user", "user", "user"]
    assert upstream.lengths[0] == str(len(upstream.bodies[0]))
    assert [t.change.rule for t in told if t.change is not None] == ["CC-3"]


@pytest.mark.slow
def test_a_multi_member_gzip_body_is_repaired_whole_and_a_cut_one_forwarded_as_sent_and_told() -> None:
    sent = orjson.dumps(ORPHANED)
    cut = gzip.compress(sent)[:-12]
    with proxied(repair=True) as (upstream, url, told):
        response = httpx.post(
            url + "/v1/chat/completions",
            content=gzip.compress(sent[:40]) + gzip.compress(sent[40:]),
            headers={"content-type": "application/json", "content-encoding": "gzip"},
        )
        httpx.post(
            url + "/v1/chat/completions",
            content=cut,
            headers={"content-type": "application/json", "content-encoding": "gzip"},
        )
    assert response.status_code == 200
    forwarded = orjson.loads(gzip.decompress(upstream.bodies[0]))
    assert [m["role"] for m in forwarded["messages"]] == ["user", "user", "user"]
    assert [t.change.rule for t in told if t.change is not None] == ["CC-3"]
    assert upstream.bodies[1] == cut  # never lost: as the client sent it
    said = [t.problem.message for t in told if t.problem and t.problem.message.startswith("not repaired")]
    assert len(said) == 1 and said[0].startswith("not repaired: its gzip body cannot be decoded (")


@pytest.mark.slow
def test_a_request_repair_cannot_handle_is_forwarded_as_sent_and_told_never_a_crash() -> None:
    gemini = (Path(__file__).parent.parent / "data" / "gemini-contents" / "args-as-string.json").read_bytes()
    upstream_bodies: list[bytes] = []

    async def answer(request: Request) -> JSONResponse:
        upstream_bodies.append(await request.body())
        return JSONResponse({"candidates": []})

    app = Starlette(routes=[Route("/{path:path}", answer, methods=["POST"])])
    told: list[LiveFinding] = []
    with serving(app) as base:
        proxy = Proxy(base, handlers=[telling(told.append)], repair=RequestRepair())
        with serving(proxy.app) as url:
            response = httpx.post(url + "/v1beta/models/gemini-2.0-flash:generateContent", content=gemini)
            signed = httpx.post(
                url + "/v1/chat/completions",
                content=orjson.dumps(ORPHANED),
                headers={"authorization": "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/x, Signature=abc"},
            )
            proxy.drain(30)
    assert (response.status_code, signed.status_code) == (200, 200)
    assert upstream_bodies == [gemini, orjson.dumps(ORPHANED)]
    said = sorted(
        (t.exchange, t.problem.message) for t in told if t.problem and "not repaired" in t.problem.message
    )
    assert said[0][1].startswith("not repaired: GM-7 at contents[1].parts[0]: no repair is right for this")
    assert (
        said[1][1]
        == "not repaired: its body is signed (AWS SigV4): a changed body would fail; forwarded as sent"
    )
    assert not [t for t in told if t.change is not None]
    assert proxy.tally.repaired == 0


def _run_proxy(argv: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "toolwire", "proxy", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )


@pytest.mark.slow
@pytest.mark.parametrize("repair", [False, True], ids=["without-repair", "with-repair"])
def test_the_cli_proxy_repairs_with_repair_and_reports_and_records_each_change(
    tmp_path: Path, repair: bool
) -> None:
    upstream = Upstream()
    report, har = tmp_path / "findings.jsonl", tmp_path / "run.har"
    with serving(upstream.app) as base:
        port = free_port()
        argv = ["--upstream", base, "--listen", f"127.0.0.1:{port}", "--report", str(report)]
        process = _run_proxy([*argv, "--record", str(har), *(["--repair", "--for", "openai"] * repair)])
        try:
            assert process.stdout is not None
            assert process.stdout.readline().startswith("toolwire proxy: listening on")
            response = httpx.post(f"http://127.0.0.1:{port}/v1/chat/completions", json=ORPHANED)
            deadline = time.time() + 20
            while len(report.read_bytes().splitlines()) < 2 + repair and time.time() < deadline:
                time.sleep(0.05)
            process.send_signal(signal.SIGTERM)
            out, err = process.communicate(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert process.returncode == 1, err  # the request as the client sent it broke CC-2 either way
    lines = [orjson.loads(line) for line in report.read_bytes().splitlines()]
    (entry,) = orjson.loads(har.read_bytes())["log"]["entries"]
    if not repair:
        assert response.status_code == 400
        assert sorted(line["rule"] for line in lines if line["kind"] == "finding") == ["CC-2", "RT-1"]
        assert not [line for line in lines if line["kind"] in ("repair", "not-repaired")]
        assert "_forwarded" not in entry["request"]
        assert "repaired" not in out
        return
    assert response.status_code == 200, response.text
    (change,) = [line for line in lines if line["kind"] == "repair"]
    assert {k: change[k] for k in ("rule", "path", "action", "before")} == {
        "rule": "CC-3",
        "path": "messages[1]",
        "action": "note",
        "before": "Transfer completed, transaction 123",
    }
    assert change["after"].startswith("[toolwire repair] Result of tool call 'call_9'")
    assert change["exchange"] == 1 and change["side"] == "request" and change["protocol"] == "openai-chat"
    assert "request messages[1]: CC-3 repaired, note: a result for call 'call_9'" in out
    assert out.splitlines()[-1].endswith("0 unreadable parts, 1 repaired (1 changes): violations"), out
    assert orjson.loads(entry["request"]["postData"]["text"]) == ORPHANED
    assert entry["request"]["_forwarded"]["postData"]["text"].encode() == upstream.bodies[0]
    # The record checks to what the live run found: the request as sent.
    check = subprocess.run(
        [sys.executable, "-m", "toolwire", "check", str(har), "--format", "json"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        check=False,
    )
    assert check.returncode == 1, check.stdout + check.stderr
    assert "CC-2" in check.stdout
