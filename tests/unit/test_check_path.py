"""The library checks what ``toolwire check`` checks, and for every protocol, in the library as in
the CLI: traffic of another protocol is never judged, input that is no trace exits 2, a first line is
read whole however a pipe delivers it, an after-stream that cannot be read is said, and standard
input named twice is a usage error."""

from __future__ import annotations

import builtins
import contextlib
import gzip
import io
import itertools
import json
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers.corpus import DATA
from toolwire.cli import main
from toolwire.cli.handlers._check import render_json, render_text
from toolwire.engines import Report, check_file, check_path
from toolwire.engines._core._detect import reads_as
from toolwire.engines._core._results import MAX_PROBLEMS
from toolwire.errors import UsageError
from toolwire.models import DONE, read_frames
from toolwire.properties import Monitor
from toolwire.protocols import PROTOCOLS

#: Every trace, cassette and HAR file of the corpus: the protocols' own and the recordings, then the
#: traffic recorded from other projects' test suites (over a thousand files).
FILES = sorted(p for p in DATA.rglob("*") if p.is_file() and p.suffix != ".toml")
CORE = [p for p in FILES if p.relative_to(DATA).parts[0] != "traffic"]
TRAFFIC = [p for p in FILES if p.relative_to(DATA).parts[0] == "traffic"]
#: Each protocol's own traces: ``tests/data/<protocol>/``.
OWN = {name: sorted((DATA / name).iterdir()) for name in PROTOCOLS if (DATA / name).is_dir()}
STREAMS = [name for name, spec in PROTOCOLS.items() if spec.shape == "stream" and name in OWN]


