"""Where the tests' files are, whichever folder a test lives in: the repo, ``tests/data``, ``examples/``."""

from __future__ import annotations

from pathlib import Path

#: The repository's root.
ROOT = Path(__file__).resolve().parents[2]
#: ``tests/``: ``data`` (the corpus and log fixtures), ``sdk`` (the AI SDK's node packages), ``helpers``.
TESTS = ROOT / "tests"
#: The recorded-traffic corpus and the log fixtures.
DATA = TESTS / "data"
