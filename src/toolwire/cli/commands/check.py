"""``toolwire check``: recorded traffic, or logs of records, checked against the protocols' rules."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from toolwire.errors import UsageError

if TYPE_CHECKING:
    import argparse

    from toolwire.engines._core._results import Report

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    from toolwire.cli._options import CHECK_OPTIONS
    from toolwire.cli.handlers._check import print_part_failures, render_json, render_text
    from toolwire.engines.checking import STDIN_TWICE, check_path, check_usage

    if any(getattr(args, option.dest) for option in CHECK_OPTIONS if option.log):
        return _check_logs(args)
    check_usage(args.protocol, args.profile, args.after)
    if [*args.files, args.after].count("-") > 1:
        raise UsageError(STDIN_TWICE)
    fmt = None if args.input_format == "auto" else args.input_format
    options = {"input_format": fmt, "after": args.after, "profile": args.profile, "strict": args.strict}
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if args.jobs == 1 or not _worth_a_pool(args.files):
        results: Iterator[list[Report]] = (check_path(path, args.protocol, **options) for path in args.files)
    else:
        from toolwire.engines.checking import check_paths

        results = iter(
            check_paths(args.files, args.protocol, jobs=args.jobs, handlers=[print_part_failures], **options)
        )
    reports = []
    for path, found in zip(args.files, results, strict=True):
        for report in found:
            if report.unreadable is not None:
                print(f"toolwire: {report.unreadable}", file=sys.stderr)
            elif report.detected:
                where = sys.stderr if args.format == "json" else sys.stdout
                print(f"{path}: detected {report.protocol}", file=where)
        reports.extend(found)
    render = render_json if args.format == "json" else render_text
    print(render(reports))
    return max(report.exit_code for report in reports)


def _worth_a_pool(files: Sequence[str]) -> bool:
    """Whether checking ``files`` may pay for starting worker processes: several files, or a big one."""
    if len(files) > 1:
        return True
    import os

    from toolwire.engines._core._pool import BIG

    try:
        return os.path.getsize(files[0]) > BIG
    except OSError:
        return False


def _check_logs(args: argparse.Namespace) -> int:
    """FILE is a log of records (a log option was given): :func:`toolwire.engines.check_log`."""
    from toolwire.cli.handlers._check import print_part_failures, render_json, render_text
    from toolwire.engines import check_log

    if args.after is not None:
        raise UsageError("--after checks one request after one stream; in a log, use --group-by")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    reports = check_log(
        args.files,
        request=args.request,
        response=args.response,
        body=args.body,
        presets=args.log or (),
        group_by=args.group_by,
        order_by=args.order_by,
        protocol=args.protocol,
        profile=args.profile,
        jobs=args.jobs,
        handlers=[print_part_failures],
        strict=args.strict,
    )
    render = render_json if args.format == "json" else render_text
    print(render(reports))
    return max(report.exit_code for report in reports)
