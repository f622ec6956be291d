"""Record toolwire's observable outputs, to prove a restructure changes none of them.

    .venv/bin/python scripts/golden.py OUT_DIR     # record into OUT_DIR (one file per command)
    diff -r BEFORE_DIR AFTER_DIR                   # the golden diff

Run from the repo root with the tree's own venv: every command runs the ``toolwire`` beside
``sys.executable`` (the script refuses to run if that ``toolwire`` is not this tree's ``src``).
Scratch output goes under one fixed folder (``/tmp/toolwire-golden-scratch``, emptied at the start of
each run, locked while one runs), so paths printed are the same for every tree; the tree's own
location is masked to ``<root>``, and timings, dates, uuids and loopback ports are masked too.

Recorded (OUT_DIR/NAME.txt, one per command: the command line, its exit code, stdout and stderr):

- ``--help`` and ``--version``, and every verb's ``--help`` (the base's verbs, and any other that
  ``toolwire --help`` lists), ``rules``, ``protocols``, ``analyse``, ``ids``, ``shapes``, every diagram;
- ``check`` (text and JSON) on every file under ``tests/data``, and again with the protocol,
  ``--after`` and ``--profile`` that ``tests/data/corpus.toml`` gives it;
- ``check`` on every log fixture under ``tests/data/logs`` with ``--log``, ``--group-by``,
  ``--order-by`` as the tests use them, each at ``--jobs 1`` and ``--jobs 2``, folders, a batch's
  input and output joined, and logs over 8 MiB generated here (so ``--jobs 2`` starts a pool);
- fixed-seed ``fuzz`` and ``explore`` runs, their saved counterexamples replayed and drawn, a
  ``--database`` run and a ``--workers 2`` run, and every command of ``make demo``;
- ``fuzz`` and ``replay`` against an HTTP gateway (a small gateway served here, fixed and with planted
  bugs; a copy of ``tests/helpers/gateway_app.py``'s Chat family, so the tests may move);
- ``toolwire proxy`` sessions in front of a fake upstream (served here), requests sent with httpx,
  stopped with SIGINT: stdout, stderr, the JSON Lines report and the record, then ``check`` of it.

Files the commands write under the scratch folder are copied (masked) to OUT_DIR/scratch/, and
listed with a digest in OUT_DIR/scratch-files.txt.

Made deterministic rather than masked: Hypothesis's storage is a folder per command, PYTHONHASHSEED is
0, ``uuid.uuid4`` is seeded in every process the commands start (a sitecustomize on PYTHONPATH), the
servers listen on fixed ports, and the proxy's lines about exchanges are put in exchange order (each
exchange's check ends when it ends).  Masked: see ``_mask``.

Environment: ``GOLDEN_ONLY`` (a regex) re-records just the commands whose names it matches (into an
existing OUT_DIR, the rest kept); ``GOLDEN_JOBS`` (default 2) commands run at once;
``GOLDEN_PORT_BASE`` (default 47310) the first of the 14 loopback ports the servers take.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path.cwd().resolve()
SCRATCH = Path("/tmp/toolwire-golden-scratch")
LOCK = Path("/tmp/toolwire-golden.lock")
INPUTS = SCRATCH / "inputs"
DATA = Path("tests/data")
LOGS = DATA / "logs"

TIMING = re.compile(
    r"\d+(\.\d+)? ?(s|ms)\b|\(\d+(\.\d+)?/s\)|\d+(\.\d+)?/s\b|elapsed[^,\n]*"
    r"|\"(seconds|elapsed|rate|duration)\": [0-9.e+-]+"
)

#: Masked besides timings: uuids (a converter that mints uuid4s), wall-clock dates and times (HAR
#: entries, the proxy's report), and below, loopback ports, random markers, digests in names and the
#: timing fields of HAR files and JUnit reports.
NOISE = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    r"|\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?"
    r"|\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT",
    re.M,
)
PORT = re.compile(r"\b(127\.0\.0\.1|localhost|\[::1\]):\d+")
#: A gateway campaign's markers are random (secrets.token_hex: the mock routes by them).
MARKER = re.compile(r"toolwire-marker-[0-9a-f]{16}")
#: A saved counterexample's name ends in a digest of its content and of its target's identity, which
#: is a file target's absolute path (another tree, another digest) and covers random ids (a converter
#: that mints uuids, a gateway's marker): masked, as is a gateway target's port in it.  The content
#: itself is compared, masked, in OUT_DIR/scratch/.
DIGEST = re.compile(r"\.[0-9a-f]{10}\.(json|har|svg|png|dot|mmd)\b")
GATEWAY_NAME = re.compile(r"\bhttp-\d+-")
#: httpx asks for br and zstd too when brotli or zstandard is installed (a venv with more packages):
#: the Accept-Encoding of the requests in a record or a gateway counterexample says what was installed.
ACCEPT_ENCODING = re.compile(r"\bgzip, deflate(, br)?(, zstd)?\b")
FIELDS = re.compile(
    r"(\"(time|send|wait|receive|blocked|dns|connect|ssl|timestamp)\": ?)-?[0-9][0-9.e+-]*"
    r"|\b(time|timestamp)=\"[^\"]*\""
)


#: The progress line a campaign prints every ten seconds (after three): how many there are depends
#: on how fast the machine was, so they are dropped.
PROGRESS = re.compile(r"^(fuzz|explore): \d+ (examples|traces) \(.*\n?", re.M)

#: Imported by every Python process the commands start (PYTHONPATH): ``uuid.uuid4`` drawn from a seeded
#: generator, so that a converter minting uuids (seed002's ``hist_tool_<uuid>``) mints the same ones
#: in every run; they show clipped (``hist_tool_8ca…``) where the uuid mask cannot see them.
SITE = SCRATCH / "site"
SITECUSTOMIZE = """\
import random as _random
import uuid as _uuid

