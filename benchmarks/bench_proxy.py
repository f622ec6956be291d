"""Proxy benchmark: what ``toolwire proxy`` adds to a stream, against a direct connection in the same run.

(a) Added latency per chunk, median and p99, on a stream of ``--chunks`` Chat Completions chunks sent
    1 ms apart: each chunk carries the upstream's ``time.monotonic()`` when sent (one clock for every
    process on the machine), the client notes when it arrives; the proxy's figure less the direct one
    (targets: median < 1 ms, p99 < 5 ms).
    The direct stream and the proxied one run at the same time, so that both see the same load.
(b) Throughput with ``--streams`` concurrent streams sent as fast as they go: bytes per second through
    the proxy / direct (target >= 0.8); runs alternate direct, proxied (``--rounds`` times) and the
    medians are compared.  The client is this process, the upstream and the proxy processes of their
    own; the proxy's CPU seconds per run are printed beside the ratio.
(c) Peak RSS of the proxy process with ``--rss-streams`` concurrent streams.

The upstream (uvicorn + Starlette) and the proxy (``python -m toolwire proxy``) run as processes of
their own on free loopback ports, and are stopped at the end.

    python benchmarks/bench_proxy.py [--chunks 1000] [--streams 100] [--rss-streams 200]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

UPSTREAM = r"""
import asyncio, sys, time, orjson, uvicorn
from starlette.applications import Starlette
from starlette.responses import StreamingResponse
from starlette.routing import Route

def chunk(delta, finish=None):
    return b"data: " + orjson.dumps({"id": "chatcmpl-b", "object": "chat.completion.chunk", "created": 0,
        "model": "m", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}) + b"\n\n"

async def stream(request):
    count = int(request.query_params.get("chunks", "1000"))
    gap = float(request.query_params.get("gap", "0"))
    async def body():
        yield chunk({"role": "assistant", "content": ""})
        for _ in range(count):
            yield chunk({"content": repr(time.monotonic())})
            if gap:
                await asyncio.sleep(gap)
        yield chunk({}, "stop")
        yield b"data: [DONE]\n\n"
    return StreamingResponse(body(), media_type="text/event-stream")

