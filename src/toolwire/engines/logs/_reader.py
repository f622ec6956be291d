"""The reader: a log file's records (or a byte range of them), as they come, with what cannot be read.

A file is JSON Lines, a JSON document of records, or OTLP JSON (each line an export request of
spans or log records: its calls are read by :meth:`Records.add_otlp`); ``-`` is standard input.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any, BinaryIO, Final

from toolwire.engines._core._results import Problem
from toolwire.engines.logs._envelopes import Preset
from toolwire.engines.logs._otlp import is_otlp
from toolwire.engines.logs._records import Records
from toolwire.errors import UsageError
from toolwire.models import detect_format, read_frames, sniff
from toolwire.models._wire import not_a_trace

__all__ = ["HEAD", "Each", "files_under", "is_jsonl", "is_otlp_file", "read"]

#: The bytes of a file's head read to tell what it is.
HEAD: Final = 65536

#: What is handed each record read, with its line, instead of :class:`Records`.
Each = Callable[[int | None, Any], None]


def read(
    name: str,
    kind: Preset | None,
    records: Records,
    *,
    each: Each | None = None,
    span: tuple[int, int, int] | None = None,
    stdin: BinaryIO | None = None,
) -> list[Problem]:
    """Read the records of the file ``name`` (of its bytes ``start``-``end`` when ``span`` is
    ``(start, end, lines before start)``; ``-``: ``stdin``, else standard input), whose envelope is
    ``kind``, into ``records`` (or hand each record, with its line, to ``each``).  Returns the file's
    input problems (``records`` holds them), in the order met."""
    problems = records.problems_of(name)
    try:
        raw = open(name, "rb") if name != "-" else None  # noqa: SIM115 (closed below)
    except OSError as exc:
        problems.append(Problem(None, None, f"cannot read {name}: {exc.strerror}"))
        return problems
    stream_in: Any = raw if raw is not None else (stdin or sys.stdin.buffer)
    before = 0
    if span is not None and raw is not None:
        from toolwire.engines._core._pool import Range

        stream_in, before = Range(raw, span[0], span[1]), span[2]
    try:
        head, stream = sniff(stream_in)
        unreadable = not_a_trace(head)
        if unreadable is not None:
            problems.append(Problem(None, None, unreadable))
            return problems

        def sink(line: int | None, message: str) -> None:
            problems.append(Problem(None if line is None else line + before, None, message))

        # A part of a file is JSON Lines: the parent cut the file so (its own first line may be a
        # record cut short, whose head alone reads as neither).
        frames = read_frames(stream, sink, "jsonl" if span is not None else detect_format(head))
        if before:
            from toolwire.engines._core._pool import shifted

            frames = shifted(frames, before)
        if is_otlp(head):
            records.add_otlp(name, frames)
            return problems
        if kind is None and records.body is None:
            raise UsageError(
                f"{name}: say where each record keeps its bodies: --request PATH, --response PATH, "
                "--body PATH or --log PRESET"
            )
        if kind is not None and kind.recorded and (span is None or span[0] == 0):
            problems.append(
                Problem(
                    None,
                    None,
                    f"{kind.name} keeps what an SDK recorded of each call, not the bytes on the wire: "
                    "the findings are about the recorded messages",
                    "warning",
                )
            )
        if each is not None:
            for line, record, _ in frames:
                each(line, record)
            return problems
        add = records.add
        for line, record, _ in frames:
            add(name, kind, line, record)
        return problems
    finally:
        if raw is not None:
            raw.close()


def is_otlp_file(path: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` is OTLP JSON (what ``check`` reads without a flag)."""
    if str(path) == "-" or os.path.isdir(path):
        return False
    try:
        with open(path, "rb") as handle:
            return is_otlp(handle.read(4096))
    except OSError:
        return False


def is_jsonl(name: str) -> bool:
    """Whether the file ``name`` reads as JSON Lines (False when it cannot be read: the check in
    one process says why)."""
    try:
        with open(name, "rb") as raw:
            head = raw.read(HEAD)
    except OSError:
        return False
    return not_a_trace(head) is None and detect_format(head) == "jsonl"


def files_under(path: str | os.PathLike[str]) -> list[str]:
    """The files ``path`` names: itself, or every file under a folder (sorted; hidden ones, and
    hidden folders, left out)."""
    if str(path) != "-" and os.path.isdir(path):
        # Every file under it but hidden ones (.git, .DS_Store, an editor's own), not walked into.
        names: list[str] = []
        for top, folders, files in os.walk(path):
            folders[:] = [folder for folder in folders if not folder.startswith(".")]
            names.extend(os.path.join(top, file) for file in files if not file.startswith("."))
        if not names:
            raise UsageError(f"{path} is a folder with no files in it (but hidden ones, if any)")
        return sorted(names)
    return [str(path)]
