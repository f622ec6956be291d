"""Round trip: a request must replay the calls of the stream it follows (DESIGN.md, seeds 001, 002).

provider stream -> converter -> history -> converter -> next request: the
request's call ids must be the ids the provider emitted, with the same names
and JSON-equal arguments.  (That every tool message answers one of them is
CC-3 / RS-3 of the request itself.)
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from toolwire.properties._monitor import Monitor
from toolwire.properties._rule import Rule
from toolwire.properties._text import clip, parsed
from toolwire.properties._turn import Call, Turn

__all__ = ["check_round_trip", "round_trip_rules"]


def round_trip_rules(requests: tuple[str, ...]) -> tuple[Rule, ...]:
    """The round-trip rules, for the request protocols that replay a stream (none: no rules)."""
    return _rules(requests) if requests else ()


def _rules(requests: tuple[str, ...]) -> tuple[Rule, ...]:
    return (
        Rule(
            "RT-1",
            "always",
            requests,
            "A request that replays a streamed turn carries exactly the calls the provider streamed, "
            "with the ids it emitted: none lost, none duplicated, none replaced.",
            source="toolwire (a converter replays each streamed call once, with its id); "
            "vybestack/llxprt-code#981 "
            "(ids dropped and synthesized); firebase/genkit go/plugins/compat_oai/generate.go "
            "(convertToolCall: "
            "the tool name as the id)",
            fix="Keep the provider's call ids from the stream through history into the next request; "
            "never drop them and synthesize new ones, never use a name or a result as an id.",
        ),
        Rule(
            "RT-2",
            "always",
            requests,
            "A replayed call keeps the streamed call's name, and its arguments are JSON-equal to the "
            "streamed ones.",
            source="toolwire (a converter keeps each call's name and arguments); OpenAI function-calling "
            "guide, "
            "streaming (https://platform.openai.com/docs/guides/function-calling#streaming): arguments "
            "arrive in fragments",
            fix="Reassemble arguments per call (by index or item, never by tool name) and replay them "
            "unchanged.",
        ),
    )


def check_round_trip(stream: list[Turn], request: Monitor) -> None:
    """Report on ``request`` every way its replay of ``stream``'s calls differs.

    The replaying turn is the request turn sharing the most call ids with the
    stream; failing that, the last turn calling the same tool names in order.
    """
    from toolwire.properties._registry import RULES

    streamed = [_keyed(call) for turn in stream for call in turn.calls]
    if not streamed:
        return
    turns = [Turn(t.index, t.line, t.path, [_keyed(call) for call in t.calls]) for t in request.calls()]
    ids = {call[0] for call in streamed if call[0] is not None}
    best = max(turns, key=lambda turn: sum(call[0] in ids for call in turn.calls), default=None)
    if best is None or not any(call[0] in ids for call in best.calls):
        names = [call[1] for call in streamed]
        matches = [turn for turn in turns if [call[1] for call in turn.calls] == names]
        best = matches[-1] if matches else None
    if best is None:
        request.record(
            RULES["RT-1"],
            f"no assistant turn of the request replays the {len(streamed)} streamed call(s) "
            + ", ".join(f"{call[0]} ({call[1]})" for call in streamed),
            index=None,
            line=None,
            ids=[call[0] for call in streamed],
        )
        return
    _compare(streamed, best, request, RULES)


def _keyed(call: Call) -> Call:
    """``call`` with an id that can be looked up: a broken trace's list or object id as its text."""
    return call if isinstance(call[0], Hashable) else (repr(call[0]), call[1], call[2])


def _compare(streamed: list[Call], turn: Turn, request: Monitor, rules: dict[str, Rule]) -> None:
    replayed = list(turn.calls)
    # Calls without ids (Gemini) pair by position among the calls left over.
    by_id = {call[0]: k for k, call in enumerate(replayed) if call[0] is not None}
    pairs: list[tuple[Call, Call | None]] = []
    unmatched = [call for call in streamed if call[0] not in by_id]
    streamed_ids = {c[0] for c in streamed if c[0] is not None}
    spare = [k for k, call in enumerate(replayed) if call[0] is None or call[0] not in streamed_ids]
    for call in streamed:
        if call[0] in by_id:
            pairs.append((call, replayed[by_id[call[0]]]))
    for call, k in zip(unmatched, spare, strict=False):
        pairs.append((call, replayed[k]))
    for call in unmatched[len(spare) :]:
        pairs.append((call, None))
    for original, copy in pairs:
        if copy is None:
            request.record(
                rules["RT-1"],
                f"streamed call {original[0]} ({original[1]}) is missing from {turn.path}",
                ids=(original[0],),
                index=turn.index,
                line=turn.line,
                path=turn.path,
            )
            continue
        if copy[0] != original[0]:
            request.record(
                rules["RT-1"],
                f"{turn.path} replays streamed call {original[0]} ({original[1]}) with id "
                f"{clip(str(copy[0]))}",
                ids=(original[0], copy[0]),
                index=turn.index,
                line=turn.line,
                path=turn.path,
            )
        if copy[1] != original[1]:
            request.record(
                rules["RT-2"],
                f"call {original[0]} was streamed as {original[1]!r} and is replayed as {copy[1]!r}",
                ids=(original[0],),
                index=turn.index,
                line=turn.line,
                path=turn.path,
            )
        if not _json_equal(original[2], copy[2]):
            request.record(
                rules["RT-2"],
                f"call {original[0]} was streamed with arguments {clip(str(original[2]))} and is "
                f"replayed with {clip(str(copy[2]))}",
                ids=(original[0],),
                index=turn.index,
                line=turn.line,
                path=turn.path,
            )
    extra = len(replayed) - len(streamed)
    if extra > 0:
        request.record(
            rules["RT-1"],
            f"{turn.path} replays {len(replayed)} calls where the stream had {len(streamed)}",
            ids=[c[0] for c in replayed],
            index=turn.index,
            line=turn.line,
            path=turn.path,
        )


def _json_equal(left: Any, right: Any) -> bool:
    return bool(parsed(left) == parsed(right))
