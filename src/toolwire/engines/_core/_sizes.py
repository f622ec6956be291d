"""Byte counts the engines share, one name per meaning."""

from __future__ import annotations

from typing import Final

__all__ = ["DETECT_BYTES", "READ_CHUNK"]

#: The first bytes of an input that detection reads: a VCR cassette or HAR file says what it is
#: within them, and the format (SSE, JSON Lines, JSON) is guessed from them.
DETECT_BYTES: Final = 64 << 10
#: Bytes per read where a file is scanned rather than parsed (counting lines, finding a line end).
READ_CHUNK: Final = 64 << 10