_drawn = _random.Random(20240501)
_uuid.uuid4 = lambda: _uuid.UUID(int=_drawn.getrandbits(128), version=4)
"""


def _mask(text: str) -> str:
    text = PROGRESS.sub("", text)
    text = text.replace(str(ROOT), "<root>")
    text = PORT.sub(r"\1:<port>", text)
    text = MARKER.sub("toolwire-marker-<x>", text)
    text = DIGEST.sub(r".<digest>.\1", text)
    text = GATEWAY_NAME.sub("http-<port>-", text)
    text = ACCEPT_ENCODING.sub("gzip, deflate", text)
    text = NOISE.sub("<x>", text)
    text = FIELDS.sub(lambda m: (m.group(1) + "<t>") if m.group(1) else f'{m.group(3)}="<t>"', text)
    return TIMING.sub("<t>", text)


def _toolwire() -> str:
    found = Path(sys.executable).with_name("toolwire")
    if not found.exists():
        sys.exit(f"golden: no toolwire beside {sys.executable}; run with the tree's .venv/bin/python")
    return str(found)


def _env(name: str) -> dict[str, str]:
    return dict(
        os.environ,
        COLUMNS="100",
        NO_COLOR="1",
        PYTHONHASHSEED="0",
        # Hypothesis's own files, a folder per command (none shares a cache with another).
        HYPOTHESIS_STORAGE_DIRECTORY=str(SCRATCH / "hyp" / name),
        PYTHONPATH=os.pathsep.join(filter(None, [str(SITE), os.environ.get("PYTHONPATH")])),
    )


#: The scratch folder of the ``--workers 2`` run: its files are listed, their content not compared.
UNCOMPARED = "ce-workers"

#: The names of the outputs written in this run.
WRITTEN: set[str] = set()


def _write(out: Path, name: str, argv: list[str], code: int | None, stdout: str, stderr: str) -> None:
    if name in WRITTEN:
        raise RuntimeError(f"golden: two outputs named {name}")
    WRITTEN.add(name)
    head = f"$ toolwire {' '.join(argv)}\nexit {code}\n"
    text = _mask(f"{head}--- stdout\n{stdout}\n--- stderr\n{stderr}")
    (out / f"{name}.txt").write_text(text, encoding="utf-8")


def _call(name: str, argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [_toolwire(), *argv], cwd=ROOT, capture_output=True, text=True, env=_env(name), timeout=900,
        check=False,
    )  # fmt: skip


def _run(name: str, argv: list[str], out: Path) -> subprocess.CompletedProcess[str]:
    done = _call(name, argv)
    _write(out, name, argv, done.returncode, done.stdout, done.stderr)
    return done


# -- the plain commands ------------------------------------------------------------------------------


#: The CLI's verbs at the base commit (27e802a); every verb ``toolwire --help`` lists is recorded too, so
#: a verb added since shows as a new help-VERB.txt, and one gone as a help-VERB.txt that says so.
VERBS = [
    "check", "rules", "diagram", "ids", "fuzz", "replay", "explore", "analyse", "shapes", "protocols",
    "proxy",
]  # fmt: skip

#: Where each log preset's records name their conversation and their order (tests/unit/test_logs.py,
#: tests/unit/test_jobs.py, the README): ``--group-by`` and ``--order-by``.
GROUPS = {
    "litellm": ("trace_id", "startTime"),
    "portkey": ("metadata.trace_id", None),
    "helicone": ("request_properties.Helicone-Session-Id", "request_created_at"),
    "langfuse": ("traceId", "startTime"),
    "bedrock-invocations": ("operation", "timestamp"),
}

#: The seed designs fuzzed and explored with fixed seeds: target, --from, --to, extra options.
DESIGNS = [
    ("examples/seed000_aisdk_to_openresponses.py:buggy", "aisdk-stream", "open-responses-stream", []),
    ("examples/seed000_aisdk_to_openresponses.py:fixed", "aisdk-stream", "open-responses-stream", []),
    ("examples/seed001_genkit_history.py:buggy", "openai-chat-stream", "openai-chat", []),
    ("examples/seed002_pipeline_mode.py:buggy", "openai-chat-stream", "openai-chat", []),
    (
        "examples/seed002_pipeline_mode.py:fixed",
        "openai-chat-stream",
        "openai-chat",
        ["--quirks", "two-per-chunk"],
    ),
    ("examples/seed003_adk_to_aisdk.py:buggy", "gemini-contents", "aisdk-ui-stream", []),
    ("examples/seed004_sanitizer.py:solution_a", "openai-chat", "openai-chat", ["--mutate"]),
    ("examples/multibug_chat_to_responses.py:buggy", "openai-chat", "openai-responses", []),
    ("examples/multibug_gemini_to_anthropic.py:buggy", "gemini-contents", "anthropic-messages", []),
]

#: ``make demo``, line for line (the Makefile's FUZZ and EXPLORE: verb and options, target, --from, --to,
#: more options), each run with --out in the scratch folder instead of ./counterexamples.
FUZZ = ["fuzz", "--max-examples", "300"]
EXPLORE = ["explore", "--calls", "3", "--deltas", "3"]
S000, S001, S002 = "seed000_aisdk_to_openresponses", "seed001_genkit_history", "seed002_pipeline_mode"
S003, S004 = "seed003_adk_to_aisdk", "seed004_sanitizer"
AISDK, RESPONSES = ("aisdk-stream", "open-responses-stream"), ("openai-chat-stream", "openai-chat")
GEMINI, CHAT = ("gemini-contents", "aisdk-ui-stream"), ("openai-chat", "openai-chat")
DEMO_LINES: list[tuple[list[str], str, tuple[str, str], list[str]]] = [
    (FUZZ, f"{S000}.py:buggy", AISDK, []),
    (FUZZ, f"{S000}.py:fixed", AISDK, []),
    (FUZZ, f"{S001}.py:buggy", RESPONSES, []),
    (FUZZ, f"{S001}.py:fixed", RESPONSES, []),
    (FUZZ, f"{S002}.py:buggy", RESPONSES, []),
    (FUZZ, f"{S002}.py:fixed", RESPONSES, ["--quirks", "two-per-chunk"]),
    (FUZZ, f"{S003}.py:buggy", GEMINI, []),
    (FUZZ, f"{S003}.py:fixed", GEMINI, ["--quirks", "missing-ids"]),
    (FUZZ, f"{S004}.py:solution_a", CHAT, ["--mutate"]),
    (FUZZ, f"{S004}.py:fixed", CHAT, ["--mutate"]),
    (EXPLORE, f"{S000}.py:buggy", AISDK, []),
    (EXPLORE, f"{S000}.py:fixed", AISDK, []),
    (EXPLORE, f"{S001}.py:fixed", RESPONSES, []),
    (EXPLORE, f"{S002}.py:fixed", RESPONSES, ["--quirks", "two-per-chunk"]),
    (EXPLORE, f"{S003}.py:buggy", GEMINI, ["--turns", "2"]),
    (EXPLORE, f"{S003}.py:fixed", GEMINI, ["--turns", "2"]),
    (EXPLORE, f"{S004}.py:fixed", CHAT, ["--turns", "2", "--mutate"]),
]
DEMO = [
    [*verb, f"examples/{target}", "--from", source, "--to", destination, *more]
    for verb, target, (source, destination), more in DEMO_LINES
]


def _key(path: Path | str) -> str:
    return str(path).replace("/", "_")


def _listed_verbs() -> list[str]:
    """The verbs ``toolwire --help`` lists."""
    listed = subprocess.run([_toolwire(), "--help"], capture_output=True, text=True, check=True).stdout
    return re.findall(r"^    ([a-z][a-z-]*)\b", listed, re.M)


def _help_and_listings() -> dict[str, list[str]]:
    commands: dict[str, list[str]] = {"help": ["--help"], "version": ["--version"]}
    for verb in [*VERBS, *(verb for verb in _listed_verbs() if verb not in VERBS)]:
        commands[f"help-{verb}"] = [verb, "--help"]
    commands["proxy-addon-path"] = ["proxy", "--mitmproxy-addon-path"]
    commands["usage-no-verb"] = []
    commands["usage-proxy-no-upstream"] = ["proxy"]
    commands["usage-unknown-verb"] = ["nonsense"]
    for fmt in ("text", "json"):
        commands[f"rules-{fmt}"] = ["rules", "--format", fmt]
        commands[f"protocols-{fmt}"] = ["protocols", "--format", fmt]
        commands[f"analyse-{fmt}"] = ["analyse", "--format", fmt]
        commands[f"rules-p-openai-chat-stream-{fmt}"] = [
            "rules", "-p", "openai-chat-stream", "--format", fmt,
        ]  # fmt: skip
        for number, value in enumerate(["call_abc123", "toolu_01A09q90qw90lq917835lq9", " call x", ""]):
            commands[f"ids-{number}-{fmt}"] = ["ids", value, "--format", fmt]
        commands[f"ids-for-{fmt}"] = [
            "ids", "call_abc123", "--for", "anthropic-messages,openai-chat", "--format", fmt,
        ]  # fmt: skip
        commands[f"analyse-one-{fmt}"] = ["analyse", "ChatToolCallStream", "--format", fmt]
        for protocol, file in [
            ("openai-chat-stream", "openai-chat-stream/cc6c-all-calls-at-index-0.sse"),
            ("openai-responses-stream", "openai-responses-stream/good-parallel-same-tool.sse"),
            ("anthropic-stream", next(iter(sorted((ROOT / DATA / "anthropic-stream").iterdir()))).name),
        ]:
            path = DATA / file if "/" in file else DATA / protocol / file
            commands[f"shapes-{protocol}-{fmt}"] = ["shapes", str(path), "-p", protocol, "--format", fmt]
    commands["diagram"] = ["diagram", "--out", str(SCRATCH / "diagrams")]
    # Without Graphviz's dot too (svg and png need it; dot and mermaid do not).
    commands["diagram-text"] = [
        "diagram", "--format", "dot", "--format", "mermaid", "--out", str(SCRATCH / "diagrams-text"),
    ]  # fmt: skip
    commands["diagram-mermaid-one"] = [
        "diagram", "ChatToolCallStream", "--format", "mermaid", "--out", str(SCRATCH / "diagrams-one"),
    ]  # fmt: skip
    return commands


def _checks() -> dict[str, list[str]]:
    commands: dict[str, list[str]] = {}
    for path in sorted((ROOT / DATA).rglob("*")):
        if path.is_file() and path.suffix != ".toml":
            rel = str(path.relative_to(ROOT))
            key = rel.replace("/", "_")
            commands[f"check-text-{key}"] = ["check", rel]
            commands[f"check-json-{key}"] = ["check", rel, "--format", "json"]
    with (ROOT / DATA / "corpus.toml").open("rb") as handle:
        corpus = tomllib.load(handle)["trace"]
    for entry in corpus:
        words = ["check", str(DATA / entry["file"]), "-p", entry["protocol"]]
        if "after" in entry:
            words += ["--after", str(DATA / entry["after"])]
        if "profile" in entry:
            words += ["--profile", entry["profile"]]
        for fmt in ("text", "json"):
            commands[f"corpus-{fmt}-{_key(entry['file'])}"] = [*words, "--format", fmt]
    return commands


def _log_checks() -> dict[str, list[str]]:
    """``check`` on the log fixtures as the tests run them, each at --jobs 1 and 2, text and JSON."""
    cases: dict[str, list[str]] = {}
    for folder in sorted(p for p in (ROOT / LOGS).iterdir() if p.is_dir()):
        preset = folder.name
        rel = LOGS / preset
        if preset == "otel":
            for file in sorted(folder.iterdir()):
                cases[f"otel-{file.stem}"] = [str(rel / file.name)]
            cases["otel-folder"] = [str(rel)]
            cases["otel-mixed-litellm-grouped"] = [
                str(rel / "logs-changed-id.jsonl"), str(LOGS / "litellm" / "clean.jsonl"),
                "--log", "litellm", "--group-by", "trace_id",
            ]  # fmt: skip
            cases["otel-order-by-turn"] = [str(rel / "openinference-changed-id.jsonl"), "--order-by", "turn"]
            continue
        group, order = GROUPS.get(preset, (None, None))
        targets = [(file.stem, str(rel / file.name)) for file in sorted(folder.iterdir())]
        targets.append(("folder", str(rel)))
        for stem, target in targets:
            cases[f"{preset}-{stem}"] = [target, "--log", preset]
            cases[f"{preset}-{stem}-nolog"] = [target]
            if group:
                cases[f"{preset}-{stem}-grouped"] = [target, "--log", preset, "--group-by", group]
            if group and order:
                cases[f"{preset}-{stem}-ordered"] = [
                    target, "--log", preset, "--group-by", group, "--order-by", order,
                ]  # fmt: skip
    batch_in, batch_out = LOGS / "openai-batch-input", LOGS / "openai-batch-output"
    for kind in ("clean", "violating"):
        cases[f"batch-joined-{kind}"] = [
            str(batch_in / f"{kind}.jsonl"), str(batch_out / f"{kind}.jsonl"),
            "--log", "openai-batch-input", "--log", "openai-batch-output",
        ]  # fmt: skip
    cases["batch-joined-reversed"] = [
        str(batch_out / "violating.jsonl"), str(batch_in / "violating.jsonl"),
        "--log", "openai-batch-output", "--log", "openai-batch-input",
    ]  # fmt: skip
    cases["batch-joined-mixed"] = [
        str(batch_in / "violating.jsonl"), str(batch_out / "clean.jsonl"),
        "--log", "openai-batch-input", "--log", "openai-batch-output",
    ]  # fmt: skip
    cases["batch-one-preset-for-both"] = [
        str(batch_in / "clean.jsonl"), str(batch_in / "violating.jsonl"), "--log", "openai-batch-input",
    ]  # fmt: skip
    databricks = LOGS / "databricks-inference"
    for kind in ("clean", "violating"):
        cases[f"databricks-paths-{kind}"] = [
            str(databricks / f"{kind}.jsonl"), "--request", "request", "--response", "response",
        ]  # fmt: skip
    cases["bedrock-paths-body"] = [
        str(LOGS / "bedrock-invocations" / "clean.jsonl"), "--request", "input.inputBodyJson",
        "--response", "output.outputBodyJson",
    ]  # fmt: skip
    cases["usage-log-after"] = [str(LOGS / "litellm" / "clean.jsonl"), "--log", "litellm", "--after", "x.sse"]
    cases["usage-group-without-log"] = [str(LOGS / "litellm" / "clean.jsonl"), "--group-by", "trace_id"]
    cases["usage-jobs-0"] = [str(LOGS / "litellm" / "clean.jsonl"), str(LOGS / "portkey"), "--jobs", "0"]
    cases["litellm-group-missing-path"] = [
        str(LOGS / "litellm" / "changed-id.jsonl"), "--log", "litellm", "--group-by", "no.such.path",
        "--order-by", "startTime",
    ]  # fmt: skip
    # Generated here (see _inputs): logs over 8 MiB, cut at line ends and checked on a pool at --jobs 2.
    big = str(INPUTS / "litellm-big.jsonl")
    cases["big-litellm"] = [big, "--log", "litellm"]
    cases["big-litellm-grouped"] = [
        big, "--log", "litellm", "--group-by", "trace_id", "--order-by", "startTime",
    ]  # fmt: skip
    cases["big-litellm-shuffled-grouped"] = [
        str(INPUTS / "shuffled-0.jsonl"), str(INPUTS / "shuffled-1.jsonl"), "--log", "litellm",
        "--group-by", "trace_id", "--order-by", "startTime",
    ]  # fmt: skip
    cases["big-requests"] = [str(INPUTS / "requests-big.jsonl")]
    cases["big-requests-p"] = [str(INPUTS / "requests-big.jsonl"), "-p", "openai-chat"]
    cases["big-requests-body"] = [str(INPUTS / "requests-big.jsonl"), "--body", "messages"]
    cases["many-files"] = sorted(str(p.relative_to(ROOT)) for p in (ROOT / DATA / "openai-chat").iterdir())
    cases["many-files-p"] = [*cases["many-files"], "-p", "openai-chat"]
    commands: dict[str, list[str]] = {}
    for name, words in cases.items():
        for jobs in ("1", "2"):
            for fmt in ("text", "json"):
                commands[f"log-{name}-j{jobs}-{fmt}"] = ["check", *words, "--jobs", jobs, "--format", fmt]
    return commands


def _campaigns() -> dict[str, list[str]]:
    commands: dict[str, list[str]] = {}
    for number, (target, source, destination, extra) in enumerate(DESIGNS):
        for fmt in ("text", "json"):
            out = str(SCRATCH / f"ce-{number}-{fmt}")
            commands[f"fuzz-{number}-{fmt}"] = [
                "fuzz", target, "--from", source, "--to", destination, "--max-examples", "100",
                "--seed", "3", "--out", out, "--format", fmt, *extra,
            ]  # fmt: skip
            commands[f"explore-{number}-{fmt}"] = [
                "explore", target, "--from", source, "--to", destination, "--calls", "2", "--deltas", "2",
                "--out", out + "-explore", "--format", fmt, *extra,
            ]  # fmt: skip
    target, source, destination, extra = DESIGNS[3]
    commands["fuzz-3-junit"] = [
        "fuzz", target, "--from", source, "--to", destination, "--max-examples", "100", "--seed", "3",
        "--out", str(SCRATCH / "ce-3-junit"), "--format", "junit", *extra,
    ]  # fmt: skip
    commands["fuzz-3-ignore"] = [
        "fuzz", target, "--from", source, "--to", destination, "--max-examples", "60", "--seed", "5",
        "--out", str(SCRATCH / "ce-3-ignore"), "--ignore", "identity", "--ignore", "CC-1", *extra,
    ]  # fmt: skip
    commands["fuzz-1-coverage"] = [
        "fuzz", DESIGNS[1][0], "--from", DESIGNS[1][1], "--to", DESIGNS[1][2], "--max-examples", "50",
        "--seed", "1", "--min-coverage", "0.99", "--out", str(SCRATCH / "ce-1-coverage"),
    ]  # fmt: skip
    commands["fuzz-3-like"] = [
        "fuzz", target, "--from", source, "--to", destination, "--max-examples", "60", "--seed", "2",
        "--like", str(DATA / "openai-chat-stream" / "cc6c-all-calls-at-index-0.sse"),
        "--out", str(SCRATCH / "ce-3-like"),
    ]  # fmt: skip
    commands["fuzz-3-quirks-none"] = [
        "fuzz", target, "--from", source, "--to", destination, "--max-examples", "60", "--seed", "4",
        "--quirks", "none", "--out", str(SCRATCH / "ce-3-quirks-none"),
    ]  # fmt: skip
    for source in ("openai-chat-stream", "anthropic-stream", "gemini-contents"):
        commands[f"explore-space-{source}"] = ["explore", "--from", source, "--calls", "2", "--deltas", "2"]
    commands["explore-space-suite"] = [
        "explore", "--from", "openai-chat-stream", "--calls", "2", "--deltas", "1",
        "--suite", str(SCRATCH / "suite"),
    ]  # fmt: skip
    commands["explore-space-json"] = [
        "explore", "--from", "anthropic-stream", "--calls", "1", "--deltas", "2", "--format", "json",
    ]  # fmt: skip
    for number, words in enumerate(DEMO):
        commands[f"demo-{number:02d}"] = [*words, "--out", str(SCRATCH / f"demo-{number:02d}")]
    return commands


def _commands() -> dict[str, list[str]]:
    return {**_help_and_listings(), **_checks(), **_log_checks(), **_campaigns()}


# -- commands in sequence: a run, then what it saved ---------------------------------------------------


Session = Callable[[Path], None]


def _saved(folder: Path, suffix: str = ".json") -> list[Path]:
    """The files a campaign saved, in the order of their masked names and contents."""
    if not folder.is_dir():
        return []
    found = [p for p in folder.rglob(f"*{suffix}") if p.is_file()]
    return sorted(found, key=lambda p: (_mask(p.name), _mask(p.read_text("utf-8", "replace"))))


def _with_replays(name: str, number: int) -> Session:
    """A fixed-seed campaign, then every counterexample it saved replayed, drawn and checked."""
    target, source, destination, extra = DESIGNS[number]

    def session(out: Path) -> None:
        folder = SCRATCH / f"{name}-ce"
        _run(name, [
            "fuzz", target, "--from", source, "--to", destination, "--max-examples", "80", "--seed", "11",
            "--out", str(folder), *extra,
        ], out)  # fmt: skip
        for k, saved in enumerate(_saved(folder)):
            for fmt in ("text", "json"):
                _run(f"{name}-replay-{k}-{fmt}", ["replay", str(saved), target, "--format", fmt], out)
            drawn = str(SCRATCH / f"{name}-dg-{k}")
            _run(f"{name}-diagram-{k}", ["diagram", "--counterexample", str(saved), "--out", drawn], out)
        for k, har in enumerate(_saved(folder, ".har")):
            _run(f"{name}-check-har-{k}", ["check", str(har)], out)

    return session


def _database_twice(out: Path) -> None:
    """A campaign that keeps its findings in a --database, run again: the second replays them first."""
    target, source, destination, extra = DESIGNS[3]
    database = str(SCRATCH / "database")
    for k in (1, 2):
        _run(f"fuzz-database-{k}", [
            "fuzz", target, "--from", source, "--to", destination, "--max-examples", "50", "--seed", str(k),
            "--database", database, "--out", str(SCRATCH / f"ce-database-{k}"), *extra,
        ], out)  # fmt: skip


#: What of a ``--workers 2`` run is the same in every run: its heading, the findings (the worker
#: that finds one first gives its example: ids and shrinking differ), and their count.
SETTLED = re.compile(r"^(toolwire fuzz |FAIL |ran \d+ examples)")
CALL_ID = re.compile(r"\bcall_[A-Za-z0-9]{24}\b")
SHRINKING = re.compile(r" \(\+\d+ shrinking\)")


def _workers(out: Path) -> None:
    """A campaign on two worker processes, recorded as far as it is the same in every run."""
    target, source, destination, extra = DESIGNS[2]
    argv = [
        "fuzz", target, "--from", source, "--to", destination, "--max-examples", "60", "--seed", "3",
        "--workers", "2", "--out", str(SCRATCH / UNCOMPARED), *extra,
    ]  # fmt: skip
    done = _call("fuzz-workers-2", argv)
    kept = [SHRINKING.sub("", CALL_ID.sub("call_<id>", line)) for line in done.stdout.splitlines()]
    kept = [line for line in kept if SETTLED.match(line)]
    fails = sorted(line for line in kept if line.startswith("FAIL "))
    settled = [line for line in kept if not line.startswith("FAIL ")]
    printed = "\n".join([*settled[:1], *fails, *settled[1:]]) + "\n(only these lines are compared)\n"
    _write(out, "fuzz-workers-2", argv, done.returncode, printed, done.stderr)


# -- servers: a gateway, a fake upstream -------------------------------------------------------------------


#: Each server's loopback port, fixed (GOLDEN_PORT_BASE + an offset per session), so that the files a
#: gateway campaign or a proxy writes are the same bytes in every run (ports are masked in what is
#: compared all the same).
PORTS = {
    "gateway-crossed": 0, "gateway-crossed-json": 2, "gateway-index-0": 4, "gateway-fixed": 6,
    "proxy-text-har": 8, "proxy-json-yaml": 10, "proxy-text-p": 12,
}  # fmt: skip


def _port(session: str, k: int) -> int:
    """The ``k``-th port (0 or 1) of ``session``; exits if something listens there already."""
    port = int(os.environ.get("GOLDEN_PORT_BASE", "47310")) + PORTS[session] + k
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            sys.exit(f"golden: port {port} is taken; set GOLDEN_PORT_BASE to another base (for both runs)")
    return port


@contextlib.contextmanager
def _serving(app: Any, port: int) -> Iterator[str]:
    """Serve ``app`` with uvicorn in a thread on loopback ``port``; yields its base URL."""
    import uvicorn

    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="critical", lifespan="on", date_header=False,
        server_header=False,
    )  # fmt: skip
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("golden: a server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def _gateway_app(upstream: str, bug: str | None) -> Any:
    """``tests/helpers/gateway_app.py``'s Chat family, copied: Chat clients, a Chat upstream, its ids
    mapped; ``bug`` plants ``name-keyed``, ``index-0`` or ``crossed`` (None: the fixed twin)."""
    import itertools

    import httpx
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response, StreamingResponse
    from starlette.routing import Route

    numbers = itertools.count(1)
    by_id: dict[str, str | None] = {}
    by_name: dict[str, str | None] = {}
    client = httpx.AsyncClient(timeout=30.0, trust_env=False)

    def down_id(up: str | None, name: str) -> str:
        mine = up or f"call_gw{next(numbers):017d}"
        by_id[mine] = up
        by_name[name] = up
        return mine

    def up_id(down: str, name: str) -> str | None:
        if bug == "name-keyed":
            return by_name.get(name, down)
        return by_id.get(down, down)

    def upstream_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        names = {c["id"]: c["function"]["name"] for m in messages for c in m.get("tool_calls") or []}
        out = []
        for message in messages:
            message = dict(message)
            if message.get("tool_calls"):
                message["tool_calls"] = [
                    call | {"id": up_id(call["id"], call["function"]["name"])}
                    for call in message["tool_calls"]
                ]
            if message.get("role") == "tool":
                answered = message["tool_call_id"]
                message["tool_call_id"] = up_id(answered, names.get(answered, ""))
            out.append(message)
        if bug == "crossed":
            tools = [m for m in out if m.get("role") == "tool"]
            ids = [m["tool_call_id"] for m in tools]
            for message, rotated in zip(tools, ids[1:] + ids[:1], strict=True):
                message["tool_call_id"] = rotated
        return out

    async def chat(request: Request) -> Response:
        body = await request.json()
        forwarded = body | {"messages": upstream_messages(body["messages"])}
        reply = await client.send(
            client.build_request("POST", f"{upstream}/v1/chat/completions", json=forwarded), stream=True
        )
        if reply.status_code != 200:
            return Response(await reply.aread(), status_code=reply.status_code)

        async def chunks() -> Any:
            try:
                async for line in reply.aiter_lines():
                    if not line.startswith("data: "):
                        continue
                    if line == "data: [DONE]":
                        yield b"data: [DONE]\n\n"
                        continue
                    chunk = json.loads(line[6:])
                    for choice in chunk.get("choices") or []:
                        for call in choice.get("delta", {}).get("tool_calls") or []:
                            if call.get("id"):
                                call["id"] = down_id(call["id"], call.get("function", {}).get("name", ""))
                            if bug == "index-0":
                                call["index"] = 0
                    yield b"data: " + json.dumps(chunk).encode() + b"\n\n"
            finally:
                await reply.aclose()

        return StreamingResponse(chunks(), media_type="text/event-stream")

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> Any:
        yield
        await client.aclose()

    return Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"])], lifespan=lifespan)


def _gateway(name: str, bug: str | None, fmt: str, examples: int) -> Session:
    """A fixed-seed gateway fuzz (its saved counterexamples replayed against the same gateway)."""

    def session(out: Path) -> None:
        upstream = _port(name, 1)
        folder = SCRATCH / f"{name}-ce"
        with _serving(_gateway_app(f"http://127.0.0.1:{upstream}", bug), _port(name, 0)) as base:
            url = base + "/v1/chat/completions"
            gateway = ["--upstream", f"127.0.0.1:{upstream}"]
            _run(name, [
                "fuzz", url, "--from", "openai-chat-stream", "--to", "openai-chat-stream", *gateway,
                "--max-examples", str(examples), "--seed", "3", "--out", str(folder), "--format", fmt,
                "--header", "Authorization: Bearer sk-test-abcdefghijklmnopqrstuv",
            ], out)  # fmt: skip
            for k, saved in enumerate(_saved(folder)):
                _run(f"{name}-replay-{k}", ["replay", str(saved), url, *gateway], out)
        for k, har in enumerate(_saved(folder, ".har")):
            _run(f"{name}-check-har-{k}", ["check", str(har)], out)

    return session


def _upstream_app() -> Any:
    """``tests/helpers/proxy_support.py``'s fake provider, copied: the body is the tests/data file
    ``x-fake-trace`` names, streamed event by event; ``x-fake-mode: error`` is a 429."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response, StreamingResponse
    from starlette.routing import Route

    async def answer(request: Request) -> Response:
        await request.body()
        if request.headers.get("x-fake-mode") == "error":
            error = b'{"error": {"message": "Rate limit reached", "type": "rate_limit_error"}}'
            return Response(error, status_code=429, media_type="application/json")
        raw = (ROOT / DATA / request.headers["x-fake-trace"]).read_bytes()
        pieces = raw.split(b"\n\n")
        chunks = [piece + b"\n\n" for piece in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])

        async def stream() -> Any:
            for chunk in chunks:
                yield chunk

        kind = request.headers.get("x-fake-type", "text/event-stream")
        return StreamingResponse(stream(), media_type=kind)

    methods = ["GET", "POST", "PUT", "DELETE", "PATCH"]
    return Starlette(routes=[Route("/{path:path}", answer, methods=methods)])


