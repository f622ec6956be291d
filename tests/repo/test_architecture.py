"""One protocol, one place: where each protocol family is named in the source, in code.

A family is *named* by a file that imports one of its modules, uses one of its
machines, or holds one of its protocol names in a string (docstrings and
comments are prose, not coupling, and are not counted).  Its own places are
``models/_<family>.py`` (and ``_<family>_hot.py``, its typed events), ``machines/_<family>.py``
and ``protocols/<family>/``; the layers' ``__init__`` re-exports are not counted.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import toolwire
from toolwire.protocols import _registry

SRC = Path(toolwire.__file__).parent
#: The layers' re-export files, which may name everything they export.
REEXPORTS = {
    "__init__.py", "models/__init__.py", "machines/__init__.py", "properties/__init__.py",
    "protocols/__init__.py",
}  # fmt: skip
FAMILIES = {f.protocols[0].monitor.__module__.split(".")[2]: f for f in _registry.FAMILIES}


def _code_names(tree: ast.AST) -> tuple[set[str], list[str]]:
    """The modules and names a file imports or uses, and its string constants that are not docstrings."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    names: set[str] = set()
    strings: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            strings.append(node.value)
    return names, strings


def _namers() -> dict[str, set[str]]:
    """For each family, the files outside its own places that name it."""
    everyone = [m for f in FAMILIES.values() for m in f.machines]
    shared = {m for m in everyone if everyone.count(m) > 1}
    found: dict[str, set[str]] = {module: set() for module in FAMILIES}
    for path in sorted(SRC.rglob("*.py")):
        relative = path.relative_to(SRC).as_posix()
        if relative in REEXPORTS:
            continue
        names, strings = _code_names(ast.parse(path.read_text()))
        for module, family in FAMILIES.items():
            own = (f"models/_{module}.py", f"models/_{module}_hot.py", f"machines/_{module}.py")
            own += (f"protocols/{module}/",)
            if relative.startswith(own):
                continue
            modules = {
                f"toolwire.models._{module}",
                f"toolwire.machines._{module}",
                f"toolwire.protocols.{module}",
            }
            machines = {m.__name__ for m in family.machines} - {m.__name__ for m in shared}
            protocol = re.compile(
                "|".join(rf"(?<![\w-]){re.escape(p.name)}(?![\w-])" for p in family.protocols)
            )
            if (
                any(name == m or name.startswith(m + ".") for name in names for m in modules)
                or names & machines
                or any(protocol.search(text) for text in strings)
            ):
                found[module].add(relative)
    return found


def test_every_family_is_named_in_at_most_two_files_outside_its_own_places() -> None:
    namers = _namers()
    assert set(namers) == {
        "openai_chat", "openai_responses", "anthropic", "bedrock",
        "gemini", "mistral", "aisdk", "mcp", "otel",
    }  # fmt: skip
    for module, files in namers.items():
        assert "protocols/_registry.py" in files, module
        assert len(files) <= 2 or all(
            f.startswith(("protocols/_registry.py", "protocols/mistral/")) for f in files
        ), (
            module,
            sorted(files),
        )
    # Mistral's requests follow, and carry calls as, OpenAI Chat Completions': its package reuses
    # that family's readers (and its repair adapter and provider lint, a Mistral profile being one
    # of that wire).  Every other family is named by the registry alone.
    outside = {
        module: sorted(f for f in files if f != "protocols/_registry.py") for module, files in namers.items()
    }
    assert {module: files for module, files in outside.items() if files} == {
        "openai_chat": [
            "protocols/mistral/__init__.py",
            "protocols/mistral/providers.py",
            "protocols/mistral/repair.py",
        ]
    }


@pytest.mark.parametrize("place", ["engines/", "cli.py"])
def test_engines_and_the_cli_name_no_family(place: str) -> None:
    namers = _namers()
    assert not {module: files for module, files in namers.items() if any(f.startswith(place) for f in files)}


def test_the_shared_machinery_names_no_protocol() -> None:
    names = [p for f in FAMILIES.values() for p in f.protocols]
    shared = [
        path
        for path in SRC.rglob("*.py")
        if path.relative_to(SRC).as_posix().startswith(("properties/", "models/_wire", "machines/_table"))
        or (path.relative_to(SRC).as_posix().startswith("protocols/_") and path.name != "_registry.py")
    ]
    assert shared
    for path in shared:
        _, strings = _code_names(ast.parse(path.read_text()))
        for protocol in names:
            assert not any(protocol.name == text for text in strings), (path.name, protocol.name)
