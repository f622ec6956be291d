"""Truthful verdicts on odd input: another protocol's traffic, input that is no trace, line ends,
BOMs, first lines longer than a buffer or cut by a pipe, missing files, an unreadable stream after a
request; what was not read is never "clean"."""

from __future__ import annotations

import gzip
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolwire
from helpers.corpus import DATA
from toolwire.cli import main
from toolwire.models import _frames, _jsonl

RS = "openai-responses-stream"
VIOLATION = DATA / RS / "rs7c-two-items-one-call-id.sse"
CLEAN = DATA / RS / "good-parallel-same-tool.sse"


def events(path: Path) -> list[dict[str, object]]:
    lines = path.read_text().split("\n")
    return [json.loads(line[6:]) for line in lines if line.startswith("data: ")]


def rules(path: Path, protocol: str = RS) -> tuple[int, set[str]]:
    report = toolwire.check_file(path, protocol)
    return report.exit_code, {f.rule for f in report.errors}


def test_another_protocols_stream_is_not_clean(tmp_path: Path) -> None:
    report = toolwire.check_file(DATA / "anthropic-stream" / "good-parallel-same-tool.sse", RS)
    assert (report.exit_code, report.findings) == (2, ())
    assert any(
        "nothing in the input is openai-responses-stream traffic" in p.message for p in report.problems
    )


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (gzip.compress(b'{"type": "response.created"}\n'), "gzip"),
        ('{"type": "response.created"}\n'.encode("utf-16"), "UTF-16"),
        (os.urandom(65536), "give an SSE capture, JSON Lines or JSON"),
    ],
    ids=["gzip", "utf-16", "random"],
)
def test_input_that_is_no_trace_exits_2_with_what_to_do(tmp_path: Path, data: bytes, says: str) -> None:
    path = tmp_path / "t.bin"
    path.write_bytes(data)
    report = toolwire.check_file(path, RS)
    assert report.exit_code == 2 and not report.findings
    assert says in report.problems[0].message


def test_input_problems_are_capped(tmp_path: Path) -> None:
    path = tmp_path / "junk.jsonl"
    path.write_text("x\n" * 10_000)
    report = toolwire.check_file(path, RS)
    assert report.exit_code == 2
    assert len(report.problems) <= 55


def test_a_json_array_of_events_is_the_stream(tmp_path: Path) -> None:
    for source, expected in ((VIOLATION, (1, {"RS-7c"})), (CLEAN, (0, set()))):
        path = tmp_path / "array.json"
        path.write_text(json.dumps(events(source)))
        assert rules(path) == expected


@pytest.mark.parametrize("ending", [b"\r", b"\r\n"], ids=["cr", "crlf"])
def test_sse_with_cr_or_crlf_line_ends_reads_every_event(tmp_path: Path, ending: bytes) -> None:
    for source, expected in ((VIOLATION, (1, {"RS-7c"})), (CLEAN, (0, set()))):
        path = tmp_path / "t.sse"
        path.write_bytes(source.read_bytes().replace(b"\n", ending))
        assert rules(path) == expected


def test_mixed_line_ends_a_bom_and_unknown_fields_keep_a_clean_stream_clean(tmp_path: Path) -> None:
    lines = CLEAN.read_bytes().split(b"\n")
    ends = [b"\r", b"\r\n", b"\n"]
    mixed = b"".join(line + ends[n % 3] for n, line in enumerate(lines))
    for data in (
        b"\xef\xbb\xbf" + CLEAN.read_bytes(),
        CLEAN.read_bytes().replace(b"event: ", b"foo: bar\nevent: "),
        mixed.replace(b"\r\r", b"\r\n\r"),
    ):
        path = tmp_path / "t.sse"
        path.write_bytes(data)
        assert rules(path) == (0, set())


def test_a_bom_in_json_lines_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events(CLEAN)), encoding="utf-8-sig")
    assert rules(path) == (0, set())


def test_a_first_line_longer_than_64_kb_is_still_json_lines(tmp_path: Path) -> None:
    found = events(VIOLATION)
    found[0]["response"]["instructions"] = "x" * 70_000  # type: ignore[index]
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in found))
    assert rules(path) == (1, {"RS-7c"})