def _proxy_requests() -> list[tuple[str, dict[str, Any], dict[str, str]]]:
    """What the proxy session sends: (path, body, headers), as the proxy server tests send them."""
    responses = {"model": "gpt-4o", "input": [{"role": "user", "content": "weather?"}], "stream": True}
    key = {"authorization": "Bearer sk-test-abcdefghijklmnopqrstuv"}

    def fake(trace: str, **more: str) -> dict[str, str]:
        return {"x-fake-trace": trace, **key, **more}

    chat = "openai-chat-stream/seed002-provider-stream.sse"
    first = [{"role": "user", "content": "search for pipeline mode"}]
    start = {"model": "gpt-4o", "messages": first, "stream": True}
    replayed = json.loads((ROOT / DATA / "openai-chat/seed002-fixed.json").read_text())
    synthesized = json.loads((ROOT / DATA / "openai-chat/seed002-synthesized-ids.json").read_text())
    unseen = json.loads((ROOT / DATA / "openai-chat/seed002-synthesized-ids.json").read_text())
    unseen["messages"][0]["content"] = "a conversation the proxy never saw start"
    error = fake(chat, **{"x-fake-mode": "error"})
    index_0 = "openai-chat-stream/cc6c-all-calls-at-index-0.sse"
    return [
        ("/v1/responses", responses, fake("openai-responses-stream/rs7c-two-items-one-call-id.sse")),
        ("/v1/responses", responses, fake("openai-responses-stream/good-parallel-same-tool.sse")),
        ("/v1/responses", responses, fake("openai-responses-stream/rs7a-no-created.sse")),
        ("/v1/chat/completions", start, fake(chat)),
        ("/v1/chat/completions", replayed, fake(chat)),
        ("/v1/chat/completions", synthesized, fake(chat)),
        ("/v1/chat/completions", unseen, fake(chat)),
        ("/v1/messages?key=AIzaSyA-secret-key-0123456789", {"model": "claude"}, error),
        ("/v1/chat/completions", {"model": "gpt-4o", "messages": "not a list"}, fake(index_0)),
    ]  # fmt: skip


