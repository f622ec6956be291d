"""What toolwire's extras install, imported through one guard.

A module an extra installs that is missing is a usage error (exit 2) naming the module and the
extra that installs it, never a ``ModuleNotFoundError`` traceback.  Every import of an extra's
module goes through :func:`extra`::

    with extra("gateway"):
        import httpx
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Final

from toolwire.errors import UsageError

__all__ = ["EXTRAS", "extra"]

#: Each extra of ``pyproject.toml``'s ``[project.optional-dependencies]`` but ``dev`` (a test holds
#: them equal): what needs it, and the top-level modules it installs.
EXTRAS: Final = {
    "gateway": ("toolwire fuzz URL (a gateway target)", ("httpx", "starlette", "uvicorn")),
    "proxy": ("toolwire proxy", ("aiohttp", "httpx", "starlette", "uvicorn", "yarl")),
    "mitmproxy": ("the mitmproxy addon", ("mitmproxy",)),
    "spark": ("toolwire.spark", ("pandas", "pyarrow", "pyspark")),
    "dask": ("toolwire.dask", ("dask",)),
    "redis": ("--database redis://...", ("redis",)),
}


@contextlib.contextmanager
def extra(name: str) -> Iterator[None]:
    """Imports of what the extra ``name`` installs: a module missing is a :class:`UsageError`.

    >>> with extra("redis"):
    ...     import toolwire_no_such_module
    Traceback (most recent call last):
    toolwire.errors.UsageError: --database redis://... needs toolwire_no_such_module, which is not installed: pip install 'toolwire[redis]'
    """  # noqa: E501
    purpose = EXTRAS[name][0]
    try:
        yield
    except ModuleNotFoundError as exc:
        # The distribution, not the submodule that was asked for (starlette, not starlette.routing).
        missing = (exc.name or "a module").partition(".")[0]
        raise UsageError(
            f"{purpose} needs {missing}, which is not installed: pip install 'toolwire[{name}]'"
        ) from None
