"""Make one virtual environment per (row, pin): toolwire from this repository, editable, and the pinned
project with what its adapter needs.

    python benchmarks/real_converters/install.py [--only ROW] [--venvs DIR] [--force]

The environments go under ``benchmarks/real_converters/.venvs/`` (gitignored), one per project and
release (``haystack-ai-2.10.2``), so rows sharing a pin share one. An environment whose stamp names
the same requirements is left as it is. Only PyPI is used, through pip.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rows import HERE, ROWS, Row

REPO = HERE.parent.parent
VENVS = HERE / ".venvs"


def venv_dir(row: Row, pin: str, root: Path = VENVS) -> Path:
    return root / f"{row.source}-{pin}"


def python(venv: Path) -> Path:
    return venv / "bin" / "python"


def install(row: Row, pin: str, root: Path, force: bool) -> Path:
    venv = venv_dir(row, pin, root)
    requirements = [f"-e{REPO}", *row.requirements(pin)]
    stamp = venv / ".requirements"
    wanted = "\n".join(requirements)
    if not force and stamp.exists() and stamp.read_text() == wanted:
        print(f"{venv.name}: up to date")
        return venv
    started = time.monotonic()
    print(f"{venv.name}: installing {' '.join(requirements[1:])} and toolwire ...", flush=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
    pip = [str(python(venv)), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, *requirements], check=True)
    stamp.write_text(wanted)
    print(f"{venv.name}: done in {time.monotonic() - started:.0f} s", flush=True)
    return venv


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