def _proxy(name: str, fmt: str, suffix: str, protocols: list[str]) -> Session:
    """``toolwire proxy`` in front of the fake upstream: requests through it, stopped with SIGINT."""

    def session(out: Path) -> None:
        import httpx

        folder = SCRATCH / name
        folder.mkdir(parents=True, exist_ok=True)
        report, record = folder / "findings.jsonl", folder / f"run{suffix}"
        with _serving(_upstream_app(), _port(name, 1)) as upstream:
            port = _port(name, 0)
            argv = [
                "proxy", "--upstream", upstream, "--listen", f"127.0.0.1:{port}", "--report", str(report),
                "--record", str(record), "--format", fmt, *protocols,
            ]  # fmt: skip
            stdout, stderr = folder / "stdout.txt", folder / "stderr.txt"
            with stdout.open("w") as o, stderr.open("w") as e:
                process = subprocess.Popen([_toolwire(), *argv], cwd=ROOT, stdout=o, stderr=e, env=_env(name))
            try:
                deadline = time.monotonic() + 60
                while "listening" not in stdout.read_text() and time.monotonic() < deadline:
                    if process.poll() is not None:
                        break
                    time.sleep(0.05)
                answers = []
                with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60, trust_env=False) as client:
                    for path, body, headers in _proxy_requests():
                        reply = client.post(path, json=body, headers=headers)
                        digest = hashlib.sha256(reply.content).hexdigest()[:16]
                        answers.append(f"{path} {reply.status_code} {digest}")
                process.send_signal(signal.SIGINT)
                code = process.wait(timeout=90)
            finally:
                if process.poll() is None:
                    process.kill()
                    process.wait()
        printed, said = stdout.read_text(), stderr.read_text()
        stdout.unlink()
        stderr.unlink()
        if report.exists():
            report.write_text(_by_exchange(report.read_text()))
        answered = "\n--- answers (path, status, digest of the body)\n" + "\n".join(answers) + "\n"
        _write(out, name, argv, code, _by_exchange(printed), said + answered)
        for fmt_ in ("text", "json"):
            _run(f"{name}-check-record-{fmt_}", ["check", str(record), "--format", fmt_], out)

    return session