@pytest.mark.parametrize(("source", "cut"), [(VIOLATION, 3), (CLEAN, 30)], ids=["sse-eve", "sse-30"])
def test_a_pipe_whose_first_read_is_a_partial_line_is_read_right(source: Path, cut: int) -> None:
    data = source.read_bytes()
    with subprocess.Popen(
        [sys.executable, "-m", "toolwire", "check", "-", "-p", RS],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
    ) as process:
        assert process.stdin is not None
        process.stdin.write(data[:cut])
        process.stdin.flush()
        time.sleep(0.5)
        process.communicate(data[cut:], timeout=60)
    assert process.returncode == (1 if source == VIOLATION else 0)


def test_every_file_is_checked_when_one_is_missing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / "nonexistent.sse"
    assert main(["check", str(VIOLATION), str(missing), "-p", RS, "--format", "json"]) == 2
    reports = json.loads(capsys.readouterr().out)["reports"]
    assert [r["exit_code"] for r in reports] == [1, 2]
    assert "RS-7c" in {f["rule"] for f in reports[0]["findings"]}


def test_read_problems_in_the_after_stream_are_reported(tmp_path: Path) -> None:
    stream = tmp_path / "stream.sse"
    stream.write_bytes(
        (DATA / "openai-chat-stream" / "seed002-provider-stream.sse").read_bytes() + b"data: {oops\n\n"
    )
    report = toolwire.check_file(DATA / "openai-chat" / "seed001-fixed.json", "openai-chat", after=stream)
    assert any("in --after" in p.message for p in report.problems)


def test_notices_are_capped_and_counted(tmp_path: Path) -> None:
    path = tmp_path / "objects.jsonl"
    path.write_text("{}\n" * 20_000)
    report = toolwire.check_file(path, RS)
    assert report.exit_code == 2
    assert len(report.problems) <= 55
    assert any("more skipped events" in p.message for p in report.problems)


def test_an_output_item_added_without_item_is_named_once(tmp_path: Path) -> None:
    found = events(VIOLATION)
    del found[2]["item"]
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in found))
    report = toolwire.check_file(path, RS)
    assert [(f.rule, f.message) for f in report.errors][:1] == [
        ("OR-8", "response.output_item.added has no item")
    ]
    assert "RS-1a" not in {f.rule for f in report.errors}


STREAMS = {
    "anthropic-stream": DATA / "anthropic-stream" / "good-parallel-same-tool.sse",
    RS: VIOLATION,
}


FOREIGN = [(t, p) for t in sorted(STREAMS) for p in sorted(toolwire.PROTOCOLS) if p != t]


@pytest.mark.parametrize(("traffic", "protocol"), FOREIGN)
def test_a_stream_of_another_protocol_is_never_clean(traffic: str, protocol: str) -> None:
    report = toolwire.check_file(STREAMS[traffic], protocol)
    assert report.exit_code != 0, (protocol, report.problems[:2])


JSONL_LINES = [b'{"a": 1}', b"[1, 2]", b"", b"  ", b"{oops", b'"\xff"', b'{"type": "x"}', b"7"]


@given(
    st.lists(st.sampled_from(JSONL_LINES), max_size=20),
    st.lists(st.sampled_from([b"\n", b"\n", b"\r\n", b"\r"]), min_size=1, max_size=3),
    st.booleans(),
    st.booleans(),
    st.sampled_from([1, 2, 3, 7, 64, 1 << 20]),
)
def test_the_json_lines_reader_cuts_lines_as_the_line_reader_does(
    lines: list[bytes], ends: list[bytes], bom: bool, last_end: bool, chunk: int
) -> None:
    # The reader cuts each chunk itself; _lines (CR, CRLF, long lines) is the reference.
    ended = [line + ends[k % len(ends)] for k, line in enumerate(lines)]
    if ended and not last_end:
        ended[-1] = lines[-1]
    raw = (b"\xef\xbb\xbf" if bom else b"") + b"".join(ended)

    def read(reader: Any) -> tuple[list[Any], list[Any]]:
        problems: list[Any] = []
        old = _jsonl._CHUNK
        _jsonl._CHUNK = _frames._CHUNK = chunk
        try:
            frames = [(n, repr(v), e) for n, v, e in reader(io.BytesIO(raw), lambda *p: problems.append(p))]
        finally:
            _jsonl._CHUNK = _frames._CHUNK = old
        return frames, problems

    fast = read(_jsonl.read_jsonl)
    slow = read(lambda s, p: _jsonl._decode(_frames._lines(s, p), p, (), None))
    assert fast == slow
