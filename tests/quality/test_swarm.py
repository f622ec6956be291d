"""Default campaigns: every quirk profile in a swarm, findings that steer, every profile fair.

A default campaign switches a random few of the input protocol's quirk profiles on per example
(``--quirks none`` switches none on, ``--quirks P`` pins P); its counterexamples record the
profiles they need; a rule a profile breaks on purpose is the provider's deviation, never the
converter's; once a finding is held, the campaign draws away from what trips it.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import re
import signal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import layout
from toolwire.cli import main
from toolwire.engines import fuzz, judge, load_target
from toolwire.engines.fuzzing import _campaign as _fuzz
from toolwire.engines.fuzzing._counterexample import replay, save
from toolwire.engines.fuzzing._steer import Example, Steering, marks
from toolwire.protocols import GENERATED, QUIRKS
from toolwire.protocols._traces import drawn_traces, swarm_profiles

EXAMPLES = layout.ROOT / "examples"
RAISES_FIRST = f"{EXAMPLES / 'multibug_anthropic_to_chat_stream.py'}:convert"
STREAM_TO_ANTHROPIC = str(EXAMPLES / "multibug_chat_stream_to_anthropic.py")
AISDK = str(EXAMPLES / "aisdk_conversions.py")


def _same(trace: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return copy.deepcopy(trace)


#: Every (quirk profile, protocol) with a generator: a pass-through converter must pass under it.
PROFILES = [
    (name, protocol) for name, q in QUIRKS.items() for protocol in q.protocols if protocol in GENERATED
]


@pytest.mark.parametrize(("quirk", "protocol"), PROFILES, ids=[f"{q}-{p}" for q, p in PROFILES])
def test_every_quirk_profile_admits_a_correct_converter(quirk: str, protocol: str) -> None:
    # A pass-through is correct whatever the provider sends: the rules a profile deviates from
    # are the provider's, so passing them on is no finding.
    run = fuzz(_same, protocol, protocol, quirks=quirk, max_examples=25, out=None)
    assert run.counterexamples == [], [c.message for c in run.counterexamples]


def test_dropping_a_call_that_waits_on_the_client_is_no_finding() -> None:
    # convertToModelMessages with ignoreIncompleteToolCalls: its documented purpose is to drop
    # the part that waits for addToolOutput; keeping it breaks VS-6, so dropping it must pass.
    target = f"{AISDK}:ui_to_model_ignoring_incomplete"
    run = fuzz(
        target,
        "aisdk-ui-messages",
        "aisdk-model-messages",
        quirks="pending-client-tool",
        max_examples=60,
        out=None,
    )
    assert run.counterexamples == [], [c.message for c in run.counterexamples]


def test_a_call_that_waits_on_the_client_is_owed_without_the_profile() -> None:
    # Without the profile every call in the input is answered, so dropping any is a loss.
    messages = [
        {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "Hi"}]},
        {
            "id": "a1",
            "role": "assistant",
            "parts": [
                {"type": "step-start"},
                {"type": "tool-search", "toolCallId": "call_1", "state": "input-available", "input": {}},
            ],
        },
    ]
    target = load_target(f"{AISDK}:ui_to_model_ignoring_incomplete")
    strict = judge(target, messages, "aisdk-ui-messages", "aisdk-model-messages")
    lenient = judge(target, messages, "aisdk-ui-messages", "aisdk-model-messages", unanswered_optional=True)
    assert "one-to-one:lost" in [f.finding for f in strict.faults()]
    assert "one-to-one:lost" not in [f.finding for f in lenient.faults()]


def test_a_default_campaign_is_a_swarm_over_the_source_profiles_and_none_switches_them_off() -> None:
    swarm = fuzz(_same, "openai-chat-stream", "openai-chat-stream", max_examples=5, out=None)
    assert swarm.swarm == tuple(swarm_profiles("openai-chat-stream"))
    assert swarm.quirks is None
    plain = fuzz(_same, "openai-chat-stream", "openai-chat-stream", quirks="none", max_examples=5, out=None)
    assert plain.swarm == ()
    pinned = fuzz(
        _same, "openai-chat-stream", "openai-chat-stream", quirks="index-0", max_examples=5, out=None
    )
    assert pinned.swarm == () and pinned.quirks == "index-0"


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_swarmed_traces_are_valid_but_for_the_rules_their_profiles_deviate_from(data: st.DataObject) -> None:
    drawn = data.draw(drawn_traces("openai-chat-stream", swarm=True, swarm_quirks=True))
    deviates = {rule for name in drawn.quirks for rule in QUIRKS[name].deviates}
    outcome = judge(
        load_target(_same),
        drawn.trace,
        "openai-chat-stream",
        "openai-chat-stream",
        deviates=frozenset(deviates),
    )
    assert outcome.faults() == []
    for name in drawn.quirks:  # never two profiles that contradict each other
        assert not set(QUIRKS[name].excludes) & drawn.quirks


def test_none_draws_no_profile_and_each_example_of_a_swarm_says_which_it_drew() -> None:
    seen: set[frozenset[str]] = set()

    @settings(max_examples=80, deadline=None, database=None)
    @given(drawn_traces("openai-chat-stream", swarm_quirks=True))
    def collect(drawn: Any) -> None:
        seen.add(drawn.quirks)

    collect()
    assert frozenset() in seen  # well-behaved traffic stays common
    assert len({q for quirks in seen for q in quirks}) >= 4

    @settings(max_examples=30, deadline=None, database=None)
    @given(drawn_traces("openai-chat-stream", swarm_quirks=False))
    def pinned(drawn: Any) -> None:
        assert drawn.quirks == frozenset()

    pinned()


def test_a_swarm_finding_records_the_profiles_it_needs_and_replays_with_them(tmp_path: Path) -> None:
    # The index-keyed accumulator merges calls that share an index: only the profiles that send
    # such traffic trip it, and the counterexample says so (and replays, its input not invalid).
    run = fuzz(
        f"{EXAMPLES / 'stream_to_body.py'}:index_keyed",
        "openai-chat-stream",
        "openai-chat-response",
        max_examples=300,
        out=tmp_path,
    )
    needed = {c.finding: c.quirks for c in run.counterexamples}
    assert needed, "the index-0 bug went unnoticed"
    # Calls sharing an index: all at index 0, or a new call at the index of the one before it.
    assert all(q is not None and {"index-0", "index-reuse"} & set(q.split(",")) for q in needed.values())
    saved = next(iter(run.saved.values()))
    _, outcome = replay(saved, f"{EXAMPLES / 'stream_to_body.py'}:index_keyed")
    assert outcome.faults() and not [f for f in outcome.faults() if f.property == "input"]
    assert (
        fuzz(
            f"{EXAMPLES / 'stream_to_body.py'}:fixed",
            "openai-chat-stream",
            "openai-chat-response",
            max_examples=300,
            out=None,
        ).counterexamples
        == []
    )


def test_the_summary_says_which_profiles_the_findings_needed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = [
        "fuzz",
        f"{EXAMPLES / 'stream_to_body.py'}:index_keyed",
        "--from",
        "openai-chat-stream",
        "--to",
        "openai-chat-response",
        "--out",
        str(tmp_path),
    ]
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert "quirks a swarm of repeated-ids" in out.splitlines()[0]
    assert re.search(r"^  quirk profiles: .*index-(0|reuse)", out, re.MULTILINE), out
    # An index-keyed accumulator is right on the strict wire: every finding needs a provider's shape.
    summary = r"0 on the strict wire, \d+ needing a provider.s shapes \(needs index-(0|reuse): sent by "
    assert re.search(summary, out), out
    assert re.search(r"^== needs index-(0|reuse): sent by .*Mistral", out, re.MULTILINE), out


@pytest.mark.parametrize("ignore", [(), ("raises",)], ids=["all", "first-ignored"])
def test_bugs_behind_a_first_bug_that_raises_on_a_common_event_surface_in_one_campaign(
    ignore: tuple[str, ...],
) -> None:
    for seed in range(3):
        run = fuzz(RAISES_FIRST, "anthropic-stream", "openai-chat-stream", seed=seed, ignore=ignore, out=None)
        found = {c.finding for c in run.counterexamples}
        assert {"arguments:changed", "names:changed"} <= found, (seed, found)
        assert ("raises:KeyError@_convert" in found) == (not ignore)


def test_the_steering_keeps_the_marks_that_go_with_a_finding() -> None:
    steering = Steering()
    text = Example([], frozenset(), frozenset({"text-before-tool-use", "done"}))
    bare = Example([], frozenset(), frozenset({"done"}))
    quirky = Example([], frozenset({"index-0"}), frozenset({"done", "index-0-for-every-call"}))
    for _ in range(20):
        steering.observe(text, ["raises"])
        steering.observe(bare, [])
        steering.observe(quirky, ["one-to-one:lost [index-0]", "arguments:changed"])
    steering.hold("raises", text, (3, 100))
    steering.hold("one-to-one:lost [index-0]", quirky, (3, 100), frozenset({"index-0"}))
    # Told not to need index-0, though every example that tripped it had it.
    steering.hold("arguments:changed", quirky, (3, 100))
    signatures = {s.finding: s for s in steering.signatures()}
    assert frozenset({"text-before-tool-use"}) in signatures["raises"].marks
    assert not any("done" in alternative for alternative in signatures["raises"].marks)
    assert signatures["raises"].matches(text) and not signatures["raises"].matches(bare)
    # A finding's cause is in every alternative of its signature; another profile in none.
    assert all("quirk:index-0" in a for a in signatures["one-to-one:lost [index-0]"].marks)
    assert "arguments:changed" not in signatures or not signatures["arguments:changed"].matches(quirky)
    assert "quirk:index-0" in marks(quirky)
    assert not steering.saturated()
    for _ in range(500):
        steering.observe(text, ["raises"])
    assert steering.saturated()


def _mutating_and_lossy(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    messages.append({"role": "user", "content": "appended by the converter"})
    return [m for m in messages[:-1] if m.get("role") != "tool" and not m.get("tool_calls")]


def test_a_target_that_mutates_its_input_is_still_judged_on_its_output() -> None:
    run = fuzz(_mutating_and_lossy, "openai-chat", "openai-chat", max_examples=80, out=None)
    found = {c.finding for c in run.counterexamples}
    assert "mutates" in found and "one-to-one:lost" in found, found


def test_an_interrupt_that_hypothesis_turns_into_its_own_error_still_ends_with_the_report(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # SIGINT at a budget's end can land inside Hypothesis's bookkeeping, which then fails with
    # an AssertionError of its own: the campaign must still report what it found.
    def interrupted_round(test: Any) -> list[Any]:
        with contextlib.suppress(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
        raise AssertionError("internal Hypothesis state")

    monkeypatch.setattr(_fuzz, "_round", interrupted_round)
    argv = [
        "fuzz",
        f"{STREAM_TO_ANTHROPIC}:convert",
        "--from",
        "openai-chat-stream",
        "--to",
        "anthropic-stream",
        "--format",
        "json",
        "--out",
        str(tmp_path),
    ]
    main(argv)
    report = json.loads(capsys.readouterr().out)
    assert report["interrupted"] is True and report["stopped"] == "interrupted"


def test_a_counterexample_saved_from_a_swarm_keeps_its_profiles(tmp_path: Path) -> None:
    run = fuzz(
        f"{EXAMPLES / 'stream_to_body.py'}:index_keyed",
        "openai-chat-stream",
        "openai-chat-response",
        max_examples=300,
        out=None,
    )
    found = run.counterexamples[0]
    again = json.loads(save(found, tmp_path).read_text())
    assert again["quirks"] == found.quirks
