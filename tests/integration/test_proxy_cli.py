"""``toolwire proxy`` as a process: it listens, checks in a process of its own, prints its summary when
stopped and exits by what it saw; its record checks as the live run did."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import orjson
import pytest

from helpers.proxy_support import (
    DATA,
    GOOD_RESPONSES,
    RESPONSES_REQUEST,
    RS7B,
    RS7C,
    fake,
    free_port,
    serving,
    upstream_app,
)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("trace", "code", "stop", "fmt"),
    [
        (RS7C, 1, signal.SIGINT, "text"),
        (GOOD_RESPONSES, 0, signal.SIGTERM, "text"),
        (RS7C, 1, signal.SIGTERM, "json"),
    ],
)
def test_the_cli_proxy_prints_its_summary_when_stopped_and_exits_by_what_it_saw(
    tmp_path: Path, trace: str, code: int, stop: signal.Signals, fmt: str
) -> None:
    with serving(upstream_app()) as upstream:
        port = free_port()
        report = tmp_path / "findings.jsonl"
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "toolwire",
                "proxy",
                "--upstream",
                upstream,
                "--listen",
                f"127.0.0.1:{port}",
                "--report",
                str(report),
                "--record",
                str(tmp_path / "run.har"),
                "--format",
                fmt,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
        try:
            assert process.stdout is not None
            first = process.stdout.readline()
            if fmt == "json":
                assert orjson.loads(first)["listening"] == f"http://127.0.0.1:{port}"
            else:
                assert first.startswith(f"toolwire proxy: listening on http://127.0.0.1:{port}"), first
            response = httpx.post(
                f"http://127.0.0.1:{port}/v1/responses", json=RESPONSES_REQUEST, headers=fake(trace)
            )
            assert response.content == (DATA / trace).read_bytes()
            deadline = time.time() + 20
            while code and not report.read_bytes() and time.time() < deadline:
                time.sleep(0.05)
            checking = _children(process.pid)
            assert checking  # the checks run in a process of their own
            process.send_signal(stop)
            out, err = process.communicate(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert process.returncode == code, err
    deadline = time.time() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in checking) and time.time() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in checking if Path(f"/proc/{pid}").exists()], "a checking process was left"
    if fmt == "json":
        lines = [orjson.loads(line) for line in out.splitlines()]
        assert lines[0]["rule"] == "RS-7c"
        assert lines[-1]["summary"]["by_rule"] == {"RS-7c": 1}
        assert lines[-1]["summary"]["exchanges"] == 1
    else:
        assert "toolwire proxy: 1 exchanges" in out
    if code:
        assert "RS-7c" in out
        assert orjson.loads(report.read_bytes().splitlines()[0])["rule"] == "RS-7c"
    else:
        assert "clean" in out.splitlines()[-1]
    check = subprocess.run(
        [sys.executable, "-m", "toolwire", "check", str(tmp_path / "run.har")],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        check=False,
    )
    assert check.returncode == code, check.stdout + check.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    ("trace", "strict", "code", "verdict"),
    [
        (RS7B, False, 0, "clean"),
        (RS7B, True, 1, "warnings (failing: --strict)"),
        (RS7C, True, 1, "violations"),
        (GOOD_RESPONSES, True, 0, "clean"),
    ],
    ids=["warning", "warning-strict", "error-strict", "clean-strict"],
)
def test_the_cli_proxy_under_strict_fails_on_a_warning_it_saw(
    tmp_path: Path, trace: str, strict: bool, code: int, verdict: str
) -> None:
    """A warning seen makes the exit 1 under --strict, and 0 without it (an error: 1 either way)."""
    with serving(upstream_app()) as upstream:
        port = free_port()
        report = tmp_path / "findings.jsonl"
        argv = ["proxy", "--upstream", upstream, "--listen", f"127.0.0.1:{port}", "--report", str(report)]
        process = subprocess.Popen(
            [sys.executable, "-m", "toolwire", *argv, *(["--strict"] * strict)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
        try:
            assert process.stdout is not None
            assert process.stdout.readline().startswith("toolwire proxy: listening on")
            response = httpx.post(
                f"http://127.0.0.1:{port}/v1/responses", json=RESPONSES_REQUEST, headers=fake(trace)
            )
            assert response.content == (DATA / trace).read_bytes()
            deadline = time.time() + 20
            while trace != GOOD_RESPONSES and not report.read_bytes() and time.time() < deadline:
                time.sleep(0.05)
            process.send_signal(signal.SIGTERM)
            out, err = process.communicate(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert process.returncode == code, err
    assert out.splitlines()[-1].endswith(f"unreadable parts: {verdict}"), out


def _children(pid: int) -> list[int]:
    tasks = Path(f"/proc/{pid}/task").iterdir()
    return [int(child) for task in tasks for child in (task / "children").read_text().split()]


@pytest.mark.slow
def test_the_cli_prints_the_mitmproxy_addon_path() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "toolwire", "proxy", "--mitmproxy-addon-path"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    ).stdout.strip()
    assert Path(out).name == "mitmproxy_addon.py"
    assert Path(out).is_file()
