"""``toolwire ids``: whether a call id is valid in each protocol, and which rule it breaks."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    from toolwire.engines.checking import check_id, render_ids

    chosen = [p.strip() for p in args.protocols.split(",") if p.strip()] if args.protocols else None
    verdicts = check_id(args.id, chosen)
    print(render_ids(args.id, verdicts, args.format))
    return 0 if all(v.valid for v in verdicts) else 1
