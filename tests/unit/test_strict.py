"""``--strict``: a rule warning fails ``check``, ``fuzz``, ``explore`` and ``proxy`` (exit 1) as an
error does; without it, warnings are reported and exit 0.  Each verb on a warning-only input, an
error input and a clean one (the proxy's live runs: ``integration/test_proxy_cli.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

import toolwire
from helpers import layout
from helpers.severity_targets import trailing
from toolwire.cli import main
from toolwire.engines import LiveFinding, Report, check_log, check_path, fuzz
from toolwire.engines.exploring import explore
from toolwire.engines.fuzzing import load_counterexample
from toolwire.engines.proxy import ProxyTotals
from toolwire.properties import Bounds, Finding

CHAT = layout.DATA / "openai-chat"
#: Breaks CC-5b alone, a warning; CC-1, an error; nothing.
WARNING, ERROR, CLEAN = (
    CHAT / "cc5b-duplicate-ids-in-one-message.json",
    CHAT / "cc1-missing-id.json",
    CHAT / "seed002-fixed.json",
)
STREAM = "openai-responses-stream"
#: The targets' file, as the command line names a target in it (``f"{FILE}:trailing"``).
FILE = layout.TESTS / "helpers" / "severity_targets.py"


# -- check ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trace", "strict", "code"),
    [
        (WARNING, False, 0),
        (WARNING, True, 1),
        (ERROR, False, 1),
        (ERROR, True, 1),
        (CLEAN, True, 0),
    ],
    ids=["warning", "warning-strict", "error", "error-strict", "clean-strict"],
)
def test_check_fails_on_a_warning_only_under_strict(
    trace: Path, strict: bool, code: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(trace), "-p", "openai-chat", *(["--strict"] * strict)]) == code
    summary = capsys.readouterr().out.splitlines()[-1]
    assert ("failing: --strict" in summary) == (trace == WARNING and strict)
    if trace == WARNING:
        assert summary.endswith(
            "warnings (0 errors, 1 warning, 0 unreadable parts; failing: --strict)"
            if strict
            else "clean (0 errors, 1 warning, 0 unreadable parts)"
        )


def test_check_json_under_strict_says_so_and_exits_as_it_says(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(WARNING), str(CLEAN), "--format", "json", "--strict", "--jobs", "1"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["strict"] is True and document["exit_code"] == 1
    assert [(r["strict"], r["exit_code"]) for r in document["reports"]] == [(True, 1), (True, 0)]
    assert [f["severity"] for f in document["reports"][0]["findings"]] == ["warning"]
    assert main(["check", str(WARNING), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert "strict" not in document and "strict" not in document["reports"][0]


def test_the_fast_line_reader_and_argparse_read_strict_alike() -> None:
    from toolwire.cli import _plain_check
    from toolwire.cli._arguments import parser

    for words in (["check", "a.json", "--strict"], ["check", "--strict", "a.json", "-p", "openai-chat"]):
        fast = _plain_check(words)
        assert fast is not None and fast.strict is True
        assert vars(fast) == vars(parser().parse_args(words))
    plain = _plain_check(["check", "a.json"])
    assert plain is not None and plain.strict is False


def test_a_log_checked_under_strict_fails_on_its_warnings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "gateway.jsonl"
    log.write_bytes(orjson.dumps({"request": orjson.loads(WARNING.read_bytes())}) + b"\n")
    argv = ["check", str(log), "--request", "request"]
    assert main(argv) == 0
    assert main([*argv, "--strict"]) == 1
    assert "failing: --strict" in capsys.readouterr().out.splitlines()[-1]
    [report] = check_log([log], request="request", strict=True)
    assert report.strict and [f.rule for f in report.findings] == ["CC-5b"]


def test_the_library_judges_strictly_where_asked() -> None:
    trace = orjson.loads(WARNING.read_bytes())
    assert toolwire.check(trace, "openai-chat").exit_code == 0
    strict = toolwire.check(trace, "openai-chat", strict=True)
    assert strict.exit_code == 1 and not strict.ok and strict.errors == []
    assert [r.exit_code for r in check_path(WARNING, strict=True)] == [1]
    assert toolwire.check_file(CLEAN, "openai-chat", strict=True).exit_code == 0
    # A recording's report fails by its parts: a strict part, or a strict whole.
    warned = Report("w", "openai-chat", 1, findings=(_warning(),))
    assert Report("r", "openai-chat", 1, parts=(warned,)).exit_code == 0
    assert Report("r", "openai-chat", 1, parts=(warned,), strict=True).exit_code == 1


def _warning() -> Finding:
    return Finding("CC-5b", "warning", "repeated id", 1, None, "give each its own id", ("call_1",))


# -- fuzz ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "strict", "code"),
    [
        ("trailing", False, 0),
        ("trailing", True, 1),
        ("headless", False, 1),
        ("headless", True, 1),
        ("faithful", True, 0),
    ],
    ids=["warning", "warning-strict", "error", "error-strict", "clean-strict"],
)
def test_fuzz_finds_a_warning_rule_broken_only_under_strict(
    target: str, strict: bool, code: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["fuzz", f"{FILE}:{target}", "--from", STREAM, "--to", STREAM, "--max-examples", "10"]
    argv += ["--quirks", "none", "--out", str(tmp_path), "--format", "json", *(["--strict"] * strict)]
    assert main(argv) == code
    run = json.loads(capsys.readouterr().out)
    assert run["exit_code"] == code and run.get("strict", False) is strict
    expected = {"trailing": ["validity:RS-7b"], "headless": ["validity:RS-7a"]}.get(target, [])
    assert [c["finding"] for c in run["counterexamples"]] == (expected if code else [])


def test_a_strict_finding_is_a_junit_failure_and_replays_strictly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["fuzz", f"{FILE}:trailing", "--from", STREAM, "--to", STREAM, "--max-examples", "10"]
    assert main([*argv, "--quirks", "none", "--out", str(tmp_path), "--format", "junit", "--strict"]) == 1
    junit = capsys.readouterr().out
    assert 'failures="1"' in junit and 'name="validity:RS-7b"><failure' in junit
    [saved] = tmp_path.glob("*.json")
    assert load_counterexample(saved).strict
    assert main(["replay", str(saved), f"{FILE}:trailing"]) == 1
    assert "validity [RS-7b]" in capsys.readouterr().out


def test_the_fuzz_library_takes_strict() -> None:
    loose = fuzz(trailing, STREAM, STREAM, max_examples=10, quirks="none", out=None)
    strict = fuzz(trailing, STREAM, STREAM, max_examples=10, quirks="none", out=None, strict=True)
    assert (loose.exit_code, strict.exit_code) == (0, 1)
    assert [c.finding for c in strict.counterexamples] == ["validity:RS-7b"]
    assert strict.strict and strict.counterexamples[0].strict


# -- explore -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "strict", "code", "verdict"),
    [
        ("trailing", False, 0, "HOLDS"),
        ("trailing", True, 1, "BROKEN"),
        ("headless", False, 1, "BROKEN"),
        ("headless", True, 1, "BROKEN"),
        ("faithful", True, 0, "HOLDS"),
    ],
    ids=["warning", "warning-strict", "error", "error-strict", "clean-strict"],
)
def test_explore_breaks_on_a_warning_rule_only_under_strict(
    target: str, strict: bool, code: int, verdict: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["explore", f"{FILE}:{target}", "--from", STREAM, "--to", STREAM, "--calls", "1", "--deltas", "1"]
    assert main([*argv, "--out", str(tmp_path), *(["--strict"] * strict)]) == code
    out = capsys.readouterr().out
    assert out.splitlines()[-1].startswith(verdict)
    assert ("warning rules failing (--strict)" in out.splitlines()[0]) is strict
    if target == "trailing" and strict:
        assert "FAIL validity [RS-7b]" in out


def test_the_explore_library_takes_strict() -> None:
    bounds = Bounds(calls=1, deltas=1)
    assert explore(trailing, STREAM, STREAM, bounds, out=None, compare=False).verdict == "holds"
    run = explore(trailing, STREAM, STREAM, bounds, out=None, compare=False, strict=True)
    assert run.verdict == "broken" and run.counterexample is not None
    assert run.counterexample.finding == "validity:RS-7b" and run.counterexample.strict


# -- proxy ---------------------------------------------------------------------------------------


def _told(severity: str) -> LiveFinding:
    finding = Finding("RS-7b", severity, "an event after the end", 23, 70, "end the stream", ())  # type: ignore[arg-type]
    return LiveFinding(
        engine="proxy",
        exchange=1,
        time=0.0,
        method="POST",
        endpoint="127.0.0.1/v1/responses",
        side="response",
        protocol=STREAM,
        finding=finding,
    )


@pytest.mark.parametrize(
    ("severity", "strict", "code"),
    [("warning", False, 0), ("warning", True, 1), ("error", False, 1), ("error", True, 1), (None, True, 0)],
    ids=["warning", "warning-strict", "error", "error-strict", "clean-strict"],
)
def test_the_proxy_totals_fail_on_a_warning_only_under_strict(
    severity: str | None, strict: bool, code: int
) -> None:
    from toolwire.cli.handlers._proxy import render_summary

    totals = ProxyTotals(strict=strict)
    totals.exchanges = 1
    if severity is not None:
        totals.add(_told(severity))
    assert totals.exit_code == code
    summary = orjson.loads(render_summary(totals, "json"))["summary"]
    assert summary["exit_code"] == code and summary.get("strict", False) is strict
    text = render_summary(totals, "text")
    assert text.endswith(
        {
            ("warning", False): "0 unreadable parts: clean",
            ("warning", True): "0 unreadable parts: warnings (failing: --strict)",
            ("error", False): "0 unreadable parts: violations",
            ("error", True): "0 unreadable parts: violations",
            (None, True): "0 unreadable parts: clean",
        }[severity, strict]
    ), text


def test_every_verb_that_judges_takes_strict_and_says_so_in_its_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from toolwire.cli._arguments import parser

    for verb, rest in (("check", ["a"]), ("fuzz", ["t", "--from", "a", "--to", "b"]), ("proxy", [])):
        assert parser().parse_args([verb, *rest, "--strict"]).strict is True
        assert parser().parse_args([verb, *rest]).strict is False
    for verb in ("check", "fuzz", "explore", "proxy"):
        with pytest.raises(SystemExit):
            main([verb, "--help"])
        help_text = " ".join(capsys.readouterr().out.split())
        assert "--strict" in help_text and "with --strict" in help_text.split("exit codes:")[1]
