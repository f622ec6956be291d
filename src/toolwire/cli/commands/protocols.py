"""``toolwire protocols``: the protocol names (stable), as text or JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    from toolwire.cli.handlers._check import render_protocols
    from toolwire.protocols import PROTOCOLS

    print(render_protocols(list(PROTOCOLS.values()), args.format))
    return 0
