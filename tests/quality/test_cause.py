"""Findings keyed by cause: one symptom from two causes gives two findings, each shrunk toward its
own cause; a profile the symptom survives is no cause; slow targets are served as slow."""

from __future__ import annotations

import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis.control import current_build_context

from helpers import layout
from toolwire.engines import fuzz
from toolwire.engines.fuzzing._cause import Causes
from toolwire.engines.fuzzing._inputs import drawn, shapes
from toolwire.engines.fuzzing._options import FuzzOptions
from toolwire.engines.fuzzing._steer import Example

MULTIBUG = str(layout.ROOT / "examples" / "multibug_same_symptom.py")
PAIR = ("openai-chat-stream", "openai-chat-response")


@pytest.mark.parametrize(
    ("reader", "symptom", "quirk"),
    [("convert", "one-to-one:lost", "index-0"), ("convert_arguments", "arguments:changed", "repeated-ids")],
)
def test_one_symptom_from_two_causes_is_two_findings(reader: str, symptom: str, quirk: str) -> None:
    run = fuzz(f"{MULTIBUG}:{reader}", *PAIR, max_examples=1500, out=None)
    found = {c.finding: c for c in run.counterexamples}
    assert {symptom, f"{symptom} [{quirk}]"} <= set(found), sorted(found)
    # Each is shrunk toward its own cause: the strict wire's needs no profile, the other keeps its own.
    assert found[symptom].cause == ()
    assert found[f"{symptom} [{quirk}]"].cause == (quirk,)
    assert quirk in (found[f"{symptom} [{quirk}]"].quirks or "")


def test_the_fixed_design_has_no_finding_of_either_cause() -> None:
    run = fuzz(f"{MULTIBUG}:fixed", *PAIR, max_examples=600, out=None)
    assert run.counterexamples == []


def test_ignoring_one_cause_keeps_the_other() -> None:
    run = fuzz(
        f"{MULTIBUG}:convert", *PAIR, max_examples=1500, out=None, ignore=["one-to-one:lost [index-0]"]
    )
    findings = {c.finding for c in run.counterexamples}
    assert "one-to-one:lost" in findings and "one-to-one:lost [index-0]" not in findings
    everything = fuzz(f"{MULTIBUG}:convert", *PAIR, max_examples=300, out=None, ignore=["one-to-one:lost"])
    assert not any(c.symptom == "one-to-one:lost" for c in everything.counterexamples)


def test_a_redrawn_example_is_the_same_example_without_the_profiles_switched_off() -> None:
    options = FuzzOptions(source=PAIR[0], destination=PAIR[1])
    causes = Causes(
        lambda example: None,
        lambda mode, without: drawn(options, mode[0], without, mode[1]).map(  # type: ignore[arg-type,return-value]
            lambda d: Example(d.trace, d.quirks, frozenset(shapes(d.trace, PAIR[0])))
        ),
    )
    checked = []

    @settings(max_examples=60, database=None)
    @given(drawn(options))
    def same(drawn: Any) -> None:
        example = Example(drawn.trace, drawn.quirks, frozenset(shapes(drawn.trace, PAIR[0])))
        choices = current_build_context().data.choices
        again = causes.redraw(example, choices, (False, False), frozenset())
        assert again is not None and again.trace == example.trace
        for quirk in example.quirks:
            without = causes.redraw(example, choices, (False, False), frozenset({quirk}))
            assert without is not None and without.quirks == example.quirks - {quirk}
            checked.append(quirk)

    same()
    assert checked, "no example was drawn with a quirk profile"


def test_a_slow_target_is_served_as_slow_and_says_so() -> None:
    from toolwire.cli.handlers._fuzz import render_fuzz

    def slow(chunks: list[dict[str, Any]]) -> list[dict[str, Any]]:
        time.sleep(0.1)
        return []

    run = fuzz(slow, *PAIR, time_limit=4, out=None)
    assert run.slow is not None and run.slow < 20
    assert "slow target (" in render_fuzz(run)
    # Bounded by examples alone, a campaign is the same on any machine: never served as slow.
    counted = fuzz(slow, *PAIR, max_examples=30, out=None)
    assert counted.slow is None and counted.examples == 30
    assert "slow target (" not in render_fuzz(counted)


@pytest.mark.parametrize("providers", [("mistral",), ("openai",)])
def test_a_campaign_for_some_providers_draws_only_their_profiles(providers: tuple[str, ...]) -> None:
    run = fuzz(f"{MULTIBUG}:fixed", *PAIR, max_examples=50, out=None, providers=providers)
    from toolwire.protocols import QUIRKS

    assert all(set(QUIRKS[name].providers) & set(providers) for name in run.swarm)
