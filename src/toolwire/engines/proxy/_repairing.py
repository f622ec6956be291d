"""``toolwire proxy --repair``: each request's tool-call history repaired on its way upstream.

The forwarder reads a request whole, tells its protocol as the checks do (its endpoint and its
body, ``-p`` choosing where several could be), and when that is one the repairer reads
(:data:`~toolwire.engines.repair.REPAIRABLE`) runs :func:`~toolwire.engines.repair.repair` on it.
A body the repairer changed goes upstream re-serialised (its layout kept: compact stays compact;
a gzip or deflate one encoded so again: every member of a gzip one read, a raw deflate one written
raw again); one it leaves alone goes byte for byte, as does one it cannot repair (a
:class:`Repaired` with a ``problem`` says why, one that does not decode whole among them).  The
checks judge the request as the client sent it: a broken history is still a finding; the repair's
changes are told beside it.
"""

from __future__ import annotations

import gzip
import json
import time
import zlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, get_args

from toolwire.engines._core._detect import detect, endpoint_of
from toolwire.engines._core._events import LiveFinding
from toolwire.engines._core._results import Problem
from toolwire.engines.checking import choose
from toolwire.engines.proxy import _pipe
from toolwire.errors import UsageError
from toolwire.protocols import get_protocol

if TYPE_CHECKING:
    from toolwire.engines.repair import Change, OrphanPolicy, UnansweredPolicy

__all__ = ["Repaired", "RequestRepair", "hold", "told", "unheld", "with_length"]

#: The request body encodings the repair reads (and writes back so).
_ENCODINGS: Final = ("identity", "gzip", "deflate")
#: Request headers that sign the body: a changed body would fail its signature (AWS SigV4).
_SIGNED: Final = ("x-amz-content-sha256",)


@dataclass(frozen=True, slots=True)
class Repaired:
    """What the repair made of one request: the body to forward (None: as the client sent it),
    the changes, and why it was not repaired when it could not be (``problem``)."""

    protocol: str = ""
    body: bytes | None = None
    changes: tuple[Change, ...] = ()
    problem: str | None = None


class RequestRepair:
    """How ``--repair`` repairs requests: ``Proxy(upstream, repair=RequestRepair(provider="deepseek"))``.

    ``provider`` (``--for``) names the profile requests of its wire are repaired for (those of
    another wire get their own protocol's rules); ``orphan_results`` and ``unanswered_calls`` are
    :func:`~toolwire.engines.repair.repair`'s.  ``protocols``: the proxy's ``-p``.

    >>> fix = RequestRepair()
    >>> body = b'{"model":"gpt-4o","messages":[{"role":"tool","tool_call_id":"call_9","content":"42"}]}'
    >>> done = fix("https://api.openai.com/v1/chat/completions", body, [])
    >>> done.protocol, [(c.rule, c.action, c.path) for c in done.changes]
    ('openai-chat', [('CC-3', 'note', 'messages[0]')])
    >>> fix("https://api.openai.com/v1/chat/completions", b'{"messages": []}', []).body is None
    True
    """

    def __init__(
        self,
        provider: str | None = None,
        *,
        orphan_results: OrphanPolicy = "text",
        unanswered_calls: UnansweredPolicy = "error-result",
        protocols: tuple[str, ...] = (),
    ) -> None:
        # The repairer (and every family's provider profiles) loads only when --repair asks for it.
        from toolwire.engines.repair import PROVIDERS, OrphanPolicy, UnansweredPolicy

        if provider is not None and provider not in PROVIDERS:
            raise UsageError(f"--for {provider!r}: no such provider; one of {', '.join(PROVIDERS)}")
        if orphan_results not in get_args(OrphanPolicy):
            raise UsageError(f"--orphan-results {orphan_results!r}: choose text or drop")
        if unanswered_calls not in get_args(UnansweredPolicy):
            raise UsageError(f"--unanswered-calls {unanswered_calls!r}: choose error-result or drop")
        for name in protocols:
            get_protocol(name)
        self.provider = provider
        self.orphan_results: OrphanPolicy = orphan_results
        self.unanswered_calls: UnansweredPolicy = unanswered_calls
        self.protocols = protocols

    def __call__(self, url: str, body: bytes, headers: list[tuple[str, str]]) -> Repaired:
        """Repair the request ``body`` sent to ``url``; never raises (a failure is a ``problem``)."""
        from toolwire.engines.repair import REPAIRABLE, provider_of_wire, repair, write_body

        named = {k.lower(): v for k, v in headers}
        encoding = named.get("content-encoding", "").strip().lower() or "identity"
        if encoding not in _ENCODINGS:
            return Repaired(problem=f"its body is {encoding}-encoded")
        try:
            plain, form = _decoded(body, encoding)
        except zlib.error as exc:
            return Repaired(problem=f"its {encoding} body cannot be decoded ({exc})")
        try:
            value = json.loads(plain) if plain is not None else None
        except (ValueError, UnicodeDecodeError):
            return Repaired()  # no JSON body: nothing the repairer reads (the checks say so)
        if plain is None:
            return Repaired(problem=f"it decompresses to over {_pipe.MAX_BODY} bytes")
        if not isinstance(value, dict):
            return Repaired()
        detection = detect([(None, value, None)], endpoint_of(url), "request", True)
        protocol = choose(detection, self.protocols or None)
        if protocol is None or protocol not in REPAIRABLE:
            return Repaired()
        if not isinstance(value.get(get_protocol(protocol).container or "messages"), list):
            return Repaired(protocol)  # no history in it (a Responses ``input`` that is a string)
        if any(h in named for h in _SIGNED) or named.get("authorization", "").startswith("AWS4-"):
            return Repaired(protocol, problem="its body is signed (AWS SigV4): a changed body would fail")
        try:
            done = repair(
                value,
                protocol,
                provider=provider_of_wire(self.provider, protocol),
                orphan_results=self.orphan_results,
                unanswered_calls=self.unanswered_calls,
            )
        except UsageError as exc:
            return Repaired(protocol, problem=str(exc))
        except Exception as exc:  # a bug in the repairer must not stop the request
            return Repaired(protocol, problem=f"toolwire could not repair it: {exc!r}")
        if done.unrepaired:
            broken = "; ".join(f"{c.rule} at {c.path or 'the body'}: {c.reason}" for c in done.unrepaired)
            return Repaired(protocol, problem=broken)
        if not done.changed:
            return Repaired(protocol)
        return Repaired(protocol, _encoded(write_body(done.history, plain), form), done.changes)


