"""``toolwire proxy``: serve until SIGINT or SIGTERM, print each finding as it is told, write the
report and the record, and print the summary when it stops."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from toolwire.errors import UsageError

if TYPE_CHECKING:
    import argparse

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    if args.mitmproxy_addon_path:
        from toolwire import mitmproxy_addon

        print(mitmproxy_addon.__file__)
        return 0
    if not args.upstream:
        raise UsageError("name the upstream: toolwire proxy --upstream https://api.openai.com")
    # A missing extra is a usage error naming it, from the one guard (toolwire._extras).
    import asyncio

    from toolwire.cli.handlers._proxy import ProxyOutputs
    from toolwire.engines.proxy import Proxy, RequestRepair, is_loopback, parse_listen, serve

    host, port = parse_listen(args.listen)
    options = {"--for": args.provider, "--orphan-results": args.orphan_results}
    named = [
        flag for flag, value in {**options, "--unanswered-calls": args.unanswered_calls}.items() if value
    ]
    if named and not args.repair:
        raise UsageError(f"{', '.join(named)} take effect with --repair only: add --repair, or drop them")
    repair = None
    if args.repair:
        repair = RequestRepair(
            args.provider,
            orphan_results=args.orphan_results or "text",
            unanswered_calls=args.unanswered_calls or "error-result",
            protocols=tuple(args.protocol),
        )
    outputs = ProxyOutputs(args.format)
    if args.report is not None:
        try:
            outputs.report_to(args.report)
        except OSError as exc:
            raise UsageError(f"cannot write {args.report}: {exc.strerror}") from None
    if args.record is not None:
        outputs.record_to(args.record)
    # The checks run in a process of their own: forwarding never waits for them (nor for the GIL).
    proxy = Proxy(
        args.upstream,
        protocols=tuple(args.protocol),
        handlers=[outputs],
        record=args.record is not None,
        isolate=True,
        strict=args.strict,
        repair=repair or False,
    )

    def started(address: str) -> None:
        outputs.listening(address, args.upstream)
        if not is_loopback(host):
            print(
                f"toolwire proxy: listening on {host}, not loopback: anyone who reaches it can use "
                "your upstream",
                file=sys.stderr,
            )

    try:
        asyncio.run(serve(proxy, host, port, started=started))
    finally:
        outputs.close(proxy.tally)
    return proxy.tally.exit_code
