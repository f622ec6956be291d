"""The ``toolwire`` command: a thin layer over the library.

``main`` reads the line (a plain ``check`` line without building the parser) and runs its verb
(:mod:`toolwire.cli.commands`, one module each); the handlers (:mod:`toolwire.cli.handlers`)
print and write what the engines return or report.

Exit codes: 0 clean, 1 violations found (with ``--strict``, warnings too), 2 unusable input or usage.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from toolwire.errors import UsageError

__all__ = ["main"]


def _check_options() -> tuple[dict[str, tuple[str, tuple[str, ...], bool]], dict[str, Any]]:
    """``check``'s options the fast reader reads, by spelling (destination, choices, whether it is a
    flag, taking no value), and every option's default: from the one table argparse is built from
    too (:data:`toolwire.cli._options.CHECK_OPTIONS`)."""
    from toolwire.cli._options import CHECK_OPTIONS

    spellings = {
        flag: (o.dest, o.choices, o.kind == "flag") for o in CHECK_OPTIONS if o.plain for flag in o.flags
    }
    return spellings, {o.dest: o.default for o in CHECK_OPTIONS}


def _plain_check(argv: Sequence[str]) -> SimpleNamespace | None:
    """The arguments of a plain ``check`` command line, read without building the parser.

    Files in one run, ``check``'s one-word options, each as two words with a valid value, and its
    flags (``--strict``): what argparse reads from it, exactly (``tests/unit/test_cli_fast.py``).
    Anything else (help, ``--opt=value``, an abbreviation, a log option, an error) is None: argparse
    reads it, and says what is wrong.
    """
    if len(argv) < 2 or argv[0] != "check":
        return None
    spellings, defaults = _check_options()
    values: dict[str, Any] = {"verb": "check", **defaults}
    files: list[str] = []
    runs = 0
    words = iter(argv[1:])
    last_was_file = False
    for word in words:
        if word[:1] != "-" or word == "-":
            files.append(word)
            runs += not last_was_file
            last_was_file = True
            continue
        last_was_file = False
        option = spellings.get(word)
        if option is not None and option[2]:
            values[option[0]] = True
            continue
        value = next(words, None)
        if option is None or value is None or (value[:1] == "-" and value != "-"):
            return None
        destination, choices, _ = option
        if choices and value not in choices:
            return None
        values[destination] = value
    if runs != 1:
        return None
    return SimpleNamespace(files=files, **values)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code."""
    words = sys.argv[1:] if argv is None else list(argv)
    args: Any = _plain_check(words)
    if args is None:
        from toolwire.cli._arguments import parser

        args = parser().parse_args(words)
    try:
        if args.verb in ("fuzz", "explore", "replay"):
            from toolwire.cli.commands._target import hypothesis_home

            hypothesis_home()
        return _run(args)
    except UsageError as exc:
        print(f"toolwire: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("toolwire: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def _run(args: Any) -> int:
    """Run the verb's module (:mod:`toolwire.cli.commands`)."""
    import importlib

    verb = importlib.import_module(f"toolwire.cli.commands.{args.verb}")
    code: int = verb.run(args)
    return code
