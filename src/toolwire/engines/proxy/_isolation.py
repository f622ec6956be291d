"""The proxy's checks in a process of their own, so that checking never takes the forwarder's CPU.

The forwarder (the proxy's event loop) hands each exchange's parts over as messages: the request
when it was read, the response's head, each batch of body bytes after it went to the client, the
end.  They leave in one write per turn of the event loop, from a writer thread (the pipe may be
full: the event loop never waits for it).  When more than :data:`MAX_QUEUED` bytes wait, a body's
bytes are dropped and its exchange is told as not checked to its end, never as clean.

The checking process runs at a lower priority (``nice``): on a busy machine the forwarding comes
first and the findings follow when there is time.  It runs the same :class:`~._live.ExchangeChecker`
as the proxy in one process does, and sends back what they tell and, per exchange, what it came to
(and its record, redacted, when one is kept).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, Final

from toolwire.engines._core._events import LiveFinding
from toolwire.engines.proxy._checker import Checked

__all__ = ["MAX_QUEUED", "Isolated", "RemoteChecker"]

#: The most body bytes waiting to go to the checking process, in all.
MAX_QUEUED: Final = 64 << 20
#: How much lower the checking process runs (``nice``).
NICE: Final = 10


class Isolated:
    """The checking process, and the threads that talk to it."""

    def __init__(
        self,
        protocols: tuple[str, ...],
        tell: Callable[[LiveFinding], None],
        done: Callable[[Checked, Any], None],
        record: bool,
    ) -> None:
        context = multiprocessing.get_context("spawn")
        down_read, down_write = context.Pipe(duplex=False)
        up_read, up_write = context.Pipe(duplex=False)
        self._process = context.Process(
            target=_checking,
            args=(down_read, up_write, protocols, record),
            name="toolwire-checks",
            daemon=True,
        )
        self._process.start()
        down_read.close()
        up_write.close()
        self._down = down_write
        self._up = up_read
        self._tell = tell
        self._done = done
        self._lock = threading.Condition()
        self._queue: list[tuple[Any, ...]] = []
        self._queued = 0
        self._batch: list[tuple[Any, ...]] = []
        self._batch_size = 0
        self._flushing = False
        self._lost: set[int] = set()
        #: The exchanges whose response the forwarder has not yet closed (or failed): :meth:`close`
        #: waits for their last messages, which a client may outrun (it has its bytes first).
        self._open: set[int] = set()
        self._closing = False
        self._ended = threading.Event()
        self._writer = threading.Thread(target=self._write, name="toolwire-checks-writer", daemon=True)
        self._reader = threading.Thread(target=self._read, name="toolwire-checks-reader", daemon=True)
        self._writer.start()
        self._reader.start()

    # -- the event loop's side: never waits ----------------------------------------------------------

    def send(self, message: tuple[Any, ...], size: int = 0) -> None:
        """Hand ``message`` over at the end of this turn of the event loop; ``size``: body bytes."""
        number = message[1]
        if message[0] in _HANDOVER:
            with self._lock:
                if message[0] == "open":
                    self._open.add(number)
                else:
                    self._open.discard(number)
                    self._lock.notify_all()
        if size:
            if number in self._lost:
                return
            with self._lock:
                over = self._queued + self._batch_size + size > MAX_QUEUED
            if over:
                self._lost.add(number)
                message = ("lost", number)
                size = 0
        self._batch.append(message)
        self._batch_size += size
        if not self._flushing:
            self._flushing = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flushing = False
        with self._lock:
            self._queue.extend(self._batch)
            self._queued += self._batch_size
            self._lock.notify()
        self._batch = []
        self._batch_size = 0

    # -- the threads ---------------------------------------------------------------------------------

    def _write(self) -> None:
        while True:
            with self._lock:
                while not self._queue and not self._closing:
                    self._lock.wait()
                batch, self._queue = self._queue, []
                self._queued = 0
                closing = self._closing
            try:
                if batch:
                    self._down.send_bytes(pickle.dumps(batch, pickle.HIGHEST_PROTOCOL))
                if closing and not self._queue:
                    self._down.send_bytes(pickle.dumps([("end", 0)]))
                    return
            except (OSError, ValueError):  # the checking process is gone: its reader says so
                return

    def _read(self) -> None:
        try:
            while True:
                message = pickle.loads(self._up.recv_bytes())
                if message[0] == "ended":
                    return
                try:
                    if message[0] == "told":
                        self._tell(message[1])
                    elif message[0] == "done":
                        self._done(message[1], message[2])
                except Exception:
                    # A handler that raises (a consumer gone, a full disk) must not stop the findings
                    # and ends that follow it: this thread is the only one reading them.
                    continue
        except (EOFError, OSError):
            return
        finally:
            self._ended.set()

    def close(self, timeout: float = 30.0) -> None:
        """Send what waits, let the checks end (up to ``timeout`` seconds), and stop the process.

        The forwarder hands a response's last chunk to the checker after the client has it, so a
        caller that stops once its client is answered waits here (a few seconds at most) for each
        open exchange's last messages, and for the event loop to flush them."""
        deadline = time.monotonic() + min(timeout, HANDOVER_SECONDS)
        with self._lock:
            self._lock.wait_for(lambda: not self._open, timeout=max(0.0, deadline - time.monotonic()))
        while self._batch and time.monotonic() < deadline:
            time.sleep(0.005)
        if self._batch:
            self._flush()
        with self._lock:
            self._closing = True
            self._lock.notify()
        self._ended.wait(timeout)
        self._process.join(5)
        if self._process.is_alive():
            self._process.kill()
            self._process.join(5)
        for end in (self._down, self._up):
            with contextlib.suppress(OSError):
                end.close()


