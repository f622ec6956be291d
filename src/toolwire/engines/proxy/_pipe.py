"""The copy of a body the checker reads: bytes handed over by the forwarder, read as a pipe.

The forwarder (the event loop) :meth:`Pipe.write` s each chunk after it went to
the client and never waits; the checker's thread reads it as a blocking file
(short reads, like a pipe), so the trace readers of ``check`` parse it as it
arrives.  A ``Content-Encoding`` of gzip or deflate is undone on the reading
side.  What was read is kept up to :data:`MAX_BODY` bytes for the final pass
and the record; past that, or when the checker falls :data:`MAX_BEHIND` bytes
behind, the copy stops and :attr:`Pipe.overflow` says why: memory stays
bounded per exchange whatever the stream.
"""

from __future__ import annotations

import threading
import zlib
from typing import Final

__all__ = ["MAX_BEHIND", "MAX_BODY", "Pipe"]

#: The most bytes of one body kept for the final check and the record.
MAX_BODY: Final = 64 << 20
#: The most bytes waiting for a checker that has fallen behind.
MAX_BEHIND: Final = 64 << 20


class Pipe:
    """A one-writer, one-reader byte pipe between the forwarder and a checker thread."""

    def __init__(self, encoding: str = "") -> None:
        self._chunks: list[bytes] = []
        self._waiting = 0
        self._closed = False
        self._ready = threading.Condition()
        encoding = encoding.strip().lower()
        self._decoder = (
            zlib.decompressobj(zlib.MAX_WBITS | 32) if encoding in ("gzip", "x-gzip", "deflate") else None
        )
        self.encoding = encoding
        self._decoded = bytearray()
        #: The decoded bytes read so far (up to :data:`MAX_BODY`), for the final pass and the record.
        self.captured = bytearray()
        #: Why part of the body was not kept or not checked (None: all of it was).
        self.overflow: str | None = None
        #: Whether the checker stopped seeing the body (it fell behind, or the body did not decode):
        #: its end was not seen, so no end-of-stream rule may judge it.
        self.gave_up = False
        #: Raw bytes handed over (what went to the client).
        self.size = 0

    def write(self, chunk: bytes) -> None:
        """Hand one chunk over (never blocks)."""
        with self._ready:
            self.size += len(chunk)
            if self._closed:  # the end, or the checker gave up (behind, undecodable)
                return
            if self._waiting + len(chunk) > MAX_BEHIND:
                self._give_up(f"the checker fell {MAX_BEHIND >> 20} MiB behind; the rest was not checked")
            else:
                self._chunks.append(chunk)
                self._waiting += len(chunk)
            self._ready.notify()

    def lost(self, reason: str) -> None:
        """The rest of the body will not reach the checker (``reason`` says why): its end is not judged."""
        with self._ready:
            self._give_up(reason)
            self._ready.notify()

    def _give_up(self, reason: str) -> None:
        self.overflow = reason
        self.gave_up = True
        self._chunks.clear()
        self._closed = True

    def close(self) -> None:
        """The body ended (or was cut): the reader sees its end once it read what is left."""
        with self._ready:
            self._closed = True
            self._ready.notify()

    def read(self, size: int = -1) -> bytes:
        """The bytes that are there (waiting for some), or all of them to the end (``size`` < 0)."""
        if size is None or size < 0:
            out = bytearray()
            while True:
                chunk = self._take(1 << 30)
                out += chunk
                # A compressed chunk may decode to nothing yet: only the end ends the reading.
                if not chunk and self._done():
                    return bytes(out)
        while True:
            data = self._take(size)
            # A compressed chunk may decode to nothing yet: read on.
            if data or self._done():
                return data

    read1 = read

    def _done(self) -> bool:
        with self._ready:
            return self._closed and not self._chunks and not self._decoded

    def _take(self, size: int) -> bytes:
        if self._decoded:
            # What a chunk decoded to beyond the last read: never more than a reader asked for
            # (the event-stream reader counts on it).
            data = bytes(self._decoded[:size])
            del self._decoded[:size]
            return data
        with self._ready:
            while not self._chunks and not self._closed:
                self._ready.wait()
            if not self._chunks:
                raw = b""
            elif len(self._chunks) > 1 and self._waiting <= size:
                # Every chunk waiting, in one read: the reader parses them at once (one wake-up,
                # one lock, one read of the trace reader's loop for what the forwarder handed over
                # while this thread waited for the interpreter).
                raw = b"".join(self._chunks)
                self._chunks.clear()
                self._waiting = 0
            else:
                raw = self._chunks[0][:size]
                rest = self._chunks[0][size:]
                if rest:
                    self._chunks[0] = rest
                else:
                    self._chunks.pop(0)
                self._waiting -= len(raw)
        data = raw if self._decoder is None else self._inflate(raw)
        if len(self.captured) + len(data) <= MAX_BODY:
            self.captured += data
        elif self.overflow is None:
            self.overflow = f"the body is over {MAX_BODY >> 20} MiB; only its start was kept"
        if len(data) > size:
            self._decoded += data[size:]
            data = data[:size]
        return data

    def _inflate(self, raw: bytes) -> bytes:
        assert self._decoder is not None
        try:
            return self._decoder.decompress(raw) if raw else self._decoder.flush()
        except zlib.error as exc:
            with self._ready:
                self._give_up(f"the {self.encoding} body does not decompress ({exc})")
            return b""

    def readable(self) -> bool:
        """A pipe is read (the trace readers ask)."""
        return True
