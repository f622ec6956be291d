"""The worker process a Python target runs in, and the tool runner of round trips.

``toolwire fuzz module:function`` (or ``path/conv.py:function``) runs the converter here, in a
process of its own, so that nothing it does can take toolwire down: an ``os._exit``, a segfault,
a hang in C code (the parent kills the worker at the timeout), a fork, prints, a change of folder.
The parent starts this file as a script, so the worker imports nothing of toolwire: only the
standard library, orjson and the target.

The protocol, over the worker's standard input (requests) and a pipe of its own (answers): each
message is a 4-byte big-endian length and that many bytes of JSON.  The first answer says whether
the target imported; each request ``{"trace": [...], "round_trip": bool}`` gets ``{"output": ...}``
or ``{"failure": kind, "message": text}``.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import importlib.util
import inspect
import json
import os
import re
import struct
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, BinaryIO, Final

import orjson

__all__ = ["MAX_OUTPUT", "cause", "collect", "load_module", "not_json", "raised", "tool_result"]

#: The most output a target may produce for one example (64 MiB); past it, ``garbage``.
MAX_OUTPUT: Final = 64 * 1024 * 1024
_LENGTH: Final = struct.Struct(">I")


def tool_result(name: str | None, arguments: Any) -> str:
    """The result toolwire's tool runner returns in a round trip: one per (name, arguments).

    ``arguments`` is the arguments' JSON text, or the JSON value itself (wires
    that carry an object).  Command targets that run a round trip compute the
    same themselves.

    >>> tool_result("search", '{"q": "a"}'), tool_result("search", {"q": "a"}), tool_result("search", "")
    ('search returned {"q":"a"}', 'search returned {"q":"a"}', 'search returned {}')
    """
    if isinstance(arguments, str) or arguments is None:
        try:
            # A call without arguments ("" or none, as vLLM and Ollama send it) is a call with {}.
            value = orjson.loads(arguments or "{}")
        except orjson.JSONDecodeError:
            return f"{name} returned {arguments or ''}"
    else:
        value = arguments
    canonical = orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    return f"{name} returned {canonical}"


class ImportFailed(Exception):
    """The target's module could not be imported; the message says why."""


def load_module(name: str) -> ModuleType:
    """Import ``name``: a dotted module (from the working folder too), or a ``.py`` file.

    A file is keyed by its full path, so two ``conv.py`` files in two folders are two
    targets; its folder is importable while it loads, as under ``python conv.py``.
    """
    if name.endswith(".py"):
        path = Path(name)
        if not path.is_file():
            raise ImportFailed(f"no such file: {name}")
        digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:12]
        stem = re.sub(r"\W", "_", path.stem)
        module_name = f"_toolwire_target_{stem}_{digest}"
        if module_name in sys.modules:
            return sys.modules[module_name]
        spec = importlib.util.spec_from_file_location(module_name, path)
        if spec is None or spec.loader is None:
            raise ImportFailed(f"cannot load {name} as a Python module")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        folder = str(path.resolve().parent)
        sys.path.insert(0, folder)
        try:
            spec.loader.exec_module(module)
        except BaseException as exc:
            del sys.modules[module_name]
            raise ImportFailed(f"importing {name} failed: {type(exc).__name__}: {exc}") from None
        finally:
            sys.path.remove(folder)
        return module
    try:
        return importlib.import_module(name)
    except BaseException as exc:
        raise ImportFailed(f"cannot import {name}: {type(exc).__name__}: {exc}") from None


def load_function(where: str, name: str) -> Callable[..., Any]:
    """The callable ``name`` of module or file ``where``."""
    function: Callable[..., Any] | None = getattr(load_module(where), name, None)
    if not callable(function):
        raise ImportFailed(f"{where} has no callable {name!r}")
    return function


def _send(channel: BinaryIO, message: dict[str, Any]) -> None:
    data = orjson.dumps(message)
    channel.write(_LENGTH.pack(len(data)) + data)
    channel.flush()


def _receive(requests: BinaryIO) -> bytes | None:
    head = requests.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        return None
    (size,) = _LENGTH.unpack(head)
    return requests.read(size)


