"""``toolwire proxy``: forward every exchange unchanged to an upstream, and check it on the way.

A Starlette app, served by uvicorn, with httpx (HTTP/1.1, keep-alive, TLS verified, on aiohttp's
connections: :mod:`._upstream`) to the upstream. Each request is read whole and forwarded as it
came: method, path, query, headers (less the hop-by-hop ones and ``Host``), body. Each response
is streamed back as it arrives, chunk by chunk, the bytes exactly as the upstream sent them (a
gzip body stays gzip); chunks that arrived together leave in one write. Only after a chunk went
to the client is it handed to the exchange's checker (:mod:`._live`), which runs in a thread of
its own, or (``isolate``, as the CLI runs it) in a process of its own (:mod:`._isolated`), so
that checking takes neither the forwarder's GIL nor its CPU: a slow or failing check never
delays or breaks the stream.

The engine reports as the other engines do, with events to the handlers given: each finding or
unjudged part as a :class:`~toolwire.engines.LiveFinding` the moment it is made (from checker
threads), each exchange once checked as an :class:`~toolwire.engines.ExchangeChecked` (in exchange
order, with its record when one is kept); it keeps :class:`~._totals.ProxyTotals`.  The CLI's
handlers print and write them (``toolwire.cli.handlers``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import os
import signal
import ssl
import threading
import time
import zlib
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any, Final
from urllib.parse import urlsplit

from toolwire._extras import extra
from toolwire.engines._core._events import EngineEvent, ExchangeChecked, Handler, LiveFinding
from toolwire.engines.proxy import _pipe
from toolwire.engines.proxy._checker import Checked, ExchangeChecker, LiveConversations
from toolwire.engines.proxy._isolation import Isolated, RemoteChecker
from toolwire.engines.proxy._record import Recording, record_of
from toolwire.engines.proxy._repairing import Repaired, RequestRepair, hold, told, unheld, with_length
from toolwire.engines.proxy._totals import ProxyTotals
from toolwire.errors import UsageError
from toolwire.protocols import get_protocol

with extra("proxy"):
    import anyio
    import httpx
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import ClientDisconnect, Request
    from starlette.responses import Response
    from starlette.routing import Route
    from starlette.types import Receive, Scope, Send

__all__ = ["Proxy", "is_loopback", "parse_listen", "serve"]

#: Headers that belong to one connection, not to the message (RFC 9110 7.6.1), and ``Host``, which
#: names the proxy; ``Content-Length`` httpx sets from the body it sends.
HOP_BY_HOP: Final = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "proxy-connection",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
    }
)
_METHODS: Final = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


class Proxy:
    """The forwarding app and the checks behind it; ``app`` is the ASGI application.

    ``protocols`` (``-p``) choose among the protocols a part could be; ``handlers`` get each
    event: every finding and problem as it is made, every exchange once checked, in exchange order
    (one waits for those before it), with its record (redacted) when ``record``; ``done`` gets each
    exchange with its checker (not when ``isolate``d).  ``isolate``: check in a process of its own.
    ``strict`` (``--strict``): a warning fails the run (:attr:`tally`'s exit code) as an error does.
    ``repair`` (``--repair``): each request's history is repaired on its way upstream
    (:class:`~._repairing.RequestRepair`; True: its defaults); each change is told as an event, and
    a record keeps the request as the client sent it and as it was forwarded.
    """

    def __init__(
        self,
        upstream: str,
        *,
        protocols: tuple[str, ...] = (),
        handlers: Sequence[Handler] = (),
        done: Callable[[Checked, ExchangeChecker], None] | None = None,
        record: bool = False,
        verify: bool = True,
        isolate: bool = False,
        strict: bool = False,
        repair: bool | RequestRepair = False,
    ) -> None:
        parts = urlsplit(upstream)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise UsageError(
                f"--upstream {upstream!r} is not an http:// or https:// URL (say https://api.openai.com)"
            )
        for name in protocols:
            get_protocol(name)
        self.upstream = upstream.rstrip("/")
        self.protocols = protocols
        if repair is True:
            repair = RequestRepair(protocols=protocols)
        self._repair = repair or None
        #: Per exchange repaired (when a record is kept): the body forwarded and the changes made.
        self._forwarded: dict[int, Repaired] = {}
        self.tally = ProxyTotals(strict=strict, repair=self._repair is not None)
        self.ledger = LiveConversations()
        self._handlers = tuple(handlers)
        self._done = done
        self._record = record
        self._isolate = isolate
        self._isolated: Isolated | None = None
        self._verify = verify
        self._count = 0
        self._count_lock = threading.Lock()
        self._checkers: dict[int, ExchangeChecker | RemoteChecker] = {}
        self._order = threading.RLock()
        self._finished: dict[int, tuple[Checked, ExchangeChecker | Recording | None]] = {}
        self._next = 1
        self._client: httpx.AsyncClient | None = None
        self.app = Starlette(
            routes=[Route("/{path:path}", self._forward, methods=_METHODS)],
            lifespan=self._lifespan,
        )

    def _lifespan(self, app: Starlette) -> Any:
        proxy = self

        class _Span:
            async def __aenter__(self) -> None:
                proxy.client()
                if proxy._isolate and proxy._isolated is None:
                    proxy._isolated = Isolated(
                        proxy.protocols, proxy._told, proxy._checked, record=proxy._record
                    )

            async def __aexit__(self, *exc: object) -> None:
                await proxy.aclose()

        return _Span()

    def client(self) -> httpx.AsyncClient:
        """The upstream client, made on first use (inside the server's event loop)."""
        if self._client is None:
            from toolwire.engines.proxy._upstream import AiohttpTransport

            self._client = httpx.AsyncClient(
                # HTTP/1.1, kept alive, TLS verified, on aiohttp's connections (see ._upstream).
                transport=AiohttpTransport(_tls(self._verify)),
                follow_redirects=False,
                trust_env=False,
                # A stream may pause long between events; connecting may not.
                timeout=httpx.Timeout(connect=30.0, read=600.0, write=600.0, pool=None),
            )
            # Forward the client's headers only: none of httpx's defaults (User-Agent, Accept...).
            self._client.headers = httpx.Headers()
        return self._client

    async def aclose(self) -> None:
        """Close the upstream connections."""
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    def drain(self, timeout: float = 30.0) -> None:
        """Wait (up to ``timeout`` seconds in all) for every exchange's check to end."""
        deadline = time.monotonic() + timeout
        if self._isolated is not None:
            self._isolated.close(timeout)
        for checker in list(self._checkers.values()):
            if isinstance(checker, ExchangeChecker):
                checker.join(max(0.0, deadline - time.monotonic()))
        with self._order:  # those whose check has not ended are not waited for longer
            for number in sorted(self._finished):
                self._deliver(*self._finished.pop(number))

    def _emit(self, event: EngineEvent) -> None:
        for handler in self._handlers:
            handler(event)

    def _told(self, told: LiveFinding) -> None:
        self.tally.add(told)
        self._emit(told)

    def _checked(self, checked: Checked, checker: ExchangeChecker | Recording | None) -> None:
        # ``done`` hears of the exchanges in their order (a record numbers them as the report does),
        # each as soon as it and those before it are checked.
        with self._order:
            self._finished[checked.exchange] = (checked, checker)
            while self._next in self._finished:
                self._deliver(*self._finished.pop(self._next))
                self._next += 1

    def _deliver(self, checked: Checked, checker: ExchangeChecker | Recording | None) -> None:
        """``checker``: the exchange's checker, or (checked in a process of their own) its record."""
        self._checkers.pop(checked.exchange, None)
        recording = checker
        if isinstance(checker, ExchangeChecker):
            if self._done is not None:
                self._done(checked, checker)
            recording = record_of(checker) if self._record else None
        kept = recording if self._record and isinstance(recording, Recording) else None
        repaired = self._forwarded.pop(checked.exchange, None)
        if kept is not None and repaired is not None and repaired.body is not None:
            kept.repaired(repaired.body, repaired.changes)
        self._emit(ExchangeChecked(engine="proxy", exchange=checked.exchange, recording=kept))

    async def _forward(self, request: Request) -> Response:
        scope = request.scope
        raw_path = scope.get("raw_path") or scope["path"].encode()
        query = scope.get("query_string", b"")
        url = self.upstream + raw_path.decode("latin-1") + (f"?{query.decode('latin-1')}" if query else "")
        headers = _forwarded(scope["headers"])
        content_type = next((v.decode("latin-1") for k, v in headers if k.lower() == b"content-type"), "")
        kept = _Kept()
        checker: ExchangeChecker | RemoteChecker | None = None

        def opened() -> ExchangeChecker | RemoteChecker:
            """The request was read whole: its check starts (the exchange is numbered now)."""
            nonlocal checker
            with self._count_lock:
                self._count += 1
                number = self._count
            with self.tally.lock:
                self.tally.exchanges += 1
            body, why = kept.body(headers)
            forwarded = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in headers]
            if self._isolated is not None:
                checker = RemoteChecker(
                    self._isolated, number, (request.method, url, body, content_type, why), forwarded
                )
                self._checkers[number] = checker
                return checker
            checker = ExchangeChecker(
                number,
                request.method,
                url,
                body,
                content_type,
                self.protocols or None,
                self.ledger,
                self._told,
                lambda checked: self._checked(checked, made),
                unread=why,
            )
            made = checker
            checker.request_headers = forwarded
            self._checkers[number] = checker
            return checker

        async def streamed() -> AsyncIterator[bytes]:
            # The body goes upstream as it arrives; the checker's copy is kept up to a bound.
            kept.started = True
            async for chunk in request.stream():
                kept.add(chunk)
                if chunk:
                    yield chunk
            opened()

        # A body framed by the client goes on framed so (its Content-Length, or chunked); none, none.
        framed = any(k.lower() in (b"content-length", b"transfer-encoding") for k, _ in scope["headers"])
        sent = headers if framed else [(k, v) for k, v in headers if k.lower() != b"content-length"]
        content: AsyncIterator[bytes] | bytes = b""
        if framed and self._repair is None:
            content = streamed()
        elif framed:
            # Read whole (within the bound) before it goes: the repair needs the whole history.
            kept.started = True
            chunks = request.stream()
            try:
                held, whole = await hold(chunks, kept.add, _pipe.MAX_BODY)
            except ClientDisconnect:
                return Response(status_code=499)
            if whole:
                content, sent = await self._repaired(request.method, url, headers, held, opened())
            else:

                def over() -> None:
                    why = f"it is over {_size(_pipe.MAX_BODY)}"
                    self._told(told(opened().number, request.method, url, "", why=why))

                content = unheld(held, chunks, kept.add, over)
        client = self.client()
        upstream_request = client.build_request(request.method, url, headers=sent, content=content)
        if not framed:
            opened()
        try:
            upstream = await client.send(upstream_request, stream=True)
        except ClientDisconnect:
            return Response(status_code=499)
        except httpx.HTTPError as exc:
            if checker is None:
                if not kept.started:
                    with contextlib.suppress(ClientDisconnect):
                        async for chunk in request.stream():
                            kept.add(chunk)
                else:
                    kept.cut("the upstream failed before the request was sent whole")
                checker = opened()
            checker.failed(f"the upstream could not be reached: {type(exc).__name__}: {exc}")
            return Response(
                f"toolwire proxy: the upstream {self.upstream} could not be reached: {exc}\n",
                status_code=502,
                media_type="text/plain",
            )
        return _Streamed(upstream, checker or opened())

    async def _repaired(
        self,
        method: str,
        url: str,
        headers: list[tuple[bytes, bytes]],
        held: list[bytes],
        checker: ExchangeChecker | RemoteChecker,
    ) -> tuple[AsyncIterator[bytes] | bytes, list[tuple[bytes, bytes]]]:
        """The body to forward and its headers: repaired, or (unchanged) the chunks as they came."""
        assert self._repair is not None
        named = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in headers]
        done = await anyio.to_thread.run_sync(self._repair, url, b"".join(held), named)
        for change in done.changes:
            self._told(told(checker.number, method, url, done.protocol, change=change))
        if done.problem is not None:
            self._told(told(checker.number, method, url, done.protocol, why=done.problem))
        if done.body is None:
            return unheld(held), headers
        with self.tally.lock:
            self.tally.repaired += 1
        if self._record:
            self._forwarded[checker.number] = done
        return done.body, with_length(headers, done.body)


