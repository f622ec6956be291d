"""A fake upstream for the proxy's tests, and servers run in threads on free loopback ports.

The upstream streams a trace of ``tests/data`` slowly, as the request's headers ask:

- ``x-fake-trace``: the file (relative to ``tests/data``) whose bytes are the response body;
- ``x-fake-type``: its Content-Type (``text/event-stream`` by default);
- ``x-fake-mode``: ``stream`` (by default: line by line, or frame by frame), ``gzip`` (the body
  gzip-compressed, in pieces), ``error`` (a 429 with a provider's error body), ``reset`` (the
  connection cut after a few chunks), ``echo`` (a JSON body: the request's headers and the
  SHA-256 and length of its body);
- ``x-fake-delay``: seconds between chunks.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import socket
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

if TYPE_CHECKING:
    from toolwire.cli.handlers._record import Recorder
    from toolwire.engines import EngineEvent, LiveFinding
    from toolwire.engines.proxy._server import Proxy

DATA = Path(__file__).parent.parent / "data"


def chunks_of(raw: bytes) -> list[bytes]:
    """The pieces a provider would send: SSE events one by one, event-stream frames one by one."""
    from toolwire.models import is_eventstream

    if is_eventstream(raw):
        out, at = [], 0
        while at < len(raw):
            total = int.from_bytes(raw[at : at + 4], "big")
            out.append(raw[at : at + total])
            at += total
        return out
    pieces = raw.split(b"\n\n")
    return [piece + b"\n\n" for piece in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])


async def _upstream(request: Request) -> Response:
    body = await request.body()
    mode = request.headers.get("x-fake-mode", "stream")
    delay = float(request.headers.get("x-fake-delay", "0"))
    kind = request.headers.get("x-fake-type", "text/event-stream")
    if mode == "echo":
        return JSONResponse(
            {
                "method": request.method,
                "path": request.url.path,
                "raw_path": request.scope["raw_path"].decode("latin-1"),
                "peer": list(request.client) if request.client else None,
                "query": request.url.query,
                "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in request.headers.raw],
                "sha256": hashlib.sha256(body).hexdigest(),
                "length": len(body),
            }
        )
    if mode == "error":
        error = {"error": {"message": "Rate limit reached", "type": "rate_limit_error"}}
        return Response(orjson.dumps(error), status_code=429, media_type="application/json")
    raw = (DATA / request.headers["x-fake-trace"]).read_bytes()
    pieces = chunks_of(raw)
    headers: dict[str, str] = {}
    if mode == "gzip":
        packed = gzip.compress(raw)
        pieces = [packed[i : i + 97] for i in range(0, len(packed), 97)]
        headers["content-encoding"] = "gzip"

    async def stream() -> AsyncIterator[bytes]:
        for number, piece in enumerate(pieces):
            if mode == "reset" and number == 3:
                raise ConnectionResetError("the fake upstream resets the stream")
            yield piece
            if delay:
                await asyncio.sleep(delay)

    return StreamingResponse(stream(), media_type=kind, headers=headers)


def upstream_app() -> Starlette:
    """The fake provider."""
    methods = ["GET", "POST", "PUT", "DELETE", "PATCH"]
    return Starlette(routes=[Route("/{path:path}", _upstream, methods=methods)])


def free_port() -> int:
    """A port free on loopback now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def serving(app: Any, tls: tuple[str, str] | None = None) -> Iterator[str]:
    """Serve ``app`` with uvicorn in a thread on a free loopback port; yields its base URL.

    ``tls``: a certificate file and its key file, to serve https.
    """
    certificate, key = tls or (None, None)
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=0,
        log_level="critical",
        lifespan="on",
        ssl_certfile=certificate,
        ssl_keyfile=key,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the server did not start")
        threading.Event().wait(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"{'https' if tls else 'http'}://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        assert not thread.is_alive(), "the server did not stop"


def self_signed(folder: Path) -> tuple[str, str]:
    """A certificate for 127.0.0.1 signed by itself, and its key: files in ``folder``."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "toolwire test upstream")])
    now = datetime.datetime.now(datetime.UTC)
    loopback = x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))])
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(loopback, False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "upstream.pem", folder / "upstream.key"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return str(cert_file), str(key_file)


#: Traces of ``tests/data`` and a request that the proxy's tests send.
RS7C = "openai-responses-stream/rs7c-two-items-one-call-id.sse"
#: Breaks RS-7b alone, a warning (an event after response.completed).
RS7B = "openai-responses-stream/rs7b-event-after-completed.sse"
GOOD_RESPONSES = "openai-responses-stream/good-parallel-same-tool.sse"
CHAT_STREAM = "openai-chat-stream/seed002-provider-stream.sse"
RESPONSES_REQUEST = {"model": "gpt-4o", "input": [{"role": "user", "content": "weather?"}], "stream": True}


def telling(tell: Callable[[LiveFinding], None]) -> Callable[[EngineEvent], None]:
    """A handler of the proxy's events that hands ``tell`` what it tells (not its checked exchanges)."""
    from toolwire.engines import LiveFinding

    def handler(event: EngineEvent) -> None:
        if isinstance(event, LiveFinding):
            tell(event)

    return handler


def recording_to(recorder: Recorder) -> Callable[[EngineEvent], None]:
    """A handler of the proxy's events that adds each checked exchange's record to ``recorder``."""
    from toolwire.engines import ExchangeChecked

    def handler(event: EngineEvent) -> None:
        if isinstance(event, ExchangeChecked) and event.recording is not None:
            recorder.add(event.recording)

    return handler


@contextmanager
def proxied(
    *handlers: Callable[[EngineEvent], None], **options: Any
) -> Iterator[tuple[Proxy, str, list[LiveFinding]]]:
    """A fake upstream and the proxy in front of it; yields the proxy, its URL and what it told.

    ``options`` go to :class:`Proxy`: ``isolate=True`` checks in a process of its own, as the CLI does.
    """
    from toolwire.engines.proxy._server import Proxy

    told: list[LiveFinding] = []
    with serving(upstream_app()) as upstream:
        proxy = Proxy(upstream, handlers=[telling(told.append), *handlers], **options)
        with serving(proxy.app) as url:
            yield proxy, url, told
            proxy.drain(30)


def fake(
    trace: str, mode: str = "stream", delay: float = 0.0, kind: str = "text/event-stream"
) -> dict[str, str]:
    return {"x-fake-trace": trace, "x-fake-mode": mode, "x-fake-delay": str(delay), "x-fake-type": kind}


def findings(told: list[LiveFinding]) -> list[tuple[str, str]]:
    return [(t.side, t.finding.rule) for t in told if t.finding is not None]
