"""Gateway-fuzz benchmark: examples per second through a pass-through gateway, against in-process.

(a) Examples per second of ``fuzz`` through the test gateway (``tests/helpers/gateway_app.py``, the
    fixed twin, a Chat pass-through served by uvicorn in a thread), both turns, against the same
    conversion as an in-process Python target (the identity), in one run (target >= 0.5x).
(b) The mock provider's time per example: one turn-1 request straight to it, no gateway between.
(c) ``workers=2`` against one worker through the same gateway, examples per second (the workers'
    start-up included; the parent serves the router on ``--upstream``, the workers a mock each).
    Reported, not a target: the gain needs cores to spare (the gateway and the router share the
    parent's, and these machines have 2).

    python benchmarks/bench_gateway.py [--examples 200]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

PROTOCOL = "openai-chat-stream"


def _identity(trace: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return trace


def bench_gateway(add: Callable[..., None], examples: int) -> None:
    """Add the gateway figures to a benchmark table (``add(figure, value, target, met, detail)``)."""
    import httpx

    from helpers.gateway_app import gateway_app
    from helpers.proxy_support import free_port, serving
    from toolwire.engines.fuzzing._campaign import fuzz
    from toolwire.engines.gateway._mock_provider import MockProvider
    from toolwire.engines.gateway._target import GatewayTarget
    from toolwire.protocols._http import face

    started = time.perf_counter()
    fuzz(_identity, PROTOCOL, PROTOCOL, max_examples=examples, out=None)
    local = examples / (time.perf_counter() - started)

    upstream = free_port()
    with serving(gateway_app(f"http://127.0.0.1:{upstream}", "chat")) as url:
        target = GatewayTarget(
            url + "/v1/chat/completions", PROTOCOL, PROTOCOL, upstream=f"127.0.0.1:{upstream}"
        )
        try:
            started = time.perf_counter()
            fuzz(target, PROTOCOL, PROTOCOL, max_examples=examples, out=None)
            through = examples / (time.perf_counter() - started)
            started = time.perf_counter()
            fuzz(target, PROTOCOL, PROTOCOL, max_examples=examples, out=None, workers=2)
            two = examples / (time.perf_counter() - started)
        finally:
            target.close()
    ratio = through / local
    add(
        "gateway fuzz examples/s vs in-process",
        ratio,
        ">= 0.5",
        ratio >= 0.5,
        f"{through:.1f}/s through the gateway (2 turns), {local:.1f}/s in-process",
    )

    add(
        "gateway fuzz --workers 2 vs 1",
        two / through,
        "report",
        True,
        f"{two:.1f}/s on two workers (start-up included), {through:.1f}/s on one",
    )

    mock = MockProvider(PROTOCOL)
    reply = face(PROTOCOL).reply("m", True)
    conversation = mock.open(reply)
    with serving(mock.app) as url, httpx.Client() as client:
        body = {"stream": True, "messages": [{"role": "user", "content": conversation.marker}]}
        client.post(url + "/v1/chat/completions", json=body)
        rounds = 200
        started = time.perf_counter()
        for _ in range(rounds):
            client.post(url + "/v1/chat/completions", json=body)
        each = (time.perf_counter() - started) / rounds
    add("mock provider time per request", each * 1000, "report", True, f"{each * 1000:.2f} ms per request")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=200)
    args = parser.parse_args()

    def add(figure: str, value: float, target: str, met: bool, detail: str = "") -> None:
        print(f"{figure:<44} {value:<10.3g} {target:<10} {'met' if met else 'MISSED'}  {detail}")

    bench_gateway(add, args.examples)


if __name__ == "__main__":
    main()
