"""A plain ``check`` command line is read without argparse, and read exactly as argparse reads it."""

from __future__ import annotations

import contextlib
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolwire.cli import _plain_check
from toolwire.cli._arguments import parser

#: Words a check line is made of: its options, values (valid, invalid, dash-led), files, stdin.
WORDS = st.sampled_from(
    [
        "check", "-p", "--protocol", "--after", "--input-format", "--profile", "--format", "--for",
        "--protocol=x", "-px", "--", "-h", "--help", "-1", "-", "", "a.jsonl", "b.sse", "sse", "jsonl",
        "json", "text", "auto", "eventstream", "openai-chat", "v11", "fuzz", "--strict",
    ]
)  # fmt: skip


def _argparse(words: list[str]) -> dict[str, object] | None:
    """What argparse reads from ``words``, or None when it exits (an error, or help)."""
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        try:
            return vars(parser().parse_args(words))
        except SystemExit:
            return None


@given(st.lists(WORDS, max_size=8).map(lambda words: ["check", *words]))
def test_a_plain_line_is_read_as_argparse_reads_it(words: list[str]) -> None:
    fast = _plain_check(words)
    if fast is not None:
        assert vars(fast) == _argparse(words)


@pytest.mark.parametrize(
    "words",
    [
        ["check", "trace.jsonl"],
        ["check", "a.sse", "b.sse", "-p", "openai-chat-stream", "--format", "json"],
        ["check", "--protocol", "openai-chat", "req.json", "--after", "-", "--profile", "v11"],
        ["check", "-", "--input-format", "sse", "-p", "-"],
        ["check", "trace.jsonl", "--strict", "--format", "json"],
    ],
)
def test_common_lines_take_the_fast_path(words: list[str]) -> None:
    fast = _plain_check(words)
    assert fast is not None
    assert vars(fast) == _argparse(words)


@pytest.mark.parametrize(
    "words",
    [
        ["check"],
        ["check", "-h"],
        ["check", "--format", "yaml", "a"],
        ["check", "a", "-p", "P", "b"],
        ["check", "--protocol=openai-chat", "a"],
        ["check", "--proto", "openai-chat", "a"],
        ["check", "-p"],
        ["fuzz", "a"],
    ],
)
def test_anything_else_goes_to_argparse(words: list[str]) -> None:
    assert _plain_check(words) is None


@pytest.mark.parametrize("verb", ["fuzz", "explore"])
def test_help_names_what_from_takes_apart_from_what_to_takes(
    verb: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from toolwire.cli import main
    from toolwire.protocols import EXPLORED, GENERATED, PROTOCOLS

    with pytest.raises(SystemExit):
        main([verb, "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    sources = GENERATED if verb == "fuzz" else EXPLORED
    taken_from = help_text.split("--from: ")[-1].split(" --to: ")[0].split(", ")
    taken_to = help_text.split(" --to: ")[-1].split(" quirk profiles:")[0].split(", ")
    assert taken_from == [p for p in PROTOCOLS if p in sources]
    # Deliberate pins: the model's output is never a source; the GenAI input messages are one of
    # both verbs (a generator for fuzz, a state space for explore --mutate on the repairer).
    assert "otel-genai-output" not in taken_from
    assert "otel-genai" in taken_from
    assert taken_to == list(PROTOCOLS)


def _verbs() -> list[str]:
    import argparse

    from toolwire.cli._arguments import parser

    subparsers = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction))
    return list(subparsers.choices)


@pytest.mark.parametrize("verb", _verbs())
def test_every_verbs_help_prints_an_example_and_its_exit_codes(
    verb: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from toolwire.cli import main

    with pytest.raises(SystemExit) as stop:
        main([verb, "--help"])
    assert stop.value.code == 0
    help_text = capsys.readouterr().out
    assert f"toolwire {verb}" in help_text.split("example:")[-1]
    assert "exit codes: 0 " in help_text
