"""Attributes a package loads on first use, so that heavy imports stay off ``toolwire check``."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy"]


def lazy(
    package: str,
    names: Mapping[str, str],
    namespace: dict[str, Any],
    renamed: Mapping[str, tuple[str, str]] | None = None,
) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports ``names[name]`` (a module path) when ``name`` is first used.

    ``renamed`` maps a name to the module and the name it has there (``""``: the module itself).
    """
    where = {name: (module, name) for name, module in names.items()} | dict(renamed or {})

    def __getattr__(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, attribute = where[name]
        loaded = importlib.import_module(module)
        value = getattr(loaded, attribute) if attribute else loaded
        namespace[name] = value
        return value

    return __getattr__
