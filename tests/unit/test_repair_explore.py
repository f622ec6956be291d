"""``explore --mutate`` on the repairer (``examples/toolwire_repair.py``), for every repairable protocol
explore has a state space and an ``intact`` relation for: within its bounds, every valid history and
every history each mutator (and each pair of them) damaged comes out valid, its intact pairs kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.layout import ROOT
from toolwire.cli import main
from toolwire.engines.repair import REPAIRABLE
from toolwire.protocols import EXPLORED, get_protocol

EXAMPLE = ROOT / "examples" / "toolwire_repair.py"
#: Each repairable protocol's repairer in the example, with the default policies.
REPAIRERS = {
    "openai-chat": "openai_chat",
    "openai-responses": "openai_responses",
    "anthropic-messages": "anthropic_messages",
    "bedrock-converse": "bedrock_converse",
    "gemini-contents": "gemini_contents",
    "mistral-chat": "mistral_chat",
    "aisdk-ui-messages": "aisdk_ui_messages",
    "aisdk-model-messages": "aisdk_model_messages",
    "otel-genai": "otel_genai",
}
EXPLORABLE = [p for p in REPAIRABLE if p in EXPLORED and get_protocol(p).intact is not None]
#: The bounds of each run, as the verdict prints them.
BOUNDS = "{calls: 2, turns: 2, names: 1, symmetry: true}"


def test_explore_mutate_reaches_every_repairable_protocol() -> None:
    assert set(EXPLORABLE) == set(REPAIRABLE) == set(REPAIRERS)


@pytest.mark.parametrize("protocol", EXPLORABLE)
def test_explore_mutate_on_the_repairer_holds_within_its_bounds(
    protocol: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = f"{EXAMPLE}:{REPAIRERS[protocol]}"
    argv = ["explore", target, "--from", protocol, "--to", protocol, "--calls", "2", "--turns", "2"]
    assert main([*argv, "--mutate", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"HOLDS within {BOUNDS}: every relation, on every valid trace" in out
