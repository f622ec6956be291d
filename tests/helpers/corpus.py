"""The recorded-traffic corpus under ``tests/data``, described by ``corpus.toml``."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent.parent / "data"


def corpus() -> list[dict[str, Any]]:
    """The entries of ``tests/data/corpus.toml``."""
    with (DATA / "corpus.toml").open("rb") as handle:
        return list(tomllib.load(handle)["trace"])
