"""Machines by name until their class is needed: ``toolwire check`` runs on generated tables alone.

Importing a python-statemachine class imports python-statemachine (and asyncio), which is
most of ``toolwire check``'s start-up.  The machines package hands out a :class:`Handle` for
each machine instead: :func:`~toolwire.machines.compile_machine` reads its table from the
generated ``_compiled`` module, and anything else done with it (calling it, reading its
states) imports the class first.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["Handle", "resolve"]


class Handle:
    """Stands for the machine class ``name`` of module ``module`` until it is first used."""

    def __init__(self, name: str, module: str) -> None:
        self.__name__ = name
        self.__qualname__ = name
        self.__module__ = module
        self._class: type | None = None

    def resolve(self) -> type:
        """The machine class itself (imported on first use)."""
        if self._class is None:
            self._class = getattr(importlib.import_module(self.__module__), self.__name__)
        return self._class

    def __getattr__(self, name: str) -> Any:
        return getattr(self.resolve(), name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.resolve()(*args, **kwargs)

    def __instancecheck__(self, instance: object) -> bool:
        return isinstance(instance, self.resolve())

    def __subclasscheck__(self, subclass: type) -> bool:
        return issubclass(subclass, self.resolve())

    def __repr__(self) -> str:
        return f"<machine {self.__module__}.{self.__name__}>"


def resolve(machine: Any) -> Any:
    """The class behind ``machine``, a class or a :class:`Handle`."""
    return machine.resolve() if isinstance(machine, Handle) else machine
