"""How a campaign drives Hypothesis: the exceptions a round ends with, a round run to its findings,
and a SIGINT noted whatever error it causes on its way out."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from typing import Any, ClassVar

from toolwire.engines.fuzzing._counterexample import Counterexample

__all__: list[str] = []


class _Tripped(Exception):
    """A finding, raised for Hypothesis, which tells failures apart by their exception's type.

    Findings are known only at run time (``validity:CC-1``), so each gets a subclass of its own
    the first time it is raised (:meth:`named`): each then shrinks on its own.
    """

    counterexample: Counterexample
    _kinds: ClassVar[dict[str, type[_Tripped]]] = {}

    @classmethod
    def named(cls, finding: str, counterexample: Counterexample) -> _Tripped:
        """The exception for ``finding``, carrying its best example so far."""
        kind = cls._kinds.get(finding)
        if kind is None:
            kind = cls._kinds[finding] = type(f"Broken_{finding.replace('-', '_')}", (cls,), {})
        error = kind(f"{finding}: {counterexample.message}")
        error.counterexample = counterexample
        return error


class _Spent(BaseException):
    """The campaign's budget is spent; a BaseException so that Hypothesis passes it through."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _Resteer(BaseException):
    """What the campaign knows of its findings changed: end the round, the next one steers anew."""


class _Interrupts:
    """Notes a SIGINT while a campaign runs (then passes it on as before): whatever error it
    causes on its way out, the campaign knows it was interrupted.  Main thread only."""

    def __init__(self) -> None:
        self.seen = False
        self.previous: Any = None

    def __enter__(self) -> _Interrupts:
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, self._note)
        return self

    def _note(self, number: int, frame: Any) -> None:
        self.seen = True
        if callable(self.previous):
            self.previous(number, frame)
        elif self.previous != signal.SIG_IGN:
            raise KeyboardInterrupt

    def __exit__(self, *exc: object) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)


def _interrupted(exc: BaseException) -> bool:
    """``exc`` is, holds, or was raised while handling a KeyboardInterrupt."""
    seen: set[int] = set()
    stack = [exc]
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, KeyboardInterrupt):
            return True
        if isinstance(current, BaseExceptionGroup):
            stack.extend(current.exceptions)
        stack.extend(e for e in (current.__context__, current.__cause__) if e is not None)
    return False


def _round(test: Callable[[], None]) -> list[Counterexample]:
    """Run one Hypothesis round; the findings it shrank to their minimal examples."""
    try:
        test()
    except (_Tripped, BaseExceptionGroup) as exc:
        leaves = _leaves(exc)
        finals = [e.counterexample for e in leaves if isinstance(e, _Tripped)]
        if finals:
            return finals
        # The budget ran out while Hypothesis was shrinking two failures: it reports both.
        spent = [e for e in leaves if isinstance(e, _Spent)]
        if spent:
            raise spent[0] from None
        raise
    return []


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    return [exc]
