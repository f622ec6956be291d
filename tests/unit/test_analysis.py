"""toolwire analyse: reachability, dead ends and dead events proved with networkx; suites cover all."""

from __future__ import annotations

import json

import pytest
from statemachine import State

from toolwire.cli import main
from toolwire.engines import analyse, analyse_machine
from toolwire.machines import ILLEGAL, MACHINES, CheckingMachine, compile_machine


@pytest.mark.parametrize("name", list(MACHINES))
def test_suite_paths_end_accepting_and_fire_every_reachable_transition(name: str) -> None:
    table = compile_machine(MACHINES[name])
    result = analyse_machine(name)
    fired = set()
    for path in result.suite:
        state = table.initial
        for event in path:
            target = table.step(state, event)
            assert target != ILLEGAL
            fired.add((table.states[state], event, table.states[target]))
            state = target
        assert state in table.accepting
    assert fired == set(result.transitions) == set(table.transitions())


def test_machine_facts_are_pinned() -> None:
    facts = {name: analyse_machine(name) for name in MACHINES}
    assert all(not a.unreachable and not a.dead_ends for a in facts.values())
    dead = {name: a.dead_events for name, a in facts.items() if a.dead_events}
    # Events declared only so that a violation can be named: no transition fires them.
    assert dead == {
        "FunctionCallPairing": ("repeated_call", "repeated_output"),
        "ChatConversation": ("stray", "repeat"),
        "GenAIConversation": ("stray", "repeat"),
        "ConverseConversation": ("partial",),
        "MistralConversation": ("extra",),
        "ResponseBody": ("repeat",),
    }
    # Six transitions enter ResponseStream's final state, which has none out: six paths is the least.
    assert len(facts["ResponseStream"].suite) == 6
    # 37, ResponseBody's 4 paths, the AI SDK's FullStreamToolCall (7), FullStream (4) and
    # ModelConversation (1), and GenAIConversation's 1.
    assert len(facts["GenAIConversation"].suite) == 1
    assert sum(len(a.suite) for a in facts.values()) == 37 + 4 + 12 + 1


class Trap(CheckingMachine):
    """A machine with a state no event reaches and a state no trace leaves."""

    # python-statemachine refuses both by default; the analysis must find them on its own.
    validate_disconnected_states = False
    validate_trap_states = False
    validate_final_reachability = False

    start = State(initial=True)
    stuck = State()
    orphan = State()
    done = State(final=True)

    go = start.to(done)
    fall = start.to(stuck)
    spin = stuck.to(stuck)
    back = orphan.to(done)


def test_analysis_finds_unreachable_states_dead_ends_and_dead_events() -> None:
    result = analyse(compile_machine(Trap))
    assert result.unreachable == ("orphan",)
    assert result.dead_ends == ("stuck",)
    assert result.dead_events == ("back",)
    assert result.suite == (("go",),)


def test_analyse_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "FunctionCallItem"]) == 0
    out = capsys.readouterr().out
    assert "FunctionCallItem: 5 of 5 states reachable, 6 transitions reachable" in out
    assert "item_added delta delta arguments_complete item_done" in out
    assert main(["analyse", "--format", "json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == len(MACHINES)
    assert main(["analyse", "Nope"]) == 2
    assert "unknown machine 'Nope'" in capsys.readouterr().err
