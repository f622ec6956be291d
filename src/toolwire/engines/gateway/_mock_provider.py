"""The mock provider a gateway under test sends its upstream traffic to.

A Starlette app served by uvicorn in a thread, bound to loopback.  Each open
:class:`Conversation` (one example) has a marker, a nonce the client puts in its
user message; the gateway forwards the message, and the mock routes the request
back to its example by it (with one conversation open, a request without the
marker is that one's).  Turn 1 is answered with the example's generated traffic
(``--from``), framed as the request asks (a stream or a whole body); later turns
with a short text answer.  Every upstream request and what the mock answered are
recorded on the conversation.

With ``fuzz --workers N`` each worker process runs a mock of its own on a free
loopback port, and the parent's :class:`Router` listens on ``--upstream``: a
marker's first four hex digits name its worker, and the request is forwarded to
that worker's mock, its answer streamed back as it comes.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import re
import secrets
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Final

import orjson

from toolwire._extras import extra
from toolwire.engines._core._redact import redact_headers, redact_text
from toolwire.errors import UsageError
from toolwire.models._eventstream import CONTENT_TYPE as EVENTSTREAM
from toolwire.protocols import get_protocol
from toolwire.protocols._http import face

with extra("gateway"):
    import httpx
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response, StreamingResponse
    from starlette.routing import Route

__all__ = ["MARKER", "Conversation", "MockProvider", "Router", "ThreadServer", "body_record", "worker_prefix"]

Wire = list[dict[str, Any]]
#: The marker the client writes in its user message; the gateway forwards it upstream.
MARKER: Final = re.compile(r"toolwire-marker-([0-9a-f]{16})")


@dataclass(slots=True)
class Conversation:
    """One example's exchange with the mock: its traffic, its turn, and what the gateway sent."""

    nonce: str
    trace: Wire
    #: 1 until the client sends its tool results; then the mock answers with text.
    turn: int = 1
    #: Every upstream request and the mock's answer (``body_record`` forms), in order.
    upstream: list[dict[str, Any]] = field(default_factory=list)

    @property
    def marker(self) -> str:
        """The text the client puts in its user message."""
        return f"toolwire-marker-{self.nonce}"

    def requests(self, turn: int) -> list[dict[str, Any]]:
        """The upstream requests the gateway sent in ``turn``."""
        return [leg for leg in self.upstream if leg["turn"] == turn]


def body_record(raw: bytes, media: str = "") -> dict[str, Any]:
    """A body as saved: its JSON value, its text, or (binary: AWS event-stream) base64; redacted."""
    if media.startswith(EVENTSTREAM) or b"\x00" in raw:
        return {"base64": base64.b64encode(raw).decode("ascii")}
    text = redact_text(raw.decode("utf-8", errors="replace"))
    try:
        return {"json": orjson.loads(text)}
    except orjson.JSONDecodeError:
        return {"text": text}


