"""``toolwire rules``: the rules toolwire checks, all or one protocol's."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    from toolwire.cli.handlers._check import render_rules
    from toolwire.protocols import rules_for

    print(render_rules(rules_for(args.protocol), args.format))
    return 0
