"""Vercel AI SDK: provider stream parts (VS-1 to VS-5) and UI message stream chunks (VU-1 to VU-4).

The family's places: ``models/_aisdk.py`` (the wire), ``machines/_aisdk.py``
(the lifecycles) and this package: ``rules``, ``monitors`` (with the SDK
version profiles), ``calls`` (readers, mutation sites, the id probe),
``generate`` (Hypothesis), ``space`` (explore) and ``shapes`` (shape features).
"""

import functools
from typing import Final

from toolwire.machines import StreamToolCall, UIToolPart
from toolwire.properties._aisdk import calls
from toolwire.properties._aisdk.monitors import PROFILES, StreamMonitor, UIStreamMonitor
from toolwire.properties._aisdk.rules import RULES, STREAM, UI_STREAM
from toolwire.properties._aisdk.shapes import STREAM_SHAPES, UI_STREAM_SHAPES
from toolwire.properties._protocol import Family, Protocol, load

__all__ = ["FAMILY", "PROFILES", "StreamMonitor", "UIStreamMonitor"]

FAMILY: Final = Family(
    "aisdk",
    catalogue=6,
    protocols=(
        Protocol(
            STREAM,
            "Vercel AI SDK provider stream parts (VS-1 to VS-5); profiles: v4 (default), v3, v2",
            "stream",
            StreamMonitor,
            profiles={version: functools.partial(StreamMonitor, version) for version in PROFILES},
            probe=calls.probe,
            results=calls.results,
            sites=calls.STREAM_SITES,
            breaks={"drop-id": "VS-5", "duplicate": "VS-1", "reorder": "VS-1", "truncate": "VS-2"},
            generator=load(f"{__name__}.generate", "STREAM"),
            space=load(f"{__name__}.space", "AISDKSpace"),
            shapes=STREAM_SHAPES,
        ),
        Protocol(
            UI_STREAM,
            "Vercel AI SDK UI message stream chunks (VU-1 to VU-4)",
            "stream",
            UIStreamMonitor,
            calls=calls.ui_calls,
            results=calls.ui_results,
            sites=calls.UI_SITES,
            breaks={
                "drop-id": "VU-1",
                "duplicate": "VU-3",
                "reorder": "VU-1",
                "swap-ids": "VU-1",
                "truncate": "VU-4",
            },
            generator=load(f"{__name__}.generate", "UI_STREAM"),
            shapes=UI_STREAM_SHAPES,
        ),
    ),
    rules=RULES,
    machines=(StreamToolCall, UIToolPart),
    envelope_ids=("txt-",),
)
