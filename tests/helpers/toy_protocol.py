"""A toy protocol defined entirely outside ``src/``: proof that the registry is the only coupling.

The toy wire is a stream of JSON objects: ``{"op": "call", "id", "tool",
"args"}`` opens a call, ``{"op": "result", "id", "value"}`` answers it.  It
has each layer's piece, as a protocol family inside toolwire would:

- model: :data:`CALL`, :data:`RESULT` (its wire vocabulary);
- machine: :class:`ToyCall` (python-statemachine);
- property: rule ``TOY-1``, :class:`ToyMonitor`, a generator, a reader,
  mutation sites and an explore state space;
- :data:`FAMILY`, which ``toolwire.protocols.register`` takes.

``docs/architecture.md`` walks through this file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

from hypothesis import strategies as st
from statemachine import State

from toolwire.machines import CheckingMachine, compile_machine
from toolwire.properties import (
    Family,
    Generator,
    KeyedMonitor,
    Lanes,
    LaneSpace,
    Lifecycle,
    Plan,
    Protocol,
    Rule,
    Sites,
    Turn,
)

# --- model: the wire vocabulary -----------------------------------------------------------------

TOY: Final = "toy-stream"
CALL: Final = "call"
RESULT: Final = "result"


# --- machine: one call, from its call event to its result ---------------------------------------


class ToyCall(CheckingMachine):
    """A toy call: ``call``, then one ``result``."""

    unused = State(initial=True)
    called = State()
    answered = State(final=True)

    call = unused.to(called)
    result = called.to(answered)


# --- properties: the rule, the monitor, the reader, the generator, the space --------------------

RULES: Final = (
    Rule(
        "TOY-1",
        "always",
        (TOY,),
        "Every call is answered by exactly one result, after it; no id is called twice.",
        source="tests/helpers/toy_protocol.py (the toy protocol's own definition)",
        fix="Answer each call once, after it, with its own id.",
        error="no call {id} to answer",
    ),
)
_BOOK: Final = {rule.id: rule for rule in RULES}
_CALLS: Final = Lifecycle.declare(
    ToyCall, {("*", CALL): ("TOY-1", "called"), ("*", RESULT): "TOY-1"}, {"called": "TOY-1"}
)


class ToyMonitor(KeyedMonitor):
    """Checks a toy stream: one :class:`ToyCall` per id."""

    protocol = TOY
    lifecycle = _CALLS

    def __init__(self) -> None:
        super().__init__(_BOOK)
        self._turn = Turn(0, None, "events")

    def feed(self, value: Any, index: int, line: int | None, sse_event: str | None) -> None:
        op = value.get("op") if isinstance(value, dict) else None
        if op not in (CALL, RESULT) or not isinstance(value.get("id"), str):
            self.notice(index, line, f"event {index} is not a toy call or result; skipped")
            return
        item = self.step(value["id"], op, index, line, what=f"{op} {value['id']}", id=value["id"])
        item.id = value["id"]
        if op == CALL:
            self._turn.calls.append((value["id"], value.get("tool"), value.get("args")))

    def finish(self, index: int, line: int | None) -> None:
        self.finish_items(index, line)

    def calls(self) -> list[Turn]:
        return [self._turn]


def results(trace: list[Any]) -> Iterable[tuple[str | None, str | None, Any]]:
    """The result events: the id each answers and its value."""
    for event in trace:
        if isinstance(event, dict) and event.get("op") == RESULT:
            yield event.get("id"), None, event.get("value")


def toy_id(token: str) -> str:
    """A toy call id from a generated call's token."""
    return f"toy-{token[:8]}"


def render(draw: st.DrawFn, plan: Plan, quirks: frozenset[str]) -> list[dict[str, Any]]:
    """The first turn's calls, then their results in a drawn order."""
    calls = plan.turns[0].calls
    events = [{"op": CALL, "id": toy_id(c.token), "tool": c.name, "args": c.arguments} for c in calls]
    for c in draw(st.permutations(calls)):
        events.append({"op": RESULT, "id": toy_id(c.token), "value": c.result})
    return events


GENERATOR: Final = Generator(render, fragments=False)


class ToySpace(LaneSpace):
    """Toy streams within bounds: calls and results of up to ``calls`` calls."""

    protocol = TOY
    lanes = Lanes(lane=compile_machine(ToyCall), events=(CALL, RESULT), fragments=frozenset())

    def render(self, path: Sequence[tuple[Any, ...]]) -> list[dict[str, Any]]:
        calls = self.calls(path)
        events: list[dict[str, Any]] = []
        for move in path:
            if move[0] != "lane":
                continue
            call = calls[move[1]]
            if move[2] == CALL:
                events.append(
                    {"op": CALL, "id": toy_id(call.token), "tool": call.name, "args": call.arguments}
                )
            else:
                events.append({"op": RESULT, "id": toy_id(call.token), "value": f"{call.name} result"})
        return events


def _loader(value: Any) -> Callable[[], Any]:
    return lambda: value


FAMILY: Final = Family(
    "toy",
    catalogue=99,
    protocols=(
        Protocol(
            TOY,
            "A toy stream of calls and results (TOY-1)",
            "stream",
            ToyMonitor,
            results=results,
            sites=Sites(
                lambda e: ("id",) if isinstance(e, dict) and e.get("op") == CALL else None,
                lambda e: ("id",) if isinstance(e, dict) and e.get("op") == RESULT else None,
            ),
            breaks={"drop-id": "TOY-1", "duplicate": "TOY-1", "reorder": "TOY-1"},
            generator=_loader(GENERATOR),
            space=_loader(ToySpace),
        ),
    ),
    rules=RULES,
    machines=(ToyCall,),
    id_shapes=(),
)


# --- converters between the toy and OpenAI Chat Completions -------------------------------------


def toy_to_chat(trace: list[dict[str, Any]], run_tool: Callable[[str | None, str | None], str]) -> list[Any]:
    """A toy stream into the next Chat Completions request: ids kept, each call run once."""
    calls = [e for e in trace if e["op"] == CALL]
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Hello"}]
    if not calls:
        return [*messages, {"role": "assistant", "content": "Done."}]
    messages.append(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": c["id"], "type": "function", "function": {"name": c["tool"], "arguments": c["args"]}}
                for c in calls
            ],
        }
    )
    messages.extend(
        {"role": "tool", "tool_call_id": c["id"], "content": run_tool(c["tool"], c["args"])} for c in calls
    )
    return messages


def toy_to_chat_renamed(
    trace: list[dict[str, Any]], run_tool: Callable[[str | None, str | None], str]
) -> list[Any]:
    """A buggy converter: it mints its own ids, so the request no longer replays the stream's."""
    messages = toy_to_chat(trace, run_tool)
    for message in messages:
        for call in message.get("tool_calls") or []:
            call["id"] = "call_" + call["id"].removeprefix("toy-")
        if message["role"] == "tool":
            message["tool_call_id"] = "call_" + message["tool_call_id"].removeprefix("toy-")
    return messages


def chat_to_toy(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A Chat Completions history into a toy stream: each call, then each tool message's result."""
    events: list[dict[str, Any]] = []
    for message in messages:
        for call in message.get("tool_calls") or []:
            function = call["function"]
            events.append(
                {"op": CALL, "id": call["id"], "tool": function["name"], "args": function["arguments"]}
            )
    for message in messages:
        if message.get("role") == "tool":
            events.append({"op": RESULT, "id": message["tool_call_id"], "value": message["content"]})
    return events
