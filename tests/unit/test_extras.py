"""An extra that is not installed is a usage error naming the module and the extra, never a traceback."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import toolwire
from toolwire._extras import EXTRAS, extra
from toolwire.errors import UsageError

SRC = Path(toolwire.__file__).parent
ROOT = SRC.parent.parent


def test_the_guard_knows_every_extra_of_pyproject_and_what_each_installs() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    installs = {
        name: tuple(sorted(re.split(r"[<>=\[ ]", spec, maxsplit=1)[0] for spec in specs))
        for name, specs in declared.items()
        if name != "dev"
    }
    assert {name: modules for name, (_, modules) in EXTRAS.items()} == installs


def test_a_missing_module_is_a_usage_error_naming_it_and_its_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    # (The submodule itself: another test may have imported it already.)
    monkeypatch.setitem(sys.modules, "starlette.routing", None)
    with pytest.raises(UsageError) as raised, extra("gateway"):
        from starlette.routing import Route  # noqa: F401
    assert str(raised.value) == (
        "toolwire fuzz URL (a gateway target) needs starlette, which is not installed: "
        "pip install 'toolwire[gateway]'"
    )


def _unguarded(tree: ast.AST, modules: set[str]) -> list[int]:
    """The lines of imports of ``modules`` that are neither inside ``with extra(...)`` nor typing only."""
    found = []

    def walk(node: ast.AST, guarded: bool) -> None:
        if isinstance(node, ast.With) and any(
            isinstance(item.context_expr, ast.Call) and ast.unparse(item.context_expr.func) == "extra"
            for item in node.items
        ):
            guarded = True
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return
        if isinstance(node, ast.Import | ast.ImportFrom) and not guarded:
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if any(name.partition(".")[0] in modules for name in names):
                found.append(node.lineno)
        for child in ast.iter_child_nodes(node):
            walk(child, guarded)

    walk(tree, False)
    return found


def test_every_import_of_an_extras_module_goes_through_the_guard() -> None:
    modules = {module for _, installs in EXTRAS.values() for module in installs}
    unguarded = {
        str(path.relative_to(SRC)): lines
        for path in sorted(SRC.rglob("*.py"))
        if (lines := _unguarded(ast.parse(path.read_text()), modules))
    }
    assert unguarded == {}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("hidden", "argv", "said"),
    [
        (
            "httpx",
            ["fuzz", "http://127.0.0.1:9/v1/chat/completions", "--from", "openai-chat-stream",
             "--to", "openai-chat", "--upstream", "127.0.0.1:9"],
            "toolwire fuzz URL (a gateway target) needs httpx, which is not installed: "
            "pip install 'toolwire[gateway]'",
        ),
        (
            "uvicorn",
            ["proxy", "--upstream", "http://127.0.0.1:9"],
            "toolwire proxy needs uvicorn, which is not installed: pip install 'toolwire[proxy]'",
        ),
        (
            "redis",
            ["fuzz", "examples/seed000_aisdk_to_openresponses.py:fixed", "--from", "aisdk-stream",
             "--to", "open-responses-stream", "--database", "redis://127.0.0.1:9/0"],
            "--database redis://... needs redis, which is not installed: pip install 'toolwire[redis]'",
        ),
    ],
)  # fmt: skip
def test_the_cli_says_which_extra_to_install_and_exits_2(hidden: str, argv: list[str], said: str) -> None:
    # The module hidden as an install without the extra lacks it: importing it fails.
    code = (
        f"import sys\nsys.modules[{hidden!r}] = None\nfrom toolwire.cli import main\nsys.exit(main({argv!r}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"toolwire: {said}\n")
