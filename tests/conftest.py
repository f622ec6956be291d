"""Hypothesis settings profiles, and the example database every profile replays.

Profiles (``HYPOTHESIS_PROFILE``):

- ``dev`` (the default): few examples, no deadline, so that a plain ``pytest`` stays quick;
- ``ci`` (``.ci/run``): three hundred examples per property;
- ``nightly`` (``make deep``): two thousand, for a scheduled or occasional run at depth.

The example database: a property test that finds a failure in one run may miss it in the next, so
every failure found once must be replayed in every later run.  Two kinds of record do that:

- each failure that was fixed is pinned in the test itself (an ``@example`` or a plain test beside
  the property: ``test_monitors.py``'s ``CRASHED``), which survives renaming and editing the test
  and reads as documentation;
- ``tests/.hypothesis-examples/`` is a committed Hypothesis example database.  Every profile reads
  it; ``dev`` and ``ci`` read it only (``ReadOnlyDatabase``: a test run must not churn files under
  version control, and CI runs on a clean checkout) and write what they find to the ignored
  ``.hypothesis/examples`` of the working copy, which replays it locally; ``nightly`` writes its
  findings into the committed folder, so that ``git status`` shows them after ``make deep`` and
  they are committed with their fix.  Hypothesis keys entries by the test function, so an entry
  goes stale when its test is renamed: hence the explicit pins for what was fixed.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase, MultiplexedDatabase, ReadOnlyDatabase

ROOT = Path(__file__).parent.parent
COMMITTED = DirectoryBasedExampleDatabase(Path(__file__).parent / ".hypothesis-examples")
LOCAL = DirectoryBasedExampleDatabase(ROOT / ".hypothesis" / "examples")
REPLAYED = MultiplexedDatabase(LOCAL, ReadOnlyDatabase(COMMITTED))

settings.register_profile("dev", max_examples=25, deadline=None, database=REPLAYED)
settings.register_profile(
    "ci", max_examples=300, deadline=None, database=REPLAYED, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "nightly",
    max_examples=2000,
    deadline=None,
    database=MultiplexedDatabase(LOCAL, COMMITTED),
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


#: The folders whose every test is slow by what it is (tests/README.md): campaigns that must find
#: planted bugs, and tests of subprocesses, sockets and optional tools.
SLOW_FOLDERS = (ROOT / "tests" / "quality", ROOT / "tests" / "integration")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark slow every test of ``tests/quality`` and ``tests/integration`` (where a test lives says
    what it is), and the README's examples: they run a campaign against a planted bug (a worker
    process) and an exploration, as the README shows them."""
    for item in items:
        readme = item.path.name == "README.md" and item.path.parent == ROOT
        if readme or any(item.path.is_relative_to(folder) for folder in SLOW_FOLDERS):
            item.add_marker(pytest.mark.slow)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject's addopts): a worker per core for a whole run, none for chosen tests.

    A plain ``pytest`` spreads its few thousand tests over the cores; ``pytest tests/unit/test_x.py -k y``
    stays in one process, where starting workers would cost more than they save.
    """
    if config.args_source is not pytest.Config.ArgsSource.TESTPATHS:
        return 0
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
