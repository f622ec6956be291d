"""OpenAI Responses: the events its ``check`` hot path decodes typed (``msgspec.Struct`` classes).

Imported only when a trace is long enough to decode typed (``Monitor.load_hot``), so that a
short check never imports msgspec.  The envelope events are lean types (see :mod:`._lean`): a big
one (a ``response.completed`` carrying every output item) is read for its type and sequence number.
"""

from __future__ import annotations

from typing import Union

import msgspec

from toolwire.models._typed import Int64

__all__ = ["ArgumentsDelta", "Completed", "Created", "Failed", "InProgress", "Incomplete", "Queued"]


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


def _envelope(name: str, tag: str) -> type[msgspec.Struct]:
    """A big envelope event (see :mod:`._lean`): its ``type`` and ``sequence_number``, the only
    fields of it the stream's rules read (its ``response`` was judged as it streamed)."""
    return msgspec.defstruct(
        name,
        [("sequence_number", Union[Int64, None, msgspec.UnsetType], msgspec.UNSET)],  # noqa: UP007
        tag_field="type",
        tag=tag,
        gc=False,
        module=__name__,
    )


Created = _envelope("Created", "response.created")
Queued = _envelope("Queued", "response.queued")
InProgress = _envelope("InProgress", "response.in_progress")
Completed = _envelope("Completed", "response.completed")
Failed = _envelope("Failed", "response.failed")
Incomplete = _envelope("Incomplete", "response.incomplete")
