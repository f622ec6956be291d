"""Round trip: a request must replay the calls of the stream it follows.

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

__all__ = ["compare_round_trip", "round_trip_rules"]


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


def keyed(call: Call) -> Call:
    """``call`` with an id that can be looked up: a broken trace's list or object id as its text.

    Also reads a protocol defined outside toolwire that gives its calls as plain tuples.
    """
    call = Call(*call)
    return call if isinstance(call.id, Hashable) else call._replace(id=repr(call.id))


def compare_round_trip(streamed: list[Call], turn: Turn, request: Monitor, rules: dict[str, Rule]) -> None:
    replayed = list(turn.calls)
    # Calls without ids (Gemini) pair by position among the calls left over.
    by_id = {call.id: k for k, call in enumerate(replayed) if call.id is not None}
    pairs: list[tuple[Call, Call | None]] = []
    unmatched = [call for call in streamed if call.id not in by_id]
    streamed_ids = {c.id for c in streamed if c.id is not None}
    spare = [k for k, call in enumerate(replayed) if call.id is None or call.id not in streamed_ids]
    for call in streamed:
        if call.id in by_id:
            pairs.append((call, replayed[by_id[call.id]]))
    for call, k in zip(unmatched, spare, strict=False):
        pairs.append((call, replayed[k]))
    for call in unmatched[len(spare) :]:
        pairs.append((call, None))
    for original, copy in pairs:
        if copy is None:
            request.record(
                rules["RT-1"],
                f"streamed call {original.id} ({original.name}) is missing from {turn.path}",
                ids=(original.id,),
                index=turn.index,
                line=turn.line,
                path=turn.path,
            )
            continue
        if copy.id != original.id:
            request.record(
                rules["RT-1"],
                f"{turn.path} replays streamed call {original.id} ({original.name}) with id "
                f"{clip(str(copy.id))}",
                ids=(original.id, copy.id),
                index=turn.index,
                line=turn.line,
                path=turn.path,
            )
        if copy.name != original.name:
            request.record(
                rules["RT-2"],
                f"call {original.id} was streamed as {original.name!r} and is replayed as {copy.name!r}",
                ids=(original.id,),
                index=turn.index,
                line=turn.line,
                path=turn.path,
            )
        if not _json_equal(original.arguments, copy.arguments):
            request.record(
                rules["RT-2"],
                f"call {original.id} was streamed with arguments {clip(str(original.arguments))} and is "
                f"replayed with {clip(str(copy.arguments))}",
                ids=(original.id,),
                index=turn.index,
                line=turn.line,
                path=turn.path,
            )
    extra = len(replayed) - len(streamed)
    if extra > 0:
        request.record(
            rules["RT-1"],
            f"{turn.path} replays {len(replayed)} calls where the stream had {len(streamed)}",
            ids=[c.id for c in replayed],
            index=turn.index,
            line=turn.line,
            path=turn.path,
        )


def _json_equal(left: Any, right: Any) -> bool:
    return bool(parsed(left) == parsed(right))
