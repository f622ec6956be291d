"""Targets: the converters ``toolwire fuzz`` drives, as Python callables or commands.

A target that raises, hangs past its timeout, crashes or prints garbage
yields a :class:`TargetFailure`: a finding about the target, never a crash
of toolwire.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import inspect
import io
import json
import os
import re
import select
import shlex
import signal
import subprocess
import sys
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

import orjson

from toolwire.engines._core._deaths import death_of
from toolwire.engines.fuzzing import _child
from toolwire.engines.fuzzing._child import MAX_OUTPUT, cause, collect, not_json, raised, tool_result
from toolwire.engines.gateway import is_gateway
from toolwire.errors import UsageError

if TYPE_CHECKING:
    from toolwire.protocols._relations import Broken, Ledger

__all__ = [
    "CommandTarget",
    "InProcessTarget",
    "PythonName",
    "Target",
    "TargetFailure",
    "TargetRecipe",
    "Worker",
    "WorkerTarget",
    "load_target",
    "spelling",
    "tool_result",
]

Wire = list[dict[str, Any]]
Failure = Literal["raises", "hangs", "crashes", "garbage", "mutates"]
_CALLABLE: Final = re.compile(r"^(?P<module>[\w.]+|[^\s:]+\.py):(?P<name>[A-Za-z_]\w*)$")


class TargetFailure(Exception):
    """The target did not produce a trace: it raised, hung, crashed or printed garbage.

    ``cause`` is the type of the exception a target raised (``raises``) and the function that
    raised it: two errors are two bugs, two findings (``raises:KeyError@convert``,
    ``raises:JSONDecodeError@raw_decode``, ``raises:JSONDecodeError@decode``).
    """

    def __init__(self, kind: Failure, message: str, cause: str = "") -> None:
        super().__init__(message)
        self.kind: Failure = kind
        self.message = message
        self.cause = cause


class Target(ABC):
    """A converter under test: the one interface the campaign and the explorer drive.

    :meth:`start` hands one input trace to the target and returns a call that waits for its
    output trace (or raises :class:`TargetFailure`); :meth:`close` releases what the target holds.
    A new kind of target (an HTTP gateway behind a mock upstream) is one more subclass.
    """

    #: How reports and counterexamples name the target (the spelling the user gave).
    name: str

    @abstractmethod
    def start(self, trace: Wire, timeout: float, round_trip: bool = False) -> Callable[[], Wire]:
        """Start the target on ``trace``; the call returned waits (``timeout`` seconds) for its output.

        A round trip also passes :func:`tool_result` as the tool runner.  A target that runs
        elsewhere starts at once, on a copy of ``trace``, so the caller may read the input
        while the target converts it.  No target may touch ``trace`` itself before the call
        returned is made: :func:`~toolwire.engines.judge` copies the input in between, and
        judges (and saves) that copy, the input as generated.
        """

    def run(self, trace: Wire, timeout: float, round_trip: bool = False) -> Wire:
        """The target's output for ``trace``, or a :class:`TargetFailure`."""
        return self.start(trace, timeout, round_trip)()

    def close(self) -> None:  # noqa: B027 -- most targets hold nothing
        """Release what the target holds (a worker process); the default holds nothing."""

    def follow_up(
        self, before: Ledger, after: Ledger, timeout: float, *, strict: bool = False
    ) -> list[Broken]:
        """Relations broken after the output was judged, in a turn the target drives itself.

        A gateway sends the conversation back (the tool results) and judges what it sent
        upstream; ``before`` and ``after`` are the input's and the output's ledgers; ``strict``
        (``--strict``) counts the warning rules that turn breaks too.  May raise
        :class:`TargetFailure`.  The default drives no second turn.
        """
        return []

    def exchange(self) -> dict[str, Any] | None:
        """The last example's exchange on the wire (a gateway's requests and answers), or None."""
        return None

    def spread(self, workers: int) -> contextlib.AbstractContextManager[list[TargetRecipe]]:
        """Recipes of ``workers`` copies of this target, one per process of ``fuzz --workers``,
        good while the context lasts (a gateway routes each copy's upstream traffic to it).
        The default: a target handed over as an object does not spread."""
        raise UsageError("--workers needs a target named by module:function, a file, a command or a URL")


