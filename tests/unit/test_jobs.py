"""``check --jobs N``: the same output as ``--jobs 1``, from files, folders and logs cut at line ends."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from helpers import layout
from toolwire.cli import main
from toolwire.engines._core import _pool as _jobs

DATA = layout.DATA
LOGS = DATA / "logs"


@pytest.fixture(autouse=True)
def small_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Logs of some hundred KiB are cut as big ones are (8 MiB and more, in parts of 4 MiB or more)."""
    monkeypatch.setattr(_jobs, "BIG", 64 << 10)
    monkeypatch.setattr(_jobs, "PART_MIN", 16 << 10)


def _body(rng: random.Random, n: int) -> dict[str, Any]:
    call = f"call_{n:06d}"
    answered = call if n % 97 else "call_elsewhere"  # planted: a result for no call (CC-2)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You are helpful. " * rng.randint(1, 20)},
        {"role": "user", "content": f"weather in city {n}?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": call, "type": "function", "function": {"name": "weather", "arguments": '{"c":1}'}}
            ],
        },
        {"role": "tool", "tool_call_id": answered, "content": "72F"},
    ]
    return {"model": "gpt-4o", "messages": messages}


def _request_log(path: Path, lines: int = 1500) -> Path:
    rng = random.Random(7)
    out = []
    for n in range(lines):
        if n % 401 == 400:
            out.append('{"model": "gpt-4o", "messages": [')  # planted: a line that is no JSON
        elif n % 333 == 5:
            out.append("")  # blank lines count as lines
        else:
            out.append(json.dumps(_body(rng, n)))
    path.write_text("\r\n".join(out[:10]) + "\r\n" + "\n".join(out[10:]) + "\n")
    return path


def _litellm_log(path: Path, copies: int = 150) -> Path:
    records = [
        line
        for name in ("clean.jsonl", "changed-id.jsonl", "orphan-tool-message.jsonl")
        for line in (LOGS / "litellm" / name).read_text().splitlines()
        if line.strip()
    ]
    lines = []
    for k in range(copies):
        for record in records:
            value = json.loads(record)
            value["trace_id"] = f"{value.get('trace_id')}-{k}"
            lines.append(json.dumps(value))
    path.write_text("\n".join(lines) + "\n")
    return path


def _shuffled_groups(litellm: Path, folder: Path) -> list[str]:
    """The LiteLLM log's lines shuffled over two files (a group's turns in either, out of order),
    with a line that is no JSON, a record that is no object and a blank line in them."""
    lines = litellm.read_text().splitlines()
    random.Random(11).shuffle(lines)
    lines[40:40] = ['{"trace_id": "sess-7f3a-3", "messages": [', "[1, 2]", ""]
    half = len(lines) // 2
    names = []
    for k, part in enumerate((lines[:half], lines[half:])):
        names.append(str(folder / f"shuffled-{k}.jsonl"))
        Path(names[-1]).write_text("\n".join(part) + "\n")
    return names


def _run(capsys: pytest.CaptureFixture[str], words: list[str], jobs: int) -> tuple[int, str, str]:
    code = main([*words, "--jobs", str(jobs)])
    out = capsys.readouterr()
    return code, out.out, out.err


def _cases(tmp: Path) -> dict[str, list[str]]:
    chat = sorted(str(p) for p in (DATA / "openai-chat").iterdir())[:8]
    requests = str(_request_log(tmp / "requests.jsonl"))
    litellm = str(_litellm_log(tmp / "litellm.jsonl"))
    return {
        "files": ["check", *chat],
        "requests": ["check", requests],
        "requests-and-files": ["check", requests, *chat[:3], "-p", "openai-chat"],
        "log-folder": ["check", str(LOGS / "litellm"), "--log", "litellm"],
        "litellm": ["check", litellm, "--log", "litellm"],
        "grouped": [
            *("check", litellm, "--log", "litellm"),
            *("--group-by", "trace_id", "--order-by", "startTime"),
        ],
        "grouped-shuffled": [
            *("check", *_shuffled_groups(Path(litellm), tmp), "--log", "litellm"),
            *("--group-by", "trace_id", "--order-by", "startTime"),
        ],
        "body": ["check", requests, "--body", "messages"],
        "litellm-without-log": ["check", litellm],
        "big-records-cut-short": [
            *("check", _big_records_cut_short(Path(litellm), tmp / "big.jsonl"), "--log", "litellm"),
        ],
        "grouped-with-gaps": [
            *("check", _with_gaps(Path(litellm), tmp / "gaps.jsonl"), "--log", "litellm"),
            *("--group-by", "trace_id", "--order-by", "startTime"),
        ],
        "grouped-head-cut-short": [
            *("check", _head_cut_short(Path(litellm), tmp / "cut.jsonl"), "--log", "litellm"),
            *("--group-by", "trace_id", "--order-by", "startTime"),
        ],
    }