EXCHANGE = re.compile(r'^#(\d+) |^\{"exchange":(\d+),')


def _by_exchange(text: str) -> str:
    """The proxy's lines that tell of an exchange, in exchange order (each in the order told).

    The proxy tells each exchange's findings when its check ends, and checks end in no fixed order;
    the other lines (listening, the summary) stay where they are.
    """
    lines = text.splitlines(keepends=True)
    told = [k for k, line in enumerate(lines) if EXCHANGE.match(line)]

    def number(line: str) -> int:
        found = EXCHANGE.match(line)
        assert found is not None
        return int(found.group(1) or found.group(2))

    ordered = sorted((lines[k] for k in told), key=number)
    for k, line in zip(told, ordered, strict=True):
        lines[k] = line
    return "".join(lines)


def _sessions() -> dict[str, Session]:
    sessions: dict[str, Session] = {
        "seq-fuzz-0": _with_replays("seq-fuzz-0", 0),
        "seq-fuzz-3": _with_replays("seq-fuzz-3", 3),
        "seq-fuzz-7": _with_replays("seq-fuzz-7", 7),
        "fuzz-database": _database_twice,
        "fuzz-workers": _workers,
        "gateway-crossed": _gateway("gateway-crossed", "crossed", "text", 40),
        "gateway-crossed-json": _gateway("gateway-crossed-json", "crossed", "json", 40),
        "gateway-index-0": _gateway("gateway-index-0", "index-0", "text", 40),
        "gateway-fixed": _gateway("gateway-fixed", None, "text", 30),
        "proxy-text-har": _proxy("proxy-text-har", "text", ".har", []),
        "proxy-json-yaml": _proxy("proxy-json-yaml", "json", ".yaml", []),
        "proxy-text-p": _proxy(
            "proxy-text-p", "text", ".har", ["-p", "openai-chat", "-p", "openai-chat-stream"]
        ),
    }
    return sessions


