"""Counterexamples: keyword-only, read back whatever key older files used, and cheap to read."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolwire.engines import Counterexample, load_counterexample
from toolwire.engines.fuzzing._counterexample import file_name, save
from toolwire.errors import UsageError

FOUND = Counterexample(
    target="conv.py:f",
    source="openai-chat",
    destination="openai-chat",
    property="raises",
    message="ValueError: boom",
    input=[{"role": "user", "content": "hi"}],
    output=None,
)


def test_a_counterexample_is_built_from_named_fields_only() -> None:
    with pytest.raises(TypeError):
        Counterexample("conv.py:f", "openai-chat", "openai-chat", "raises", "m", [], None)  # type: ignore[misc]


def test_reading_a_counterexample_imports_no_hypothesis_nor_process_pool(tmp_path: Path) -> None:
    path = save(FOUND, tmp_path)
    code = (
        "import sys\n"
        "from toolwire.engines import Counterexample, load_counterexample\n"
        "from toolwire.engines.fuzzing._counterexample import load_counterexample as direct\n"
        f"assert load_counterexample({str(path)!r}).finding == 'raises'\n"
        "heavy = {'hypothesis', 'multiprocessing', 'concurrent.futures'} & set(sys.modules)\n"
        "print(sorted(heavy))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout


@pytest.mark.parametrize("key", ["mutate", "damaged", "damage", "lossy"])
def test_the_mutate_flag_is_written_as_mutate_and_read_under_any_older_key(key: str, tmp_path: Path) -> None:
    data = FOUND.to_json()
    assert data["mutate"] is False
    del data["mutate"]
    data[key] = True
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    assert load_counterexample(path).mutate is True


_FIELDS: dict[str, Any] = {
    "from": 1, "to": None, "target": 3, "property": [], "kind": {}, "message": 0,
    "quirks": 5, "mutate": "yes", "seed": "abc", "showing": 5, "output": "text",
}  # fmt: skip


@settings(max_examples=60)
@given(
    field=st.sampled_from(sorted(_FIELDS)),
    wrong=st.one_of(st.integers(), st.text(max_size=3), st.lists(st.booleans(), max_size=2), st.none()),
)
def test_a_field_of_the_wrong_type_is_a_usage_error_never_a_traceback(field: str, wrong: Any) -> None:
    import tempfile

    data = FOUND.to_json()
    data[field] = wrong
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bad.json"
        path.write_text(json.dumps(data))
        try:
            found = load_counterexample(path)
        except UsageError:
            return
    # What was accepted has the types a counterexample's fields promise.
    assert isinstance(found.seed, int) and isinstance(found.mutate, bool)
    assert found.output is None or all(isinstance(event, dict) for event in found.output)


@pytest.mark.parametrize("events", [[1], ["a"], [[]], [None]])
def test_input_events_that_are_not_objects_are_a_usage_error(events: list[Any], tmp_path: Path) -> None:
    data = FOUND.to_json() | {"input": events}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(UsageError, match="not a JSON object"):
        load_counterexample(path)


def test_two_targets_of_one_name_in_two_folders_get_two_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    names = {
        file_name(Counterexample(**{**_kwargs(FOUND), "target": t})) for t in ("a/conv.py:f", "b/conv.py:f")
    }
    assert len(names) == 2


def _kwargs(found: Counterexample) -> dict[str, Any]:
    return {name: getattr(found, name) for name in Counterexample.__dataclass_fields__}
