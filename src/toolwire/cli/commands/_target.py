"""What ``fuzz``, ``replay`` and ``explore`` share: the target as spelled (a gateway's URL made a
target), Hypothesis's home, and the ids a ``--ignore-file`` sets aside."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from toolwire.errors import UsageError

if TYPE_CHECKING:
    import argparse

__all__ = ["hypothesis_home", "ignore_file", "target"]


def hypothesis_home() -> None:
    """Hypothesis's own files (its caches) go where the fuzz engine says, for this process and its
    children: ``HYPOTHESIS_STORAGE_DIRECTORY``, when set, still wins; ``--database`` is where
    findings go."""
    import os

    from toolwire.engines.fuzzing import hypothesis_folder

    folder = hypothesis_folder()
    if folder is not None:
        os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = str(folder)


def ignore_file(path: str) -> list[str]:
    """The ids a ``--ignore-file`` names, one a line, ``#`` starting a comment."""
    from pathlib import Path

    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise UsageError(f"cannot read --ignore-file {path}: {exc.strerror}") from None
    return [line.split("#", 1)[0].strip() for line in lines if line.split("#", 1)[0].strip()]


@contextlib.contextmanager
def target(args: argparse.Namespace, source: str, destination: str) -> Iterator[Any]:
    """The target as spelled, or for an http(s):// URL a gateway behind the mock provider, closed after."""
    from toolwire.engines.gateway import is_gateway

    if not is_gateway(args.target):
        if args.upstream or args.model or args.header:
            raise UsageError("--upstream, --model and --header are for a gateway target (an http(s):// URL)")
        yield args.target
        return
    from toolwire.engines.gateway import GatewayTarget, parse_headers

    if not args.upstream:
        raise UsageError(
            f"{args.target} is a gateway: say where toolwire's mock provider listens, "
            "--upstream 127.0.0.1:PORT, and point the gateway's upstream at it"
        )
    gateway = GatewayTarget(
        args.target,
        source,
        destination,
        upstream=args.upstream,
        model=args.model,
        headers=parse_headers(args.header),
    )
    try:
        yield gateway
    finally:
        gateway.close()
