"""Severity from evidence (issue 38), Bedrock ConverseStream: real consumers fed each BR-9 trace.

The sibling of test_consumer_evidence.py for ``bedrock-converse-stream``: each trace of
tests/helpers/violating.py (cut from ``bedrock_stream``) is encoded as the AWS event stream Bedrock
sends and fed to pydantic-ai's BedrockConverseModel (botocore 1.44.8 parses it: the HTTP layer is a
``before-send`` hook) and, where ``npm ci --prefix tests/sdk`` was run, @ai-sdk/amazon-bedrock.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import toolwire
from helpers import consumers, violating
from helpers import consumers_native as native
from helpers.consumers import Seen
from toolwire.protocols import RULES

pytestmark = pytest.mark.slow

PARIS, LYON = '{"city":"Paris"}', '{"city":"Lyon"}'
CALLS = [("tooluse_1", "get_weather", PARIS), ("tooluse_2", "get_weather", LYON)]


def _flagged(tmp_path: Path, body: bytes) -> dict[str, str]:
    path = tmp_path / "trace.eventstream"
    path.write_bytes(body)
    return {f.rule: f.severity for f in toolwire.check_file(path, "bedrock-converse-stream").findings}


def _ai_sdk(body: bytes) -> Seen:
    if reason := consumers.node_missing():
        pytest.skip(reason)
    return native.ai_sdk_bedrock(body)


def test_both_consumers_hand_over_both_calls_of_the_well_formed_stream(tmp_path: Path) -> None:
    body = native.eventstream(violating.bedrock_stream())
    assert _flagged(tmp_path, body) == {}
    assert native.pydantic_ai_bedrock(body).calls == CALLS
    assert _ai_sdk(body).calls == CALLS


@pytest.mark.parametrize(
    ("trace", "flagged"),
    [
        (violating.br9b_index_reused, {"BR-9b": "error"}),
        (violating.br9c_block_never_stopped, {"BR-9c": "error"}),
        # The late fragment is missing at the block's stop: its input is cut there (BR-9d).
        (violating.br9c_delta_after_stop, {"BR-9c": "error", "BR-9d": "error"}),
        (violating.br9e_stop_reason_end_turn, {"BR-9e": "warning"}),
    ],
)
def test_each_bedrock_trace_breaks_its_rule(tmp_path: Path, trace: Any, flagged: dict[str, str]) -> None:
    assert _flagged(tmp_path, native.eventstream(trace())) == flagged
    assert {rule: RULES[rule].severity for rule in flagged} == flagged


def test_a_reused_block_index_merges_both_calls_in_pydantic_ai() -> None:
    body = native.eventstream(violating.br9b_index_reused())
    merged = json.dumps({"INVALID_JSON": PARIS + LYON}, separators=(",", ":"))
    assert native.pydantic_ai_bedrock(body).calls == [("tooluse_2", "get_weatherget_weather", merged)]
    assert _ai_sdk(body).calls == CALLS


def test_a_block_never_stopped_is_lost_to_the_ai_sdk() -> None:
    body = native.eventstream(violating.br9c_block_never_stopped())
    assert native.pydantic_ai_bedrock(body).calls == CALLS
    seen = _ai_sdk(body)
    assert seen.streamed["tooluse_1"] == ['{"city":', '"Paris"}']
    assert seen.calls == CALLS[1:]


def test_a_fragment_after_its_block_stopped_ends_pydantic_ai_and_cuts_the_ai_sdk_call() -> None:
    body = native.eventstream(violating.br9c_delta_after_stop())
    seen = native.pydantic_ai_bedrock(body)
    assert (seen.calls, seen.error) == ([], "KeyError: 0")
    assert _ai_sdk(body).calls == [("tooluse_1", "get_weather", '{"city":'), CALLS[1]]


def test_calls_stopping_end_turn_are_handed_over_by_both() -> None:
    body = native.eventstream(violating.br9e_stop_reason_end_turn())
    assert native.pydantic_ai_bedrock(body).calls == CALLS
    assert _ai_sdk(body).calls == CALLS