class MockProvider:
    """The upstream provider of ``source`` traffic; ``app`` is the ASGI application."""

    def __init__(self, source: str, model: str = "toolwire-model", prefix: str = "") -> None:
        self.source, self.model = source, model
        #: The nonces' first hex digits (a fan-out worker's number, for the :class:`Router`).
        self.prefix = prefix
        self.face = face(source)
        self.document = get_protocol(source).document
        self.conversations: dict[str, Conversation] = {}
        #: Requests no open conversation claimed (their marker unknown or missing).
        self.stray: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]
        self.app = Starlette(routes=[Route("/{path:path}", self._answer, methods=methods)])

    def open(self, trace: Wire) -> Conversation:
        """A new conversation answering turn 1 with ``trace``."""
        nonce = self.prefix + secrets.token_hex(8)[len(self.prefix) :]
        conversation = Conversation(nonce, trace)
        with self._lock:
            self.conversations[conversation.nonce] = conversation
        return conversation

    def close(self, conversation: Conversation) -> None:
        """Stop routing requests to ``conversation``."""
        with self._lock:
            self.conversations.pop(conversation.nonce, None)

    def _route(self, raw: bytes) -> Conversation | None:
        found = MARKER.search(raw.decode("utf-8", errors="replace"))
        with self._lock:
            if found is not None:
                return self.conversations.get(found[1])
            if len(self.conversations) == 1:
                return next(iter(self.conversations.values()))
        return None

    async def _answer(self, request: Request) -> Response:
        raw = await request.body()
        path, query = request.url.path, request.url.query
        leg: dict[str, Any] = {
            "method": request.method,
            "path": path,
            "query": redact_text(query),
            "headers": redact_headers(request.headers.items()),
            "body": body_record(raw),
        }
        conversation = self._route(raw)
        if conversation is None:
            with self._lock:
                self.stray.append(leg)
            return self._refuse(
                leg, 400, "the request carries no marker of an open example (toolwire-marker-...)"
            )
        leg["turn"] = conversation.turn
        conversation.upstream.append(leg)
        if not self.face.matches(path):
            return self._refuse(
                leg,
                404,
                f"toolwire's mock provider plays {self.source} (paths {' or '.join(self.face.paths)}), "
                f"not {path}: point the gateway's {self.source} upstream at it",
            )
        try:
            body = orjson.loads(raw) if raw else {}
        except orjson.JSONDecodeError:
            return self._refuse(leg, 400, "the request body is not JSON")
        if not isinstance(body, dict):
            return self._refuse(leg, 400, "the request body is not a JSON object")
        streamed = self.face.wants_stream(path, query, body)
        if conversation.turn == 1:
            if streamed == self.document:
                asked, given = (
                    ("a stream", "a whole response body") if streamed else ("a whole body", "a stream")
                )
                return self._refuse(
                    leg,
                    400,
                    f"the gateway asked for {asked}, but --from {self.source} is {given}: "
                    f"fuzz with --from {self.face.stream if streamed else self.face.document}",
                )
            trace = conversation.trace
        else:
            trace = self.face.reply(self.model, streamed)
        data, media = self.face.frame(trace, streamed, query)
        leg["response"] = {"status": 200, "media": media, "body": body_record(data, media)}
        if not streamed:
            return Response(data, media_type=media)

        async def pieces() -> AsyncIterator[bytes]:
            for piece in _pieces(data, media):
                yield piece

        return StreamingResponse(pieces(), media_type=media)

    def _refuse(self, leg: dict[str, Any], status: int, message: str) -> Response:
        response = _refusal(status, message)
        leg["response"] = {
            "status": status,
            "media": "application/json",
            "body": body_record(bytes(response.body)),
        }
        leg["refused"] = message
        return response


def _refusal(status: int, message: str) -> Response:
    """An error answer as a provider gives one, saying what toolwire's mock could not do."""
    error = {"error": {"type": "invalid_request_error", "message": f"toolwire mock provider: {message}"}}
    return Response(orjson.dumps(error), status_code=status, media_type="application/json")


#: Headers that describe one hop, not the request: the router does not forward them.
_HOP: Final = frozenset(
    {"connection", "keep-alive", "transfer-encoding", "content-length", "te", "trailer", "upgrade"}
    | {"date", "server"}
)


def worker_prefix(number: int) -> str:
    """The nonce prefix of fan-out worker ``number`` (four hex digits)."""
    return f"{number:04x}"


