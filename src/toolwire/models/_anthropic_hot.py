"""Anthropic Messages: the events its ``check`` hot path decodes typed (``msgspec.Struct`` classes).

Imported only when a trace is long enough to decode typed (``Monitor.load_hot``), so that a
short check never imports msgspec.
"""

from __future__ import annotations

import msgspec

from toolwire.models._typed import Int64

__all__ = ["InputJsonDelta", "ToolInputDelta"]


class InputJsonDelta(
    msgspec.Struct, tag_field="type", tag="input_json_delta", forbid_unknown_fields=True, gc=False
):
    """The ``delta`` of a :class:`ToolInputDelta`."""

    partial_json: str


class ToolInputDelta(
    msgspec.Struct, tag_field="type", tag="content_block_delta", forbid_unknown_fields=True, gc=False
):
    """A ``content_block_delta`` streaming tool input, decoded typed for ``toolwire check``'s hot path.

    Any other shape (another delta type, an unknown field) is read as a plain dict.
    """

    index: Int64
    delta: InputJsonDelta
