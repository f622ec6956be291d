"""A gateway target as it is spelled: its URL, ``--upstream HOST:PORT``, ``--header 'Name: value'``.

Nothing here needs the ``gateway`` extra: whether a target is a gateway is known without it.
"""

from __future__ import annotations

from collections.abc import Iterable

from toolwire.engines._core._redact import redact_text
from toolwire.errors import UsageError

__all__ = ["is_gateway", "parse_headers", "parse_upstream"]


def is_gateway(spec: object) -> bool:
    """Whether a target spelling names an HTTP gateway (an ``http://`` or ``https://`` URL)."""
    return isinstance(spec, str) and spec.strip().lower().startswith(("http://", "https://"))


def parse_upstream(text: str) -> tuple[str, int]:
    """``--upstream HOST:PORT`` as a loopback host and a port; a :class:`UsageError` says why not."""
    host, sep, port = text.strip().rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if not sep or not port.isdigit() or int(port) > 65535:
        raise UsageError(f"--upstream {text!r} is not HOST:PORT (say 127.0.0.1:8788)")
    if host != "localhost":
        import ipaddress

        try:
            loopback = ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = False
        if not loopback:
            raise UsageError(
                f"--upstream {text!r}: the mock provider listens on loopback only (say 127.0.0.1:PORT)"
            )
    return ("127.0.0.1" if host == "localhost" else host), int(port)


def parse_headers(lines: Iterable[str]) -> list[tuple[str, str]]:
    """``--header 'Name: value'`` lines as (name, value) pairs."""
    out = []
    for line in lines:
        name, colon, value = line.partition(":")
        if not colon or not name.strip() or any(c.isspace() for c in name.strip()):
            raise UsageError(f"--header {redact_text(line)!r} is not 'Name: value'")
        out.append((name.strip(), value.strip()))
    return out
