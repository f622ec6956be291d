"""Make one virtual environment per (row, pin): toolwire from this repository, editable, and the pinned
project with what its adapter needs.

    python benchmarks/real_converters/install.py [--only ROW] [--venvs DIR] [--force]

The environments go under ``benchmarks/real_converters/.venvs/`` (gitignored), one per project and
release (``haystack-ai-2.10.2``, ``openrouter-ai-sdk-provider-2.8.1``), so rows sharing a pin share
one. An environment whose stamp names the same requirements is left as it is. A Python row's
project goes into the virtual environment through pip (PyPI); a Node row's folder is both the
virtual environment that runs toolwire and an npm project (``package.json``, ``node_modules``) that
``npm install --no-audit --no-fund`` fills with the pinned package and its contemporary peers from
the npm registry, which its adapter loads (``node ADAPTER FOLDER``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rows import HERE, ROWS, Row

REPO = HERE.parent.parent
VENVS = HERE / ".venvs"


def venv_dir(row: Row, pin: str, root: Path = VENVS) -> Path:
    # An npm scope is no folder: @openrouter/ai-sdk-provider's is openrouter-ai-sdk-provider-PIN.
    return root / f"{row.source.lstrip('@').replace('/', '-')}-{pin}"


def python(venv: Path) -> Path:
    return venv / "bin" / "python"


def install(row: Row, pin: str, root: Path, force: bool) -> Path:
    venv = venv_dir(row, pin, root)
    node = row.runtime == "node"
    requirements = [f"-e{REPO}", *(["npm:"] if node else []), *row.requirements(pin)]
    stamp = venv / ".requirements"
    wanted = "\n".join(requirements)
    if not force and stamp.exists() and stamp.read_text() == wanted:
        print(f"{venv.name}: up to date")
        return venv
    started = time.monotonic()
    packages = row.requirements(pin)
    print(f"{venv.name}: installing {' '.join(packages)} and toolwire ...", flush=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
    pip = [str(python(venv)), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, f"-e{REPO}", *([] if node else packages)], check=True)
    if node:
        npm_install(venv, packages)
    stamp.write_text(wanted)
    print(f"{venv.name}: done in {time.monotonic() - started:.0f} s", flush=True)
    return venv


def npm_install(folder: Path, packages: list[str]) -> None:
    """The pinned npm packages into ``folder/node_modules`` (a fresh one), exactly those versions."""
    npm = shutil.which("npm")
    if npm is None:
        raise subprocess.CalledProcessError(127, "npm", "npm is not on PATH (Node 20 or later is needed)")
    shutil.rmtree(folder / "node_modules", ignore_errors=True)
    (folder / "package-lock.json").unlink(missing_ok=True)
    (folder / "package.json").write_text(json.dumps({"private": True}) + "\n")
    command = [npm, "install", "--no-audit", "--no-fund", "--save-exact", "--loglevel=error", *packages]
    subprocess.run(command, cwd=folder, check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="only this row (repeatable)")
    parser.add_argument("--venvs", type=Path, default=VENVS, help="where the environments go")
    parser.add_argument("--force", action="store_true", help="make each environment anew")
    args = parser.parse_args(argv)
    rows = [r for r in ROWS if not args.only or r.name in args.only]
    if args.only and len(rows) != len(set(args.only)):
        parser.error(f"unknown row in {args.only}; rows: {', '.join(r.name for r in ROWS)}")
    failed = []
    for row in rows:
        for pin in (row.buggy, row.fixed):
            try:
                install(row, pin, args.venvs, args.force)
            except subprocess.CalledProcessError as error:
                print(f"{row.source}-{pin}: install failed ({error})", file=sys.stderr)
                failed.append(f"{row.source}-{pin}")
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
