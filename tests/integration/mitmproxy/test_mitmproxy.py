"""toolwire inside a real ``mitmdump`` (reverse-proxy mode on loopback): same checks, reports, redaction.

mitmproxy's pins conflict with the dev extra's (h11), so it lives in a venv of its own: ``.ci/run``
makes one and names its ``mitmdump`` in ``TOOLWIRE_MITMDUMP``; a ``mitmdump`` on PATH is used too.
mitmdump imports toolwire from this checkout (``PYTHONPATH``), and toolwire's dependencies from
its own venv (``pip install 'toolwire[mitmproxy]'`` there, as ``.ci/run`` does).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import httpx
import orjson
import pytest

import toolwire
from helpers.proxy_support import DATA, free_port, serving, upstream_app
from toolwire.engines.checking._exchanges import check_recording

MITMDUMP = os.environ.get("TOOLWIRE_MITMDUMP") or shutil.which("mitmdump")
RS7C = "openai-responses-stream/rs7c-two-items-one-call-id.sse"
REQUEST = {"model": "gpt-4o", "input": [{"role": "user", "content": "weather?"}], "stream": True}

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        MITMDUMP is None, reason="mitmdump is not installed (set TOOLWIRE_MITMDUMP or pip install mitmproxy)"
    ),
]


def _wait_for(port: int, process: subprocess.Popen[str]) -> None:
    deadline = time.time() + 30
    while time.time() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"mitmdump exited: {process.communicate()}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError("mitmdump did not listen")


def test_mitmdump_with_the_addon_forwards_unchanged_flags_live_and_redacts(tmp_path: Path) -> None:
    from toolwire import mitmproxy_addon

    key = "sk-proj-" + os.urandom(24).hex()
    report, record = tmp_path / "findings.jsonl", tmp_path / "run.har"
    src = str(Path(toolwire.__file__).parents[1])
    env = {**os.environ, "PYTHONPATH": src}
    with serving(upstream_app()) as upstream:
        port = free_port()
        assert MITMDUMP is not None
        process = subprocess.Popen(
            [
                MITMDUMP,
                "--mode",
                f"reverse:{upstream}",
                "--listen-host",
                "127.0.0.1",
                "--listen-port",
                str(port),
                "-s",
                mitmproxy_addon.__file__,
                "--set",
                f"toolwire_report={report}",
                "--set",
                f"toolwire_record={record}",
                "--set",
                "flow_detail=0",
                "--set",
                "toolwire_strict=true",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        try:
            _wait_for(port, process)
            with httpx.stream(
                "POST",
                f"http://127.0.0.1:{port}/v1/responses?key={key}",
                json=REQUEST,
                headers={"x-fake-trace": RS7C, "x-fake-delay": "0.02", "Authorization": f"Bearer {key}"},
            ) as response:
                body = b"".join(response.iter_raw())
            # The finding is told live; the record is written once mitmproxy ends the flow.
            deadline = time.time() + 30
            while not (report.exists() and report.read_bytes() and b'"entries": [\n{' in record.read_bytes()):
                assert time.time() < deadline, "no finding reported, or no exchange recorded"
                time.sleep(0.05)
            process.send_signal(signal.SIGINT)
            out, err = process.communicate(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert body == (DATA / RS7C).read_bytes()
    assert orjson.loads(report.read_bytes().splitlines()[0])["rule"] == "RS-7c"
    assert "RS-7c" in out, out + err
    assert "toolwire proxy: 1 exchanges" in out, out + err
    for text in (out, err, report.read_text(), record.read_text()):
        assert key not in text
    rules = [f.rule for r in check_recording(record, record.read_bytes()) for f in r.findings]
    assert rules == ["RS-7c"], record.read_text()
