"""``toolwire shapes``: the shape features a recording shows, and the quirk profiles they match."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    from toolwire.engines.checking import render_shapes, shapes_file
    from toolwire.protocols import get_protocol

    get_protocol(args.protocol)
    print(render_shapes([shapes_file(path, args.protocol) for path in args.files], args.format))
    return 0
