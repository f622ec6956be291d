"""A generated grouped log: Chat Completions tool-call turns, one record per model call, shuffled.

Each conversation has three turns: the model calls a tool (turn 1), the next request replays that
call with its result and the model calls another (turn 2), the last request replays both and the
model answers (turn 3).  Records carry ``conversation`` and ``turn``; the request and response
bodies are JSON text, as lakehouse tables and gateways keep them.  Every ``changed``-th
conversation's turn-2 request replays its call with a changed id (the seeds' corruption: RT-1),
every ``orphaned``-th answers a call no assistant made (CC-2).  The records of all conversations
are shuffled (seeded), so grouping and ordering are what put the turns back together.

``tests/integration/spark/test_spark.py``, ``tests/integration/dask/test_dask.py`` and
``benchmarks/bench_spark.py`` check it.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

#: check's options for this log (the library's keywords; the CLI's are ``--request`` and so on).
OPTIONS = {"request": "request", "response": "response", "group_by": "conversation", "order_by": "turn"}
ARGV = ["--request", "request", "--response", "response", "--group-by", "conversation", "--order-by", "turn"]
TURNS = 3


def _call(call_id: str, city: str) -> dict[str, Any]:
    arguments = json.dumps({"location": city})
    return {"id": call_id, "type": "function", "function": {"name": "get_weather", "arguments": arguments}}


def _records(number: int, changed: int, orphaned: int) -> list[dict[str, Any]]:
    """The three records of conversation ``number``."""
    first, second = f"call_{number:08d}a", f"call_{number:08d}b"
    replayed = first[:-1] + "A" if number % changed == changed - 1 else first
    answered = "call_elsewhere" if number % orphaned == orphaned - 2 else second
    user = {"role": "user", "content": f"Weather in Paris, then Lyon? ({number})"}
    turn1 = [{"role": "system", "content": "You are helpful."}, user]
    turn2 = [
        *turn1,
        {"role": "assistant", "content": None, "tool_calls": [_call(replayed, "Paris")]},
        {"role": "tool", "tool_call_id": replayed, "content": '{"celsius": 21}'},
    ]
    turn3 = [
        *turn2,
        {"role": "assistant", "content": None, "tool_calls": [_call(second, "Lyon")]},
        {"role": "tool", "tool_call_id": answered, "content": '{"celsius": 19}'},
    ]

    def response(n: int, calls: list[dict[str, Any]] | None) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": None if calls else "21 C and 19 C."}
        if calls:
            message["tool_calls"] = calls
        finish = "tool_calls" if calls else "stop"
        choice = {"index": 0, "message": message, "finish_reason": finish}
        return {
            "id": f"chatcmpl-{number}-{n}",
            "object": "chat.completion",
            "created": 1_700_000_000 + n,
            "model": "gpt-4o-2024-08-06",
            "choices": [choice],
        }

    bodies = [
        (turn1, response(1, [_call(first, "Paris")])),
        (turn2, response(2, [_call(second, "Lyon")])),
        (turn3, response(3, None)),
    ]
    return [
        {
            "conversation": f"conv-{number:06d}",
            "turn": n,
            "request": json.dumps({"model": "gpt-4o-2024-08-06", "messages": messages}),
            "response": json.dumps(body),
        }
        for n, (messages, body) in enumerate(bodies, 1)
    ]


def write_conversations(
    path: Path, records: int, *, changed: int = 997, orphaned: int = 1009, seed: int = 0
) -> int:
    """Write at least ``records`` records (whole conversations) to ``path``, shuffled; their count."""
    conversations = -(-records // TURNS)
    lines = [
        json.dumps(record, separators=(",", ":"))
        for number in range(conversations)
        for record in _records(number, changed, orphaned)
    ]
    random.Random(seed).shuffle(lines)
    path.write_text("\n".join(lines) + "\n")
    return len(lines)


#: What two runs must agree on for each finding.
_KEY = ("protocol", "line", "rule", "severity", "message", "path", "index")


def cli_findings(path: Path) -> list[tuple[Any, ...]]:
    """The findings ``toolwire check PATH ... --format json`` prints for this log, as sortable tuples."""
    from toolwire.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["check", str(path), *ARGV, "--format", "json"])
    assert code == 1, out.getvalue()[:2000]
    found = [
        {**finding, "protocol": report["protocol"]}
        for report in json.loads(out.getvalue())["reports"]
        for finding in report["findings"]
    ]
    return finding_keys(found)


def finding_keys(rows: Iterable[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The findings among ``rows`` (a report's findings, or rows of kind ``finding``), sorted."""
    return sorted(
        (*(row[k] for k in _KEY), tuple(row["ids"]))
        for row in rows
        if row.get("kind", "finding") == "finding"
    )


def numbered(path: Path) -> list[tuple[int, str]]:
    """The non-blank lines of ``path`` with their 1-based numbers."""
    return [(n, line) for n, line in enumerate(path.read_text().split("\n"), 1) if line.strip()]


if __name__ == "__main__":
    import sys

    print(write_conversations(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 100_000))
