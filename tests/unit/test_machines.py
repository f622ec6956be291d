"""Machines: the compiled tables agree with the python-statemachine classes they come from."""

from __future__ import annotations

from collections import deque

import pytest
from hypothesis import given
from hypothesis import strategies as st
from statemachine import State, StateMachine
from statemachine.exceptions import TransitionNotAllowed

from toolwire.errors import DefinitionError
from toolwire.machines import ILLEGAL, MACHINES, CheckingMachine, Table, compile_machine

#: (reachable states, legal transitions) per machine: a change to a machine changes these.
PINNED = {
    "ResponseStream": (4, 14),
    "FunctionCallItem": (5, 6),
    "OutputItem": (3, 3),
    "FunctionCallPairing": (4, 4),
    "ChatToolCallStream": (3, 3),
    "ChatConversation": (3, 6),
    "MessageStream": (4, 5),
    "ContentBlock": (3, 3),
    "AnthropicConversation": (3, 7),
    "ConverseStream": (4, 4),
    "ConverseConversation": (2, 3),
    "GeminiContents": (4, 8),
    "MistralConversation": (6, 20),
    "StreamToolCall": (6, 11),
    "UIToolPart": (8, 14),
    "JsonRpcRequest": (4, 4),
    "ResponseBody": (3, 6),
    "FullStreamToolCall": (8, 18),
    "FullStream": (5, 8),
    "ModelConversation": (2, 7),
    "GenAIConversation": (3, 6),
}


def reachable(table: Table) -> tuple[set[int], int]:
    seen = {table.initial}
    queue = deque([table.initial])
    transitions = 0
    while queue:
        state = queue.popleft()
        for row in table.rows.values():
            target = row[state]
            if target != ILLEGAL:
                transitions += 1
                if target not in seen:
                    seen.add(target)
                    queue.append(target)
    return seen, transitions


@pytest.mark.parametrize("name", sorted(MACHINES))
def test_machine_has_its_pinned_reachable_states_and_transitions(name: str) -> None:
    states, transitions = reachable(compile_machine(MACHINES[name]))
    assert (len(states), transitions) == PINNED[name]


def test_every_machine_is_pinned() -> None:
    assert set(PINNED) == set(MACHINES)


@pytest.mark.parametrize("name", sorted(MACHINES))
def test_every_machine_has_checking_semantics(name: str) -> None:
    machine = MACHINES[name]
    assert machine.allow_event_without_transition is False
    assert machine.catch_errors_as_events is False


@st.composite
def machine_and_events(draw: st.DrawFn) -> tuple[type[CheckingMachine], list[str]]:
    machine = MACHINES[draw(st.sampled_from(sorted(MACHINES)))]
    events = compile_machine(machine).events
    return machine, draw(st.lists(st.sampled_from(events), max_size=12))


@given(machine_and_events())
def test_tables_and_classes_agree_on_generated_event_sequences(
    case: tuple[type[CheckingMachine], list[str]],
) -> None:
    machine, events = case
    table = compile_machine(machine)
    instance = machine()
    state = table.initial
    for event in events:
        target = table.step(state, event)
        try:
            instance.send(event)
        except TransitionNotAllowed:
            assert target == ILLEGAL, (event, table.states[state])
            return
        assert target != ILLEGAL, (event, table.states[state])
        state = target
        assert instance.current_state_value == table.states[state]


def test_a_guarded_transition_is_refused_at_definition_time() -> None:
    class Guarded(StateMachine):
        a = State(initial=True)
        b = State(final=True)
        go = a.to(b, cond="ready")

        def ready(self) -> bool:
            return True

    with pytest.raises(DefinitionError, match="guard"):
        compile_machine(Guarded)


def test_an_unknown_state_name_lists_the_states_there_are() -> None:
    table = compile_machine(MACHINES["ChatConversation"])
    with pytest.raises(DefinitionError, match="idle, awaiting, answered"):
        table.state("waiting")


def test_transitions_are_listed_in_a_stable_order() -> None:
    table = compile_machine(MACHINES["FunctionCallItem"])
    assert list(table.transitions())[:2] == [
        ("absent", "item_added", "added"),
        ("added", "delta", "streaming"),
    ]
