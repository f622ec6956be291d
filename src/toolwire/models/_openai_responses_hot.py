"""OpenAI Responses: the events its ``check`` hot path decodes typed (``msgspec.Struct`` classes).

Imported only when a trace is long enough to decode typed (``Monitor.load_hot``), so that a
short check never imports msgspec.
"""

from __future__ import annotations

import msgspec

from toolwire.models._typed import Int64

__all__ = ["ArgumentsDelta"]


class ArgumentsDelta(
    msgspec.Struct,
    tag_field="type",
    tag="response.function_call_arguments.delta",
    forbid_unknown_fields=True,
    omit_defaults=True,
    gc=False,
):
    """``response.function_call_arguments.delta``, decoded typed for ``toolwire check``'s hot path.

    Every field must be there with its type, and no other: any other delta is read as a plain
    dict (so unknown fields are still seen).  ``obfuscation`` pads the event's size.
    """

    sequence_number: Int64
    item_id: str
    output_index: Int64
    delta: str
    obfuscation: str | None = None
