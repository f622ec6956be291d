"""``toolwire repair``: a history repaired so that its protocol, and a stricter provider, accept it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    """The repaired body to ``--out`` or stdout; each change to stderr (text), or everything as one
    JSON document on stdout (``--format json``; the body still goes to ``--out`` when named)."""
    from toolwire.cli.handlers._repair import render_changes, render_json
    from toolwire.engines._core._files import write_file
    from toolwire.engines.repair import PROVIDERS, read_body, repair_body
    from toolwire.errors import UsageError

    if args.provider is not None and args.provider not in PROVIDERS:
        raise UsageError(f"--for {args.provider!r}: no such provider; one of {', '.join(PROVIDERS)}")
    body = read_body(args.file, args.protocol)
    if body.detected:
        print(f"{args.file}: detected {body.protocol}", file=sys.stderr)
    done, data = repair_body(
        body,
        provider=args.provider,
        orphan_results=args.orphan_results,
        unanswered_calls=args.unanswered_calls,
    )
    if args.out is not None:
        write_file(Path(args.out), data)
    if args.format == "json":
        print(render_json(done))
    else:
        if args.out is None:
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        for line in render_changes(args.file, done):
            print(line, file=sys.stderr)
    return done.exit_code
