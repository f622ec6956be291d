"""``toolwire check -p P`` imports P's family alone: the registry's index, and what a check loads."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from helpers.corpus import DATA
from toolwire.protocols import _registry

#: Each test starts a Python subprocess to see what it imports: left out of a plain pytest (make test
#: runs them).
pytestmark = pytest.mark.slow


def test_the_index_names_each_family_with_its_protocols_in_order() -> None:
    families = {f.name: f for f in _registry.FAMILIES}
    indexed = [(module, importlib.import_module(module).FAMILY) for module in _registry.INDEX]
    # Every family of toolwire's own is indexed (registered ones come after), in the registry's order.
    assert [family for _, family in indexed] == _registry.FAMILIES[: len(indexed)]
    for module, family in indexed:
        assert families[family.name] is family
        assert _registry.INDEX[module] == tuple(p.name for p in family.protocols), f"update INDEX[{module!r}]"
    assert _registry.protocol_names() == list(_registry.PROTOCOLS)


def _loaded_after(code: str) -> list[str]:
    """The family packages a fresh interpreter has imported after running ``code``."""
    probe = (
        f"{code}\n"
        "import sys\n"
        f"families = {list(_registry.INDEX)!r}\n"
        "print(sorted(m for m in families if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return [name.strip(" '") for name in out.strip().strip("[]").split(",") if name.strip()]


@pytest.mark.parametrize(
    "protocol", ["openai-responses-stream", "anthropic-stream", "gemini-contents", "mcp"]
)
def test_check_with_a_protocol_imports_its_family_alone(protocol: str) -> None:
    home = next(module for module, names in _registry.INDEX.items() if protocol in names)
    # A trace of the protocol: one of another (or of none) is named by what it looks like, and
    # telling that imports every family.
    trace = min((DATA / protocol).iterdir())
    code = (
        "import contextlib, io\n"
        "from toolwire.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['check', {str(trace)!r}, '-p', {protocol!r}])\n"
    )
    assert _loaded_after(code) == [home]


def test_import_toolwire_imports_no_family_and_no_engine() -> None:
    code = "import toolwire\nimport sys\nassert 'toolwire.engines' not in sys.modules, 'engines imported'"
    assert _loaded_after(code) == []


def test_reading_a_table_imports_every_family() -> None:
    # Detection, ``toolwire protocols`` and ``rules`` read the tables: they need every family.
    assert _loaded_after("import toolwire\nlen(toolwire.PROTOCOLS)") == sorted(_registry.INDEX)


#: What a plain ``check`` of a short trace must not import: the command line's parser and its locale
#: machinery, pathlib, msgspec (typed decoding pays on long traces), the decoders of compressed
#: and base64 bodies, other families' wires.
NOT_ON_CHECKS_PATH = (
    "argparse", "locale", "shutil", "pathlib", "gzip", "base64", "msgspec", "toolwire.cli._arguments",
    "toolwire.models._gemini", "toolwire.engines.checking._exchanges",
)  # fmt: skip


def test_a_plain_check_imports_no_parser_and_no_other_wire() -> None:
    trace = DATA / "openai-responses-stream" / "good-parallel-same-tool.jsonl"
    probe = (
        "import contextlib, io, sys\n"
        "from toolwire.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['check', {str(trace)!r}, '-p', 'openai-responses-stream'])\n"
        f"print(sorted(m for m in {NOT_ON_CHECKS_PATH!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
