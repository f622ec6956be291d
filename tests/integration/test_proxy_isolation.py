"""The proxy's checks in a process of their own (``engines/proxy/_isolation.py``, as ``toolwire proxy``
runs them) tell what the checks in the forwarder's process tell, and fall behind without holding the
stream up.

The two are twins: ``Proxy(isolate=True)`` (the CLI, ``cli/commands/proxy.py``) and
``Proxy(isolate=False)`` (the library's default).  The first test here holds them equal on one
session's traffic; the server's tests that take the ``isolate`` fixture (``test_proxy_server.py``)
run on both.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from helpers.proxy_support import CHAT_STREAM, DATA, GOOD_RESPONSES, RESPONSES_REQUEST, RS7C, fake, proxied
from toolwire.engines import LiveFinding


def _session(url: str, tmp_path: Path) -> None:
    """One session's traffic: clean and violating streams, a body, event-stream frames, gzip, traffic
    no protocol reads, an upstream error, and a conversation across exchanges (a made-up call id
    answered, and a request of a conversation never seen starting)."""
    garbage = tmp_path / "garbage.sse"
    garbage.write_bytes(b"data: {not json\n\ndata: \x00\x01\x02\n\n")
    for trace in (RS7C, GOOD_RESPONSES, "openai-responses-stream/rs7a-no-created.sse", str(garbage)):
        httpx.post(url + "/v1/responses", json=RESPONSES_REQUEST, headers=fake(trace), timeout=60)
    httpx.post(
        url + "/v1/responses",
        json=RESPONSES_REQUEST,
        headers={**fake(RS7C, mode="gzip"), "Accept-Encoding": "gzip"},
        timeout=60,
    )
    httpx.post(
        url + "/model/amazon.nova-micro-v1:0/converse-stream",
        json={"messages": [{"role": "user", "content": [{"text": "hi"}]}]},
        headers=fake(
            "bedrock-converse-stream/duplicate-start.eventstream", kind="application/vnd.amazon.eventstream"
        ),
        timeout=60,
    )
    httpx.post(url + "/v1/responses", json=RESPONSES_REQUEST, headers={"x-fake-mode": "error"}, timeout=60)
    start = {
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": "search for pipeline mode"}],
        "stream": True,
    }
    synthesized = orjson.loads((DATA / "openai-chat/seed002-synthesized-ids.json").read_bytes())
    unseen = orjson.loads((DATA / "openai-chat/seed002-synthesized-ids.json").read_bytes())
    unseen["messages"][0]["content"] = "a conversation the proxy never saw start"
    for body in (start, synthesized, unseen):
        httpx.post(url + "/v1/chat/completions", json=body, headers=fake(CHAT_STREAM), timeout=60)


def _what(told: list[LiveFinding], upstream: str) -> list[tuple[Any, ...]]:
    """What was told, without when and without the upstream's port (each run has its own): each
    finding and problem with its exchange, side and protocol."""
    host = upstream.split("://", 1)[-1]
    return sorted(
        (
            t.exchange,
            t.method,
            t.endpoint.replace(host, "UPSTREAM"),
            t.side,
            t.protocol,
            t.across,
            repr(t.finding),
            None if t.problem is None else t.problem.message.replace(host, "UPSTREAM"),
        )
        for t in told
    )


def test_the_isolated_checker_tells_what_the_in_thread_one_tells(tmp_path: Path) -> None:
    said = {}
    for isolate in (False, True):
        with proxied(isolate=isolate) as (proxy, url, told):
            _session(url, tmp_path)
        tally = proxy.tally
        said[isolate] = (
            _what(told, proxy.upstream),
            tally.exchanges,
            tally.errors,
            tally.warnings,
            tally.unreadable,
            dict(tally.findings),
        )
    assert said[True] == said[False]
    rules = {t[6] for t in said[False][0]}
    assert any("RS-7c" in r for r in rules) and any("RT-1" in r for r in rules)  # the session finds


@pytest.mark.slow
def test_checks_in_a_process_of_their_own_that_fall_behind_drop_the_rest_and_say_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from toolwire.engines.proxy import _isolation as _isolated

    monkeypatch.setattr(_isolated, "MAX_QUEUED", 64)  # every chunk past the first few is over it
    with proxied(isolate=True) as (proxy, url, told):
        response = httpx.post(url + "/v1/responses", json=RESPONSES_REQUEST, headers=fake(RS7C))
        assert response.content == (DATA / RS7C).read_bytes()  # forwarded whole all the same
        proxy.drain(30)
    problems = [t.problem.message for t in told if t.problem is not None]
    assert "the checker fell behind the forwarding; the rest was not checked" in problems
    assert proxy.tally.unreadable == 1
    assert proxy.tally.exchanges == 1
