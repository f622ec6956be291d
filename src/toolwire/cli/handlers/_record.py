"""``--record FILE``: the proxied exchanges as a HAR file (``.har``) or a vcrpy cassette (``.yaml``).

The file is valid after every exchange (it is written whole to its end each time, the closing of
the document rewritten), so a proxy that is killed leaves a readable record.  Each exchange is
written as the proxy engine makes it (:func:`~toolwire.engines.proxy.har_entry`,
:func:`~toolwire.engines.proxy.cassette_item`): redacted, bodies decoded.
"""

from __future__ import annotations

import os
import threading
from typing import IO, Final

from toolwire.engines._core._json import dumps
from toolwire.engines.checking import PROXY_RECORD
from toolwire.engines.proxy import Recording, cassette_item, har_entry
from toolwire.errors import UsageError

__all__ = ["Recorder"]

#: A cassette's end: vcrpy reads ``interactions`` and ``version``; ``recorded_by`` tells ``check``
#: it is the proxy's record (:data:`toolwire.engines.checking.PROXY_RECORD`).
_CASSETTE_END: Final = b"version: 1\nrecorded_by: " + PROXY_RECORD.encode() + b"\n"


class Recorder:
    """Appends exchanges to a HAR file or a cassette, keeping it a valid document after each."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        name = os.fspath(path)
        if name.endswith(".har"):
            self.kind = "har"
        elif name.endswith((".yaml", ".yml")):
            self.kind = "cassette"
        else:
            raise UsageError(f"--record {name}: name a .har file or a .yaml cassette")
        try:
            self._file: IO[bytes] = open(name, "wb")  # noqa: SIM115 - open while serving
        except OSError as exc:
            raise UsageError(f"cannot write {name}: {exc.strerror}") from None
        self._lock = threading.Lock()
        self._count = 0
        self._tail = 0
        if self.kind == "har":
            creator = b'{"name": "' + PROXY_RECORD.encode() + b'", "version": "1"}'
            self._file.write(b'{"log": {"version": "1.2", "creator": ' + creator + b', "entries": [')
            self._tail = self._file.tell()
            self._file.write(b"\n]}}\n")
        else:
            # ``interactions:`` comes first: that is how a cassette is recognised.
            self._file.write(b"interactions:\n")
            self._tail = self._file.tell()
            self._file.write(b"  []\n" + _CASSETTE_END)
        self._file.flush()

    def add(self, recording: Recording) -> None:
        """Append one exchange."""
        if self.kind == "har":
            entry = dumps(har_entry(recording))
            chunk = (b",\n" if self._count else b"\n") + entry
            closing = b"\n]}}\n"
        else:
            chunk = cassette_item(recording)
            closing = _CASSETTE_END
        with self._lock:
            self._file.seek(self._tail)
            self._file.write(chunk)
            self._tail = self._file.tell()
            self._file.write(closing)
            self._file.truncate()
            self._file.flush()
            self._count += 1

    def close(self) -> None:
        with self._lock:
            self._file.close()
