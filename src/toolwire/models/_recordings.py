"""Recorded HTTP exchanges: VCR cassettes (vcrpy, pytest-recording) and HAR files.

A cassette is YAML (``interactions: [{request: {uri, method, body, headers},
response: {status, headers, body: {string}}}]``); a HAR is JSON
(``log.entries[].request.postData.text``, ``response.content.text`` with
``encoding: base64``).  Each exchange becomes an :class:`Exchange` whose
bodies are bytes as the wire carried them, decoded: YAML ``!!binary``, HAR
base64, and ``Content-Encoding: gzip`` or ``deflate``.  PyYAML is imported
only when a cassette is read.

Src: vcrpy 7 ``vcr/serializers/yamlserializer.py`` and ``vcr/request.py``;
pytest-recording (vcrpy's format); HAR 1.2 (w3c.github.io/web-performance/specs/HAR/Overview.html).
"""

from __future__ import annotations

import binascii
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final, Literal

import orjson

__all__ = ["Exchange", "RecordingError", "read_recording", "recording_kind"]

RecordingKind = Literal["cassette", "har"]


class RecordingError(ValueError):
    """A cassette or HAR that cannot be read at all (its exchanges are unknown)."""


@dataclass(frozen=True, slots=True)
class Exchange:
    """One recorded request and its response (``number`` counts from 1, as vcrpy's ``play_count``)."""

    number: int
    method: str
    uri: str
    request: bytes | None
    response: bytes | None
    status: int | None = None
    request_type: str = ""
    response_type: str = ""
    #: What could not be decoded (a body left out), one message each.
    problems: tuple[str, ...] = field(default=())


def recording_kind(head: bytes) -> RecordingKind | None:
    """Whether bytes that start like ``head`` are a cassette or a HAR file.

    >>> recording_kind(b"interactions:\\n- request:\\n")
    'cassette'
    >>> recording_kind(b'{"log": {"version": "1.2", "entries": []}}')
    'har'
    >>> recording_kind(b'{"messages": []}') is None
    True
    """
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    # A cassette opens with its interactions, after comments or a document marker at most.
    for line in text.splitlines():
        if line.startswith(b"interactions:"):
            return "cassette"
        if line.strip() and not line.startswith((b"#", b"---", b"%")):
            break
    if text.startswith(b"{") and b'"log"' in text[:64] and b'"entries"' in head:
        return "har"
    return None


def read_recording(raw: bytes, kind: RecordingKind) -> list[Exchange]:
    """The exchanges of a cassette or HAR; a :class:`RecordingError` when it cannot be read."""
    return list(_cassette(raw) if kind == "cassette" else _har(raw))


# -- cassettes ---------------------------------------------------------------------------------------

_PYTHON_STR: Final = ("tag:yaml.org,2002:python/unicode", "tag:yaml.org,2002:python/str")