def strict_json(value: Any) -> str | Exception:
    """``value`` as strict JSON text, or what stopped it (sets, bytes, NaN, absurd nesting)."""
    try:
        return json.dumps(value, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as exc:
        return exc


def _why(exc: Exception) -> str:
    return "nested too deeply to write" if isinstance(exc, RecursionError) else str(exc)


def not_json(value: Any) -> str | None:
    """Why ``value`` cannot be written as strict JSON, or None."""
    written = strict_json(value)
    return _why(written) if isinstance(written, Exception) else None


def raised(exc: BaseException) -> str:
    """What a target raised, and the line it raised at: ``ValueError: bad at conv.py:12``."""
    frames = traceback.extract_tb(exc.__traceback__)[-1:]
    where = f" at {Path(frames[0].filename).name}:{frames[0].lineno}" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"


def cause(exc: BaseException) -> str:
    """Which error a target raised, as its finding names it: the exception's type and the function
    that raised it (``JSONDecodeError@raw_decode``), stable when the target's lines move."""
    frames = traceback.extract_tb(exc.__traceback__)[-1:]
    return f"{type(exc).__name__}@{frames[0].name}" if frames else type(exc).__name__


def _encoded(produced: Any) -> bytes | str:
    """The output as strict JSON bytes, or why it cannot be (sets, bytes, NaN, absurd nesting)."""
    if inspect.isgenerator(produced) or (
        produced is not None and not isinstance(produced, list | dict | str | int | float | bool)
    ):
        try:
            produced = list(produced)
        except TypeError:
            return f"the target returned {type(produced).__name__}, not a list of objects"
    text = strict_json(produced)
    if isinstance(text, Exception):
        return f"the output is not JSON: {_why(text)}"
    if len(text) > MAX_OUTPUT:
        return f"more than {MAX_OUTPUT >> 20} MiB of output for one example"
    return text.encode()


def _answer(function: Callable[..., Any], request: bytes) -> dict[str, Any] | bytes:
    asked = orjson.loads(request)
    trace = asked["trace"]
    before = orjson.dumps(trace)
    args: tuple[Any, ...] = (trace, tool_result) if asked["round_trip"] else (trace,)
    try:
        produced = function(*args)
        if inspect.isawaitable(produced) or inspect.isasyncgen(produced):
            produced = asyncio.run(collect(produced))
    except (Exception, SystemExit) as exc:
        return {"failure": "raises", "message": raised(exc), "cause": cause(exc)}
    if orjson.dumps(trace) != before:
        return {"failure": "mutates", "message": "the target changed its input trace in place"}
    encoded = _encoded(produced)
    if isinstance(encoded, str):
        return {"failure": "garbage", "message": encoded}
    return b'{"output":' + encoded + b"}"


async def collect(produced: Any) -> Any:
    """What an async target produced: an awaited value, or an async generator's items."""
    if inspect.isasyncgen(produced):
        return [item async for item in produced]
    return await produced


def main(argv: list[str]) -> int:
    """Serve requests for the target ``argv[2]:argv[3]``, answering on file descriptor ``argv[1]``."""
    channel = os.fdopen(int(argv[1]), "wb")
    requests = sys.stdin.buffer
    # What the target prints goes nowhere: standard output is not the answer channel.
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.close(quiet)
    # Like ``python -m``: the working folder is importable, this file's folder is not.
    sys.path[0] = os.getcwd()
    try:
        function = load_function(argv[2], argv[3])
    except ImportFailed as exc:
        _send(channel, {"usage": str(exc)})
        return 0
    _send(channel, {"ready": True})
    me, folder = os.getpid(), os.getcwd()
    while (request := _receive(requests)) is not None:
        answer = _answer(function, request)
        if os.getpid() != me:  # a fork of the target returned here: it must not answer too
            os._exit(0)
        if os.getcwd() != folder:
            os.chdir(folder)
        if isinstance(answer, bytes):
            channel.write(_LENGTH.pack(len(answer)) + answer)
            channel.flush()
        else:
            _send(channel, answer)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
