"""Findings keyed by cause: their ids, their saved form, older files, --providers and --ignore."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolwire.cli.handlers._fuzz import render_fuzz, senders
from toolwire.engines.fuzzing import Counterexample, FuzzOptions, FuzzRun, load_counterexample
from toolwire.engines.fuzzing._counterexample import finding_id
from toolwire.errors import UsageError
from toolwire.protocols import QUIRKS


def _found(cause: tuple[str, ...] = (), kind: str = "lost") -> Counterexample:
    return Counterexample(
        target="t.py:convert",
        source="openai-chat-stream",
        destination="openai-chat-response",
        property="one-to-one",
        kind=kind,
        message="input call call_1 (f) has no output call",
        input=[{"x": 1}],
        output=[],
        quirks=",".join(cause) or None,
        cause=cause,
    )


def test_a_finding_id_is_its_symptom_on_the_strict_wire_and_names_its_cause_otherwise() -> None:
    assert finding_id("one-to-one:lost") == "one-to-one:lost"
    assert finding_id("one-to-one:lost", ["index-0"]) == "one-to-one:lost [index-0]"
    assert (
        finding_id("arguments:changed", ["repeated-ids", "index-0"])
        == "arguments:changed [index-0,repeated-ids]"
    )
    assert _found(("index-0",)).finding == "one-to-one:lost [index-0]"
    assert _found(("index-0",)).symptom == "one-to-one:lost"


def test_the_saved_form_carries_the_cause_and_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps(_found(("index-0",)).to_json()))
    saved = json.loads(path.read_text())
    assert saved["cause"] == ["index-0"] and saved["symptom"] == "one-to-one:lost"
    assert saved["finding"] == "one-to-one:lost [index-0]"
    again = load_counterexample(path)
    assert again.cause == ("index-0",) and again.finding == "one-to-one:lost [index-0]"


def test_an_older_file_without_a_cause_is_its_symptom(tmp_path: Path) -> None:
    data = _found().to_json()
    del data["cause"], data["symptom"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    old = load_counterexample(path)
    assert old.cause == () and old.finding == "one-to-one:lost"


def test_a_cause_of_the_wrong_type_is_a_clear_error(tmp_path: Path) -> None:
    data = _found().to_json() | {"cause": "index-0"}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(UsageError, match="cause"):
        load_counterexample(path)


def test_providers_narrow_the_swarm_to_the_profiles_they_send() -> None:
    options = FuzzOptions(
        source="openai-chat-stream", destination="openai-chat-response", providers=("mistral",)
    )
    assert options.swarm_profiles
    assert all("mistral" in QUIRKS[name].providers for name in options.swarm_profiles)
    every = FuzzOptions(source="openai-chat-stream", destination="openai-chat-response").swarm_profiles
    assert set(options.swarm_profiles) < set(every)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"providers": ("nobody",)}, "no provider 'nobody'"),
        ({"providers": ("mistral",), "quirks": "index-0"}, "not with --quirks"),
        ({"providers": "mistral"}, "list of provider names"),
    ],
)
def test_bad_providers_are_usage_errors(extra: dict[str, object], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        FuzzOptions(source="openai-chat-stream", destination="openai-chat-response", **extra)  # type: ignore[arg-type]


def test_the_report_puts_the_strict_wire_first_and_names_who_sends_a_cause() -> None:
    run = FuzzRun("t.py:convert", "openai-chat-stream", "openai-chat-response", 100, 0, None)
    run.counterexamples = [_found(("index-0",)), _found()]
    text = render_fuzz(run)
    strict, shaped = text.index("== on the strict wire"), text.index("== needs index-0: sent by")
    assert (
        strict
        < text.index("FAIL one-to-one [lost]:")
        < shaped
        < text.index("FAIL one-to-one [lost], needs index-0")
    )
    assert "Mistral" in text[shaped:].splitlines()[0]
    assert "2 distinct findings: 1 on the strict wire, 1 needing a provider's shapes" in text
    data = json.loads(render_fuzz(run, "json"))
    assert (data["strict_wire"], data["provider_shapes"]) == (1, 1)
    assert [c["cause"] for c in data["counterexamples"]] == [["index-0"], []]
    assert "Mistral" in data["counterexamples"][0]["sent_by"]
    junit = render_fuzz(run, "junit")
    assert 'classname="toolwire.fuzz.needs.index-0" name="one-to-one:lost [index-0]"' in junit


def test_a_profile_nobody_is_recorded_sending_says_so() -> None:
    unsent = [name for name, quirk in QUIRKS.items() if not quirk.providers]
    assert senders(("index-0",))
    if unsent:
        assert senders((unsent[0],)) == []
