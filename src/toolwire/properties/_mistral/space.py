"""Explored Mistral chat completion bodies: their calls whole, then the stop reason."""

from __future__ import annotations

from toolwire.properties._mistral.generate import RESPONSE
from toolwire.properties._spaces._bodies import BodySpace

__all__ = ["MistralResponseSpace"]


class MistralResponseSpace(BodySpace):
    """A ``mistral-chat-response`` body: its calls whole, then its stop reason."""

    protocol = "mistral-chat-response"
    generator = RESPONSE