class TargetRecipe(ABC):
    """What a process of its own builds a copy of a target from (picklable; :meth:`Target.spread`)."""

    #: How reports name the target.
    name: str

    @abstractmethod
    def build(self) -> Target:
        """The target, in this process."""


class InProcessTarget(Target):
    """A callable handed over from Python, run in this process (under an alarm or in a thread)."""

    def __init__(self, name: str, function: Callable[..., Any]) -> None:
        self.name, self.function = name, function

    def start(self, trace: Wire, timeout: float, round_trip: bool = False) -> Callable[[], Wire]:
        """Run the callable when the output is asked for."""
        return lambda: _run_python(self.function, trace, timeout, round_trip)


class WorkerTarget(Target):
    """A Python target named by ``module:function`` or ``file.py:function``, in a :class:`Worker`."""

    def __init__(self, name: str, worker: Worker) -> None:
        self.name, self.worker = name, worker

    def start(self, trace: Wire, timeout: float, round_trip: bool = False) -> Callable[[], Wire]:
        """Send ``trace`` to the worker at once; the worker converts its own copy."""
        return self.worker.send(trace, round_trip, timeout)

    def close(self) -> None:
        """Stop the worker process and every process it started."""
        self.worker.close()


class CommandTarget(Target):
    """A program reading the input as JSON Lines on stdin, writing the output on stdout."""

    def __init__(self, name: str, command: tuple[str, ...]) -> None:
        self.name, self.command = name, command

    def start(self, trace: Wire, timeout: float, round_trip: bool = False) -> Callable[[], Wire]:
        """Run the command, in a session of its own, when the output is asked for."""
        if round_trip:
            raise UsageError(
                f"{self.name}: a round trip needs a Python target (it calls back the tool runner)"
            )
        return lambda: _run_command(self.command, trace, timeout)


def load_target(spec: str | Callable[..., Any] | Target | TargetRecipe) -> Target:
    """A target from ``module:function``, ``path/to/file.py:function``, a callable, or a command line.

    A named Python target is imported in a worker process of its own; an import that fails is a
    :class:`UsageError` that says why.  A :class:`Target` is returned as it is.
    """
    if isinstance(spec, Target):
        return spec
    if isinstance(spec, TargetRecipe):
        return spec.build()
    if is_gateway(spec):
        raise UsageError(
            f"{spec} is an HTTP gateway: it needs the mock provider's address (toolwire fuzz URL "
            "--upstream 127.0.0.1:PORT; from Python, "
            "toolwire.engines.GatewayTarget(url, source, destination, upstream=...))"
        )
    if callable(spec):
        return InProcessTarget(getattr(spec, "__qualname__", repr(spec)), spec)
    spelled = spelling(spec)
    if isinstance(spelled, tuple):
        return CommandTarget(spec, spelled)
    return WorkerTarget(spec, Worker(spelled.where, spelled.name))


