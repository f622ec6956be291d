"""Diagrams: diagrams/ is what the machines render to today, byte for byte."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from helpers import layout
from toolwire.engines import diagram, to_dot, to_mermaid
from toolwire.engines.exploring._diagram import render_diagrams
from toolwire.errors import UsageError
from toolwire.machines import MACHINES

DIAGRAMS = layout.ROOT / "diagrams"
STALE = "diagrams/ is out of date: run `toolwire diagram` and commit the result"


@pytest.mark.parametrize("name", sorted(MACHINES))
def test_committed_dot_and_mermaid_match_the_machines(name: str) -> None:
    item = diagram(name)
    assert (DIAGRAMS / f"{name}.dot").read_text() == to_dot(item), STALE
    assert (DIAGRAMS / f"{name}.mmd").read_text() == to_mermaid(item), STALE


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_committed_svgs_match_a_fresh_render(tmp_path: Path) -> None:
    render_diagrams(sorted(MACHINES), ["svg"], tmp_path)
    for name in MACHINES:
        fresh, committed = (tmp_path / f"{name}.svg").read_text(), (DIAGRAMS / f"{name}.svg").read_text()
        if fresh.splitlines()[:8] != committed.splitlines()[:8]:
            pytest.skip("another Graphviz version renders differently; DOT sources are compared above")
        assert fresh == committed, STALE


def test_rendering_twice_gives_the_same_bytes() -> None:
    item = diagram("ChatConversation")
    assert to_dot(item) == to_dot(diagram("ChatConversation"))
    assert "penwidth=2" in to_dot(item)  # idle and answered are accepting


def test_without_dot_svg_gives_an_install_hint(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(UsageError, match="apt-get install graphviz"):
        render_diagrams(["OutputItem"], ["svg"], tmp_path)
    assert render_diagrams(["OutputItem"], ["dot", "mermaid"], tmp_path)


def test_an_unknown_machine_lists_the_machines() -> None:
    with pytest.raises(UsageError, match="ResponseStream"):
        diagram("Responses")


def test_states_name_the_rules_their_illegal_events_break() -> None:
    dot, mermaid = to_dot(diagram("FunctionCallItem")), to_mermaid(diagram("FunctionCallItem"))
    assert '"absent" [label=<absent<BR/><FONT POINT-SIZE="9" COLOR="#a00000">other events: OR-3, RS-9b' in dot
    assert "    added: added, other events: RS-7d, RS-9a" in mermaid
    assert dict(diagram("ChatConversation").guards)["awaiting"] == ("CC-3", "CC-4", "CC-5c")


def test_counterexample_picture_highlights_the_bad_events(tmp_path: Path) -> None:
    from toolwire.cli import main
    from toolwire.engines import load_counterexample
    from toolwire.engines.exploring._diagram import counterexample_dot, counterexample_mermaid

    saved = DIAGRAMS / "counterexample-seed000.json"
    found = load_counterexample(saved)
    mermaid = counterexample_mermaid(found)
    assert (DIAGRAMS / "counterexample-seed000.mmd").read_text() == mermaid, STALE
    assert (DIAGRAMS / "counterexample-seed000.dot").read_text() == counterexample_dot(found), STALE
    # The two output_item.added events of one call are the ones boxed in red.
    boxed = [
        line for n, line in enumerate(mermaid.splitlines()) if mermaid.splitlines()[n - 1].endswith("214)")
    ]
    assert [line.split(": ")[1].split(" ")[0] for line in boxed][:2] == ["2", "3"]
    assert all("output_item" in line for line in boxed)
    assert main(["diagram", "--counterexample", str(saved), "--format", "dot", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "counterexample-seed000.dot").read_text() == counterexample_dot(found)
    assert main(["diagram", "OutputItem", "--counterexample", str(saved), "--out", str(tmp_path)]) == 2


def test_a_gateway_counterexample_is_drawn_as_its_legs_the_guilty_one_in_red(tmp_path: Path) -> None:
    from dataclasses import replace

    from toolwire.cli import main
    from toolwire.engines import load_counterexample
    from toolwire.engines.exploring._diagram import exchange_dot, exchange_legs, exchange_mermaid

    saved = DIAGRAMS / "counterexample-gateway.json"
    found = load_counterexample(saved)
    assert (DIAGRAMS / "counterexample-gateway.mmd").read_text() == exchange_mermaid(found), STALE
    assert (DIAGRAMS / "counterexample-gateway.dot").read_text() == exchange_dot(found), STALE
    legs = exchange_legs(found)
    # Two turns of four legs: client -> gateway -> mock -> gateway -> client.
    turn = [("C", "G"), ("G", "M"), ("M", "G"), ("G", "C")]
    assert [(leg.sender, leg.receiver) for leg in legs] == turn * 2
    assert legs[1].lines[0] == "POST /v1/chat/completions"
    # turn-2-crossed: the gateway's turn-2 upstream request shows it, each result under the other's id.
    assert [n for n, leg in enumerate(legs) if leg.bad] == [5]
    crossed = "tool call_moq9GsQN…: 'result of call call_IHDo5YtQ"
    assert any(line.startswith(crossed) for line in legs[5].lines)
    mermaid = exchange_mermaid(found).splitlines()
    assert mermaid[mermaid.index("    rect rgb(255, 214, 214)") + 1].startswith("    G->>M: POST")
    # A crash of turn 1 is the gateway's answer of turn 1.
    crash = replace(found, property="crashes", kind=None, message="turn 1: the gateway answered HTTP 500")
    assert [n for n, leg in enumerate(exchange_legs(crash)) if leg.bad] == [3]
    assert main(["diagram", "--counterexample", str(saved), "--format", "dot", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "counterexample-gateway.dot").read_text() == exchange_dot(found)


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_the_committed_gateway_counterexample_svg_matches_a_fresh_render(tmp_path: Path) -> None:
    from toolwire.engines import load_counterexample
    from toolwire.engines.exploring._diagram import render_counterexample

    found = load_counterexample(DIAGRAMS / "counterexample-gateway.json")
    render_counterexample(found, ["svg"], tmp_path, "counterexample-gateway")
    fresh = (tmp_path / "counterexample-gateway.svg").read_text()
    committed = (DIAGRAMS / "counterexample-gateway.svg").read_text()
    if fresh.splitlines()[:8] != committed.splitlines()[:8]:
        pytest.skip("another Graphviz version renders differently; DOT sources are compared above")
    assert fresh == committed, STALE
