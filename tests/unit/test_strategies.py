"""Generated traffic is valid for its protocol; each mutator breaks it with its rule."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

import toolwire
from toolwire.errors import UsageError
from toolwire.properties._strategies._plan import split
from toolwire.protocols import BREAKS, GENERATED, MUTATORS, QUIRKS, RULES, mutate, mutated, quirks_for, traces

CASES = [(protocol, quirk) for protocol in GENERATED for quirk in (None, *quirks_for(protocol))]
_SLOW = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@pytest.mark.parametrize(("protocol", "quirk"), CASES, ids=[f"{p}-{q or 'plain'}" for p, q in CASES])
def test_every_generated_trace_passes_check_but_for_its_quirks_deviations(
    protocol: str, quirk: str | None
) -> None:
    allowed = set(QUIRKS[quirk].deviates) if quirk else set()

    @_SLOW
    @given(traces(protocol, quirk))
    def check_trace(trace: list[dict[str, object]]) -> None:
        json.dumps(trace)
        report = toolwire.check(trace, protocol)
        assert {f.rule for f in report.errors} <= allowed, report.errors
        assert not report.problems

    check_trace()


@pytest.mark.parametrize("quirk", [q for q, spec in QUIRKS.items() if spec.deviates])
def test_a_deviating_quirk_is_seen_by_check(quirk: str) -> None:
    protocol = QUIRKS[quirk].protocols[0]
    seen: set[str] = set()

    @settings(max_examples=60, database=None)
    @given(traces(protocol, quirk, max_calls=3))
    def collect(trace: list[dict[str, object]]) -> None:
        seen.update(f.rule for f in toolwire.check(trace, protocol).errors)

    collect()
    assert seen == set(QUIRKS[quirk].deviates)


MUTATIONS = [(p, m, rule) for p, by_mutator in BREAKS.items() for m, rule in by_mutator.items()]


@pytest.mark.parametrize(
    ("protocol", "mutator", "rule"), MUTATIONS, ids=[f"{p}-{m}" for p, m, _ in MUTATIONS]
)
def test_check_flags_each_mutation_with_its_rule(protocol: str, mutator: str, rule: str) -> None:
    # As many examples as the profile draws (tests/conftest.py): 84 cases, a third of a plain pytest at 50.
    @settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(mutated(protocol, mutator))
    def flagged(trace: list[dict[str, object]]) -> None:
        # At the rule's own severity: a rule no rejection backs is a warning (issue 29).
        found = toolwire.check(trace, protocol).findings
        assert rule in {f.rule for f in found if f.severity == RULES[rule].severity}

    flagged()


def test_every_mutator_breaks_some_protocol() -> None:
    assert {m for by_mutator in BREAKS.values() for m in by_mutator} == set(MUTATORS)


@given(st.data())
def test_mutate_leaves_the_original_untouched(data: st.DataObject) -> None:
    trace = data.draw(traces("openai-chat"))
    before = json.dumps(trace)
    mutate(trace, "openai-chat", data.draw(st.sampled_from(sorted(MUTATORS))))
    assert json.dumps(trace) == before


@pytest.mark.parametrize("inside", ["\\u00", "\\ud83d"])
def test_arguments_are_split_inside_escapes_and_between_surrogate_halves(inside: str) -> None:
    text = json.dumps({"q": "\u00e9\U0001f600"})

    @st.composite
    def splits(draw: st.DrawFn) -> tuple[str, ...]:
        return split(draw, text, True)

    pieces = find(
        splits(),
        lambda pieces: any(p.endswith(inside) for p in pieces[:-1]),
        settings=settings(database=None, derandomize=True, max_examples=1000),
    )
    assert "".join(pieces) == text


def test_unknown_quirks_and_protocols_are_usage_errors() -> None:
    with pytest.raises(UsageError, match="its quirk profiles: repeated-ids"):
        traces("openai-chat-stream", "missing-ids")
    with pytest.raises(
        UsageError, match="cannot generate 'carrier-pigeon': --from takes one of: openai-chat"
    ):
        traces("carrier-pigeon")
    # An output-only protocol (an instrumentor's spans) is named as such, not as unknown.
    with pytest.raises(UsageError, match="judged as an output, but has no generator"):
        traces("otel-genai-output")
    with pytest.raises(UsageError, match="contradict"):
        traces("openai-chat-stream", "index-0,index-reuse")
