"""Targets: the converters ``toolwire fuzz`` drives, as Python callables or commands.

A target that raises, hangs past its timeout, crashes or prints garbage
yields a :class:`TargetFailure`: a finding about the target, never a crash
of toolwire.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import inspect
import re
import shlex
import signal
import subprocess
import sys
import threading
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
    match = _CALLABLE.match(spec)
    if match is None:
        words = tuple(shlex.split(spec))
        if not words:
            raise UsageError("the target is empty; name module:function or a command")
        return Target(spec, command=words)
    module = _import(match["module"])
    function = getattr(module, match["name"], None)
    if not callable(function):
        raise UsageError(f"{match['module']} has no callable {match['name']!r}")
    return Target(spec, run_python=function)


def _import(name: str) -> ModuleType:
    if name.endswith(".py"):
        path = Path(name)
        if not path.is_file():
            raise UsageError(f"no such file: {name}")
        module_name = f"_toolwire_target_{path.stem}"
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
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        return _with_alarm(function, args, timeout)
    return _in_thread(function, args, timeout)


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
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        return _call(function, args, timeout)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


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
    return values


def _run_command(command: tuple[str, ...], trace: Wire, timeout: float) -> Wire:
    stdin = b"".join(orjson.dumps(value) + b"\n" for value in trace)
    try:
        done = subprocess.run(command, input=stdin, capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise TargetFailure("hangs", f"no exit within {timeout:g} s") from None
    except OSError as exc:
        raise UsageError(f"cannot run {command[0]}: {exc.strerror}") from None
    if done.returncode != 0:
        tail = done.stderr.decode(errors="replace").strip().splitlines()[-3:]
        raise TargetFailure("crashes", f"exit status {done.returncode}: " + " | ".join(tail))
    values = []
    for number, line in enumerate(done.stdout.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            values.append(orjson.loads(line))
        except orjson.JSONDecodeError as exc:
            raise TargetFailure(
                "garbage", f"stdout line {number} is not JSON ({exc}): {line[:60]!r}"
            ) from None
    return _wire(values)