class Worker:
    """A Python target in a process of its own, reused across examples, restarted after a crash.

    The worker (``_child.py``, run as a script) imports the target; it answers on a pipe of its
    own, so the target's prints go nowhere.  An exit, a signal or a hang past the timeout (C code
    included: the worker is killed, with every process it started) is a finding on that example,
    and the next example starts a fresh worker.
    """

    def __init__(self, where: str, name: str) -> None:
        self.where, self.name = where, name
        self.process: subprocess.Popen[bytes] | None = None
        self.answers = -1
        self.errors: _Drain | None = None
        #: Workers started, the first included.
        self.starts = 0
        self._start()
        atexit.register(self.close)

    def _start(self) -> None:
        read, write = os.pipe()
        try:
            self.process = subprocess.Popen(
                [sys.executable, _child.__file__, str(write), self.where, self.name],
                stdin=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=(write,),
                start_new_session=True,
            )
        except OSError as exc:
            os.close(read)
            raise UsageError(f"cannot start a worker for {self.where}:{self.name}: {exc.strerror}") from None
        finally:
            os.close(write)
        self.answers = read
        self.errors = _Drain(self.process.stderr, 1 << 16, tail=True)
        self.starts += 1
        try:
            hello = self._answer(_IMPORT_TIMEOUT)
        except TargetFailure as failure:
            self.close()
            raise UsageError(
                f"{self.where}:{self.name}: importing the target ended its worker ({failure.message})"
            ) from None
        if "usage" in hello:
            self.close()
            raise UsageError(str(hello["usage"]))

    def run(self, trace: Wire, timeout: float, round_trip: bool) -> Wire:
        """The target's output for ``trace``, or a :class:`TargetFailure`."""
        return self.send(trace, round_trip, timeout)()

    def send(self, trace: Wire, round_trip: bool, timeout: float) -> Callable[[], Wire]:
        """Hand ``trace`` to the worker; the call returned waits for the output (``timeout`` from now)."""
        if self.process is None:
            self._start()
        assert self.process is not None and self.process.stdin is not None
        request = orjson.dumps({"trace": trace, "round_trip": round_trip})
        sent = time.monotonic()
        try:
            self.process.stdin.write(_LENGTH.pack(len(request)) + request)
            self.process.stdin.flush()
        except OSError:
            pass  # the worker is gone: reading its answer says how
        return lambda: self._output(sent + timeout, timeout)

    def _output(self, deadline: float, timeout: float) -> Wire:
        try:
            answer = self._answer(timeout, deadline)
        except TargetFailure:
            self.close()
            raise
        if "failure" in answer:
            raise TargetFailure(answer["failure"], str(answer["message"]), str(answer.get("cause", "")))
        return _wire(answer["output"])

    def _answer(self, timeout: float, deadline: float | None = None) -> dict[str, Any]:
        deadline = time.monotonic() + timeout if deadline is None else deadline
        head = self._read(_LENGTH.size, deadline, timeout)
        (size,) = _LENGTH.unpack(head)
        if size > MAX_OUTPUT + 64:
            raise TargetFailure("garbage", f"more than {MAX_OUTPUT >> 20} MiB of output for one example")
        body = self._read(size, deadline, timeout)
        try:
            answer: dict[str, Any] = orjson.loads(body)
        except orjson.JSONDecodeError:  # integers past 64 bits, which orjson refuses
            answer = json.loads(body)
        return answer

    def _read(self, size: int, deadline: float, timeout: float) -> bytes:
        data = bytearray()
        while len(data) < size:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.answers], [], [], max(0.0, left))
            if not ready:
                raise TargetFailure("hangs", f"no output within {timeout:g} s")
            chunk = os.read(self.answers, min(size - len(data), 1 << 20))
            if not chunk:
                raise TargetFailure("crashes", self._death())
            data += chunk
        return bytes(data)

    def _death(self) -> str:
        """How the worker ended, and the last lines it wrote to standard error."""
        assert self.process is not None
        try:
            code = self.process.wait(5)
        except subprocess.TimeoutExpired:
            code = None
        if code is None:
            how = "the worker closed its answers and did not exit"
        elif code < 0:
            how = f"the worker was {death_of(code)}"
        else:
            how = f"the worker exited with status {code}"
        if self.errors is not None:
            self.errors.thread.join(1.0)
            tail = bytes(self.errors.data).decode(errors="replace").strip().splitlines()[-3:]
            if tail:
                how += ": " + " | ".join(tail)
        return how

    def close(self) -> None:
        """Stop the worker and every process it started."""
        process, self.process = self.process, None
        if process is None:
            return
        with contextlib.suppress(OSError):
            if process.stdin is not None:
                process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(0.5)
        _kill_group(process)
        if process.stderr is not None:
            process.stderr.close()
        with contextlib.suppress(OSError):
            os.close(self.answers)
        self.answers = -1