#: The messages that open and end an exchange's hand-over (see :meth:`Isolated.close`).
_HANDOVER: Final = ("open", "close", "failed")
#: How long :meth:`Isolated.close` waits for the forwarder to hand the open exchanges over.
HANDOVER_SECONDS: Final = 5.0


class RemoteChecker:
    """The forwarder's handle on one exchange checked in the checking process (as
    :class:`~._live.ExchangeChecker` is in this one): what the forwarder calls, as messages."""

    def __init__(
        self,
        isolated: Isolated,
        number: int,
        request: tuple[str, str, bytes, str, str | None],
        headers: list[tuple[str, str]],
    ) -> None:
        self._isolated = isolated
        self.number = number
        self.response_headers: list[tuple[str, str]] = []
        isolated.send(("open", number, *request, headers))

    def responded(self, status: int, content_type: str, encoding: str) -> RemoteChecker:
        """The upstream answered: this handle takes the body's chunks too."""
        self._isolated.send(("responded", self.number, status, content_type, encoding, self.response_headers))
        return self

    def write(self, chunk: bytes) -> None:
        self._isolated.send(("data", self.number, chunk), len(chunk))

    def close(self) -> None:
        self._isolated.send(("close", self.number))

    def failed(self, reason: str, *, client: bool = False) -> None:
        self._isolated.send(("failed", self.number, reason, client))


def _checking(down: Connection, up: Connection, protocols: tuple[str, ...], record: bool) -> None:
    """The checking process: an :class:`ExchangeChecker` per exchange, fed from ``down``."""
    from toolwire.engines.proxy._checker import ExchangeChecker, LiveConversations
    from toolwire.engines.proxy._record import record_of

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the proxy stops it, once its checks ended
    with contextlib.suppress(OSError):
        os.nice(NICE)
    lock = threading.Lock()

    def emit(message: tuple[Any, ...]) -> None:
        data = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
        with lock, contextlib.suppress(OSError):
            up.send_bytes(data)

    ledger = LiveConversations()
    checkers: dict[int, ExchangeChecker] = {}

    def done(number: int, checked: Checked) -> None:
        checker = checkers.pop(number)
        emit(("done", checked, record_of(checker) if record else None))

    def opened(message: tuple[Any, ...]) -> None:
        _, number, method, url, body, content_type, unread, headers = message
        checker = ExchangeChecker(
            number,
            method,
            url,
            body,
            content_type,
            protocols or None,
            ledger,
            lambda told: emit(("told", told)),
            lambda checked: done(number, checked),
            unread=unread,
        )
        checker.request_headers = headers
        checkers[number] = checker

    running = True
    while running:
        try:
            batch = pickle.loads(down.recv_bytes())
        except (EOFError, OSError):
            break
        for message in batch:
            kind, number = message[0], message[1]
            checker = checkers.get(number)
            if kind == "open":
                opened(message)
            elif kind == "end":
                running = False
            elif checker is None:
                continue
            elif kind == "responded":
                checker.response_headers = message[5]
                checker.responded(*message[2:5])
            elif kind == "failed":
                checker.failed(message[2], client=message[3])
            elif checker.response is None:
                continue
            elif kind == "data":
                checker.response.write(message[2])
            elif kind == "close":
                checker.response.close()
            elif kind == "lost":
                checker.response.lost("the checker fell behind the forwarding; the rest was not checked")
    deadline = time.monotonic() + 30
    for checker in list(checkers.values()):
        if checker.response is not None:
            checker.response.close()
        elif checker.cut is None:  # an exchange already told failed keeps its own reason
            checker.failed("the proxy stopped before the response came")
        checker.join(max(0.0, deadline - time.monotonic()))
    emit(("ended", 0))
