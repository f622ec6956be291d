"""The repairer: pair each result with its call, then write the history back with every call
answered right after its turn, every id one the protocol (and provider) takes, and nothing lost.

The pairing is the protocols' own: a result answers the nearest unanswered call of its id before
it (else, out of place, the first one after it); a result without an id pairs by name, in order,
with the calls of the turn right before it where the protocol allows calls without ids (Gemini,
OpenTelemetry).  Nothing is paired by guess: a result that answers no call is an orphan, kept as
a note saying which call it answered.
"""

from __future__ import annotations

import bisect
import copy
import gc
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from toolwire.errors import UsageError
from toolwire.properties._change import Action, Change
from toolwire.properties._repair import (
    DROP,
    Adapter,
    Message,
    OrphanPolicy,
    Rebuilt,
    Site,
    UnansweredPolicy,
    text_of,
)

__all__ = ["OrphanPolicy", "Rebuilt", "UnansweredPolicy", "rebuild"]

#: Fresh ids tried before giving up (a target whose id rules admit none of toolwire's).
_TRIES = 10_000


def _has_id(value: Any) -> bool:
    return isinstance(value, str) and value != ""


class _Pairing:
    """Which call each result answers, and which results answer none."""

    def __init__(self, adapter: Adapter, messages: list[Any], context: bool) -> None:
        # Each message is read once: its calls and its results, by message.  Locals throughout:
        # this runs over every message of the history (benchmarks/bench_repair.py).
        self.calls_in = calls_in = dict[int, list[Site]]()
        self.results_in = results_in = dict[int, list[Site]]()
        self.calls = calls = list[Site]()
        self.results = results = list[Site]()
        read_calls, read_results = adapter.calls, adapter.results
        # Site(...) less its Python-level __new__: a third of the time, for every call and result.
        new = tuple.__new__
        for i, msg in enumerate(messages):
            found = read_calls(msg)
            if found:
                calls_in[i] = sites = [new(Site, (i, b, ident, name, (i, b))) for b, ident, name in found]
                calls += sites
            found = read_results(msg)
            if found:
                if len(found) == 1:  # one result a message (Chat, Responses): no comprehension
                    b, ident, name = found[0]
                    sites = [new(Site, (i, b, ident, name, (i, b)))]
                else:
                    sites = [new(Site, (i, b, ident, name, (i, b))) for b, ident, name in found]
                results_in[i] = sites
                results += sites
        self.turn = turn = self._turns(adapter, calls_in)
        self.of_turn = of_turn = defaultdict[int, list[Site]](list)  # turn -> its calls, in order
        self.by_id = by_id = defaultdict[Any, list[Site]](list)
        for call in calls:
            of_turn[turn[call.msg]].append(call)
            if isinstance(call.id, str) and call.id:  # _has_id, inlined
                by_id[call.id].append(call)
        self.answer = answer = dict[tuple[int, Any], Site]()  # call key -> its result
        self.answers = answers = dict[tuple[int, Any], Site]()  # result key -> its call
        self.orphans: list[Site] = []
        self.kept: list[Site] = []  # unpaired results a stored context may answer: left alone
        self._call_msgs = list(turn)  # ascending: messages are read in order
        # Each result answers a call before it first; only then may one placed before its call
        # take a call still free (it moves next to it), so it never takes a call from the result
        # in its place.
        later = list[Site]()
        for result in results:
            paired = None
            rid = result.id
            if isinstance(rid, str) and rid:  # _has_id, inlined
                same = by_id.get(rid)
                if same and len(same) == 1:
                    # The usual case: one call of that id, before the result and not yet answered.
                    only = same[0]
                    if only.msg < result.msg and only.key not in answer:
                        paired = only
            if paired is None:
                paired = self._pair(adapter, result)
            if paired is not None:
                answer[paired.key] = result
                answers[result.key] = paired
            else:
                later.append(result)
        for result in later:
            rid = result.id
            paired = self._pair_later(result)
            if paired is not None:
                answer[paired.key] = result
                answers[result.key] = paired
            elif context and _has_id(rid) and rid not in by_id:
                self.kept.append(result)
            else:
                self.orphans.append(result)

    @staticmethod
    def _turns(adapter: Adapter, calls_in: dict[int, list[Site]]) -> dict[int, int]:
        """Each call message's turn: its own index, or the first of its run (``run_calls``)."""
        turn: dict[int, int] = {}
        for i in calls_in:
            turn[i] = turn[i - 1] if adapter.run_calls and i - 1 in turn else i
        return turn

    def _pair(self, adapter: Adapter, result: Site) -> Site | None:
        """The call before ``result`` it answers, if any."""
        if _has_id(result.id):
            same = self.by_id.get(result.id)
            if same:
                before = [c for c in same if c.key not in self.answer and c.msg < result.msg]
                if before:
                    # The closest turn before the result; within it, the first call still free
                    # (results follow their calls in order: two calls of one id in one message
                    # are answered first to first).
                    closest = before[-1].msg
                    return next(c for c in before if c.msg == closest)
            if not adapter.ids_optional:
                return None
        # Without ids: in the turn right before, in order, by name where both have one (the
        # protocol's own pairing where ids are optional; else a call and a result that both
        # lack an id, which get one id together).
        before_result = bisect.bisect_left(self._call_msgs, result.msg)
        if not before_result:
            return None
        last = self._call_msgs[before_result - 1]
        optional = adapter.ids_optional
        for call in self.of_turn[self.turn[last]]:
            if (
                call.key not in self.answer
                and (result.name is None or call.name is None or call.name == result.name)
                and (not _has_id(call.id) if not optional else not _has_id(call.id) or not _has_id(result.id))
            ):
                return call
        return None

    def _pair_later(self, result: Site) -> Site | None:
        """A call of ``result``'s id after it, still free: the result is out of place."""
        if _has_id(result.id):
            for call in self.by_id.get(result.id, ()):
                if call.key not in self.answer:
                    return call
        return None