def _big_records_cut_short(log: Path, path: Path) -> str:
    """``log``'s first records padded past a part's head (64 KiB), every third one cut short: a part
    that starts at a record cut short, the next longer than its head, is still JSON Lines."""
    out = []
    for n, line in enumerate(log.read_text().splitlines()[:60]):
        record = json.loads(line)
        record["metadata"] = {"padding": "x" * 70_000}
        text = json.dumps(record)
        out.append(text[:300] if n % 3 == 1 else text)
    path.write_text("\n".join(out) + "\n")
    return str(path)


def _with_gaps(log: Path, path: Path) -> str:
    """``log`` with records of no group (none, or empty text), of no order, of an order written as
    text, and of a group that is an object: each said as a warning, or grouped, as one process does."""
    records = [json.loads(line) for line in log.read_text().splitlines()]
    for n, record in enumerate(records):
        if n % 7 == 3:
            record["trace_id"] = "" if n % 2 else None
        if n % 11 == 5:
            del record["startTime"]
        elif n % 13 == 6:
            record["startTime"] = str(record["startTime"])
        if n % 17 == 9:
            record["trace_id"] = {"session": record["trace_id"], "tenant": 1}
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return str(path)


def _head_cut_short(log: Path, path: Path) -> str:
    """``log`` with a first record cut short (as by a writer that died mid-line), then the rest."""
    text = log.read_text()
    path.write_text(text[:300] + "\n" + text)
    return str(path)


CASES = [
    "files",
    "requests",
    "requests-and-files",
    "log-folder",
    "litellm",
    "grouped",
    "grouped-shuffled",
    "body",
    "litellm-without-log",
    "grouped-with-gaps",
    "grouped-head-cut-short",
    "big-records-cut-short",
]


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("case", CASES)
def test_jobs_2_prints_what_jobs_1_prints(
    case: str, fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = [*_cases(tmp_path)[case], "--format", fmt]
    one = _run(capsys, words, 1)
    two = _run(capsys, words, 2)
    assert two == one
    assert one[0] in (1, 2), one  # each case has findings or problems planted


def test_a_cut_log_has_its_findings_at_their_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = _request_log(tmp_path / "requests.jsonl")
    assert len(_jobs.cuts(str(log), log.stat().st_size, 2)) > 2
    code, out, _ = _run(capsys, ["check", str(log), "-p", "openai-chat", "--format", "json"], 2)
    [report] = json.loads(out)["reports"]
    lines = log.read_bytes().replace(b"\r\n", b"\n").split(b"\n")
    for finding in report["findings"]:
        assert b"call_elsewhere" in lines[finding["line"] - 1]
    planted = {n + 1 for n, line in enumerate(lines) if b"call_elsewhere" in line}
    assert {finding["line"] for finding in report["findings"]} == planted and len(planted) > 5
    for problem in report["problems"]:
        assert lines[problem["line"] - 1].endswith(b"[")
    assert code == 1


@pytest.mark.parametrize("case", ["requests", "files", "litellm"])
def test_a_worker_that_dies_is_a_problem_of_its_part(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    words = [*_cases(tmp_path)[case], "--format", "json"]
    _, whole, _ = _run(capsys, words, 1)
    if case == "files":
        victim = words[2]
    else:
        cut = _jobs.cuts(words[1], Path(words[1]).stat().st_size, 2)
        victim = f"{words[1]}@{cut[1][0]}"
    monkeypatch.setenv(_jobs.DIE_ON, victim)
    code, out, err = _run(capsys, words, 2)
    # An input problem of its part: its report's exit code is 2 unless findings make it 1.
    assert code == max(r["exit_code"] for r in json.loads(out)["reports"]), err
    died = [
        (report["source"], problem["line"], problem["message"])
        for report in json.loads(out)["reports"]
        for problem in report["problems"]
        if "died (killed by SIGKILL)" in problem["message"]
    ]
    assert len(died) == 1, out
    source, line, message = died[0]
    assert source == victim.split("@")[0]
    if case == "files":
        assert line is None and "was not checked" in message and "toolwire:" in err
        [report] = [r for r in json.loads(out)["reports"] if r["source"] == victim]
        assert report["exit_code"] == 2
    else:
        assert message.startswith(f"lines {cut[1][2] + 1}-{cut[1][2] + cut[1][3]} were not checked")

    # Every other part is reported as --jobs 1 reports it.
    def lines_of(document: str) -> set[tuple[str, int]]:
        return {(r["source"], f["line"]) for r in json.loads(document)["reports"] for f in r["findings"]}

    kept = lines_of(whole) - lines_of(out)
    if case == "files":
        assert all(source == victim for source, _ in kept)
    else:
        assert all(cut[1][2] < line <= cut[1][2] + cut[1][3] for _, line in kept)
        assert lines_of(out) < lines_of(whole)


def test_jobs_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "a.jsonl", "b.jsonl", "--jobs", "0"]) == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err