# -- generated inputs -------------------------------------------------------------------------------------


def _inputs() -> None:
    """Logs over 8 MiB (``toolwire check`` cuts them for --jobs), made the same way every run."""
    INPUTS.mkdir(parents=True, exist_ok=True)
    records = [
        line
        for name in ("clean.jsonl", "changed-id.jsonl", "orphan-tool-message.jsonl")
        for line in (ROOT / LOGS / "litellm" / name).read_text().splitlines()
        if line.strip()
    ]
    lines = []
    for k in range(1200):
        for record in records:
            value = json.loads(record)
            value["trace_id"] = f"{value.get('trace_id')}-{k}"
            lines.append(json.dumps(value))
    (INPUTS / "litellm-big.jsonl").write_text("\n".join(lines) + "\n")
    rng = random.Random(11)
    shuffled = list(lines)
    rng.shuffle(shuffled)
    shuffled[40:40] = ['{"trace_id": "sess-7f3a-3", "messages": [', "[1, 2]", ""]
    half = len(shuffled) // 2
    for k, part in enumerate((shuffled[:half], shuffled[half:])):
        (INPUTS / f"shuffled-{k}.jsonl").write_text("\n".join(part) + "\n")
    rng = random.Random(7)
    out = []
    for n in range(16000):
        if n % 401 == 400:
            out.append('{"model": "gpt-4o", "messages": [')
        elif n % 333 == 5:
            out.append("")
        else:
            call = f"call_{n:06d}"
            answered = call if n % 97 else "call_elsewhere"
            messages = [
                {"role": "system", "content": "You are helpful. " * rng.randint(1, 20)},
                {"role": "user", "content": f"weather in city {n}?"},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": call, "type": "function", "function": {"name": "weather", "arguments": '{"c":1}'}}
                ]},
                {"role": "tool", "tool_call_id": answered, "content": "72F"},
            ]  # fmt: skip
            out.append(json.dumps({"model": "gpt-4o", "messages": messages}))
    (INPUTS / "requests-big.jsonl").write_text("\n".join(out) + "\n")


