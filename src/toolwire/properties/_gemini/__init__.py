"""Google Gemini and Google ADK ids: rules GM-1 to GM-5, GM-7, ADK-1, ADK-2, and their monitors."""

from toolwire.properties._gemini.monitors import ContentsMonitor, StreamMonitor
from toolwire.properties._gemini.rules import CONTENTS, RULES, STREAM

__all__ = ["CONTENTS", "RULES", "STREAM", "ContentsMonitor", "StreamMonitor"]
