"""The mitmproxy addon's options, set as mitmproxy sets them (no mitmproxy needed: its loader and
options are stood in for; tests/integration/mitmproxy runs the addon inside a real mitmdump)."""

from __future__ import annotations

import io
import json
from types import SimpleNamespace
from typing import Any

import pytest

from toolwire.engines import LiveFinding
from toolwire.mitmproxy_addon import ToolwireAddon
from toolwire.properties import Finding


class _Loader:
    """What mitmproxy's loader does with ``add_option``: each option, at its default."""

    def __init__(self) -> None:
        self.master = SimpleNamespace(options=SimpleNamespace())

    def add_option(self, name: str, kind: type, default: Any, help: str) -> None:
        assert isinstance(default, kind) and help
        setattr(self.master.options, name, default)


def _warning() -> LiveFinding:
    finding = Finding("RS-8b", "warning", "sequence_number went back", 3, 4, "fix")
    return LiveFinding(
        engine="proxy",
        exchange=1,
        time=0.0,
        method="POST",
        endpoint="/v1/responses",
        side="response",
        protocol="openai-responses-stream",
        finding=finding,
    )


def _run(strict: bool | None, fmt: str = "text") -> str:
    addon = ToolwireAddon()
    loader = _Loader()
    addon.load(loader)
    updated = {"toolwire_format"}
    loader.master.options.toolwire_format = fmt
    if strict is not None:
        loader.master.options.toolwire_strict = strict
        updated.add("toolwire_strict")
    addon.configure(updated)
    out = io.StringIO()
    addon._outputs.stream = out
    addon._tell(_warning())
    addon.done()
    return out.getvalue()


@pytest.mark.parametrize("strict", [None, False])
def test_a_warning_leaves_the_run_clean_without_toolwire_strict(strict: bool | None) -> None:
    assert _run(strict).splitlines()[-1].endswith(": clean")


def test_toolwire_strict_fails_the_run_on_a_warning_and_says_why() -> None:
    assert _run(True).splitlines()[-1].endswith(": warnings (failing: --strict)")
    summary = json.loads(_run(True, "json").splitlines()[-1])["summary"]
    assert summary["exit_code"] == 1 and summary["strict"] is True
