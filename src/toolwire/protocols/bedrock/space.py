"""Explored Bedrock Converse response bodies: their calls whole, then the stop reason."""

from __future__ import annotations

from toolwire.properties._spaces._bodies import BodySpace
from toolwire.protocols.bedrock.generate import RESPONSE

__all__ = ["ConverseResponseSpace"]


class ConverseResponseSpace(BodySpace):
    """A ``bedrock-converse-response`` body: its calls whole, then its stop reason."""

    protocol = "bedrock-converse-response"
    generator = RESPONSE
