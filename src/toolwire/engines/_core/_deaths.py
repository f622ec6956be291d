"""How a worker process that died is named, one way for every pool (checking, fuzzing)."""

from __future__ import annotations

import signal

__all__ = ["death_of"]


def death_of(code: int | None) -> str:
    """How a process with exit code ``code`` ended (a negative code: the signal that killed it).

    >>> death_of(-9), death_of(3), death_of(-999)
    ('killed by SIGKILL', 'exit status 3', 'killed by signal 999')
    """
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"