# -- the run ------------------------------------------------------------------------------------------------


def _check_tree() -> None:
    """The toolwire run is this tree's."""
    where = subprocess.run(
        [sys.executable, "-c", "import toolwire; print(toolwire.__file__)"], cwd="/", capture_output=True,
        text=True, check=True,
    ).stdout.strip()  # fmt: skip
    if not Path(where).resolve().is_relative_to(ROOT / "src"):
        sys.exit(f"golden: {sys.executable} imports toolwire from {where}, not from {ROOT / 'src'}")


def _copy_scratch(out: Path, merge: bool) -> None:
    """Every file the commands wrote under the scratch folder: masked copies and a listing.

    Names are masked as outputs are (a counterexample's digest); files whose names mask alike are
    told apart by their masked content's order (``NAME``, ``NAME~2``, ...).
    """
    listing: dict[str, str] = {}
    if merge and (out / "scratch-files.txt").exists():
        for line in (out / "scratch-files.txt").read_text().splitlines():
            name, _, digest = line.rpartition(" ")
            listing[name] = digest
    found: list[tuple[str, str, bytes]] = []
    for path in SCRATCH.rglob("*"):
        rel = path.relative_to(SCRATCH)
        if path.is_file() and rel.parts[0] not in ("hyp", "inputs", "site"):
            raw = path.read_bytes()
            try:
                text = _mask(raw.decode("utf-8"))
            except UnicodeDecodeError:
                text = ""
            found.append((_mask(str(rel)), text, raw))
    if merge:  # re-recorded: what the earlier run kept of the folders written again goes
        for top in {name.split("/")[0] for name, _, _ in found}:
            shutil.rmtree(out / "scratch" / top, ignore_errors=True)
            listing = {k: v for k, v in listing.items() if not k.startswith(top + "/")}
    taken: dict[str, int] = {}
    for name, text, raw in sorted(found, key=lambda item: (item[0], item[1], item[2])):
        taken[name] = taken.get(name, 0) + 1
        if taken[name] > 1:
            name = f"{name}~{taken[name]}"
        if name.startswith(UNCOMPARED + "/"):
            listing[name] = "(not compared: whichever worker found it first)"
            continue
        if not text and raw:
            listing[name] = hashlib.sha256(raw).hexdigest()[:16] + " (binary)"
            continue
        listing[name] = hashlib.sha256(text.encode()).hexdigest()[:16]
        if len(raw) <= 512 << 10:
            copy = out / "scratch" / name
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_text(text, encoding="utf-8")
    (out / "scratch-files.txt").write_text(
        "".join(f"{path} {digest}\n" for path, digest in sorted(listing.items())), encoding="utf-8"
    )


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = Path(sys.argv[1]).resolve()
    only = os.environ.get("GOLDEN_ONLY")  # a regex: re-record just the commands it matches
    if out.exists() and any(out.iterdir()) and not only:
        sys.exit(f"golden: {out} is not empty (remove it, or set GOLDEN_ONLY to re-record some commands)")
    out.mkdir(parents=True, exist_ok=True)
    lock = LOCK.open("w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        sys.exit(f"golden: another run holds {LOCK} (runs share {SCRATCH}; run one at a time)")
    _check_tree()
    shutil.rmtree(SCRATCH, ignore_errors=True)
    SCRATCH.mkdir(parents=True)
    SITE.mkdir()
    (SITE / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    started = time.monotonic()
    commands = _commands()
    sessions = _sessions()
    if only:
        commands = {name: argv for name, argv in commands.items() if re.search(only, name)}
        sessions = {name: session for name, session in sessions.items() if re.search(only, name)}
    if any(str(INPUTS) in word for argv in commands.values() for word in argv):
        _inputs()
    with ThreadPoolExecutor(max_workers=int(os.environ.get("GOLDEN_JOBS", "2"))) as pool:
        # The sessions first: they are the longest.
        running: list[Future[Any]] = [pool.submit(session, out) for session in sessions.values()]
        running += [pool.submit(_run, name, argv, out) for name, argv in commands.items()]
        for done in running:
            done.result()
    _copy_scratch(out, merge=bool(only))
    shutil.rmtree(SCRATCH, ignore_errors=True)
    print(
        f"{len(WRITTEN)} outputs recorded in {out} ({len(commands)} commands and {len(sessions)} sessions) "
        f"in {time.monotonic() - started:.0f} s"
    )


if __name__ == "__main__":
    main()
