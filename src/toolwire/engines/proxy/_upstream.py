"""The proxy's way to its upstream: httpx's client, on aiohttp's connections.

httpx's own transport (httpcore on h11) turns each chunk of a chunked body into an event in
Python, about 30 µs a chunk; through the proxy that is one chunk per SSE event, and it was the
proxy's largest cost (``benchmarks/bench_proxy.py``: 3 s of CPU per 100 streams of 1,000 chunks).
aiohttp's parser (llhttp, in C) hands over all that arrived in one piece: half the CPU.  The
proxy keeps httpx's API (its requests, responses, timeouts and errors); this module is the
transport between the two, the part of httpx-aiohttp (openai's ``DefaultAioHttpClient``) that
the proxy needs, with what a proxy must keep as it came:

- the URL as the client sent it (its path and query not re-quoted);
- the client's headers and no header of aiohttp's own (``User-Agent``, ``Accept``,
  ``Accept-Encoding``, ``Content-Type``); a body framed by the client goes on framed alike (its
  ``Content-Length``, else chunked);
- the body's bytes as they came (no decompression);
- TLS verified as httpx verifies it (the context the proxy passes), no environment proxies,
  no limit on connections, keep-alive;
- aiohttp's errors as httpx's, by what happened: a server that closed the connection is a
  :class:`httpx.RemoteProtocolError`, never a timeout.
"""

from __future__ import annotations

import contextlib
import ssl
from collections.abc import AsyncIterator, Iterator
from typing import Any, Final

from toolwire._extras import extra

with extra("proxy"):
    import aiohttp
    import httpx
    from yarl import URL

__all__ = ["AiohttpTransport"]

#: Headers aiohttp adds to a request unless told not to: the client's own, or none, go upstream.
_SKIP: Final = ("User-Agent", "Accept", "Accept-Encoding", "Content-Type")
#: The longest status or header line taken from an upstream.
_HEAD_LINE: Final = 64 << 10


class AiohttpTransport(httpx.AsyncBaseTransport):
    """An httpx transport whose HTTP/1.1 connections (kept alive, pooled) are aiohttp's."""

    def __init__(self, verify: ssl.SSLContext | bool) -> None:
        # httpx's own context: certifi's authorities (or the context given), or no verification.
        self._context = httpx.create_ssl_context(verify=verify, trust_env=False)
        self._session: aiohttp.ClientSession | None = None

    def _opened(self) -> aiohttp.ClientSession:
        # Made on first use, inside the event loop that uses it.
        if self._session is None:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=0, ssl=self._context),
                skip_auto_headers=_SKIP,
                auto_decompress=False,
                trust_env=False,
                timeout=aiohttp.ClientTimeout(total=None),
                # A response head's lines as long as h11 took them (aiohttp's own bound is 8 KiB).
                max_line_size=_HEAD_LINE,
                max_field_size=_HEAD_LINE,
            )
        return self._session

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        timeout = request.extensions.get("timeout", {})
        headers = [
            (name.decode("latin-1"), value.decode("latin-1"))
            for name, value in request.headers.raw
            if name.lower() != b"transfer-encoding"  # aiohttp frames a body of no length itself
        ]
        data: Any
        try:
            data = request.content or None
        except httpx.RequestNotRead:
            data = request.stream
        with _mapped(request):
            response = await self._opened().request(
                request.method,
                URL(str(request.url), encoded=True),
                headers=headers,
                data=data,
                allow_redirects=False,
                auto_decompress=False,
                compress=None,
                timeout=aiohttp.ClientTimeout(
                    total=None, sock_connect=timeout.get("connect"), sock_read=timeout.get("read")
                ),
            )
        extensions: dict[str, Any] = {"http_version": b"HTTP/1.1"}
        if response.reason:
            extensions["reason_phrase"] = response.reason.encode("latin-1", "replace")
        return httpx.Response(
            response.status,
            headers=list(response.raw_headers),
            stream=_Body(response, request),
            request=request,
            extensions=extensions,
        )

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None


class _Body(httpx.AsyncByteStream):
    """A response's body: what arrived, as it arrives, in pieces of what each read brought."""

    def __init__(self, response: aiohttp.ClientResponse, request: httpx.Request) -> None:
        self._response = response
        self._request = request

    async def __aiter__(self) -> AsyncIterator[bytes]:
        with _mapped(self._request):
            async for chunk in self._response.content.iter_any():
                yield chunk

    async def aclose(self) -> None:
        # A body read whole frees its connection for the next request; one cut short closes it.
        if self._response.content.at_eof():
            self._response.release()
        else:
            self._response.close()


@contextlib.contextmanager
def _mapped(request: httpx.Request) -> Iterator[None]:
    """aiohttp's errors raised as httpx's, by what happened."""
    try:
        yield
    except (aiohttp.ClientError, TimeoutError) as exc:
        raise _as_httpx(exc, request) from exc


def _as_httpx(exc: BaseException, request: httpx.Request) -> httpx.HTTPError:
    what = str(exc) or type(exc).__name__
    error: type[httpx.TransportError]
    if isinstance(exc, aiohttp.ConnectionTimeoutError):
        error = httpx.ConnectTimeout
    elif isinstance(exc, aiohttp.ServerTimeoutError | TimeoutError):
        error = httpx.ReadTimeout
    elif isinstance(exc, aiohttp.ClientConnectorError):
        error = httpx.ConnectError
    elif isinstance(exc, aiohttp.InvalidURL):
        error = httpx.UnsupportedProtocol
    elif isinstance(exc, aiohttp.ServerDisconnectedError | aiohttp.ClientPayloadError):
        error = httpx.RemoteProtocolError
    elif isinstance(exc, aiohttp.ClientResponseError):
        error = httpx.RemoteProtocolError  # what came back is no HTTP response
    elif isinstance(exc, aiohttp.ClientOSError):
        error = httpx.ReadError
    else:
        error = httpx.TransportError
    return error(what, request=request)
