"""Content blocks streamed by index: Anthropic Messages and Bedrock ConverseStream.

Both protocols open a block with a start event that carries the tool call's id,
send fragments that correlate by index alone, and close it with a stop event.
Src: docs/protocol-rules.md AN-10 and BR-9.
"""

from __future__ import annotations

from statemachine import State

from toolwire.machines._base import CheckingMachine

__all__ = ["ContentBlock"]


class ContentBlock(CheckingMachine):
    """One content block at one index: ``start``, any number of ``delta``, ``stop``."""

    absent = State(initial=True)
    streaming = State()
    stopped = State(final=True)

    start = absent.to(streaming)
    delta = streaming.to(streaming)
    stop = streaming.to(stopped)