#: How long a worker may take to import its target.
_IMPORT_TIMEOUT: Final = 60.0
_LENGTH: Final = _child._LENGTH


@dataclass(frozen=True, slots=True)
class PythonName:
    """A Python target's module (dotted) or ``.py`` file, and its function."""

    where: str
    name: str


def spelling(spec: str) -> PythonName | tuple[str, ...]:
    """What a target string names: a Python function, or a command line (its words).

    Anything that reads as ``X.py:NAME`` or ``dotted.module:NAME`` is Python, whatever its
    path holds (spaces, colons) and whether or not the file exists: a typo must be an error
    that says so, never a program run that the user did not name (``dir with space/c.py:f``
    split as a command runs ``dir``).
    Only what names no Python is split into the words of a command.
    """
    text = spec.strip()
    if not text:
        raise UsageError("the target is empty; name module:function, path/file.py:function or a command")
    match = _CALLABLE.match(text)
    if match is not None:
        return PythonName(match["module"], match["name"])
    where, colon, name = text.rpartition(":")
    if colon and where.endswith(".py"):
        if not name.isidentifier():
            raise UsageError(
                f"{spec!r} names the Python file {where} but {name!r} is not a function name; "
                "say path/file.py:function"
            )
        return PythonName(where, name)
    try:
        words = tuple(shlex.split(text))
    except ValueError as exc:
        raise UsageError(f"cannot read the target {spec!r} as a command line: {exc}") from None
    if not words:
        raise UsageError("the target is empty; name module:function, path/file.py:function or a command")
    return words


class _Timeout(BaseException):
    """Raised inside a hanging target by the alarm; a BaseException so targets cannot swallow it."""


def _run_python(function: Callable[..., Any], trace: Wire, timeout: float, round_trip: bool) -> Wire:
    args: tuple[Any, ...] = (trace, tool_result) if round_trip else (trace,)
    # toolwire's stdout and working folder stay its own: what the target prints is set aside
    # (it would corrupt --format json), and a target that changes folder is put back.
    folder = os.getcwd()
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
                return _with_alarm(function, args, timeout)
            return _in_thread(function, args, timeout)
    finally:
        if os.getcwd() != folder:
            os.chdir(folder)


def _call(function: Callable[..., Any], args: tuple[Any, ...], timeout: float) -> Wire:
    try:
        produced = function(*args)
        if inspect.isawaitable(produced) or inspect.isasyncgen(produced):
            produced = asyncio.run(asyncio.wait_for(collect(produced), timeout))
        elif produced is not None and not isinstance(produced, list | dict):
            produced = list(produced)
    except (_Timeout, TimeoutError):
        raise TargetFailure("hangs", f"no output within {timeout:g} s") from None
    except TargetFailure:
        raise
    except (Exception, SystemExit) as exc:
        raise TargetFailure("raises", raised(exc), cause(exc)) from None
    return _wire(produced)


def _with_alarm(function: Callable[..., Any], args: tuple[Any, ...], timeout: float) -> Wire:
    def alarm(signum: int, frame: Any) -> None:
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, alarm)
    started = time.monotonic()
    pending, interval = 0.0, 0.0
    try:
        try:
            # The caller's own timer (an ITIMER_REAL it set) is put back afterwards, less the time
            # spent; the alarm may fire at once, so this is inside the handler's reach.
            pending, interval = signal.setitimer(signal.ITIMER_REAL, timeout)
            return _call(function, args, timeout)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _Timeout:
        # The alarm fired after the call returned, between the call and disarming it.
        raise TargetFailure("hangs", f"no output within {timeout:g} s") from None
    finally:
        signal.signal(signal.SIGALRM, previous)
        if pending:
            signal.setitimer(signal.ITIMER_REAL, max(1e-6, pending - (time.monotonic() - started)), interval)