class _Kept:
    """The checker's copy of a request body: up to :data:`._pipe.MAX_BODY` bytes, or why it is not."""

    def __init__(self) -> None:
        self.parts = bytearray()
        self.why: str | None = None
        self.started = False

    def add(self, chunk: bytes) -> None:
        if self.why is None:
            if len(self.parts) + len(chunk) > _pipe.MAX_BODY:
                self.cut(f"the request is over {_size(_pipe.MAX_BODY)}: forwarded whole, not checked")
            else:
                self.parts += chunk

    def cut(self, why: str) -> None:
        self.why = why
        self.parts = bytearray()

    def body(self, headers: list[tuple[bytes, bytes]]) -> tuple[bytes, str | None]:
        """The body to check (a gzip or deflate body decoded, within the bound), and why there is none."""
        if self.why is not None:
            return b"", self.why
        body = bytes(self.parts)
        self.parts = bytearray()
        encoding = next(
            (v.decode("latin-1").strip().lower() for k, v in headers if k.lower() == b"content-encoding"),
            "",
        )
        if encoding not in ("gzip", "deflate") or not body:
            return body, None
        try:
            decoded = zlib.decompressobj(zlib.MAX_WBITS | 32).decompress(body, _pipe.MAX_BODY + 1)
        except zlib.error:
            return body, None
        if len(decoded) > _pipe.MAX_BODY:
            return b"", f"the request decompresses to over {_size(_pipe.MAX_BODY)}: forwarded, not checked"
        return decoded, None


