"""Explored Anthropic message bodies: their calls whole, then the stop reason."""

from __future__ import annotations

from toolwire.properties._spaces._bodies import BodySpace
from toolwire.protocols.anthropic.generate import RESPONSE

__all__ = ["AnthropicResponseSpace"]


class AnthropicResponseSpace(BodySpace):
    """A ``anthropic-message-response`` body: its calls whole, then its stop reason."""

    protocol = "anthropic-message-response"
    generator = RESPONSE
