"""Run a default toolwire campaign on each real converter, at its buggy and its fixed release, and say
what it caught.

    python benchmarks/real_converters/run.py [--only ROW] [--pin buggy|fixed] [--time-limit 60s]
        [--extra-args "--quirks repeated-ids,two-per-chunk"] [--json OUT] [--markdown OUT]

(or ``make real-converters``). Run ``install.py`` first: each campaign runs ``toolwire fuzz`` in the
environment of its (row, pin), with the defaults (no ``--quirks``) unless ``--extra-args`` says
otherwise, a fresh example database (nothing replayed from an earlier run) and its counterexamples
in a folder of its own.

For each campaign the table says what was expected (``bug`` on the buggy release, ``clean`` on the
fixed one) and what came out:

* ``caught``: a finding of the row's bug on the buggy release (``rows.py`` says which findings
  those are); ``missed``: none;
* ``clean``: no finding of the row's bug on the fixed release; ``false alarm``: one;
* ``error``: the campaign could not run (the environment is missing, the target does not load).

Findings that are not the row's bug are listed apart, on either release: they may be other real
bugs of the project (README.md says what the ones seen so far are). A finding of the row's kind is
replayed on the row's other release (``toolwire replay``): it is the row's bug on the buggy release
only if the fixed release passes it, and an alarm of it on the fixed release only if the buggy
release passes it; one both releases fail is another bug, listed apart and named after the known
bug whose shape features it shows (``others`` in ``rows.py``, by ``toolwire shapes``).
``--rejudge FILE`` judges the campaigns a ``--json`` file saved against ``rows.py`` as it is now.
``examples`` is how many the campaign ran in its time (the machine's load matters: note it),
``first`` the seconds from the start of ``toolwire fuzz`` (imports included) to the first
counterexample of the row's bug.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from install import VENVS, venv_dir
from rows import ROWS, Row


@dataclass
class Finding:
    finding: str
    message: str
    first: float | None  # seconds from the campaign's start to its first counterexample
    row_bug: bool = False
    saved: str | None = None  # the shrunk counterexample's file
    shapes: list[str] | None = None  # the shape features of its input (toolwire shapes)
    known: str | None = None  # the other bug it shows, when it has the row's kind but is not the row's bug
    reproduced: bool | None = None  # whether the row's other release fails it too (toolwire replay)


@dataclass
class Campaign:
    row: str
    pin: str
    expected: str  # "bug" or "clean"
    result: str  # caught, missed, clean, false alarm, error
    examples: int | None = None
    seconds: float | None = None
    first: float | None = None
    findings: list[Finding] = field(default_factory=list)
    command: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def row_bug(self) -> list[Finding]:
        return [f for f in self.findings if f.row_bug]

    @property
    def other(self) -> list[Finding]:
        return [f for f in self.findings if not f.row_bug]


class Watcher(threading.Thread):
    """Polls a campaign's counterexample folder and notes when each finding's first file appears."""

    def __init__(self, folder: Path, started: float) -> None:
        super().__init__(daemon=True)
        self.folder, self.started = folder, started
        self.first: dict[str, float] = {}
        self.seen: set[Path] = set()
        self.done = threading.Event()

    def poll(self) -> None:
        for path in self.folder.glob("*.json"):
            if path in self.seen:
                continue
            try:
                finding = json.loads(path.read_text())["finding"]
            except (OSError, ValueError, KeyError):
                continue  # written atomically, but be safe: try again next poll
            self.seen.add(path)
            self.first.setdefault(finding, time.monotonic() - self.started)

    def run(self) -> None:
        while not self.done.wait(0.25):
            self.poll()
        self.poll()


def campaign(row: Row, pin: str, args: argparse.Namespace) -> Campaign:
    expected = "bug" if pin == row.buggy else "clean"
    venv = venv_dir(row, pin, args.venvs)
    toolwire = venv / "bin" / "toolwire"
    if not toolwire.exists():
        return Campaign(row.name, pin, expected, "error", error=f"{venv} is not installed (install.py)")
    work = Path(tempfile.mkdtemp(prefix=f"realconv-{row.name}-{pin}-"))
    out = work / "counterexamples"
    out.mkdir()
    source, target = row.protocols
    command = [
        str(toolwire),
        "fuzz",
        row.target(venv),
        "--from",
        source,
        "--to",
        target,
        "--time-limit",
        args.time_limit,
        "--format",
        "json",
        "--out",
        str(out),
        *shlex.split(args.extra_args),
    ]
    env = dict(os.environ, HYPOTHESIS_STORAGE_DIRECTORY=str(work / "hypothesis"))
    started = time.monotonic()
    watcher = Watcher(out, started)
    watcher.start()
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=work, check=False)
    finally:
        watcher.done.set()
        watcher.join()
    result = Campaign(row.name, pin, expected, "error", command=command)
    try:
        report: dict[str, Any] = json.loads(done.stdout)
    except ValueError:
        result.error = f"exit {done.returncode}: {(done.stderr or done.stdout).strip()[-2000:]}"
        return result
    result.examples = report.get("examples")
    result.seconds = report.get("seconds")
    for cx in report.get("counterexamples") or []:
        name, message = cx["finding"], cx.get("message") or ""
        result.findings.append(Finding(name, message, watcher.first.get(name), saved=cx.get("saved")))
    return judge(row, pin, result, args.venvs)


def shapes(row: Row, pin: str, saved: str, venvs: Path) -> list[str] | None:
    """The shape features of a counterexample's input, as the pin's toolwire names them."""
    try:
        trace = json.loads(Path(saved).read_text())["input"]
    except (OSError, ValueError, KeyError):
        return None
    toolwire = venv_dir(row, pin, venvs) / "bin" / "toolwire"
    lines = "".join(json.dumps(event) + "\n" for event in trace)
    done = subprocess.run(
        [str(toolwire), "shapes", "-", "-p", row.protocols[0], "--format", "json"],
        input=lines,
        capture_output=True,
        text=True,
        check=False,
    )
    try:
        return sorted({f["name"] for r in json.loads(done.stdout)["reports"] for f in r["features"]})
    except (ValueError, KeyError):
        return None


def replay(row: Row, pin: str, saved: str, venvs: Path) -> bool | None:
    """Whether the pin's release fails a saved counterexample with the same finding (toolwire replay)."""
    venv = venv_dir(row, pin, venvs)
    toolwire = venv / "bin" / "toolwire"
    if not toolwire.exists() or not Path(saved).exists():
        return None
    done = subprocess.run(
        [str(toolwire), "replay", saved, row.target(venv), "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    try:
        return bool(json.loads(done.stdout)["reproduced"])
    except (ValueError, KeyError):
        return None


def judge(row: Row, pin: str, result: Campaign, venvs: Path) -> Campaign:
    """Which findings are the row's bug; the result and the time to the first of them.

    A finding of the row's kind is replayed on the row's other release. On the buggy release it is
    the row's bug only if the fixed release passes it; on the fixed release it is an alarm of the
    row's bug only if the buggy release passes it (a case both fail is a bug the fix did not touch).
    Such a finding, shared by both releases, is named after the known other bug whose shape features
    its counterexample shows (``others`` in rows.py), or ``in both``; so is a fixed-release finding
    that shows a known other bug's shape features though the buggy release passes it (the fix
    brought that other bug: Haystack's and Langfuse's keying by index merges calls at index 0).
    """
    other_pin = row.fixed if pin == row.buggy else row.buggy
    for f in result.findings:
        f.row_bug, f.known = row.is_bug(f.finding, f.message), None
        if not f.row_bug or not f.saved:
            continue
        if f.reproduced is None:
            f.reproduced = replay(row, other_pin, f.saved, venvs)
        if row.others and f.shapes is None:
            f.shapes = shapes(row, pin, f.saved, venvs)
        known = row.known(f.shapes or [])
        if f.reproduced:
            f.row_bug, f.known = False, known or f"in both: {other_pin} fails it too"
        elif pin == row.fixed and known:
            # The fix brought it (the buggy release passes the case), but it is a known other bug.
            f.row_bug, f.known = False, f"{known}; {other_pin} passes it"
    times = [f.first for f in result.row_bug if f.first is not None]
    result.first = min(times) if times else None
    if result.error is None:
        if result.expected == "bug":
            result.result = "caught" if result.row_bug else "missed"
        else:
            result.result = "false alarm" if result.row_bug else "clean"
    return result


def short(findings: list[Finding]) -> str:
    return ", ".join(f.finding + (f" [{f.known}]" if f.known else "") for f in findings) or "-"


def audience(findings: list[Finding]) -> str:
    """How many findings need no provider deviation (the strict wire) and how many need a quirk
    profile: a finding id names its cause after its symptom (``one-to-one:lost [index-0]``)."""
    shaped = sum(" [" in f.finding for f in findings)
    return f"{len(findings) - shaped} / {shaped}"


def table(results: list[Campaign]) -> str:
    lines = [
        "| row | pin | expected | result | examples | row's bug findings | other findings | first (s) "
        "| strict wire / provider shapes |",
        "|---|---|---|---|---:|---|---|---:|---|",
    ]
    for r in results:
        first = f"{r.first:.1f}" if r.first is not None else "-"
        examples = str(r.examples) if r.examples is not None else "-"
        result = r.result if r.error is None else f"error: {r.error.splitlines()[-1][:80]}"
        lines.append(
            f"| {r.row} | {r.pin} | {r.expected} | {result} | {examples} | {short(r.row_bug)} | "
            f"{short(r.other)} | {first} | {audience(r.findings)} |"
        )
    return "\n".join(lines)


def summary(results: list[Campaign]) -> str:
    count = {k: sum(r.result == k for r in results) for k in ("caught", "missed", "false alarm", "error")}
    buggy = sum(r.expected == "bug" for r in results)
    return (
        f"caught {count['caught']}/{buggy} buggy releases, missed {count['missed']}, "
        f"false alarms {count['false alarm']}, errors {count['error']}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="only this row (repeatable)")
    parser.add_argument("--pin", choices=("buggy", "fixed"), help="only this release of each row")
    parser.add_argument("--time-limit", default="60s", help="each campaign's budget (default 60s)")
    parser.add_argument("--extra-args", default="", help="more toolwire fuzz options, e.g. '--quirks ...'")
    parser.add_argument("--venvs", type=Path, default=VENVS, help="where install.py put the environments")
    parser.add_argument("--json", type=Path, help="write every campaign's details here")
    parser.add_argument("--markdown", type=Path, help="write the table here")
    parser.add_argument(
        "--rejudge",
        type=Path,
        metavar="JSON",
        help="run nothing: judge the campaigns a --json file saved against rows.py as it is now",
    )
    args = parser.parse_args(argv)
    if args.rejudge:
        return report(rejudge(json.loads(args.rejudge.read_text()), args.venvs), args)
    rows = [r for r in ROWS if not args.only or r.name in args.only]
    if args.only and len(rows) != len(set(args.only)):
        parser.error(f"unknown row in {args.only}; rows: {', '.join(r.name for r in ROWS)}")
    print(
        f"real converters: {len(rows)} rows, {args.time_limit} a campaign, extra args: "
        f"{args.extra_args or '(none)'}",
        flush=True,
    )
    results = []
    for row in rows:
        pins = [p for kind, p in (("buggy", row.buggy), ("fixed", row.fixed)) if args.pin in (None, kind)]
        for pin in pins:
            result = campaign(row, pin, args)
            results.append(result)
            detail = f"{result.examples} examples" if result.error is None else result.error.splitlines()[-1]
            print(
                f"  {row.name} {pin}: {result.result} ({detail}; findings: {short(result.findings)})",
                flush=True,
            )
    return report(results, args)


def rejudge(saved: list[dict[str, Any]], venvs: Path) -> list[Campaign]:
    """Campaigns saved by --json, their findings judged against the rows as they are now."""
    rows = {r.name: r for r in ROWS}
    results = []
    for entry in saved:
        findings = [Finding(**f) for f in entry["findings"]]
        result = Campaign(**{**entry, "findings": findings})
        results.append(judge(rows[entry["row"]], entry["pin"], result, venvs))
    return results


def report(results: list[Campaign], args: argparse.Namespace) -> int:
    print()
    print(table(results))
    print()
    print(summary(results))
    others = [(r, f) for r in results for f in r.other]
    if others:
        print("\nother findings (not the row's bug):")
        for r, f in others:
            known = f" [known: {f.known}]" if f.known else ""
            print(f"  {r.row} {r.pin}: {f.finding}{known}: {f.message[:200]}")
    if args.markdown:
        args.markdown.write_text(table(results) + "\n\n" + summary(results) + "\n")
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=2) + "\n")
    return 1 if any(r.result in ("missed", "false alarm", "error") for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