def _size(count: int) -> str:
    return f"{count >> 20} MiB" if count >= 1 << 20 else f"{count} bytes"


def _tls(verify: bool) -> ssl.SSLContext | bool:
    """TLS to an https upstream, verified against certifi's authorities, or those of the file
    ``SSL_CERT_FILE`` names (a gateway behind a private authority); the environment's proxies are
    not used (``trust_env`` is off: a proxy in front of toolwire's upstream is no part of the wire)."""
    cafile = os.environ.get("SSL_CERT_FILE")
    if not verify or not cafile:
        return verify
    return ssl.create_default_context(cafile=cafile)


def _forwarded(raw: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """The request's headers less the hop-by-hop ones, those ``Connection`` names, and ``Host``."""
    named = {
        token.strip().lower()
        for name, value in raw
        if name.lower() == b"connection"
        for token in value.decode("latin-1").split(",")
    }
    return [
        (name, value)
        for name, value in raw
        if (low := name.decode("latin-1").lower()) not in HOP_BY_HOP and low not in named and low != "host"
    ]


class _Streamed(Response):
    """The upstream's response, passed on chunk by chunk; each chunk goes to the checker after the client."""

    def __init__(self, upstream: httpx.Response, checker: ExchangeChecker | RemoteChecker) -> None:
        self.upstream = upstream
        self.checker = checker
        self.status_code = upstream.status_code
        self.background = None
        self.raw_headers = [
            (name, value)
            for name, value in upstream.headers.raw
            if name.decode("latin-1").lower() not in HOP_BY_HOP
        ]
        checker.response_headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in self.raw_headers]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = self.upstream.headers
        pipe = self.checker.responded(
            self.upstream.status_code, headers.get("content-type", ""), headers.get("content-encoding", "")
        )
        cut: str | None = None
        complete = False
        # The chunks read from the upstream and not yet sent: a reader fills it, the sender empties it
        # whole, so chunks that arrived together leave in one write (and one hand-over to the
        # checker), while a chunk that arrived alone leaves alone, at once.
        batch: list[bytes] = []
        queued = 0
        wake = asyncio.Event()
        room = asyncio.Event()
        broke: httpx.HTTPError | None = None
        ended = False
        try:
            async with anyio.create_task_group() as group:

                async def watch() -> None:
                    nonlocal cut
                    while (await receive())["type"] != "http.disconnect":
                        pass
                    # uvicorn says "disconnect" once a response is complete, too.
                    if not complete:
                        cut = _LEFT
                        group.cancel_scope.cancel()

                async def pull() -> None:
                    nonlocal queued, broke, ended
                    try:
                        async for chunk in self.upstream.aiter_raw():
                            batch.append(chunk)
                            queued += len(chunk)
                            wake.set()
                            if queued >= _BATCH_BYTES:
                                room.clear()
                                await room.wait()
                    except httpx.HTTPError as exc:
                        broke = exc
                    finally:
                        ended = True
                        wake.set()

                group.start_soon(watch)
                await send(
                    {"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers}
                )
                group.start_soon(pull)
                while batch or not ended:
                    if not batch:
                        await wake.wait()
                        wake.clear()
                        continue
                    data = batch[0] if len(batch) == 1 else b"".join(batch)
                    batch.clear()
                    queued = 0
                    room.set()
                    await send({"type": "http.response.body", "body": data, "more_body": True})
                    pipe.write(data)
                if broke is not None:
                    cut = f"the upstream broke the stream: {type(broke).__name__}: {broke}"
                    raise broke
                complete = True
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                group.cancel_scope.cancel()
        except OSError:
            cut = cut or _LEFT
        finally:
            with anyio.CancelScope(shield=True):
                await self.upstream.aclose()
            if cut is not None:
                self.checker.failed(cut, client=cut is _LEFT)
            pipe.close()


#: The most bytes read from the upstream ahead of the client (the reader waits beyond).
_BATCH_BYTES: Final = 1 << 20
_LEFT: Final = "the client disconnected mid-stream; the response was not seen to its end"


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) as a host and a port; a :class:`UsageError` says why not.

    >>> parse_listen("127.0.0.1:8787")
    ('127.0.0.1', 8787)
    """
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or int(port) > 65535:
        raise UsageError(f"--listen {text!r} is not HOST:PORT (say 127.0.0.1:8787)")
    host = host.strip("[]") or "127.0.0.1"
    return host, int(port)


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address (or ``localhost``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _server_class(base: Any) -> Any:
    """uvicorn's server, stopping on SIGINT or SIGTERM without raising the signal again after its
    shutdown (it does, for a process that has nothing more to do): the summary comes next."""

    class Server(base):  # type: ignore[misc]
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            if threading.current_thread() is not threading.main_thread():
                yield
                return
            handled = (signal.SIGINT, signal.SIGTERM)
            original = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
            try:
                yield
            finally:
                for sig, handler in original.items():
                    signal.signal(sig, handler)

    return Server


async def serve(
    proxy: Proxy,
    host: str,
    port: int,
    *,
    started: Callable[[str], None] | None = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Serve ``proxy`` on ``host:port`` until SIGINT or SIGTERM (or ``stop``), then wait for its checks.

    ``started`` receives the address it listens on (``http://HOST:PORT``, the port bound when 0 was asked).
    """
    config = uvicorn.Config(
        proxy.app,
        host=host,
        port=port,
        log_level="critical",
        access_log=False,
        lifespan="on",
        server_header=False,
        date_header=False,
        timeout_graceful_shutdown=5,
        http="h11",
        loop="asyncio",
    )
    server = _server_class(uvicorn.Server)(config)
    task = asyncio.create_task(server.serve())
    while not server.started and not task.done():
        await asyncio.sleep(0.01)
    if task.done():
        with contextlib.suppress(SystemExit):  # uvicorn exits when it cannot bind
            task.result()
        raise UsageError(f"cannot listen on {host}:{port}: the address is in use or not this machine's")
    if started is not None:
        bound = server.servers[0].sockets[0].getsockname()
        shown = f"[{bound[0]}]" if ":" in bound[0] else bound[0]
        started(f"http://{shown}:{bound[1]}")
    if stop is not None:
        waiter = asyncio.create_task(stop.wait())
        await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        server.should_exit = True
        waiter.cancel()
    await task
    await asyncio.get_running_loop().run_in_executor(None, proxy.drain)
