"""A gateway campaign on several workers, and one cut short: nothing is left behind.

With ``--workers N`` the parent's router listens on ``--upstream`` (the gateway has one upstream)
and forwards each upstream request to the worker process whose example's marker it carries; each
worker has a mock of its own on a free loopback port.  After the campaign, an interrupt (Ctrl-C
reaches the whole process group, as from a terminal) or a worker killed mid-run, the upstream
port is free and no process of the campaign is alive.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from helpers.gateway_app import gateway_app
from helpers.proxy_support import free_port, serving
from integration.test_gateway import CHAT, PLANTED, port_is_free
from toolwire.engines.fuzzing._campaign import fuzz
from toolwire.engines.gateway._mock_provider import Router
from toolwire.engines.gateway._target import GatewayTarget

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


def _session(sid: int) -> list[int]:
    """The live processes of session ``sid`` (a CLI started in a session of its own, and its children)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        # state, ppid, pgrp, session: a zombie has ended (its parent reaps it).
        if int(fields[3]) == sid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def _workers_of(pid: int) -> list[int]:
    """The fan-out workers ``pid`` spawned (not multiprocessing's resource tracker)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2 :].split()[1]) == pid and b"spawn_main" in command:
                found.append(int(entry.name))
    return found


class Counted:
    """An ASGI app that counts the requests it is sent (to time a signal mid-campaign)."""

    def __init__(self, app: Any) -> None:
        self.app, self.requests = app, 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            self.requests += 1
        await self.app(scope, receive, send)


@contextmanager
def counted_gateway(family: str, bug: str | None) -> Iterator[tuple[str, int, Counted]]:
    upstream = free_port()
    app = Counted(gateway_app(f"http://127.0.0.1:{upstream}", family, bug))
    with serving(app) as url:
        yield url + CHAT, upstream, app


def _cli(url: str, upstream: int, *more: str, cwd: Path) -> subprocess.Popen[str]:
    words = ["fuzz", url, "--from", "openai-chat-stream", "--to", "openai-chat-stream"]
    return subprocess.Popen(
        [sys.executable, "-m", "toolwire", *words, "--upstream", f"127.0.0.1:{upstream}", *more],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # A pytest-xdist worker may run with SIGINT ignored, which a child inherits: the CLI must
        # start as from a terminal, SIGINT at its default, to be interrupted as a user interrupts it.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # noqa: PLW1509 (one syscall)
    )


def _wait(until: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not until():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def _finished(process: subprocess.Popen[str], timeout: float = 120) -> tuple[str, str]:
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        pytest.fail(f"the campaign did not end: {out}\n{err}")
    return out, err


def _nothing_left(process: subprocess.Popen[str], upstream: int) -> None:
    # The campaign's processes are gone (the session is empty) and the upstream port is free.
    _wait(lambda: not _session(process.pid), 10, f"processes left: {_session(process.pid)}")
    assert port_is_free(upstream), "the --upstream port is still taken"


# -- the router ---------------------------------------------------------------------------------------


def test_the_router_refuses_a_request_without_a_marker_or_with_an_unknown_worker() -> None:
    ports = multiprocessing.get_context("spawn").RawArray("i", 2)
    router = Router(ports)
    assert router._port(b'{"content": "no marker"}') is None
    # Worker 1 is not listening yet (its port is 0); worker 7 does not exist.
    assert router._port(b"toolwire-marker-0001abcdefabcdef") is None
    assert router._port(b"toolwire-marker-0007abcdefabcdef") is None
    ports[1] = 4321
    assert router._port(b"toolwire-marker-0001abcdefabcdef") == 4321


# -- campaigns on two workers ------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("bug", ["crossed", "index-0", "name-keyed", None])
def test_two_workers_find_the_planted_bugs_and_pass_the_fixed_twin(bug: str | None) -> None:
    family, source, finding = PLANTED[bug] if bug else ("chat", "openai-chat-stream", None)
    with counted_gateway(family, bug) as (url, upstream, _):
        target = GatewayTarget(url, source, "openai-chat-stream", upstream=f"127.0.0.1:{upstream}")
        try:
            run = fuzz(target, source, "openai-chat-stream", max_examples=60, out=None, workers=2)
        finally:
            target.close()
        assert multiprocessing.active_children() == []
        assert port_is_free(upstream)
    found = {c.finding: c for c in run.counterexamples}
    assert run.examples == 60
    if finding is None:
        assert found == {}, [c.message for c in run.counterexamples]
        return
    assert finding in found, sorted(found)
    exchange = found[finding].exchange
    assert exchange is not None
    # The exchange names the gateway's upstream, not the worker's own port; the mock saw turn 1.
    assert exchange["upstream"] == f"127.0.0.1:{upstream}"
    assert exchange["turns"][0]["upstream"], "the worker's mock recorded the upstream request"


@pytest.mark.slow
def test_the_cli_on_two_workers_leaves_no_process_and_no_port(tmp_path: Path) -> None:
    with counted_gateway("chat", "crossed") as (url, upstream, _):
        process = _cli(url, upstream, "--workers", "2", "--max-examples", "40", cwd=tmp_path)
        out, err = _finished(process)
        assert process.returncode == 1, out + err
        assert "FAIL correlation [turn-2-crossed]" in out, out
        assert f"--upstream 127.0.0.1:{upstream}" in out
        _nothing_left(process, upstream)


@pytest.mark.slow
def test_a_worker_killed_mid_campaign_is_a_reported_problem_and_leaves_nothing(tmp_path: Path) -> None:
    with counted_gateway("chat", None) as (url, upstream, app):
        process = _cli(url, upstream, "--workers", "2", "--time-limit", "45", cwd=tmp_path)
        try:
            _wait(lambda: app.requests >= 10, 90, "the workers sent nothing")
            workers = _workers_of(process.pid)
            assert len(workers) == 2, workers
            os.kill(workers[0], signal.SIGKILL)
            out, err = _finished(process)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
        # The other worker runs on to the budget; the report says what was lost, and a campaign
        # with a lost part is never called clean.
        assert process.returncode == 2, out + err
        assert "problem: fuzz worker 0 ended without a result (killed by SIGKILL)" in out, out + err
        assert "part of the campaign was lost" in out, out
        assert "Traceback" not in err, err
        _nothing_left(process, upstream)


# -- Ctrl-C -------------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_mid_gateway_campaign_prints_the_report_and_leaves_nothing(
    workers: str, tmp_path: Path
) -> None:
    with counted_gateway("chat", None) as (url, upstream, app):
        process = _cli(url, upstream, "--workers", workers, "--time-limit", "120", cwd=tmp_path)
        try:
            _wait(lambda: app.requests >= 10, 90, "the campaign sent nothing")
            # As a terminal does: SIGINT to the whole process group.
            os.killpg(process.pid, signal.SIGINT)
            try:
                out, err = process.communicate(timeout=45)
            except subprocess.TimeoutExpired:
                # Under heavy load one CI run lost the first SIGINT (not understood yet): a second
                # Ctrl-C, as a user presses it, must still end the campaign with its report.
                os.killpg(process.pid, signal.SIGINT)
                out, err = _finished(process)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
        # Interrupted with no finding: the report, then exit 130 (as the CLI documents).
        assert process.returncode == 130, out + err
        assert f"toolwire fuzz {url}" in out, out
        assert "interrupted" in out, out
        assert "Traceback" not in err, err
        _nothing_left(process, upstream)
