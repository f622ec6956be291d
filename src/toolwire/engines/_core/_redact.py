"""Credentials out of everything the proxy writes: reports, records and the terminal.

Headers that carry credentials are replaced whole; query parameters whose name
says key, token or signature lose their value; and any text that looks like a
key (``sk-...``, Google's ``AIza...``, AWS access key ids, a long bearer token,
a JSON Web Token) is replaced wherever it appears, in bodies and messages too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

__all__ = ["REDACTED", "redact_bytes", "redact_headers", "redact_text", "redact_url"]

REDACTED: Final = "[REDACTED]"

#: Headers whose whole value is a credential (lower case).
SECRET_HEADERS: Final = frozenset(
    {
        "authorization",
        "proxy-authorization",
        "x-api-key",
        "api-key",
        "x-goog-api-key",
        "cookie",
        "set-cookie",
        "x-amz-security-token",
        "anthropic-admin-api-key",
    }
)
#: Query parameter names (lower case) whose value is a credential, or part of a signature.
_SECRET_PARAM: Final = re.compile(
    r"^(key|api[-_]?key|apikey|token|access[-_]?token|auth|secret|sig|signature|password|"
    r"x-amz-(signature|credential|security-token))$",
    re.IGNORECASE,
)
#: Text that looks like a key, whatever carries it.
_KEYLIKE: Final = re.compile(
    r"(?:"
    r"\bsk-[A-Za-z0-9_\-]{12,}"  # OpenAI, Anthropic (sk-ant-...), many gateways (sk-...)
    r"|\bAIza[0-9A-Za-z_\-]{20,}"  # Google API keys
    r"|\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"  # AWS access key ids
    r"|\b(?:gh[pousr]|github_pat)_[A-Za-z0-9_]{20,}"  # GitHub tokens
    r"|\bxox[abposr]-[A-Za-z0-9\-]{10,}"  # Slack tokens
    r"|\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"  # JSON Web Tokens
    r"|(?<=[Bb]earer )[A-Za-z0-9._~+/\-]{20,}=*"  # a long bearer token
    r")"
)
_KEYLIKE_BYTES: Final = re.compile(_KEYLIKE.pattern.encode())


def redact_text(text: str) -> str:
    """``text`` with every key-looking part replaced.

    >>> redact_text("auth failed for sk-proj-abcdefghijklmnop1234")
    'auth failed for [REDACTED]'
    """
    return _KEYLIKE.sub(REDACTED, text)


def redact_bytes(raw: bytes) -> bytes:
    """``raw`` (a text body) with every key-looking part replaced."""
    return _KEYLIKE_BYTES.sub(REDACTED.encode(), raw)


def redact_headers(headers: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """The headers, credentials replaced (names kept, so a reader sees one was sent).

    >>> redact_headers([("Authorization", "Bearer abc"), ("Content-Type", "application/json")])
    [('Authorization', '[REDACTED]'), ('Content-Type', 'application/json')]
    """
    return [
        (name, REDACTED if name.lower() in SECRET_HEADERS else redact_text(value)) for name, value in headers
    ]


def redact_url(url: str) -> str:
    """``url`` without credentials in its query string or its user info.

    >>> redact_url("https://example.com/v1beta/models/m:generateContent?key=AIzaXYZ&alt=sse")
    'https://example.com/v1beta/models/m:generateContent?key=%5BREDACTED%5D&alt=sse'
    """
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        netloc = f"{REDACTED}@{netloc.rsplit('@', 1)[1]}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode(
            [(name, REDACTED if _SECRET_PARAM.match(name) else redact_text(value)) for name, value in pairs]
        )
    return redact_text(urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment)))
