"""Writing toolwire's outputs: atomically, never through a planted link, with the user's umask."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["write_file"]


def write_file(path: Path, data: bytes) -> None:
    """Write ``data`` at ``path`` through a new file renamed over it.

    A reader never sees half a file, a planted link at ``path`` is replaced rather than
    followed, and the file gets the permissions the user's umask gives (a temporary file alone
    would be private to the user).
    """
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(data)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(temporary, 0o666 & ~mask)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
