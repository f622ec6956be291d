"""``toolwire check``'s options, once: every ``check`` flag is a row of :data:`CHECK_OPTIONS`.

Its fast line reader (:func:`toolwire.cli._plain_check`) and argparse
(:mod:`toolwire.cli._arguments`) are both built from this table, and
``tests/unit/test_cli_fast.py`` holds them to read every line alike.

Plain data, importing nothing: a plain ``check`` reads its line with this table alone.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

__all__ = ["CHECK_OPTIONS", "Option"]


class Option(NamedTuple):
    """An option: its spellings (the first is its help's), where argparse puts it, the values it
    accepts (any when empty), its default and its help text (``{names}``: the protocols;
    ``{presets}``: the log presets).

    ``kind`` is what argparse makes of the values: one word (``store``), every word given, in a list
    (``append``), a whole number (``int``); a ``flag`` takes no value (True when given, else its
    default, False).  ``log``: given, it says FILE is a log of records (the log check takes over).
    The fast line reader reads the one-word options and the flags that are not ``log``'s; a line with
    any other takes the parser's path.
    """

    flags: tuple[str, ...]
    dest: str
    choices: tuple[str, ...] = ()
    default: str | bool | None = None
    metavar: str | None = None
    help: str | None = None
    kind: Literal["store", "append", "int", "flag"] = "store"
    log: bool = False

    @property
    def plain(self) -> bool:
        """Whether the fast line reader reads this option (else the line goes to argparse)."""
        return self.kind in ("store", "flag") and not self.log


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
        help="a variant of the protocol, or a provider profile of its wire (deepseek, moonshot, azure, "
        "...: the provider's own recorded 400s, as `repair --for` takes them); `toolwire protocols` "
        "lists them",
    ),
    Option(("--format",), "format", choices=("text", "json"), default="text"),
    Option(
        ("--strict",),
        "strict",
        default=False,
        help="fail on warnings too: a rule warning makes the exit 1, as an error does (the report still "
        "calls it a warning; its summary says it fails under --strict)",
        kind="flag",
    ),
    Option(
        ("--request",),
        "request",
        metavar="PATH",
        help="FILE is a log of JSON records: the dotted path of each record's request body "
        "(input.inputBodyJson; JSON text found there is decoded)",
        log=True,
    ),
    Option(
        ("--response",),
        "response",
        metavar="PATH",
        help="the dotted path of each record's response body",
        log=True,
    ),
    Option(
        ("--body",),
        "body",
        metavar="PATH",
        help="the dotted path of each record's body, a request or a response",
        log=True,
    ),
    Option(
        ("--log",),
        "log",
        metavar="PRESET",
        help="where a known source keeps its bodies, one per FILE (or one for all): {presets}; a batch's "
        "input and output given together are joined on custom_id",
        kind="append",
        log=True,
    ),
    Option(
        ("--group-by",),
        "group_by",
        metavar="PATH",
        help="the records of one conversation (a session, trace or conversation id): their turns are "
        "checked in order, each request replaying the calls the response before it made (RT-1, RT-2)",
        log=True,
    ),
    Option(
        ("--order-by",),
        "order_by",
        metavar="PATH",
        help="orders a group's records (a timestamp or turn index; default: as logged)",
        log=True,
    ),
    Option(
        ("--jobs",),
        "jobs",
        metavar="N",
        help="processes to check on (default: the CPU count; a pool starts only for several files or "
        "a log over 8 MiB, which is cut at line ends, a grouped one spilled into buckets by group "
        "first); the output is the same as with --jobs 1",
        kind="int",
    ),
)
