"""Whether a target is a gateway, told from its spelling alone: importing no HTTP client, so that
``toolwire fuzz module:function`` loads nothing of the gateway's."""

from __future__ import annotations

__all__ = ["is_gateway"]


def is_gateway(spec: object) -> bool:
    """Whether a target spelling names an HTTP gateway (an ``http://`` or ``https://`` URL)."""
    return isinstance(spec, str) and spec.strip().lower().startswith(("http://", "https://"))
