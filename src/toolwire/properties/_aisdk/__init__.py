"""Vercel AI SDK: rules VS-1 to VS-5 and VU-1 to VU-4, and their monitors."""

from toolwire.properties._aisdk.monitors import PROFILES, StreamMonitor, UIStreamMonitor
from toolwire.properties._aisdk.rules import RULES, STREAM, UI_STREAM

__all__ = ["PROFILES", "RULES", "STREAM", "UI_STREAM", "StreamMonitor", "UIStreamMonitor"]
