"""Shape features: what a recording shows, and generators that produce what real providers send."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from toolwire.cli import main
from toolwire.engines._shapes import learned
from toolwire.properties import traces
from toolwire.properties._shapes import shapes_of

TRAFFIC = Path(__file__).parent / "data" / "traffic"
REPEATED_IDS = TRAFFIC / "simonw__llm" / "openai-chat-stream" / "test_tools_streaming_variant_a.i1.sse"


def test_shapes_names_a_recordings_features_and_the_quirk_profiles_they_match(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["shapes", str(REPEATED_IDS), "-p", "openai-chat-stream", "--format", "json"]) == 0
    (report,) = json.loads(capsys.readouterr().out)["reports"]
    names = {feature["name"] for feature in report["features"]}
    assert {"first-fragment-arguments-empty", "continuation-repeats-id", "done-sentinel"} <= names
    assert report["quirks"] == ["repeated-ids"]


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
    assert quirks == ["repeated-ids"]


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
