"""What the typed event classes of every family share (``models/_<family>_hot.py``)."""

from __future__ import annotations

from typing import Annotated

import msgspec

__all__ = ["Int64"]

#: A 64-bit integer (orjson reads ones past 64 bits as floats; those are read plain).
Int64 = Annotated[int, msgspec.Meta(ge=-(2**63), le=2**63 - 1)]