def rebuild(
    adapter: Adapter,
    messages: list[Any],
    *,
    accepts: Callable[[str], bool],
    orphan_results: OrphanPolicy,
    unanswered_calls: UnansweredPolicy,
    context: bool = False,
) -> Rebuilt:
    """Repair ``messages`` (a list of ``adapter``'s messages); the input is not changed."""
    # What is made here holds no reference cycles: garbage collection would only walk the
    # thousands of fresh tuples again (a tenth of the time; as check's _run_quietly).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _rebuild(adapter, messages, accepts, orphan_results, unanswered_calls, context)
    finally:
        if collecting:
            gc.enable()


def _rebuild(
    adapter: Adapter,
    messages: list[Any],
    accepts: Callable[[str], bool],
    orphan_results: OrphanPolicy,
    unanswered_calls: UnansweredPolicy,
    context: bool,
) -> Rebuilt:
    pairing = _Pairing(adapter, messages, context)
    rules = adapter.rules
    done = Rebuilt([])
    changes = done.changes

    # Ids: each call's id in the output.
    taken = {s.id for s in (*pairing.calls, *pairing.results) if isinstance(s.id, str)}
    counter = [0]

    def fresh() -> str:
        # The protocol's own shape of id, else nine alphanumerics: the one shape every wire takes.
        for _ in range(_TRIES):
            counter[0] += 1
            for candidate in (adapter.fresh(counter[0]), f"tw{counter[0]:07d}"):
                if candidate not in taken and accepts(candidate):
                    taken.add(candidate)
                    return candidate
        raise UsageError(
            f"no fresh {adapter.protocol} id the target takes: its id rules admit none toolwire makes"
        )

    keeper: dict[Any, tuple[int, Any]] = {}  # an id called more than once -> the call keeping it
    for ident, occurrences in pairing.by_id.items():
        if len(occurrences) > 1:
            heard = [c for c in occurrences if c.key in pairing.answer]
            keeper[ident] = (heard or occurrences)[0].key
    new_id: dict[tuple[int, Any], Any] = {}
    renamed: set[tuple[int, Any]] = set()
    for call in pairing.calls:
        key = call.key
        if isinstance(call.id, str) and call.id and keeper.get(call.id, key) == key and accepts(call.id):
            new_id[key] = call.id  # the usual case: the id stays
            continue
        path = adapter.call_path(call.msg, call.block)
        if not _has_id(call.id):
            if adapter.ids_optional and call.id is None:
                new_id[call.key] = None
                continue
            new_id[call.key] = fresh()
            changes.append(
                Change(rules["missing"], path, "fill-id", call.id, new_id[call.key], "a call without an id")
            )
        elif keeper.get(call.id, call.key) != call.key:
            new_id[call.key] = fresh()
            renamed.add(call.key)
            changes.append(
                Change(
                    rules["duplicate"],
                    path,
                    "rename",
                    call.id,
                    new_id[call.key],
                    "a repeated call id, renamed in the call and its result",
                )
            )
        else:
            if call.id not in done.ids:
                done.ids[call.id] = fresh()
            new_id[call.key] = done.ids[call.id]
            changes.append(
                Change(
                    rules["id"], path, "remap", call.id, new_id[call.key], "an id the target will not take"
                )
            )

    # Unanswered calls.
    dropped: set[tuple[int, Any]] = set()
    answer = pairing.answer
    open_turns: set[int] = set()
    for call in pairing.calls:
        if call.key in answer:
            continue
        open_turns.add(pairing.turn[call.msg])
        path = adapter.call_path(call.msg, call.block)
        if unanswered_calls == "drop":
            dropped.add(call.key)
            changes.append(
                Change(
                    rules["unanswered"],
                    path,
                    "drop-call",
                    new_id[call.key],
                    None,
                    f"call {call.id!r} ({call.name}) has no result: dropped, its message's text kept",
                )
            )
        else:
            changes.append(
                Change(
                    rules["unanswered"],
                    path,
                    "answer",
                    None,
                    new_id[call.key],
                    f"call {call.id!r} ({call.name}) has no result: answered with an error saying "
                    "it was not run",
                )
            )

    # Results: where each goes, and what becomes of orphans.
    zone = _zones(adapter, messages, pairing)
    answers, turn_of, block_layout = pairing.answers, pairing.turn, adapter.layout == "block"
    results_of_turn: dict[int, list[tuple[Site, Site]]] = defaultdict(list)  # in the output, in order
    for result in pairing.results:
        paired = answers.get(result.key)
        if paired is None:
            continue
        call = paired
        new = new_id[call.key]
        turn = turn_of[call.msg]
        end, stop = zone[turn]
        moved = not end < result.msg < stop
        results_of_turn[turn].append((result, call))
        if not moved and new == call.id and not block_layout:
            continue  # the usual case: in place, its id kept
        path = adapter.result_path(result.msg, result.block)
        if moved:
            changes.append(
                Change(
                    rules["move"],
                    path,
                    "move",
                    result.msg,
                    None,
                    f"the result of call {call.id!r} moved next to its call",
                )
            )
        elif block_layout and _after_other(adapter, messages[result.msg], result.block):
            changes.append(
                Change(
                    rules.get("first", rules["move"]),
                    path,
                    "move",
                    result.msg,
                    None,
                    "results come first in their message",
                )
            )
        if new != call.id and new is not None:
            action: Action
            if not _has_id(call.id):
                rule, action = rules["missing"], "fill-id"
            elif call.key in renamed:
                rule, action = rules["duplicate"], "rename"
            else:
                rule, action = rules["id"], "remap"
            changes.append(Change(rule, path, action, result.id, new, "the result follows its call's id"))
    notes: dict[tuple[int, Any], Any] = {}
    for result in pairing.orphans:
        path = adapter.result_path(result.msg, result.block)
        said = adapter.said(messages[result.msg], result.block)
        again = _has_id(result.id) and result.id in pairing.by_id
        rule = rules["second"] if again else rules["orphan"]
        why = "its call was answered already" if again else "its call is not in this history"
        if orphan_results == "drop":
            notes[result.key] = DROP
            changes.append(
                Change(
                    rule, path, "drop-result", said, None, f"a result for call {result.id!r}: {why}; dropped"
                )
            )
            continue
        text = _note_text(result, why, said)
        notes[result.key] = text
        changes.append(
            Change(rule, path, "note", said, text, f"a result for call {result.id!r}: {why}; kept as text")
        )

    done.messages = _write(
        adapter,
        messages,
        pairing,
        new_id,
        renamed,
        dropped,
        notes,
        unanswered_calls,
        results_of_turn,
        {c.msg for c in pairing.calls if new_id[c.key] != c.id},
        open_turns,
    )
    return done


