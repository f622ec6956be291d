"""Targets: the converters ``toolwire fuzz`` drives, as Python callables or commands.

A target that raises, hangs past its timeout, crashes or prints garbage
yields a :class:`TargetFailure`: a finding about the target, never a crash
of toolwire.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import importlib
import importlib.util
import inspect
import io
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Final, Literal

import orjson

from toolwire.errors import UsageError

__all__ = ["Target", "TargetFailure", "load_target", "tool_result"]

Wire = list[dict[str, Any]]
Failure = Literal["raises", "hangs", "crashes", "garbage", "mutates"]
_CALLABLE: Final = re.compile(r"^(?P<module>[\w.]+|[^\s:]+\.py):(?P<name>[A-Za-z_]\w*)$")


class TargetFailure(Exception):
    """The target did not produce a trace: it raised, hung, crashed or printed garbage."""

    def __init__(self, kind: Failure, message: str) -> None:
        super().__init__(message)
        self.kind: Failure = kind
        self.message = message


def tool_result(name: str | None, arguments: Any) -> str:
    """The result toolwire's tool runner returns in a round trip: one per (name, arguments).

    ``arguments`` is the arguments' JSON text, or the JSON value itself (wires
    that carry an object).  Command targets that run a round trip compute the
    same themselves.

    >>> tool_result("search", '{"q": "a"}'), tool_result("search", {"q": "a"})
    ('search returned {"q":"a"}', 'search returned {"q":"a"}')
    """
    if isinstance(arguments, str) or arguments is None:
        try:
            value = orjson.loads(arguments or "null")
        except orjson.JSONDecodeError:
            return f"{name} returned {arguments or ''}"
    else:
        value = arguments
    canonical = orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    return f"{name} returned {canonical}"


@dataclass(frozen=True, slots=True)
class Target:
    """A converter under test: ``run(trace)`` returns its output trace or raises TargetFailure."""

    name: str
    run_python: Callable[..., Any] | None = None
    command: tuple[str, ...] = ()

    def run(self, trace: Wire, timeout: float, round_trip: bool = False) -> Wire:
        """Run the target on ``trace``; a round trip also passes :func:`tool_result` as the tool runner."""
        if self.run_python is not None:
            return _run_python(self.run_python, trace, timeout, round_trip)
        if round_trip:
            raise UsageError(
                f"{self.name}: a round trip needs a Python target (it calls back the tool runner)"
            )
        return _run_command(self.command, trace, timeout)


def load_target(spec: str | Callable[..., Any]) -> Target:
    """A target from ``module:function``, ``path/to/file.py:function``, a callable, or a command line."""
    if callable(spec):
        return Target(getattr(spec, "__qualname__", repr(spec)), run_python=spec)
    named = _python_name(spec)
    if named is None:
        words = tuple(shlex.split(spec))
        if not words:
            raise UsageError("the target is empty; name module:function or a command")
        return Target(spec, command=words)
    where, name = named
    function = getattr(_import(where), name, None)
    if not callable(function):
        raise UsageError(f"{where} has no callable {name!r}")
    return Target(spec, run_python=function)


def _python_name(spec: str) -> tuple[str, str] | None:
    """``(module or file, function)`` when ``spec`` names Python, else None (a command line).

    A ``.py`` file that exists is Python even when its path has spaces in it.
    """
    match = _CALLABLE.match(spec)
    if match is not None:
        return match["module"], match["name"]
    where, _, name = spec.rpartition(":")
    if where.endswith(".py") and name.isidentifier() and Path(where).is_file():
        return where, name
    return None


def _import(name: str) -> ModuleType:
    if name.endswith(".py"):
        path = Path(name)
        if not path.is_file():
            raise UsageError(f"no such file: {name}")
        # Keyed by the file's full path: two conv.py files in two folders are two targets.
        digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:12]
        stem = re.sub(r"\W", "_", path.stem)
        module_name = f"_toolwire_target_{stem}_{digest}"
        if module_name in sys.modules:
            return sys.modules[module_name]
        spec = importlib.util.spec_from_file_location(module_name, path)
        if spec is None or spec.loader is None:
            raise UsageError(f"cannot load {name} as a Python module")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        # Like ``python file.py``: the file's folder is importable while it loads (sibling helpers).
        folder = str(path.resolve().parent)
        sys.path.insert(0, folder)
        try:
            spec.loader.exec_module(module)
        except Exception as exc:
            del sys.modules[module_name]
            raise UsageError(f"importing {name} failed: {type(exc).__name__}: {exc}") from None
        finally:
            sys.path.remove(folder)
        return module
    try:
        return importlib.import_module(name)
    except Exception as exc:
        raise UsageError(f"cannot import {name}: {type(exc).__name__}: {exc}") from None


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
            produced = asyncio.run(asyncio.wait_for(_collect(produced), timeout))
        elif produced is not None and not isinstance(produced, list | dict):
            produced = list(produced)
    except (_Timeout, TimeoutError):
        raise TargetFailure("hangs", f"no output within {timeout:g} s") from None
    except TargetFailure:
        raise
    except (Exception, SystemExit) as exc:
        frames = traceback.extract_tb(exc.__traceback__)[-1:]
        where = f" at {Path(frames[0].filename).name}:{frames[0].lineno}" if frames else ""
        raise TargetFailure("raises", f"{type(exc).__name__}: {exc}{where}") from None
    return _wire(produced)


async def _collect(produced: Any) -> Any:
    if inspect.isasyncgen(produced):
        return [item async for item in produced]
    return await produced


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
    problem = _not_json(values)
    if problem is not None:
        raise TargetFailure("garbage", f"the output is not JSON: {problem}")
    return values


def _not_json(values: Wire) -> str | None:
    """Why ``values`` cannot be written as strict JSON (sets, bytes, NaN, absurd nesting), or None."""
    try:
        json.dumps(values, allow_nan=False)
    except (TypeError, ValueError) as exc:
        return str(exc)
    except RecursionError:
        return "nested too deeply to write"
    return None


#: The most output a command target may print for one example (64 MiB); past it, ``garbage``.
MAX_OUTPUT: Final = 64 * 1024 * 1024


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
    """Reads a pipe to its end in a thread, keeping at most ``cap`` bytes."""

    def __init__(self, pipe: Any, cap: int) -> None:
        self.data = bytearray()
        self.overflow = False
        self.thread = threading.Thread(target=self._read, args=(pipe, cap), daemon=True)
        self.thread.start()

    def _read(self, pipe: Any, cap: int) -> None:
        with contextlib.suppress(OSError, ValueError):
            while chunk := pipe.read1(1 << 16):
                if len(self.data) + len(chunk) > cap:
                    self.overflow = True
                    continue  # keep reading, so the target is never blocked on a full pipe
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
