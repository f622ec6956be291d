"""``toolwire ids``: one id judged by every protocol's own rules."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from toolwire.engines import check_id, id_shape
from toolwire.errors import UsageError

ADK = "adk-5d3f1c2a-8b7e-4f6d-9a0b-1c2d3e4f5a6b"


def verdicts(value: str, *protocols: str) -> dict[str, set[str]]:
    return {v.protocol: {f.rule for f in v.findings} for v in check_id(value, protocols or None)}


def test_an_adk_fallback_id_fits_openai_and_anthropic_and_breaks_mistral_v11() -> None:
    result = verdicts(ADK)
    assert result["openai-chat"] == result["anthropic-messages"] == set()
    assert result["mistral-chat[v11]"] == {"MI-1"}
    assert result["mistral-chat[v13]"] == set()
    assert result["gemini-contents"] == {"ADK-2"}
    assert id_shape(ADK) is not None and "ADK" in id_shape(ADK)  # type: ignore[operator]


def test_a_kimi_id_passes_bedrock_and_breaks_anthropic() -> None:
    assert verdicts("functions.Bash:0", "anthropic-messages", "bedrock-converse") == {
        "anthropic-messages": {"AN-1"},
        "bedrock-converse": set(),
    }


def test_a_responses_item_id_breaks_the_chat_completions_length_limit() -> None:
    item = "fc_" + "0" * 48
    assert verdicts(item, "openai-chat")["openai-chat"] == {"CC-1", "CC-1b"}


def test_nine_alphanumerics_are_valid_everywhere() -> None:
    assert all(not rules for rules in verdicts("D681PevKs").values())


def test_a_protocol_without_call_ids_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="no call ids"):
        check_id("x", ["openai-chat-stream"])


def test_the_cli_exits_1_when_a_protocol_rejects_the_id_and_prints_json() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "toolwire", "ids", "call 1", "--for", "bedrock-converse", "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1
    document = json.loads(run.stdout)
    assert [f["rule"] for f in document["verdicts"][0]["findings"]] == ["BR-1", "BR-1"]