class Router:
    """The parent's listener on ``--upstream`` under ``fuzz --workers N``: each request goes to the
    mock of the worker its marker names (:func:`worker_prefix`); ``ports`` (shared memory the
    workers write) holds each worker's mock port, 0 until it listens."""

    def __init__(self, ports: Any) -> None:
        self.ports = ports
        self._clients: dict[asyncio.AbstractEventLoop, httpx.AsyncClient] = {}
        methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]
        self.app = Starlette(routes=[Route("/{path:path}", self._forward, methods=methods)])

    def _client(self) -> httpx.AsyncClient:
        """The client to the workers' mocks, one per event loop (the server's), made on first use:
        loopback, plain HTTP, kept alive; its connections end with the server's loop."""
        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None:
            client = self._clients[loop] = httpx.AsyncClient(
                trust_env=False, verify=False, timeout=httpx.Timeout(60.0)
            )
        return client

    def close(self) -> None:
        """Close the clients' connections, in their loops (from any other thread)."""
        clients, self._clients = self._clients, {}
        for loop, client in clients.items():
            if loop.is_running():
                with contextlib.suppress(Exception):
                    asyncio.run_coroutine_threadsafe(client.aclose(), loop).result(5)

    def _port(self, raw: bytes) -> int | None:
        found = MARKER.search(raw.decode("utf-8", errors="replace"))
        if found is None:
            return None
        number = int(found[1][:4], 16)
        port = int(self.ports[number]) if number < len(self.ports) else 0
        return port or None

    async def _forward(self, request: Request) -> Response:
        raw = await request.body()
        port = self._port(raw)
        if port is None:
            return _refusal(
                400,
                "the request carries no marker of an open example (toolwire-marker-...): with --workers, "
                "upstream requests are routed to their example by it",
            )
        url = httpx.URL(f"http://127.0.0.1:{port}{request.url.path}", query=request.url.query.encode())
        headers = [(k, v) for k, v in request.headers.raw if k.decode("latin-1").lower() not in _HOP]
        client = self._client()
        try:
            answer = await client.send(
                client.build_request(request.method, url, headers=headers, content=raw), stream=True
            )
        except httpx.HTTPError as exc:
            return _refusal(502, f"the example's worker did not answer: {type(exc).__name__}")
        kept = {k: v for k, v in answer.headers.items() if k.lower() not in _HOP}
        if "content-length" in answer.headers:  # a whole body stays one (a stream stays a stream)
            try:
                data = await answer.aread()
            finally:
                await answer.aclose()
            return Response(data, status_code=answer.status_code, headers=kept)

        async def pieces() -> AsyncIterator[bytes]:
            try:
                async for piece in answer.aiter_raw():
                    yield piece
            finally:
                await answer.aclose()

        return StreamingResponse(pieces(), status_code=answer.status_code, headers=kept)


def _pieces(data: bytes, media: str) -> list[bytes]:
    """A body as a provider sends it: one SSE event or one event-stream frame at a time."""
    if media.startswith(EVENTSTREAM):
        out, at = [], 0
        while at < len(data):
            total = int.from_bytes(data[at : at + 4], "big")
            out.append(data[at : at + total])
            at += total
        return out
    if media.startswith("text/event-stream"):
        return [piece for piece in re.split(rb"(?<=\n\n)", data) if piece]
    return [data]


class ThreadServer:
    """An ASGI app served by uvicorn in a daemon thread on ``host:port``, until :meth:`close`."""

    def __init__(self, app: Any, host: str, port: int, what: str = "--upstream") -> None:
        config = uvicorn.Config(
            app,
            host=host,
            port=port,
            log_level="critical",
            access_log=False,
            lifespan="off",
            interface="asgi3",
            server_header=False,
            date_header=False,
            http="h11",
            loop="asyncio",
            timeout_graceful_shutdown=2,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._run, name="toolwire-mock-provider", daemon=True)
        self.failed: BaseException | None = None
        self.thread.start()
        while not self.server.started:
            if not self.thread.is_alive():
                raise UsageError(
                    f"{what} {host}:{port}: cannot listen there (the port is in use or not this machine's)"
                )
            threading.Event().wait(0.005)
        bound = self.server.servers[0].sockets[0].getsockname()
        self.host, self.port = bound[0], int(bound[1])

    def _run(self) -> None:
        try:
            self.server.run()
        except BaseException as exc:  # SystemExit when uvicorn cannot bind
            self.failed = exc

    def close(self) -> None:
        """Stop serving and wait for the thread (the port is free afterwards)."""
        self.server.should_exit = True
        with contextlib.suppress(RuntimeError):
            self.thread.join(10)
