"""Shape features: what a recording shows, and generators that produce what real providers send."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from helpers import layout
from toolwire.cli import main
from toolwire.engines.checking._shapes import learned
from toolwire.protocols import traces
from toolwire.protocols._shapes import shapes_of

TRAFFIC = layout.DATA / "traffic"
REPEATED_IDS = TRAFFIC / "simonw__llm" / "openai-chat-stream" / "test_tools_streaming_variant_a.i1.sse"


def test_shapes_names_a_recordings_features_and_the_quirk_profiles_they_match(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["shapes", str(REPEATED_IDS), "-p", "openai-chat-stream", "--format", "json"]) == 0
    (report,) = json.loads(capsys.readouterr().out)["reports"]
    names = {feature["name"] for feature in report["features"]}
    assert {"first-fragment-arguments-empty", "continuation-repeats-id", "done-sentinel"} <= names
    assert report["quirks"] == ["repeated-ids", "omitted-finish-reason"]


def test_shapes_reads_each_request_body_of_a_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    call = {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    bodies = [
        {"messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]},
        {
            "messages": [
                {"role": "assistant", "tool_calls": [call]},
                {"role": "tool", "tool_call_id": "call_1"},
            ]
        },
    ]
    log = tmp_path / "requests.jsonl"
    log.write_text("".join(json.dumps(body) + "\n" for body in bodies))
    assert main(["shapes", str(log), "-p", "openai-chat"]) == 0
    out = capsys.readouterr().out
    assert "2 traces" in out
    for feature in ("system-message", "content-omitted-with-calls", "empty-tool-content", "empty-arguments"):
        assert feature in out


def test_like_learns_the_features_and_quirk_profiles_of_a_recording() -> None:
    features, quirks = learned([REPEATED_IDS], "openai-chat-stream")
    assert "continuation-repeats-id" in features
    assert "several-calls" not in features
    assert quirks == ["repeated-ids", "omitted-finish-reason"]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(traces("openai-chat-stream", "repeated-ids", like=learned([REPEATED_IDS], "openai-chat-stream")[0]))
def test_traffic_shaped_like_a_one_call_recording_has_one_call_at_most(trace: list[Any]) -> None:
    shown = shapes_of(trace, "openai-chat-stream")
    assert "several-calls" not in shown
    assert "interleaved-fragments" not in shown


def test_an_unknown_feature_is_a_usage_error() -> None:
    from toolwire.errors import UsageError

    with pytest.raises(UsageError, match="no shape features"):
        traces("openai-chat-stream", like=["no-such-feature"])


# --- the generators against the real corpus -------------------------------------------------------

import collections  # noqa: E402
import tomllib  # noqa: E402
from functools import cache  # noqa: E402

from hypothesis import Phase  # noqa: E402

from toolwire.models import DONE, read_frames  # noqa: E402
from toolwire.protocols import PROTOCOLS, quirks_for  # noqa: E402

MANIFEST = [
    # A response body's folder names its protocol (the manifest leaves it blank).
    t | {"protocol": t["protocol"] or t["file"].split("/")[1]} if t.get("body") == "response" else t
    for t in tomllib.loads((TRAFFIC / "manifest.toml").read_text())["trace"]
]
#: Features of the recording, not of the events: no generator of JSON events can show them.
FRAMING = {"done-sentinel"}
SAMPLES = 300
CATALOGUED = [
    name for name, spec in PROTOCOLS.items() if spec.shapes is not None and spec.generator is not None
]


def _real_trace(entry: dict[str, Any]) -> list[Any]:
    with (TRAFFIC / entry["file"]).open("rb") as handle:
        values = [v for _, v, _ in read_frames(handle, lambda *_: None, entry["input_format"])]
    container = PROTOCOLS[entry["protocol"]].container
    if container and len(values) == 1 and isinstance(values[0], dict) and container in values[0]:
        return list(values[0][container])
    return values


@cache
def real_features(protocol: str) -> frozenset[str]:
    """Every feature the recorded traffic of ``protocol`` shows."""
    found: set[str] = set()
    for entry in MANIFEST:
        if entry["protocol"] == protocol:
            found |= shapes_of(_real_trace(entry), protocol)
    return frozenset(found - FRAMING)


@cache
def generated(
    protocol: str, quirk: str | None = None, swarm: bool = False, swarm_quirks: bool = False
) -> dict[str, float]:
    """The share of generated traces that show each feature (``swarm``, ``swarm_quirks``: as campaigns
    draw them)."""
    counts: collections.Counter[str] = collections.Counter()
    total = [0]

    @settings(
        max_examples=SAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        phases=(Phase.generate,),
        suppress_health_check=list(HealthCheck),
    )
    @given(traces(protocol, quirk, swarm=swarm, swarm_quirks=swarm_quirks))
    def draw(trace: list[Any]) -> None:
        total[0] += 1
        counts.update(shapes_of([e for e in trace if e is not DONE], protocol))

    draw()
    return {feature: count / total[0] for feature, count in counts.items()}


@pytest.mark.slow
@pytest.mark.parametrize("protocol", CATALOGUED)
def test_the_generators_produce_every_shape_real_traffic_shows(protocol: str) -> None:
    """Each real feature comes up in at least 1% of default traces, or under a named quirk profile."""
    uncovered = []
    for feature in sorted(real_features(protocol)):
        if generated(protocol).get(feature, 0.0) >= 0.01:
            continue
        # Some shapes come only when a campaign's swarm switches them on (Azure's prompt-filter chunk);
        # a rare one counts when plain and swarmed draws together show it three times.
        swarmed = generated(protocol, swarm=True).get(feature, 0.0)
        if swarmed >= 0.01 or (generated(protocol).get(feature, 0.0) + swarmed) * SAMPLES >= 3:
            continue
        if not any(generated(protocol, quirk).get(feature, 0.0) >= 0.01 for quirk in quirks_for(protocol)):
            uncovered.append(feature)
    assert uncovered == []


@pytest.mark.slow
@pytest.mark.parametrize("protocol", CATALOGUED)
def test_the_generators_produce_no_shape_that_no_provider_sends(protocol: str) -> None:
    """Realism: every generated feature is in the real corpus, or its catalogue entry names a source."""
    shapes = PROTOCOLS[protocol].shapes
    assert shapes is not None
    catalogue = shapes.catalogue()
    produced = set(generated(protocol)) | {f for q in quirks_for(protocol) for f in generated(protocol, q)}
    unreal = sorted(f for f in produced if f not in real_features(protocol) and not catalogue[f].documented)
    assert unreal == []


# --- this year's features (issue 29): drawn by default, clean, carried by converters ----------------

import toolwire  # noqa: E402
from toolwire.engines import fuzz  # noqa: E402

#: Per protocol, the shape features of this year's tool-call features the generators draw.
NEW_FEATURES = {
    "gemini-stream": (
        "partial-arguments",
        "nested-partial-arguments",
        "partial-string-continued",
        "streamed-call-without-terminal",
        "vertex-chunks",
    ),
    "anthropic-stream": (
        "programmatic-tool-call",
        "web-search-tool-result",
        "tool-search-tool-result",
        "code-execution-tool-result",
        "container-field",
    ),
    "openai-responses-stream": ("tool-search-item", "mcp-call-item"),
}
NEW = [(protocol, feature) for protocol, features in NEW_FEATURES.items() for feature in features]


@pytest.mark.parametrize(("protocol", "feature"), NEW, ids=[f"{p}-{f}" for p, f in NEW])
def test_every_generated_trace_with_a_new_feature_checks_clean(protocol: str, feature: str) -> None:
    """No error, warning or problem: the feature is modelled, not merely passed over."""
    shown = [0]

    # Derandomized: the count of draws that show the feature is the same on every run and machine.
    @settings(
        max_examples=120,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(traces(protocol, like=[feature, "several-calls"]))
    def clean(trace: list[Any]) -> None:
        if feature not in shapes_of(trace, protocol):
            return
        shown[0] += 1
        report = toolwire.check(trace, protocol)
        assert not report.problems
        assert [(f.rule, f.severity) for f in report.findings] == []

    clean()
    assert shown[0] >= 5


@pytest.mark.parametrize(("protocol", "feature"), NEW, ids=[f"{p}-{f}" for p, f in NEW])
def test_a_default_campaign_draws_each_new_feature(protocol: str, feature: str) -> None:
    """At least one input in fifty shows it: a campaign of a few hundred examples exercises it."""
    assert generated(protocol, swarm=True, swarm_quirks=True).get(feature, 0.0) >= 0.02


#: Converters that drop what this year's features carry, each with its fixed twin: (target, from,
#: to, the findings a default campaign must report).
CARRIERS = [
    (
        "streamed_gemini_to_chat_stream.py",
        "gemini-stream",
        "openai-chat-stream",
        {"arguments:changed"},
    ),
    (
        "server_tools_anthropic_to_chat_stream.py:invents",
        "anthropic-stream",
        "openai-chat-stream",
        {"one-to-one:invented"},
    ),
    (
        "server_tools_anthropic_to_chat_stream.py:loses_input",
        "anthropic-stream",
        "openai-chat-stream",
        {"arguments:changed"},
    ),
    (
        "hosted_tools_responses_to_chat_stream.py",
        "openai-responses-stream",
        "openai-chat-stream",
        {"one-to-one:invented"},
    ),
]
EXAMPLES = layout.ROOT / "examples"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("example", "source", "destination", "planted"), CARRIERS, ids=[c[0].replace(".py", "") for c in CARRIERS]
)
def test_a_default_campaign_finds_a_converter_that_drops_a_new_feature(
    example: str, source: str, destination: str, planted: set[str]
) -> None:
    file, _, function = example.partition(":")
    path = EXAMPLES / file
    run = fuzz(f"{path}:{function or 'convert'}", source, destination, max_examples=300, seed=0, out=None)
    assert planted <= {c.finding for c in run.counterexamples}
    assert (
        fuzz(f"{path}:fixed", source, destination, max_examples=300, seed=0, out=None).counterexamples == []
    )


DATA = layout.DATA


@pytest.mark.parametrize(
    ("recording", "protocol", "feature"),
    [
        ("gemini-stream/good-streamed-args.sse", "gemini-stream", "partial-arguments"),
        ("gemini-stream/good-streamed-args-vertex.json", "gemini-stream", "vertex-chunks"),
        ("anthropic-stream/good-programmatic-tool-calls.sse", "anthropic-stream", "programmatic-tool-call"),
        ("openai-responses-stream/good-tool-search.sse", "openai-responses-stream", "tool-search-item"),
    ],
)
def test_traffic_like_a_recording_of_a_new_feature_shows_it(
    recording: str, protocol: str, feature: str
) -> None:
    features, _ = learned([DATA / recording], protocol)
    assert feature in features

    @settings(max_examples=30, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(traces(protocol, like=features))
    def shaped(trace: list[Any]) -> None:
        # A turn without calls (or, for Gemini, whose calls have no arguments to stream) cannot show it.
        shown = shapes_of(trace, protocol)
        assert feature in shown or "no-calls" in shown or "empty-arguments" in shown

    shaped()