def _note_text(result: Site, why: str, said: Any) -> str:
    name = f" ({result.name})" if result.name else ""
    head = f"[toolwire repair] Result of tool call {result.id!r}{name}"
    return f"{head}, kept as text because {why}: {text_of(said)}"


def _after_other(adapter: Adapter, msg: Message, block: Any) -> bool:
    found = {b for b, _, _ in adapter.results(msg)}
    return any(k not in found for k in range(block))


def _zones(adapter: Adapter, messages: list[Any], pairing: _Pairing) -> dict[int, tuple[int, int]]:
    """Per turn, where its results already are where the repair puts them (right after the
    turn): the messages strictly between its last call message and the stop, ``(last, stop)``."""
    zones: dict[int, tuple[int, int]] = {}
    last: dict[int, int] = {}
    for i, turn in pairing.turn.items():
        last[turn] = max(last.get(turn, i), i)
    results_in, calls_in = pairing.results_in, pairing.calls_in
    for turn, end in last.items():
        j = end + 1
        while j < len(messages) and j in results_in and j not in calls_in:
            j += 1
            if adapter.layout == "block":
                break
        zones[turn] = (end, j)
    return zones


def _write(
    adapter: Adapter,
    messages: list[Any],
    pairing: _Pairing,
    new_id: dict[tuple[int, Any], Any],
    renamed: set[tuple[int, Any]],
    dropped: set[tuple[int, Any]],
    notes: dict[tuple[int, Any], Any],
    unanswered: UnansweredPolicy,
    results_of_turn: dict[int, list[tuple[Site, Site]]],
    edited: set[int],
    open_turns: set[int],
) -> list[Any]:
    """The messages written back; ``results_of_turn``: each turn's results with their calls, in
    order; ``edited``: the call messages with an id changed; ``open_turns``: turns with a call
    unanswered."""
    calls_in, results_in, turn_of = pairing.calls_in, pairing.results_in, pairing.turn
    by_message = adapter.layout == "message"
    out: list[Any] = []
    done = 0  # messages before this one are written (or consumed)
    # Only messages with calls or results are looked at; those between are copied as they are.
    for i in sorted(calls_in.keys() | results_in.keys()):
        if i < done:
            continue  # consumed: a carrier whose blocks went with the turn before
        out.extend(messages[done:i])
        done = i + 1
        msg = messages[i]
        if i in calls_in:
            rewritten = msg
            if dropped or i in edited:
                edit = {c.block: DROP if c.key in dropped else new_id[c.key] for c in calls_in[i]}
                if any(edit[c.block] != c.id for c in calls_in[i]):
                    rewritten = adapter.with_calls(msg, edit)
                    if rewritten is not None and any(c.key in renamed for c in calls_in[i]):
                        rewritten = adapter.renamed(rewritten)
            if rewritten is not None:
                out.append(rewritten)
            turn = turn_of[i]
            if i + 1 in turn_of and turn_of[i + 1] == turn:
                continue  # the turn's results follow its last call message
            answers = []
            follow = i + 1  # while the results are the messages right after, in order
            for r, c in results_of_turn.get(turn, ()):
                new = new_id[c.key]
                if (new is None or new == r.id) and r.block is None:
                    answers.append(messages[r.msg])  # _carried's usual case: a message, as it was
                    if r.msg == follow and follow not in calls_in:
                        follow += 1
                else:
                    answers.append(_carried(adapter, messages, r, c, new))
            if by_message and follow == i + 1 + len(answers):
                done = follow  # those messages are written here: the loop need not look at them
            if unanswered == "error-result" and turn in open_turns:
                answers += [
                    adapter.answer(None, None, new_id[c.key], c.name)
                    for c in pairing.of_turn[turn]
                    if c.key not in pairing.answer
                ]
            if not answers:
                continue
            if by_message:
                out.extend(answers)
                continue
            base: Message | None = None
            after: list[Any] = []
            if i + 1 < len(messages) and adapter.is_carrier(messages[i + 1]):
                done = i + 2
                base, after = _stripped(adapter, messages[i + 1], i + 1, pairing, notes)
            out.append(adapter.carrier(answers, base))
            out.extend(after)
            continue
        if by_message:
            key = (i, None)
            if key in pairing.answers:
                continue
            note = notes.get(key)
            if note is None:
                out.append(msg)  # kept: a stored context may answer it
            elif note is not DROP:
                out.append(adapter.note(note))
            continue
        base, after = _stripped(adapter, msg, i, pairing, notes)
        if base is not None:
            out.append(base)
        out.extend(after)
    out.extend(messages[done:])
    return out


def _carried(adapter: Adapter, messages: list[Any], result: Site, call: Site, new: Any) -> Any:
    """A result as it goes after its call: itself when its id stays, else with its call's new id."""
    if new is None or new == result.id:
        msg = messages[result.msg]
        return msg if result.block is None else msg[adapter.blocks_key][result.block]
    return adapter.answer(messages[result.msg], result.block, new, call.name)


def _stripped(
    adapter: Adapter, msg: Message, i: int, pairing: _Pairing, notes: dict[tuple[int, Any], Any]
) -> tuple[Message | None, list[Any]]:
    """A carrier message without the results that move to their calls; orphans as notes."""
    keep: dict[int, Any] = {}
    after: list[Any] = []
    for block, _, _ in adapter.results(msg):
        assert block is not None  # a carrier's results are blocks of it
        key = (i, block)
        if key in pairing.answers:
            continue
        note = notes.get(key)
        if note is None:
            keep[block] = copy.deepcopy(msg[adapter.blocks_key][block])
        elif note is not DROP:
            if adapter.note_in_place:
                keep[block] = adapter.note(note)
            else:
                assert adapter.note_message is not None
                after.append(adapter.note_message(note))
    return adapter.strip(msg, keep), after
