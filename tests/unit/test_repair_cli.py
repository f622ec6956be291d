"""``toolwire repair`` as its interface says: the body out, the changes on stderr or in JSON, exit 0/1/2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.layout import DATA

BROKEN = {
    "model": "gpt-4o",
    "messages": [
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "get", "arguments": "{}"}}
            ],
        },
        {"role": "user", "content": "stop"},
        {"role": "tool", "tool_call_id": "call_9", "content": "Transfer completed, transaction 123"},
    ],
}


def _toolwire(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "toolwire", "repair", *args], input=stdin, capture_output=True, check=False
    )


def test_a_clean_history_comes_out_byte_for_byte_with_exit_0() -> None:
    path = DATA / "openai-chat" / "after-body-calls-merged.json"
    done = _toolwire(str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout == path.read_bytes()
    assert b"nothing to repair" in done.stderr


def test_a_broken_history_is_repaired_with_exit_1_and_each_change_said(tmp_path: Path) -> None:
    path = tmp_path / "body.json"
    path.write_text(json.dumps(BROKEN))
    done = _toolwire(str(path), "-p", "openai-chat")
    assert done.returncode == 1, done.stderr
    body = json.loads(done.stdout)
    assert body["model"] == "gpt-4o"  # a whole request body stays a whole body
    roles = [m["role"] for m in body["messages"]]
    assert roles == ["user", "assistant", "tool", "user", "user"]
    assert "Transfer completed, transaction 123" in body["messages"][-1]["content"]  # nothing lost
    err = done.stderr.decode()
    assert "CC-4 answer" in err and "CC-3 note" in err
    import toolwire

    assert toolwire.check(body, "openai-chat").exit_code == 0


def test_json_output_has_history_changes_and_exit_code_and_out_gets_the_body(tmp_path: Path) -> None:
    path, out = tmp_path / "body.json", tmp_path / "fixed.json"
    path.write_text(json.dumps(BROKEN))
    done = _toolwire(str(path), "--format", "json", "--out", str(out), "--for", "mistral")
    assert done.returncode == 1, done.stderr
    result = json.loads(done.stdout)
    assert {"history", "changes", "exit_code"} <= set(result) and result["exit_code"] == 1
    assert {"rule", "path", "action", "before", "after"} <= set(result["changes"][0])
    assert json.loads(out.read_text()) == result["history"]
    ids = [c["id"] for m in result["history"]["messages"] for c in m.get("tool_calls", ())]
    assert all(len(i) == 9 and i.isalnum() for i in ids)  # Mistral's nine-character ids


def test_standard_input_is_read() -> None:
    done = _toolwire("-", "-p", "openai-chat", stdin=json.dumps(BROKEN).encode())
    assert done.returncode == 1, done.stderr


def test_the_policies_drop_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "body.json"
    path.write_text(json.dumps(BROKEN))
    done = _toolwire(str(path), "-p", "openai-chat", "--orphan-results", "drop", "--unanswered-calls", "drop")
    assert done.returncode == 1, done.stderr
    body = json.loads(done.stdout)
    assert all(m["role"] != "tool" for m in body["messages"])
    assert "Transfer completed" not in json.dumps(body)


@pytest.mark.parametrize(
    "args",
    [["missing.json"], ["{}", "--for", "nobody"], ["{}", "--orphan-results", "keep"], ["{}", "-p", "nope"]],
)
def test_bad_input_or_usage_is_exit_2_without_a_traceback(tmp_path: Path, args: list[str]) -> None:
    path = tmp_path / "body.json"
    path.write_text(json.dumps(BROKEN))
    args = [str(path) if a == "{}" else str(tmp_path / a) if a == "missing.json" else a for a in args]
    done = _toolwire(*args)
    assert done.returncode == 2
    assert b"Traceback" not in done.stderr
