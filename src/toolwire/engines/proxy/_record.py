"""An exchange as a record keeps it (:class:`Recording`), and as a HAR entry or a vcrpy cassette's
interaction: what ``--record FILE`` writes (the CLI's ``Recorder``) and a gateway counterexample's
``.har`` holds.

Both are what ``toolwire check`` reads (:mod:`toolwire.models._recordings`), and it judges them as
the proxy did.  Bodies are kept decoded (a gzip body as its text, as a HAR's ``content.text`` is),
and credentials are redacted from headers, URLs and text bodies (:mod:`._redact`).
"""

from __future__ import annotations

import base64
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final

import orjson

from toolwire.engines._core._json import redacted
from toolwire.engines._core._redact import redact_bytes, redact_headers, redact_url
from toolwire.engines.proxy._checker import ExchangeChecker

if TYPE_CHECKING:
    from toolwire.properties._change import Change

__all__ = ["Recording", "cassette_item", "har_entry", "har_of", "record_of"]

#: Headers a decoded body no longer has (its length and encoding changed).
_STALE: Final = frozenset({"content-length", "content-encoding"})


class Recording:
    """One exchange as recorded: redacted, bodies decoded.

    ``request`` is the body as the client sent it; when ``--repair`` changed it, ``forwarded`` is
    the body that went upstream and ``changes`` the changes made (as JSON), else None and empty.
    """

    forwarded: bytes | None = None
    changes: tuple[dict[str, Any], ...] = ()

    def __init__(
        self,
        method: str,
        url: str,
        request_headers: list[tuple[str, str]],
        request: bytes,
        status: int | None,
        response_headers: list[tuple[str, str]],
        response: bytes,
    ) -> None:
        self.method = method
        self.url = redact_url(url)
        self.request_headers = [h for h in redact_headers(request_headers) if h[0].lower() not in _STALE]
        self.request = _text_redacted(request)
        self.status = status or 0
        self.response_headers = [h for h in redact_headers(response_headers) if h[0].lower() not in _STALE]
        self.response = _text_redacted(response)

    def repaired(self, body: bytes, changes: tuple[Change, ...]) -> None:
        """The request went upstream as ``body`` after ``changes`` (redacted as the rest is)."""
        self.forwarded = _text_redacted(body)
        self.changes = tuple(redacted([c.to_json() for c in changes]))

    def content_type(self, side: str) -> str:
        headers = self.request_headers if side == "request" else self.response_headers
        return next((v for k, v in headers if k.lower() == "content-type"), "")


def _text_redacted(body: bytes) -> bytes:
    """A text body with key-looking parts replaced; a binary one (AWS event-stream) as it is, since
    replacing bytes there would break its checksums (providers echo no credentials in them)."""
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return body
    return redact_bytes(body)


def record_of(checker: ExchangeChecker) -> Recording | None:
    """The exchange a checker saw, to record (None when no response came)."""
    if checker.response is None:
        return None
    return Recording(
        checker.method,
        checker.url,
        checker.request_headers,
        checker.request,
        checker.status,
        checker.response_headers,
        bytes(checker.response.captured),
    )


def har_of(exchange: dict[str, Any]) -> dict[str, Any]:
    """A gateway counterexample's exchange (``Counterexample.exchange``) as a HAR document.

    Per turn, in the order they happened: the client's request and the gateway's answer, and
    each upstream request the gateway sent with the mock provider's answer.
    """
    entries = []
    base = f"http://{exchange.get('upstream', '127.0.0.1')}"
    for turn in exchange.get("turns", []):
        client, answer = turn.get("client_request", {}), turn.get("downstream_response", {})
        legs = [
            (client.get("url", ""), client, answer),
            *(
                (
                    base + leg.get("path", "") + (f"?{leg['query']}" if leg.get("query") else ""),
                    leg,
                    leg.get("response", {}),
                )
                for leg in turn.get("upstream", [])
            ),
        ]
        for url, request, response in legs:
            media = response.get("media", "")
            recording = Recording(
                request.get("method", "POST"),
                url,
                [tuple(h) for h in request.get("headers", [])],
                _bytes(request.get("body")),
                response.get("status"),
                [("content-type", media)] if media else [],
                _bytes(response.get("body")),
            )
            entries.append(har_entry(recording))
    return {
        "log": {"version": "1.2", "creator": {"name": "toolwire fuzz", "version": "1"}, "entries": entries}
    }


def _bytes(body: Any) -> bytes:
    """A body as a counterexample saves it (``json``, ``text`` or ``base64``), as bytes."""
    if not isinstance(body, dict):
        return b""
    if "json" in body:
        return orjson.dumps(body["json"])
    if "base64" in body:
        return base64.b64decode(body["base64"])
    return str(body.get("text", "")).encode("utf-8")


def har_entry(recording: Recording) -> dict[str, Any]:
    """One exchange as a HAR entry."""
    started = datetime.now(UTC).isoformat()
    response_type = recording.content_type("response")
    content: dict[str, Any] = {"size": len(recording.response), "mimeType": response_type}
    try:
        content["text"] = recording.response.decode("utf-8")
    except UnicodeDecodeError:
        content["text"] = base64.b64encode(recording.response).decode("ascii")
        content["encoding"] = "base64"
    request: dict[str, Any] = {
        "method": recording.method,
        "url": recording.url,
        "httpVersion": "HTTP/1.1",
        "headers": [{"name": k, "value": v} for k, v in recording.request_headers],
        "queryString": [],
        "cookies": [],
        "headersSize": -1,
        "bodySize": len(recording.request),
    }
    if recording.request:
        request["postData"] = {
            "mimeType": recording.content_type("request"),
            "text": recording.request.decode("utf-8", "replace"),
        }
    if recording.forwarded is not None:
        # HAR 1.2 lets a tool add fields whose names start with an underscore; readers skip them.
        request["_forwarded"] = {
            "bodySize": len(recording.forwarded),
            "postData": {
                "mimeType": recording.content_type("request"),
                "text": recording.forwarded.decode("utf-8", "replace"),
            },
            "changes": list(recording.changes),
        }
    return {
        "startedDateTime": started,
        "time": 0,
        "request": request,
        "response": {
            "status": recording.status,
            "statusText": "",
            "httpVersion": "HTTP/1.1",
            "headers": [{"name": k, "value": v} for k, v in recording.response_headers],
            "cookies": [],
            "content": content,
            "redirectURL": "",
            "headersSize": -1,
            "bodySize": len(recording.response),
        },
        "cache": {},
        "timings": {"send": 0, "wait": 0, "receive": 0},
    }


def cassette_item(recording: Recording) -> bytes:
    """One exchange as a cassette's interaction (a YAML list of one item)."""
    import yaml

    def headers(pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for name, value in pairs:
            out.setdefault(name, []).append(value)
        return out

    def body(raw: bytes) -> Any:
        if not raw:
            return None
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return raw  # YAML !!binary, as vcrpy writes bytes

    interaction: dict[str, Any] = {
        "request": {
            "body": body(recording.request),
            "headers": headers(recording.request_headers),
            "method": recording.method,
            "uri": recording.url,
        },
        "response": {
            "body": {"string": body(recording.response) or ""},
            "headers": headers(recording.response_headers),
            "status": {"code": recording.status, "message": ""},
        },
    }
    if recording.forwarded is not None:
        # Beside ``request`` and ``response``: vcrpy reads those two and skips other keys.
        interaction["forwarded"] = {"body": body(recording.forwarded), "changes": list(recording.changes)}
    text: str = yaml.safe_dump([interaction], sort_keys=True, allow_unicode=True, width=1 << 20)
    return text.encode("utf-8")
