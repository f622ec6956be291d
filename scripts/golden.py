"""Record toolwire's observable outputs, to prove a restructure changes none of them.

    python scripts/golden.py OUT_DIR          # record into OUT_DIR (one file per command)
    diff -r BEFORE_DIR AFTER_DIR              # the golden diff

Run from the repo root. Every command runs the installed ``toolwire`` there, with scratch output under
one fixed folder (so paths printed are the same in both runs); timings are masked.  Recorded:
every ``--help``, ``rules``, ``protocols``, ``analyse``, every diagram, ``check`` (text and JSON)
on every file under ``tests/data``, fixed-seed ``fuzz`` and ``explore`` runs with their saved
counterexamples, and ``make demo``'s commands.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path.cwd()
SCRATCH = Path("/tmp/toolwire-golden-scratch")
TIMING = re.compile(
    r"\d+(\.\d+)? ?(s|ms)\b|\(\d+(\.\d+)?/s\)|\d+(\.\d+)?/s|elapsed[^,\n]*"
    r"|\"(seconds|elapsed|rate|duration)\": [0-9.e+-]+"
)


#: Masked besides timings: random ids (a converter that mints uuid4s) and the live progress line,
#: which shows how far a campaign had got when it was last drawn.
NOISE = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|^fuzz: \d+ examples.*$", re.M
)


def _mask(text: str) -> str:
    return NOISE.sub("<x>", TIMING.sub("<t>", text))


def _toolwire() -> str:
    found = shutil.which("toolwire")
    return found or str(Path(sys.executable).with_name("toolwire"))


def _commands() -> dict[str, list[str]]:
    verbs = [
        "check",
        "rules",
        "diagram",
        "ids",
        "fuzz",
        "replay",
        "explore",
        "analyse",
        "shapes",
        "protocols",
    ]
    commands: dict[str, list[str]] = {"help": ["--help"]}
    for verb in verbs:
        commands[f"help-{verb}"] = [verb, "--help"]
    for fmt in ("text", "json"):
        commands[f"rules-{fmt}"] = ["rules", "--format", fmt]
        commands[f"protocols-{fmt}"] = ["protocols", "--format", fmt]
        commands[f"analyse-{fmt}"] = ["analyse", "--format", fmt]
    commands["diagram"] = ["diagram", "--out", str(SCRATCH / "diagrams")]
    for path in sorted((ROOT / "tests" / "data").rglob("*")):
        if path.is_file() and path.suffix != ".toml":
            rel = str(path.relative_to(ROOT))
            key = rel.replace("/", "_")
            commands[f"check-text-{key}"] = ["check", rel]
            commands[f"check-json-{key}"] = ["check", rel, "--format", "json"]
    demos = [
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
    for number, (target, source, destination, extra) in enumerate(demos):
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
    for source in ("openai-chat-stream", "anthropic-stream", "gemini-contents"):
        commands[f"explore-space-{source}"] = ["explore", "--from", source, "--calls", "2", "--deltas", "2"]
    return commands


def _run(name: str, argv: list[str], out: Path) -> None:
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1", HYPOTHESIS_STORAGE_DIRECTORY=str(SCRATCH / "hyp"))
    done = subprocess.run(
        [_toolwire(), *argv], cwd=ROOT, capture_output=True, text=True, env=env, timeout=600, check=False
    )
    head = f"$ toolwire {' '.join(argv)}\nexit {done.returncode}\n"
    text = f"{head}--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}"
    (out / f"{name}.txt").write_text(_mask(text), encoding="utf-8")


def _files(folder: Path, out: Path) -> None:
    lines = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.relative_to(folder).parts[0] != "hyp":
            digest = hashlib.sha256(
                TIMING.sub("<t>", path.read_text("utf-8", "replace")).encode()
            ).hexdigest()
            lines.append(f"{path.relative_to(folder)} {digest[:16]}")
    (out / "scratch-files.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    out = Path(sys.argv[1]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(SCRATCH, ignore_errors=True)
    SCRATCH.mkdir(parents=True)
    commands = _commands()
    only = os.environ.get("GOLDEN_ONLY")  # a regex: re-record just the commands it matches
    if only:
        commands = {name: argv for name, argv in commands.items() if re.search(only, name)}
    with ThreadPoolExecutor(max_workers=int(os.environ.get("GOLDEN_JOBS", "2"))) as pool:
        list(pool.map(lambda item: _run(item[0], item[1], out), commands.items()))
    _files(SCRATCH, out)
    print(f"{len(commands)} commands recorded in {out}")


if __name__ == "__main__":
    main()
