"""``toolwire check``'s options, once: for its fast line reader (:mod:`toolwire.cli`) and argparse
(:mod:`toolwire.cli._arguments`), which ``tests/unit/test_cli_fast.py`` holds to read every line alike.

Plain data, importing nothing: a plain ``check`` reads its line with this table alone.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["CHECK_OPTIONS", "Option"]


class Option(NamedTuple):
    """An option that takes a value: its spellings (the first is its help's), where argparse puts it,
    the values it accepts (any when empty), its default and its help text (``{names}``: the
    protocols)."""

    flags: tuple[str, ...]
    dest: str
    choices: tuple[str, ...] = ()
    default: str | None = None
    metavar: str | None = None
    help: str | None = None


#: ``check``'s options, in the order its help lists them.
CHECK_OPTIONS: tuple[Option, ...] = (
    Option(
        ("--protocol", "-p"),
        "protocol",
        metavar="P",
        help="one of: {names} (default: detected from the content, or a recording's endpoints)",
    ),
    Option(
        ("--after",),
        "after",
        metavar="STREAM",
        help="the stream this request followed (round-trip rules RT-1, RT-2)",
    ),
    Option(
        ("--input-format",),
        "input_format",
        choices=("auto", "sse", "jsonl", "json", "eventstream"),
        default="auto",
        help="how FILE is encoded (default: detected from its first bytes)",
    ),
    Option(
        ("--profile",),
        "profile",
        metavar="NAME",
        help="a variant of the protocol (`toolwire protocols` lists them)",
    ),
    Option(("--format",), "format", choices=("text", "json"), default="text"),
)