def _load_yaml(raw: bytes) -> Any:
    try:
        import yaml
    except ImportError:
        raise RecordingError(
            "reading a VCR cassette needs PyYAML, a toolwire dependency: pip install pyyaml"
        ) from None

    class Loader(yaml.SafeLoader):
        """vcrpy's cassettes, with the Python 2 string tags old vcrpy wrote (``!!python/unicode``)."""

    def text(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
        return loader.construct_scalar(node) if isinstance(node, yaml.ScalarNode) else None

    for tag in _PYTHON_STR:
        Loader.add_constructor(tag, text)
    try:
        return yaml.load(raw, Loader=Loader)
    except yaml.YAMLError as exc:
        raise RecordingError(f"the cassette is not valid YAML: {exc}") from None


def _cassette(raw: bytes) -> Iterator[Exchange]:
    document = _load_yaml(raw)
    interactions = document.get("interactions") if isinstance(document, dict) else None
    if not isinstance(interactions, list):
        raise RecordingError("the cassette has no 'interactions' list")
    for number, interaction in enumerate(interactions, 1):
        problems: list[str] = []
        request = _dict(interaction, "request")
        response = _dict(interaction, "response")
        status = _dict(response, "status").get("code")
        req_headers = _headers(request.get("headers"))
        res_headers = _headers(response.get("headers"))
        body = response.get("body")
        res_body = body.get("string") if isinstance(body, dict) else body
        yield Exchange(
            number,
            str(request.get("method") or ""),
            str(request.get("uri") or ""),
            _decoded(_bytes(request.get("body")), req_headers, "request", problems),
            _decoded(_bytes(res_body), res_headers, "response", problems),
            status if isinstance(status, int) else None,
            req_headers.get("content-type", ""),
            res_headers.get("content-type", ""),
            tuple(problems),
        )


def _dict(value: Any, key: str) -> dict[str, Any]:
    inner = value.get(key) if isinstance(value, dict) else None
    return inner if isinstance(inner, dict) else {}


def _headers(value: Any) -> dict[str, str]:
    """Headers by lower-case name: vcrpy writes a list of values per name, HAR a list of pairs."""
    out: dict[str, str] = {}
    if isinstance(value, dict):
        for name, values in value.items():
            first = values[0] if isinstance(values, list) and values else values
            out[str(name).lower()] = str(first)
    elif isinstance(value, list):
        for pair in value:
            if isinstance(pair, dict) and "name" in pair:
                out.setdefault(str(pair["name"]).lower(), str(pair.get("value", "")))
    return out


def _bytes(value: Any) -> bytes | None:
    if value is None or value == "":
        return None
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    # A body a serializer stored parsed (a dict): its JSON text.
    return orjson.dumps(value)


def _decoded(body: bytes | None, headers: dict[str, str], side: str, problems: list[str]) -> bytes | None:
    """``body`` without its Content-Encoding; vcrpy's ``decode_compressed_response`` leaves the header
    on a body it decoded already, so a body that is plain text stays as it is."""
    encoding = headers.get("content-encoding", "").strip().lower()
    if body is None or (encoding in ("", "identity") and not body.startswith(_GZIP)):
        return body
    try:
        if body.startswith(_GZIP):
            import gzip

            return gzip.decompress(body)
        if encoding == "deflate" and not _plain(body):
            return zlib.decompress(body)
    except (OSError, EOFError, zlib.error) as exc:
        problems.append(f"the {side} body is {encoding or 'gzip'}-compressed but does not decompress ({exc})")
        return None
    if _plain(body):
        return body
    problems.append(f"the {side} body is {encoding}-encoded; toolwire decodes gzip and deflate only")
    return None


_GZIP: Final = b"\x1f\x8b"


def _plain(body: bytes) -> bool:
    return body.lstrip()[:1] in (b"{", b"[") or body.lstrip().startswith((b"data:", b"event:", b":"))


# -- HAR ---------------------------------------------------------------------------------------------


def _har(raw: bytes) -> Iterator[Exchange]:
    try:
        document = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise RecordingError(f"the HAR file is not valid JSON: {exc}") from None
    entries = _dict(document, "log").get("entries")
    if not isinstance(entries, list):
        raise RecordingError("the HAR file has no log.entries list")
    for number, entry in enumerate(entries, 1):
        problems: list[str] = []
        request = _dict(entry, "request")
        response = _dict(entry, "response")
        posted = _dict(request, "postData")
        content = _dict(response, "content")
        req_headers = _headers(request.get("headers"))
        res_headers = _headers(response.get("headers"))
        text = content.get("text")
        body: bytes | None = _bytes(text)
        if isinstance(text, str) and content.get("encoding") == "base64":
            try:
                body = binascii.a2b_base64(text, strict_mode=True)
            except (binascii.Error, ValueError) as exc:
                problems.append(f"response.content.text is not base64 ({exc})")
                body = None
        # A HAR's content.text is decoded already (HAR 1.2): Content-Encoding no longer applies,
        # unless the bytes still say gzip.
        body = _decoded(body, {}, "response", problems)
        status = response.get("status")
        yield Exchange(
            number,
            str(request.get("method") or ""),
            str(request.get("url") or ""),
            _bytes(posted.get("text")),
            body,
            status if isinstance(status, int) else None,
            str(posted.get("mimeType") or req_headers.get("content-type", "")),
            str(content.get("mimeType") or res_headers.get("content-type", "")),
            tuple(problems),
        )
