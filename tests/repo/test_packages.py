"""The walls between the engines' job packages: a package takes from another only what that one shows.

``toolwire.engines`` holds one package per job (``checking``, ``logs``, ``fuzzing``, ``gateway``,
``exploring``, ``proxy``, ``repair``) and ``_core``, what they share.  A job package imports another only
through its ``__init__`` and only names in that package's ``__all__``; it imports ``_core``'s
modules directly, but only names in their ``__all__``; ``_core`` imports no job package (but for
types).  Code outside the engines (the CLI, the integrations) takes from them as a sibling does.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import toolwire

SRC = Path(toolwire.__file__).parent
ENGINES = SRC / "engines"
JOBS = sorted(p.name for p in ENGINES.iterdir() if (p / "__init__.py").exists() and p.name != "_core")
MAX_LINES = 600


def _all_of(path: Path) -> set[str]:
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if isinstance(target, ast.Name) and target.id == "__all__" and node.value is not None:
                return {ast.literal_eval(e) for e in node.value.elts}  # type: ignore[attr-defined]
    return set()


def _home(path: Path, root: Path) -> str:
    """The package a module is in, for the rule: ``engines.<job>``, ``engines._core``, or its top name."""
    parts = path.relative_to(root).with_suffix("").parts
    if parts[0] == "engines" and len(parts) > 2:
        return f"engines.{parts[1]}"
    return parts[0]


def violations(root: Path) -> Iterator[str]:
    """Each import under ``root`` (a ``toolwire`` source tree) that crosses a wall, said."""
    engines = root / "engines"
    for path in sorted(root.rglob("*.py")):
        home = _home(path, root)
        if path == engines / "__init__.py":
            continue  # the facade: it re-exports the jobs' public names
        for node in ast.walk(ast.parse(path.read_text())):
            if not (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("toolwire.engines.")
            ):
                continue
            parts = node.module.split(".")
            target = f"engines.{parts[2]}"
            if target == home:
                continue
            names = {alias.name for alias in node.names}
            where = f"{path.relative_to(root)}:{node.lineno}"
            if home == "engines._core" and parts[2] != "_core":
                if not _under_type_checking(node, path):
                    yield f"{where}: _core imports the job package {node.module}"
                continue
            if parts[2] == "_core":
                if len(parts) < 4:
                    continue
                shown = _all_of(engines / "_core" / f"{parts[3]}.py")
            else:
                if len(parts) > 3:
                    yield f"{where}: imports {node.module}, inside the package {target}: take it from there"
                    continue
                shown = _all_of(engines / parts[2] / "__init__.py")
            for name in sorted(names - shown):
                yield f"{where}: takes {name} from {node.module}, which does not show it (__all__)"


def _under_type_checking(node: ast.AST, path: Path) -> bool:
    tree = ast.parse(path.read_text())
    for block in ast.walk(tree):
        if (
            isinstance(block, ast.If)
            and "TYPE_CHECKING" in ast.unparse(block.test)
            and any(
                getattr(inner, "lineno", None) == getattr(node, "lineno", -1) for inner in ast.walk(block)
            )
        ):
            return True
    return False


def test_no_import_crosses_a_wall() -> None:
    assert list(violations(SRC)) == []


@pytest.mark.parametrize(
    ("planted", "said"),
    [
        ("from toolwire.engines.logs._reader import files_under\n", "inside the package engines.logs"),
        ("from toolwire.engines.logs import _secret\n", "takes _secret from toolwire.engines.logs"),
        (
            "from toolwire.engines._core._pool import _stop\n",
            "takes _stop from toolwire.engines._core._pool",
        ),
    ],
)
def test_a_planted_crossing_is_found(tmp_path: Path, planted: str, said: str) -> None:
    import shutil

    root = tmp_path / "toolwire"
    shutil.copytree(SRC, root, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "engines" / "checking" / "_planted.py").write_text(planted)
    found = list(violations(root))
    assert len(found) == 1 and said in found[0], found


def test_core_importing_a_job_is_found(tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "toolwire"
    shutil.copytree(SRC, root, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "engines" / "_core" / "_planted.py").write_text("from toolwire.engines.checking import check\n")
    assert [v for v in violations(root) if "_planted" in v] == [
        "engines/_core/_planted.py:1: _core imports the job package toolwire.engines.checking"
    ]


def test_every_job_has_its_package() -> None:
    assert JOBS == ["checking", "exploring", "fuzzing", "gateway", "logs", "proxy", "repair"]


def test_no_module_is_over_six_hundred_lines() -> None:
    long = {
        str(path.relative_to(SRC)): n
        for path in SRC.rglob("*.py")
        if (n := len(path.read_text().splitlines())) > MAX_LINES and path.name != "_compiled.py"
    }
    assert long == {}