app = Starlette(routes=[Route("/v1/chat/completions", stream, methods=["POST"])])
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="critical")
"""
REQUEST = {"model": "m", "messages": [{"role": "user", "content": "count"}], "stream": True}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.time() + 30
    while time.time() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"a benchmark server exited: {process.communicate()}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise SystemExit("a benchmark server did not listen")


@contextmanager
def servers() -> Iterator[tuple[str, str, int]]:
    """The upstream's URL, the proxy's URL in front of it, and the proxy's pid."""
    up, px = free_port(), free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    upstream = subprocess.Popen([sys.executable, "-c", UPSTREAM, str(up)], env=env)
    proxy = None
    try:
        _wait(up, upstream)
        proxy = subprocess.Popen(
            [sys.executable, "-m", "toolwire", "proxy", "--upstream", f"http://127.0.0.1:{up}",
             "--listen", f"127.0.0.1:{px}"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        _wait(px, proxy)
        yield f"http://127.0.0.1:{up}", f"http://127.0.0.1:{px}", proxy.pid
    finally:
        for process in (proxy, upstream):
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(30)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


async def _delays(base: str, chunks: int, gap: float) -> list[float]:
    import httpx
    import orjson

    delays: list[float] = []
    async with (
        httpx.AsyncClient(timeout=300) as client,
        client.stream(
            "POST", f"{base}/v1/chat/completions?chunks={chunks}&gap={gap}", json=REQUEST
        ) as response,
    ):
        async for line in response.aiter_lines():
            if line.startswith("data: {"):
                content = orjson.loads(line[6:])["choices"][0]["delta"].get("content")
                if content:
                    delays.append(time.monotonic() - float(content))
    return delays


async def _throughput(base: str, streams: int, chunks: int) -> float:
    import httpx

    async def one(client: httpx.AsyncClient) -> int:
        url = f"{base}/v1/chat/completions?chunks={chunks}"
        async with client.stream("POST", url, json=REQUEST) as response:
            return sum([len(piece) async for piece in response.aiter_raw()])

    limits = httpx.Limits(max_connections=None)
    async with httpx.AsyncClient(timeout=600, limits=limits) as client:
        started = time.perf_counter()
        sizes = await asyncio.gather(*(one(client) for _ in range(streams)))
        return sum(sizes) / (time.perf_counter() - started)


def _peak_rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started (the proxy's checking process)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def _p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) >= 2 else values[0]


def _cpu(pid: int) -> float:
    """CPU seconds (user and system) process ``pid`` used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bench_proxy(
    add: Callable[[str, float, str, bool, str], None],
    chunks: int,
    streams: int,
    rss_streams: int,
    rounds: int = 3,
) -> None:
    """Add the proxy's figures with ``add(figure, value, target, met, detail)``.

    The latency streams, direct and through the proxy, run at the same time (one load for both);
    the throughput runs alternate, direct then proxied, ``rounds`` times, and the medians are compared.
    """
    load = os.getloadavg()[0]
    with servers() as (direct, proxied, pid):
        asyncio.run(_delays(proxied, 10, 0))  # warm up: the proxy loads the families it detects with

        async def both() -> tuple[list[float], list[float]]:
            straight, through = await asyncio.gather(
                _delays(direct, chunks, 0.001), _delays(proxied, chunks, 0.001)
            )
            return straight, through

        straight, through = asyncio.run(both())
        median = (statistics.median(through) - statistics.median(straight)) * 1000
        p99 = (_p99(through) - _p99(straight)) * 1000
        add(f"proxy added latency / chunk, median, {chunks:,}", median, "< 1 ms", median < 1, "ms")
        add(f"proxy added latency / chunk, p99, {chunks:,}", p99, "< 5 ms", p99 < 5, "ms")
        fast: list[float] = []
        slow: list[float] = []
        cpu = checking = 0.0
        for _ in range(rounds):
            fast.append(asyncio.run(_throughput(direct, streams, chunks)))
            before, checked = _cpu(pid), sum(_cpu(child) for child in _children(pid))
            slow.append(asyncio.run(_throughput(proxied, streams, chunks)))
            cpu += _cpu(pid) - before
            checking += sum(_cpu(child) for child in _children(pid)) - checked
        ratio = statistics.median(slow) / statistics.median(fast)
        add(
            f"proxy throughput / direct, {streams} streams", ratio, ">= 0.8", ratio >= 0.8,
            f"{statistics.median(slow) / 1e6:.1f} / {statistics.median(fast) / 1e6:.1f} MB/s, "
            f"proxy CPU {cpu / rounds:.1f} s/run, its checking process {checking / rounds:.1f}",
        )  # fmt: skip
        asyncio.run(_throughput(proxied, rss_streams, chunks))
        peak = _peak_rss(pid) / (1 << 20)
        checks = sum(_peak_rss(child) for child in _children(pid)) / (1 << 20)
        add(
            f"proxy peak RSS, {rss_streams} streams (MiB)", peak + checks, "reported", True,
            f"forwarding {peak:.0f} + checking process {checks:.0f} MiB",
        )  # fmt: skip
    after = os.getloadavg()[0]
    detail = f"/ {after:.2f} on {os.cpu_count()} CPUs"
    add("proxy run's load average (1 min), before / after", load, "reported", True, detail)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=1000)
    parser.add_argument("--streams", type=int, default=100)
    parser.add_argument("--rss-streams", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    def add(figure: str, value: float, target: str, met: bool, detail: str) -> None:
        print(f"{figure:<44} {value:10.2f} {detail:<30} {target:<10} {'met' if met else 'MISSED'}")

    bench_proxy(add, args.chunks, args.streams, args.rss_streams, args.rounds)


if __name__ == "__main__":
    main()