def cli(*argv: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    """``toolwire ARGV`` run in this process: its exit code, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.ExitStack() as stack:
        stack.enter_context(contextlib.redirect_stdout(out))
        stack.enter_context(contextlib.redirect_stderr(err))
        if stdin is not None:
            stack.enter_context(_stdin(io.BytesIO(stdin)))
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@contextlib.contextmanager
def _stdin(raw: Any) -> Iterator[None]:
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(raw)
    try:
        yield
    finally:
        sys.stdin.close()
        sys.stdin = saved


def cli_json(*argv: str) -> tuple[int, list[dict[str, Any]]]:
    code, out, _ = cli(*argv, "--format", "json")
    document = json.loads(out)
    assert document["exit_code"] == code
    return code, document["reports"]


def as_json(reports: list[Report]) -> list[dict[str, Any]]:
    return json.loads(json.dumps([r.to_json() for r in reports]))


def first_frames(path: Path) -> list[Any]:
    """The first frames of the trace at ``path`` (``[DONE]`` left out)."""
    with path.open("rb") as raw:
        frames = read_frames(raw, lambda *_: None)
        return list(itertools.islice((f for f in frames if f[1] is not DONE), 200))


# Library = CLI.


def _library_reports_what_the_cli_reports(path: Path) -> None:
    code, reports = cli_json("check", str(path))
    found = check_path(path)
    assert as_json(found) == reports
    assert max(r.exit_code for r in found) == code


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(DATA)))
def test_the_library_reports_what_the_cli_reports(path: Path) -> None:
    _library_reports_what_the_cli_reports(path)


@pytest.mark.slow
@pytest.mark.parametrize("path", TRAFFIC, ids=lambda p: str(p.relative_to(DATA)))
def test_the_library_reports_what_the_cli_reports_on_recorded_traffic(path: Path) -> None:
    _library_reports_what_the_cli_reports(path)


@pytest.mark.parametrize(
    "path", [p for name in OWN for p in OWN[name]], ids=lambda p: str(p.relative_to(DATA))
)
def test_the_library_reports_what_the_cli_reports_under_p(path: Path) -> None:
    protocol = path.parent.name
    assert as_json(check_path(path, protocol)) == cli_json("check", str(path), "-p", protocol)[1]


def test_check_file_on_a_cassette_reports_what_check_reports() -> None:
    cassette = DATA / "recordings" / "crewai-anthropic-gzip.yaml"
    code, reports = cli_json("check", str(cassette))
    whole = check_file(cassette, "anthropic-messages")
    assert [part.to_json() for part in check_path(cassette)] == reports
    assert (code, whole.exit_code) == (0, 0)
    assert [p.protocol for p in whole.parts] == ["anthropic-messages", ""]


RECORDINGS = sorted((DATA / "recordings").iterdir())


@pytest.mark.parametrize("path", RECORDINGS, ids=lambda p: p.name)
def test_a_recording_is_read_whole_from_a_file_and_from_a_pipe(path: Path) -> None:
    # Longer than the bytes read first to tell a recording (64 KiB): those are read once, not twice.
    reports = check_path(path)
    assert [r.unreadable for r in reports] == [None] * len(reports)
    with _stdin(_piped(path.read_bytes(), 100)):
        piped = check_path("-")
    assert [dict(r, source="") for r in as_json(piped)] == [dict(r, source="") for r in as_json(reports)]


def test_one_open_and_one_monitor_per_file(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    real_open = builtins.open

    def counting_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    made: list[type] = []
    real_init = Monitor.__init__

    def counting_init(self: Monitor, *args: Any, **kwargs: Any) -> None:
        made.append(type(self))
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", counting_open)
    monkeypatch.setattr(Monitor, "__init__", counting_init)
    for name in ("openai-responses-stream", "anthropic-stream", "openai-chat", "gemini-contents"):
        for path in OWN[name]:
            opened.clear()
            made.clear()
            assert cli("check", str(path), "-p", name)[0] in (0, 1)
            assert opened.count(str(path)) == 1, path
            # One monitor per conversation of a request log (one body here), one for a stream.
            assert len(made) == 1, (path, made)


def test_stdin_is_read_once_as_it_comes_and_left_in_place() -> None:
    trace = OWN["anthropic-stream"][0]
    stdin = sys.stdin
    code, out, _ = cli("check", "-", stdin=trace.read_bytes())
    assert (code, out.splitlines()[0]) == (
        check_file(trace, "anthropic-stream").exit_code,
        "-: detected anthropic-stream",
    )
    assert sys.stdin is stdin
    reader, writer = os.pipe()
    with os.fdopen(writer, "wb") as pipe:
        pipe.write(trace.read_bytes())
    with _stdin(os.fdopen(reader, "rb")):
        # A pipe cannot be read twice: detection and the check read it once between them.
        first = check_path("-")
        assert not sys.stdin.closed
        again = check_path("-", "anthropic-stream")
    assert [dict(r, source="-") for r in as_json(check_path(trace))] == as_json(first)
    assert "the input is empty" in again[0].problems[-1].message


def test_an_unreadable_file_is_a_problem_of_its_report_and_the_others_are_checked(tmp_path: Path) -> None:
    bad = DATA / "openai-responses-stream" / "rs7c-two-items-one-call-id.sse"
    for unreadable in (tmp_path / "missing.sse", tmp_path):
        code, out, err = cli("check", str(bad), str(unreadable), str(bad), "-p", "openai-responses-stream")
        assert code == 2
        assert out.count("RS-7c error") == 2 and f"{unreadable}: input error:" in out
        assert err.startswith("toolwire: ") and str(unreadable) in err
        (report,) = check_path(unreadable, "openai-responses-stream")
        assert report.exit_code == 2 and report.unreadable == report.problems[0].message


# Traffic of another protocol (or of none) under -p P is never judged.


def _foreign_pairs(files: dict[str, list[Path]]) -> Iterator[tuple[Path, str, str]]:
    """A trace of each protocol, with every protocol that does not read it as its own."""
    for own, paths in files.items():
        for path in paths:
            frames = first_frames(path)
            for name, spec in PROTOCOLS.items():
                if name != own and not reads_as(spec, frames):
                    yield path, own, name


def _assert_foreign(path: Path, own: str, name: str) -> None:
    report = check_file(path, name)
    assert (report.exit_code, report.findings) == (2, ()), (path, name)
    (said,) = [p.message for p in report.problems if p.message.startswith("nothing in the input")]
    assert f"is {name} traffic" in said
    # It names what the trace reads as: its protocol, or the one its protocol is a variant of.
    looks = said.partition("reads as ")[2].split(";")[0].split(", ")
    assert own in looks or PROTOCOLS[own].variant_of in looks, said


@pytest.mark.parametrize("own", sorted(OWN))
def test_a_trace_of_another_protocol_is_unusable_input_naming_its_protocol(own: str) -> None:
    for path, _, name in _foreign_pairs({own: OWN[own][:1]}):
        _assert_foreign(path, own, name)


@pytest.mark.slow
def test_every_trace_of_the_corpus_under_every_other_protocol_is_unusable_input() -> None:
    pairs = list(_foreign_pairs(OWN))
    assert len(pairs) > 1000
    for path, own, name in pairs:
        _assert_foreign(path, own, name)


@pytest.mark.parametrize("name", sorted(PROTOCOLS))
def test_events_of_no_protocol_are_unusable_input(tmp_path: Path, name: str) -> None:
    for number, events in enumerate(
        [
            [{"type": "response.teleport", "sequence_number": n} for n in range(3)],
            [{"kind": "x"}] * 5,
            [{}] * 3,
            [[1, 2], "text", 3],
        ]
    ):
        path = tmp_path / f"t{number}.jsonl"
        path.write_text("".join(json.dumps(event) + "\n" for event in events))
        report = check_file(path, name)
        assert (report.exit_code, report.findings) == (2, ()), (name, events)
        assert cli("check", str(path), "-p", name)[0] == 2


@pytest.mark.slow
@pytest.mark.parametrize("name", ["anthropic-stream", "gemini-stream", "openai-chat", "mcp"])
def test_the_cli_process_exits_2_on_traffic_of_another_protocol(name: str) -> None:
    for path, _, other in itertools.islice(_foreign_pairs({name: OWN[name][:1]}), 6):
        done = subprocess.run(
            [sys.executable, "-m", "toolwire", "check", str(path), "-p", other],
            capture_output=True,
            check=False,
        )
        assert done.returncode == 2 and b"Traceback" not in done.stderr
        assert b"nothing in the input is" in done.stdout


# Empty input, or input that is no trace at all, exits 2 and says so; nothing made up.


def _truncated(name: str) -> bytes:
    """Half of the first trace of ``name`` written as one indented JSON document (a list for a stream)."""
    values = [value for _, value, _ in first_frames(OWN[name][0])] if name in OWN else [{"a": 1}]
    document = values if len(values) != 1 else values[0]
    text = json.dumps(document, indent=1).encode()
    return text[: len(text) // 2]


NOT_A_TRACE = {
    "empty": lambda name: b"",
    "whitespace": lambda name: b"  \n\n\t\r\n",
    "bom": lambda name: b"\xef\xbb\xbf\n",
    "binary": lambda name: random.Random(name).randbytes(65536),
    "binary-text": lambda name: bytes(random.Random(name).choice(range(0x80, 0x100)) for _ in range(4096)),
    "gzip": lambda name: gzip.compress(OWN[name][0].read_bytes() if name in OWN else b"{}\n"),
    "utf-16": lambda name: (OWN[name][0].read_text() if name in OWN else "{}\n").encode("utf-16"),
    "truncated": _truncated,
}


@pytest.mark.parametrize("kind", sorted(NOT_A_TRACE))
@pytest.mark.parametrize("name", sorted(PROTOCOLS))
def test_input_that_is_no_trace_exits_2_with_its_problems_capped(
    tmp_path: Path, name: str, kind: str
) -> None:
    path = tmp_path / "input"
    path.write_bytes(NOT_A_TRACE[kind](name))
    report = check_file(path, name)
    assert (report.exit_code, report.findings) == (2, ()), [p.message for p in report.problems][:3]
    assert report.events == 0 or kind.startswith("binary")
    assert len(report.problems) <= MAX_PROBLEMS + 1
    code, out, _ = cli("check", str(path), "-p", name)
    assert code == 2 and len(out.splitlines()) <= MAX_PROBLEMS + 2
    if kind in ("empty", "whitespace", "bom"):
        assert "the input is empty" in report.problems[-1].message


@pytest.mark.parametrize("name", sorted(PROTOCOLS))
def test_dev_null_is_empty_input(name: str) -> None:
    (report,) = check_path(os.devnull, name)
    assert (report.exit_code, report.findings) == (2, ())
    assert "the input is empty" in report.problems[-1].message
    assert cli("check", os.devnull, "-p", name)[0] == 2


# The format is decided on a whole first line, however long, however a pipe delivers it.


def _as_jsonl(name: str) -> tuple[bytes, list[Any]]:
    values = [value for _, value, _ in first_frames(OWN[name][0]) if isinstance(value, dict)]
    return b"".join(json.dumps(value).encode() + b"\n" for value in values), values


def _verdict(reports: list[Report]) -> list[tuple[int, int, list[str]]]:
    return [(r.exit_code, r.events, sorted(f.rule for f in r.findings)) for r in reports]


@pytest.mark.parametrize("name", STREAMS)
def test_a_first_line_longer_than_any_buffer_is_still_a_line(tmp_path: Path, name: str) -> None:
    text, values = _as_jsonl(name)
    short = tmp_path / "short.jsonl"
    short.write_bytes(text)
    padded = [dict(values[0], x_toolwire_padding="x" * 70_000), *values[1:]]
    long = tmp_path / "long.jsonl"
    long.write_bytes(b"".join(json.dumps(value).encode() + b"\n" for value in padded))
    assert _verdict(check_path(long, name)) == _verdict(check_path(short, name))
    assert cli("check", str(long), "-p", name)[0] == check_path(short, name)[0].exit_code


def _piped(data: bytes, first: int) -> Any:
    """A pipe that delivers ``data[:first]``, then, a moment later, the rest."""
    reader, writer = os.pipe()

    def write() -> None:
        with os.fdopen(writer, "wb", buffering=0) as pipe:
            pipe.write(data[:first])
            time.sleep(0.05)
            pipe.write(data[first:])

    threading.Thread(target=write, daemon=True).start()
    return os.fdopen(reader, "rb")


@pytest.mark.parametrize("name", STREAMS)
def test_a_pipe_whose_first_read_is_part_of_a_line_reads_as_the_file(name: str) -> None:
    path = OWN[name][0]
    data = path.read_bytes()
    expected = _verdict(check_path(path, name))
    for first in (1, 3, 30, len(data) // 2):
        with _stdin(_piped(data, first)):
            assert _verdict(check_path("-", name)) == expected, first
    with _stdin(_piped(data, 3)):
        assert _verdict(check_path("-")) == _verdict(check_path(path)), "detected"


# The stream a request followed must be read, or the round trip says so.


def _requests() -> Iterator[tuple[str, Path, Path]]:
    for name, spec in PROTOCOLS.items():
        streams = [s for s in spec.follows if s in OWN]
        if spec.follows and name in OWN and streams:
            yield name, OWN[name][0], OWN[streams[0]][0]


UNREADABLE_AFTER = {
    "empty": lambda stream: b"",
    "whitespace": lambda stream: b"\n \n\t\n",
    "binary": lambda stream: random.Random(1).randbytes(4096),
    "gzip": gzip.compress,
    "utf-16": lambda stream: stream.decode().encode("utf-16"),
    "no-events": lambda stream: b'{"x": 1}\n',
}


@pytest.mark.parametrize("kind", sorted(UNREADABLE_AFTER))
@pytest.mark.parametrize(("name", "request_", "stream"), list(_requests()), ids=lambda v: str(v)[-30:])
def test_an_after_stream_that_cannot_be_read_is_an_input_error_naming_it(
    tmp_path: Path, name: str, request_: Path, stream: Path, kind: str
) -> None:
    after = tmp_path / "after.sse"
    after.write_bytes(UNREADABLE_AFTER[kind](stream.read_bytes()))
    report = check_file(request_, name, after=after)
    assert report.exit_code == 2 or report.errors, kind
    assert any(f"--after {after}" in p.message and p.severity == "error" for p in report.problems), kind
    assert cli("check", str(request_), "-p", name, "--after", str(after))[0] == report.exit_code


# Standard input named twice is a usage error; nothing ends in a traceback.


@pytest.mark.parametrize(
    "argv",
    [["-", "-"], ["-", "--after", "-"], ["a.json", "-", "--after", "-"], ["-", "-", "-"]],
)
def test_stdin_named_twice_is_a_usage_error(argv: list[str]) -> None:
    code, _, err = cli("check", *argv, "-p", "openai-chat", stdin=b"{}")
    assert code == 2 and "standard input (-) can be read once" in err
    if argv[0] == "-" and "--after" in argv:
        with pytest.raises(UsageError, match="can be read once"):
            check_path("-", "openai-chat", after="-")


def test_text_output_cuts_a_finding_of_thousands_of_ids(tmp_path: Path) -> None:
    # One finding: 3,000 calls left unanswered when the user speaks again.  Text shows its first
    # ids and how many more; JSON has them all.
    calls = [
        {"id": f"call_{n:05d}", "type": "function", "function": {"name": "f", "arguments": "{}"}}
        for n in range(3000)
    ]
    body = {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": None, "tool_calls": calls},
            {"role": "user", "content": "and?"},
        ],
    }
    path = tmp_path / "body.json"
    path.write_text(json.dumps(body))
    [report] = check_path(path, "openai-chat")
    [finding] = report.findings
    assert len(finding.ids) == 3000 and len(finding.message) > 30_000
    lines = render_text([report]).splitlines()
    assert max(len(line) for line in lines) < 2200
    assert lines[0].endswith("more characters: --format json has it whole)")
    assert lines[1] == "    ids: " + ", ".join(f"call_{n:05d}" for n in range(20)) + ", ... and 2980 more"
    assert json.loads(render_json([report]))["reports"][0]["findings"][0]["ids"] == [c["id"] for c in calls]


def _chat_line(n: int) -> str:
    call = {"id": f"call_{n}", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    messages = [
        {"role": "user", "content": "x" * 1000},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": f"call_{n}", "content": "ok"},
    ]
    return json.dumps({"model": "gpt-4o", "messages": messages})


def test_a_long_files_bad_first_line_is_said_once(tmp_path: Path) -> None:
    # Over 4 MiB, a detected file is read again from its start, typed: its problems are not kept twice.
    path = tmp_path / "requests.jsonl"
    path.write_text("\n".join(['{"model": oops', *(_chat_line(n) for n in range(4000))]) + "\n")
    assert path.stat().st_size > 4 << 20
    [report] = check_path(path)
    assert [p.line for p in report.problems] == [1]


def test_past_fifty_unreadable_lines_the_summary_counts_them_all(tmp_path: Path) -> None:
    path = tmp_path / "requests.jsonl"
    path.write_text("\n".join([_chat_line(0), *("not json" for _ in range(60))]) + "\n")
    [report] = check_path(path, "openai-chat")
    assert len(report.problems) == MAX_PROBLEMS + 1
    assert render_text([report]).endswith("(0 errors, 0 warnings, 60 unreadable parts)")