def _decoded(body: bytes, encoding: str) -> tuple[bytes | None, str]:
    """``body`` decoded, and how to encode it so again (``deflate-raw``: a deflate body sent without
    its zlib wrapper, as some clients send it); None when it decodes to over :data:`._pipe.MAX_BODY`.

    Every member of a gzip body is decoded (a client may send several, one after the other).  A
    body that does not decode whole (cut short, or bytes after its end) is a :class:`zlib.error`:
    re-encoded, what it held past what was read would be lost.
    """
    if encoding == "identity" or not body:
        return body, encoding
    try:
        return _inflated(body, zlib.MAX_WBITS | 32, encoding == "gzip"), encoding
    except zlib.error:
        if encoding != "deflate":
            raise
    return _inflated(body, -zlib.MAX_WBITS, False), "deflate-raw"


def _inflated(body: bytes, wbits: int, members: bool) -> bytes | None:
    out = bytearray()
    rest = body
    while True:
        decoder = zlib.decompressobj(wbits)
        out += decoder.decompress(rest, _pipe.MAX_BODY + 1 - len(out))
        if len(out) > _pipe.MAX_BODY:
            return None
        if not decoder.eof:
            raise zlib.error("the stream ends early")
        rest = decoder.unused_data
        if not rest:
            return bytes(out)
        if not members:
            raise zlib.error(f"{len(rest)} bytes after the end of the stream")


def _encoded(body: bytes, form: str) -> bytes:
    if form == "gzip":
        return gzip.compress(body)
    if form == "deflate-raw":
        encoder = zlib.compressobj(wbits=-zlib.MAX_WBITS)
        return encoder.compress(body) + encoder.flush()
    return zlib.compress(body) if form == "deflate" else body


def told(
    number: int, method: str, url: str, protocol: str, *, change: Change | None = None, why: str = ""
) -> LiveFinding:
    """A change the repair made to exchange ``number``'s request, or (``why``) why it made none."""
    problem = None if not why else Problem(None, None, f"not repaired: {why}; forwarded as sent", "warning")
    return LiveFinding(
        engine="proxy",
        exchange=number,
        time=time.time(),
        method=method,
        endpoint=endpoint_of(url),
        side="request",
        protocol=protocol,
        change=change,
        problem=problem,
    )


async def hold(
    chunks: AsyncIterator[bytes], add: Callable[[bytes], None], bound: int
) -> tuple[list[bytes], bool]:
    """A request body's chunks, read whole (True), or up to just past ``bound`` bytes (False)."""
    held: list[bytes] = []
    size = 0
    async for chunk in chunks:  # leaving the loop leaves the stream open: the rest is read after
        add(chunk)
        if chunk:
            held.append(chunk)
            size += len(chunk)
            if size > bound:
                return held, False
    return held, True


async def unheld(
    held: list[bytes],
    rest: AsyncIterator[bytes] | None = None,
    add: Callable[[bytes], None] | None = None,
    end: Callable[[], None] | None = None,
) -> AsyncIterator[bytes]:
    """The chunks held, then the ``rest`` of the body (each given to ``add``), then ``end()``."""
    for chunk in held:
        yield chunk
    if rest is not None:
        async for chunk in rest:
            if add is not None:
                add(chunk)
            if chunk:
                yield chunk
    if end is not None:
        end()


def with_length(headers: list[tuple[bytes, bytes]], body: bytes) -> list[tuple[bytes, bytes]]:
    """``headers`` for ``body`` in place of the one they came with: its Content-Length."""
    length = str(len(body)).encode()
    if not any(k.lower() == b"content-length" for k, _ in headers):
        return [*headers, (b"content-length", length)]  # it came chunked
    return [(k, length if k.lower() == b"content-length" else v) for k, v in headers]