@pytest.mark.parametrize("round_", ["spill", "check"])
def test_a_grouped_check_whose_worker_dies_says_what_was_not_checked(
    round_: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A grouped log on a pool: a worker killed while spilling a range loses that range's records,
    one killed while checking a bucket loses that bucket's groups; each is said, the rest kept."""
    words = [*_cases(tmp_path)["grouped-shuffled"], "--format", "json"]
    _, whole, _ = _run(capsys, words, 1)
    first = words[1]
    cut = _jobs.cuts(first, Path(first).stat().st_size, 2)
    monkeypatch.setenv(_jobs.DIE_ON, f"{first}@{cut[1][0]}" if round_ == "spill" else "bucket 1")
    code, out, _ = _run(capsys, words, 2)
    reports = json.loads(out)["reports"]
    died = [
        (report["source"], problem["line"], problem["message"])
        for report in reports
        for problem in report["problems"]
        if "died (killed by SIGKILL)" in problem["message"]
    ]
    assert len(died) == 1, out
    source, line, message = died[0]
    assert source == first
    if round_ == "spill":
        assert line == cut[1][2] + 1
        assert message.startswith(f"lines {cut[1][2] + 1}-{cut[1][2] + cut[1][3]} were not checked")
    else:
        assert (
            line is None and message.startswith("the groups of bucket 1 (") and "were not checked" in message
        )

    def lines_of(document: str) -> set[tuple[str, int]]:
        return {(r["source"], f["line"]) for r in json.loads(document)["reports"] for f in r["findings"]}

    found, expected = lines_of(out), lines_of(whole)
    if round_ == "spill":
        # Nothing from the lost lines; a group that had records there is judged without them.
        assert not any(s == first and cut[1][2] < n <= cut[1][2] + cut[1][3] for s, n in found)
        assert "judged without them" in message
    else:
        assert found < expected
    assert len(found & expected) > len(expected) // 2
    assert code == 1


def test_a_grouped_log_on_a_pool_finds_an_id_changed_between_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A conversation whose response is in one file and whose next request, with the call's id
    changed, is in the other, far apart: the pool still meets them in one monitor."""
    from toolwire.engines.logs import _plans

    spilled: list[str] = []
    assert not hasattr(_plans, "run_parts")  # imported where it is used: the spy goes on the pool
    original = _jobs.run_parts

    def spy(parts: Any, jobs: int, preload: Any = ()) -> Any:
        spilled.extend(part.kind for part in parts)
        return original(parts, jobs, preload)

    monkeypatch.setattr(_jobs, "run_parts", spy)
    words = [*_cases(tmp_path)["grouped-shuffled"], "--format", "json"]

    def changed(document: str) -> set[str]:
        """The groups in which a request replays a call with its id changed (the LiteLLM fixture's bug)."""
        return {
            f["message"].split(":")[0]
            for r in json.loads(document)["reports"]
            for f in r["findings"]
            if f["rule"] == "RT-1" and "with id 'call_VSPygqKTWdrhaFErNvMV18YI'" in f["message"]
        }

    _, whole, _ = _run(capsys, words, 1)
    assert spilled == []
    code, out, _ = _run(capsys, words, 2)
    assert {"group-range", "group-bucket"} <= set(spilled)
    # The fixture's two turns share a start time: they meet in file order, which the shuffle kept
    # for some copies of the conversation (82 of 150), in one file or across the two.
    assert changed(out) == changed(whole) and len(changed(whole)) > 50
    files = [Path(n).read_text().splitlines() for n in words[1:3]]
    spread = [
        {json.loads(x)["trace_id"] for x in lines if x.startswith('{"id": "chatcmpl-AX')} for lines in files
    ]
    assert len({g.removeprefix("group ") for g in changed(whole)} & spread[0] & spread[1]) > 10
    assert code == 1


def _spy_kinds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The kinds of the parts the pool is handed, in order (the spy goes on the pool: ``_plans``
    imports it where it is used)."""
    kinds: list[str] = []
    original = _jobs.run_parts

    def spy(parts: Any, jobs: int, preload: Any = ()) -> Any:
        kinds.extend(part.kind for part in parts)
        return original(parts, jobs, preload)

    monkeypatch.setattr(_jobs, "run_parts", spy)
    return kinds


def _clustered_log(litellm: Path, path: Path, tail: str = "clustered") -> Path:
    """The LiteLLM log with its groups clustered (each group's records together, in the order its
    first record showed), then its tail: kept clustered, or ``shuffled`` (its groups spread)."""
    groups: dict[str, list[str]] = {}
    for line in litellm.read_text().splitlines():
        groups.setdefault(json.loads(line)["trace_id"], []).append(line)
    lines = [line for members in groups.values() for line in members]
    if tail == "shuffled":
        head, rest = lines[:300], lines[300:]
        random.Random(5).shuffle(rest)
        lines = head + rest
    lines[40:40] = ['{"trace_id": "sess-7f3a-3", "messages": [', "[1, 2]", ""]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_clustered_log_is_cut_at_group_starts_and_checked_in_one_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A log whose groups are each one run of lines is checked in one round, no spill, each part
    cut where a group starts; it prints what ``--jobs 1`` prints."""
    log = _clustered_log(_litellm_log(tmp_path / "litellm.jsonl"), tmp_path / "clustered.jsonl")
    words = ["check", str(log), "--log", "litellm", "--group-by", "trace_id", "--order-by", "startTime"]
    kinds = _spy_kinds(monkeypatch)
    for fmt in ("text", "json"):
        one = _run(capsys, [*words, "--format", fmt], 1)
        two = _run(capsys, [*words, "--format", fmt], 2)
        assert two == one and one[0] == 1
    assert set(kinds) == {"clustered-range"} and len(kinds) > 4


def test_each_clustered_part_starts_a_group(tmp_path: Path) -> None:
    from toolwire.engines.logs._plans import at_group_starts

    log = _clustered_log(_litellm_log(tmp_path / "litellm.jsonl"), tmp_path / "clustered.jsonl")
    size = log.stat().st_size
    pieces = _jobs.cuts(str(log), size, 2)
    parts = at_group_starts(str(log), size, pieces, "trace_id")
    data = log.read_bytes()
    lines = data.split(b"\n")
    assert parts[0][:3] == (0, parts[1][0], 0) and parts[-1][1] == size
    assert sum(p[3] for p in parts) == sum(p[3] for p in pieces) == data.count(b"\n")
    for (_, end, before, count), (start, _, after, _) in itertools.pairwise(parts):
        assert end == start and after == before + count
        assert data[:start].count(b"\n") == after
        # The record before the cut is of another group than the record after it.
        groups = [json.loads(lines[after - 1])["trace_id"], json.loads(lines[after])["trace_id"]]
        assert groups[0] != groups[1]
    assert len(parts) > 4 and any(p[:3] != q[:3] for p, q in zip(parts, pieces, strict=False))


@pytest.mark.parametrize("how", ["shuffled-tail", "one-group-in-two-files"])
def test_a_log_that_looked_clustered_is_spilled_after_all(
    how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A log whose head shows its groups as runs but whose groups are spread after all (further down
    one file, or over two files) is checked as a shuffled one: its output is ``--jobs 1``'s."""
    litellm = _litellm_log(tmp_path / "litellm.jsonl")
    if how == "shuffled-tail":
        files = [str(_clustered_log(litellm, tmp_path / "log.jsonl", "shuffled"))]
    else:
        lines = _clustered_log(litellm, tmp_path / "log.jsonl").read_text().splitlines()
        # Each half clustered, but the last group of the first half goes on in the second.
        half = len(lines) // 2
        assert json.loads(lines[half - 1])["trace_id"] == json.loads(lines[half])["trace_id"]
        files = []
        for k, part in enumerate((lines[:half], lines[half:])):
            files.append(str(tmp_path / f"half-{k}.jsonl"))
            Path(files[-1]).write_text("\n".join(part) + "\n")
    words = ["check", *files, "--log", "litellm", "--group-by", "trace_id", "--order-by", "startTime"]
    kinds = _spy_kinds(monkeypatch)
    one = _run(capsys, [*words, "--format", "json"], 1)
    two = _run(capsys, [*words, "--format", "json"], 2)
    assert two == one and one[0] == 1
    assert kinds[0] == "clustered-range" and {"group-range", "group-bucket"} <= set(kinds)


def test_a_clustered_part_whose_worker_dies_loses_its_own_groups(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolwire.engines.logs._plans import at_group_starts

    log = _clustered_log(_litellm_log(tmp_path / "litellm.jsonl"), tmp_path / "clustered.jsonl")
    words = ["check", str(log), "--log", "litellm", "--group-by", "trace_id", "--order-by", "startTime"]
    words += ["--format", "json"]
    _, whole, _ = _run(capsys, words, 1)
    size = log.stat().st_size
    parts = at_group_starts(str(log), size, _jobs.cuts(str(log), size, 2), "trace_id")
    start, _, before, count = parts[1]
    monkeypatch.setenv(_jobs.DIE_ON, f"{log}@{start}")
    code, out, _ = _run(capsys, words, 2)
    reports = json.loads(out)["reports"]
    died = [p for r in reports for p in r["problems"] if "died (killed by SIGKILL)" in p["message"]]
    assert [p["line"] for p in died] == [before + 1]
    assert died[0]["message"].startswith(f"lines {before + 1}-{before + count} were not checked")
    assert "judged without them" not in died[0]["message"]  # no group reaches over a cut

    def lines_of(document: str) -> set[int]:
        return {f["line"] for r in json.loads(document)["reports"] for f in r["findings"]}

    lost = lines_of(whole) - lines_of(out)
    assert lost and all(before < n <= before + count for n in lost)
    assert lines_of(out) <= lines_of(whole)
    assert code == 1


@pytest.mark.parametrize("held", [4, 5, 6, 7])
@pytest.mark.parametrize("order_by", ["startTime", None])
def test_a_clustered_part_checked_a_few_groups_at_a_time_finds_what_it_finds_whole(
    order_by: str | None, held: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clustered part's worker checks the groups it has gathered every so many calls, so that it
    holds a few groups, not its part: the findings, their order and ranks are those of the part
    checked whole (run here, in-process, as a worker runs it)."""
    from toolwire.engines.logs import _groups_jobs
    from toolwire.engines.logs._checker import GroupChecker
    from toolwire.engines.logs._envelopes import preset
    from toolwire.engines.logs._pipeline import head

    log = _clustered_log(_litellm_log(tmp_path / "litellm.jsonl"), tmp_path / "clustered.jsonl")
    name, size = str(log), log.stat().st_size
    files = [(name, preset("litellm"))]
    pieces = _jobs.cuts(name, size, 2)
    samples, _ = head(name, files[0][1], None, pieces[0], "trace_id")
    options = {"files": files, "body": None, "group_by": "trace_id", "order_by": order_by}
    options |= {"protocol": None, "profile": None, "samples": samples, "file": 0}
    lines = log.read_bytes().count(b"\n")
    part = _jobs.Part(
        "clustered-range", name, size, options, 0, size, 0, lines, run=_groups_jobs.run_clustered_part
    )
    whole = _groups_jobs.run_clustered_part(part)
    checked: list[int] = []
    original = GroupChecker.check

    def spy(self: GroupChecker, calls: list[Any]) -> Any:
        checked.append(len(calls))
        return original(self, calls)

    monkeypatch.setattr(GroupChecker, "check", spy)
    monkeypatch.setattr(_groups_jobs, "_HELD", held)
    few = _groups_jobs.run_clustered_part(part)
    assert whole is not None and few is not None
    assert len(checked) > 20 and max(checked) < 40  # a few groups at a time
    found, digests = whole
    assert few[0].found == found.found and list(few[0].found) == list(found.found)
    assert few[0].problems == found.problems and few[0].ranks == found.ranks
    assert sorted(few[1]) == sorted(digests)
    assert sum(len(f.findings) for f in found.found.values()) > 10


def test_a_part_whose_check_raises_is_a_failed_outcome_with_its_traceback() -> None:
    """A bug in a worker is no dead worker: its part's outcome carries the traceback, and the pool
    prints nothing."""
    from toolwire.engines.logs._pipeline import run_log_part

    log = str(LOGS / "litellm" / "clean.jsonl")
    good = _jobs.Part("log", log, 1, {"kind": None, "body": "messages", "order_by": None}, run=run_log_part)
    good = _jobs.Part("log", log, 1, {**good.options, "protocol": None, "profile": None}, run=run_log_part)
    bad = _jobs.Part("log", log, 1, {}, run=run_log_part)  # no options: a KeyError in the worker
    ok, failed = _jobs.run_parts([good, bad], 2)
    assert isinstance(ok, _jobs.Ok) and [r.source for r in ok.value] == [log]
    assert isinstance(failed, _jobs.Failed)
    assert failed.traceback.startswith("Traceback") and "KeyError: 'kind'" in failed.traceback
    assert _jobs.failed(bad, failed.traceback) == "checking it failed: KeyError: 'kind'"


def test_a_failed_part_of_a_log_is_a_problem_and_an_event_with_its_traceback() -> None:
    from toolwire.engines.logs import _plans

    log = str(LOGS / "litellm" / "clean.jsonl")
    part = _jobs.Part("log-range", log, 9, {}, 0, 9, 4, 3, run=print)
    told: list[tuple[str, str]] = []
    [report] = _plans._gathered(
        log, [(part, _jobs.Failed("Traceback ...\nValueError: boom\n"))], True,
        lambda part, text: told.append((part.label, text)),
    )  # fmt: skip
    assert told == [(f"{log}@0", "Traceback ...\nValueError: boom\n")]
    said = [(p.line, p.message) for p in report.problems]
    assert said == [(5, "checking lines 5-7 failed: ValueError: boom")]


def test_the_cli_prints_the_traceback_of_a_failed_part(capsys: pytest.CaptureFixture[str]) -> None:
    from toolwire.cli.handlers._check import print_part_failures as _failures
    from toolwire.engines._core._events import PartFailed, ReportReady

    _failures(PartFailed(engine="logs", part="a.jsonl@0", traceback="Traceback ...\nValueError: boom\n"))
    _failures(ReportReady(engine="logs", source="a.jsonl", reports=()))
    assert capsys.readouterr() == ("", "Traceback ...\nValueError: boom\n\n")


def test_the_pool_names_no_job() -> None:
    """The pool is handed each part's runner (and what to preload): it names no job package, not
    even in a string, so that an import cycle cannot hide from tests/test_api.py."""
    text = Path(_jobs.__file__).read_text()
    for job in ("checking", "logs", "fuzzing", "gateway", "exploring", "proxy"):
        assert f"toolwire.engines.{job}" not in text, job


def test_a_log_check_tells_its_handlers_each_files_reports(tmp_path: Path) -> None:
    from toolwire.engines._core._events import EngineEvent, ReportReady
    from toolwire.engines.logs import check_log

    events: list[EngineEvent] = []
    names = [str(LOGS / "litellm" / "clean.jsonl"), str(LOGS / "litellm" / "changed-id.jsonl")]
    for jobs in (1, 2):
        events.clear()
        reports = check_log(names, presets=["litellm"], jobs=jobs, handlers=[events.append])
        assert all(isinstance(e, ReportReady) and e.engine == "logs" for e in events)
        ready = [e for e in events if isinstance(e, ReportReady)]
        assert [e.source for e in ready] == names
        assert [r for e in ready for r in e.reports] == reports