def _in_thread(function: Callable[..., Any], args: tuple[Any, ...], timeout: float) -> Wire:
    box: list[Any] = []

    def work() -> None:
        try:
            box.append(_call(function, args, timeout))
        except TargetFailure as failure:
            box.append(failure)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(timeout)
    if not box:
        raise TargetFailure("hangs", f"no output within {timeout:g} s (the worker thread is abandoned)")
    if isinstance(box[0], TargetFailure):
        raise box[0]
    result: Wire = box[0]
    return result


def _wire(produced: Any) -> Wire:
    values = [produced] if isinstance(produced, dict) else produced
    if not isinstance(values, list):
        raise TargetFailure(
            "garbage", f"the target returned {type(produced).__name__}, not a list of objects"
        )
    for number, value in enumerate(values):
        if not isinstance(value, dict):
            raise TargetFailure(
                "garbage", f"output item {number} is {type(value).__name__}, not a JSON object"
            )
    problem = not_json(values)
    if problem is not None:
        raise TargetFailure("garbage", f"the output is not JSON: {problem}")
    return values


def _run_command(command: tuple[str, ...], trace: Wire, timeout: float) -> Wire:
    """Run a command target in a session of its own, killed whole at the timeout and after it exits.

    Its output is read as it comes, up to :data:`MAX_OUTPUT`; no process of it outlives the example.
    """
    stdin = b"".join(orjson.dumps(value) + b"\n" for value in trace)
    try:
        process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        raise UsageError(f"cannot run {command[0]}: {exc.strerror}") from None
    out, err = _Drain(process.stdout, MAX_OUTPUT), _Drain(process.stderr, 1 << 16)
    feeder = threading.Thread(target=_feed, args=(process, stdin), daemon=True)
    feeder.start()
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        hung = True
    else:
        hung = False
    finally:
        _kill_group(process)
    for thread in (feeder, out.thread, err.thread):
        thread.join(1.0)
    for pipe in (process.stdout, process.stderr):
        if pipe is not None:
            pipe.close()
    if out.overflow:
        raise TargetFailure("garbage", f"more than {MAX_OUTPUT >> 20} MiB of output for one example")
    if hung:
        raise TargetFailure("hangs", f"no exit within {timeout:g} s")
    if process.returncode != 0:
        tail = bytes(err.data).decode(errors="replace").strip().splitlines()[-3:]
        raise TargetFailure("crashes", f"exit status {process.returncode}: " + " | ".join(tail))
    values = []
    for number, line in enumerate(bytes(out.data).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            values.append(orjson.loads(line))
        except orjson.JSONDecodeError as exc:
            raise TargetFailure(
                "garbage", f"stdout line {number} is not JSON ({exc}): {line[:60]!r}"
            ) from None
    return _wire(values)


class _Drain:
    """Reads a pipe to its end in a thread, keeping at most ``cap`` bytes: the first, or the last."""

    def __init__(self, pipe: Any, cap: int, tail: bool = False) -> None:
        self.data = bytearray()
        self.overflow = False
        self.thread = threading.Thread(target=self._read, args=(pipe, cap, tail), daemon=True)
        self.thread.start()

    def _read(self, pipe: Any, cap: int, tail: bool) -> None:
        with contextlib.suppress(OSError, ValueError):
            while chunk := pipe.read1(1 << 16):
                if self.overflow and not tail:
                    continue  # keep reading, so the target is never blocked on a full pipe
                if len(self.data) + len(chunk) > cap:
                    self.overflow = True
                    if tail:
                        self.data = (self.data + chunk)[-cap:]
                    else:
                        # What was kept is of no use past the cap: hold no memory for it (a failing
                        # example's frames live on in Hypothesis's report).
                        self.data = bytearray()
                    continue
                self.data += chunk


def _feed(process: subprocess.Popen[bytes], data: bytes) -> None:
    assert process.stdin is not None
    with contextlib.suppress(OSError):
        process.stdin.write(data)
    with contextlib.suppress(OSError):
        process.stdin.close()


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """End the target's whole session: the command and every process it started."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(5)
