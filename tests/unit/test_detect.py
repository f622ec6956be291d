"""Protocol detection: ``toolwire check FILE`` without ``-p``."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import toy_protocol as toy
from helpers.recordings import DATA, TRAFFIC
from toolwire.cli import main
from toolwire.engines._core._detect import detect, detect_file, is_document
from toolwire.models import read_frames
from toolwire.protocols import PROTOCOLS, register, unregister

MANIFEST = tomllib.loads((TRAFFIC / "manifest.toml").read_text())["trace"]


def _frames(entry: dict[str, Any]) -> list[Any]:
    with (TRAFFIC / entry["file"]).open("rb") as handle:
        return list(read_frames(handle, lambda *_: None, entry["input_format"]))


def _document(entry: dict[str, Any]) -> bool:
    return is_document((TRAFFIC / entry["file"]).read_bytes()[:64], entry["input_format"])


def test_real_traffic_is_detected_as_the_protocol_it_is_checked_with() -> None:
    """Content alone: each trace is its protocol, or (a variant: Mistral) the protocol it varies."""
    wrong = {}
    for entry in (e for e in MANIFEST if e["protocol"]):
        spec = PROTOCOLS[entry["protocol"]]
        found = detect(_frames(entry), document=_document(entry)).protocol
        if found not in (spec.name, spec.variant_of):
            wrong[entry["file"]] = found
    assert wrong == {}


def test_a_response_body_is_never_taken_for_a_request() -> None:
    requests = {e["protocol"] for e in MANIFEST if e["body"] == "request"}
    bodies = [e for e in MANIFEST if e["body"] == "response"]
    assert len(bodies) >= 442
    found = {detect(_frames(e), side="response").protocol for e in bodies}
    assert not found & requests


#: The kind of each recorded response body (its folder in tests/data/traffic) is its protocol.
BODIES = [e for e in MANIFEST if e["body"] == "response"]


def test_every_recorded_response_body_is_detected_as_its_own_kind() -> None:
    wrong = {}
    for entry in BODIES:
        kind = entry["file"].split("/")[1]
        found = detect(_frames(entry), document=_document(entry)).protocol
        if found != kind:
            wrong[entry["file"]] = found
    assert wrong == {}


def test_an_endpoint_names_the_variant_content_cannot() -> None:
    entry = next(e for e in MANIFEST if e["protocol"] == "mistral-chat")
    assert detect(_frames(entry)).protocol == "openai-chat"
    assert detect(_frames(entry), "api.mistral.ai/v1/chat/completions").protocol == "mistral-chat"
    assert detect(_frames(entry), "api.openai.com/v1/chat/completions").protocol == "openai-chat"


def test_check_says_what_it_detected_and_judges_as_with_p(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    entry = next(e for e in MANIFEST if e["protocol"] == "anthropic-stream")
    path = TRAFFIC / entry["file"]
    assert main(["check", str(path)]) == main(["check", str(path), "-p", "anthropic-stream"])
    out = capsys.readouterr().out
    assert f"{path}: detected anthropic-stream\n" in out
    assert main(["check", str(path), "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["reports"][0]["protocol"] == "anthropic-stream"
    assert "detected anthropic-stream" in captured.err


def test_ambiguity_is_exit_2_listing_the_candidates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "plain.json"
    path.write_text(json.dumps({"messages": [{"role": "user", "content": "Hi"}]}))
    assert main(["check", str(path)]) == 2
    out = capsys.readouterr().out
    # A user message alone is valid in several request protocols (the AI SDK's model messages too).
    assert "ambiguous: it reads as openai-chat, anthropic-messages, " in out
    assert "; choose one with -p" in out
    assert main(["check", str(path), "-p", "anthropic-messages"]) == 0


def test_nothing_recognised_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "other.jsonl"
    path.write_text('{"hello": 1}\n{"hello": 2}\n')
    assert main(["check", str(path)]) == 2
    assert "no registered protocol recognises this traffic; name one with -p" in capsys.readouterr().out


def test_standard_input_is_detected_too() -> None:
    path = DATA / "mistral-chat-stream" / "mi3-null-id.sse"
    result = subprocess.run(
        [sys.executable, "-m", "toolwire", "check", "-"],
        input=path.read_bytes(),
        capture_output=True,
        check=False,
    )
    assert result.returncode == 1
    assert result.stdout.decode().startswith("-: detected openai-chat-stream\n")
    cassette = (DATA / "recordings" / "crewai-anthropic-gzip.yaml").read_bytes()
    result = subprocess.run(
        [sys.executable, "-m", "toolwire", "check", "-"], input=cassette, capture_output=True, check=False
    )
    assert result.returncode == 0
    said = "-#1 request: anthropic-messages, 1 messages, 0 calls and 0 results checked: clean"
    assert said in result.stdout.decode()


@pytest.fixture
def toy_registered() -> Iterator[None]:
    register(toy.FAMILY)
    yield
    unregister(toy.FAMILY.name)


def test_a_registered_protocol_is_detected_by_its_own_descriptor(
    toy_registered: None, tmp_path: Path
) -> None:
    path = tmp_path / "toy.jsonl"
    events = [{"op": "call", "id": "c1", "tool": "f", "args": {}}, {"op": "result", "id": "c1", "value": 1}]
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    assert detect_file(path).protocol == toy.TOY
