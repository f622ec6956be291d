"""``toolwire repair``'s file pieces (``engines/repair/_files.py``) on input that is valid JSON but
hard to write or read: a file that is not UTF-8, integers past 64 bits, JSON Lines of request
bodies whose remapped ids meet. Each is a clear usage error (exit 2, the file named) or simply
works: never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from toolwire.engines._core._json import dumps, redacted
from toolwire.engines.repair import read_body, repair_body, repair_path
from toolwire.errors import UsageError

#: An integer JSON allows and orjson will not write (past 64 bits).
BIG = 123456789012345678901234567890
#: A result whose call is not in the history, its content holding such an integer.
BIG_ORPHAN = {
    "model": "gpt-4o",
    "seed": BIG,
    "messages": [
        {"role": "user", "content": "hi"},
        {"role": "tool", "tool_call_id": "call_9", "content": [{"type": "text", "text": "x", "n": BIG}]},
    ],
}


def _toolwire(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "toolwire", *args], capture_output=True, check=False)


def _latin1(tmp_path: Path) -> Path:
    path = tmp_path / "latin1.json"
    path.write_bytes('[{"role":"user","content":"h\xe9llo"}]'.encode("latin-1"))
    return path


def test_a_file_that_is_not_utf8_is_a_usage_error_naming_the_file_and_the_byte(tmp_path: Path) -> None:
    path = _latin1(tmp_path)
    with pytest.raises(UsageError, match=r"latin1\.json is not UTF-8 \(byte 0xe9 at offset 28\)"):
        read_body(path, "openai-chat")
    for args in (["repair", str(path)], ["repair", str(path), "-p", "openai-chat", "--format", "json"]):
        done = _toolwire(*args)
        assert done.returncode == 2, done.stderr
        assert b"Traceback" not in done.stderr
        assert b"latin1.json is not UTF-8" in done.stderr and done.stdout == b""


def test_check_says_a_file_that_is_not_utf8_is_unreadable_without_a_traceback(tmp_path: Path) -> None:
    done = _toolwire("check", str(_latin1(tmp_path)), "-p", "openai-chat")
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    assert b"not valid UTF-8 (byte 0xe9" in done.stdout


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_an_integer_past_64_bits_is_repaired_and_written_whole(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "big.json"
    path.write_text(json.dumps(BIG_ORPHAN))
    done = _toolwire("repair", str(path), "--format", fmt)
    assert done.returncode == 1, done.stderr
    assert b"Traceback" not in done.stderr
    out = json.loads(done.stdout)
    body = out["history"] if fmt == "json" else out
    assert body["seed"] == BIG and str(BIG) in body["messages"][1]["content"]
    if fmt == "json":
        assert out["changes"][0]["before"] == [{"type": "text", "text": "x", "n": BIG}]
    else:  # the change's line shows the orphan's content, its integer whole
        assert f'before: [{{"type":"text","text":"x","n":{BIG}}}]'.encode() in done.stderr


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_check_reads_an_integer_past_64_bits_without_a_traceback(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "big.json"
    path.write_text(json.dumps(BIG_ORPHAN))
    done = _toolwire("check", str(path), "--format", fmt)
    assert done.returncode == 1, done.stderr
    assert b"Traceback" not in done.stderr


def test_json_is_written_by_orjson_or_by_the_standard_library_where_orjson_refuses() -> None:
    assert dumps({"a": [1, "é"]}) == '{"a":[1,"é"]}'.encode()
    assert dumps({"n": BIG}) == f'{{"n":{BIG}}}'.encode()
    assert dumps({"n": BIG}, indent=True) == f'{{\n  "n": {BIG}\n}}'.encode()
    assert json.loads(dumps({"a": [1]}, indent=True)) == {"a": [1]}
    assert redacted({"n": BIG, "k": "sk-" + "a" * 40}) == {"n": BIG, "k": "[REDACTED]"}
    assert redacted(None) is None


def _body(ident: str) -> dict[str, Any]:
    call = {"id": ident, "type": "function", "function": {"name": "f", "arguments": "{}"}}
    return {
        "model": "m",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "tool_calls": [call]},
            {"role": "tool", "tool_call_id": ident, "content": "r"},
        ],
    }


def test_the_ids_of_a_file_of_request_bodies_are_keyed_by_line_and_stay_injective(tmp_path: Path) -> None:
    # Each body is repaired as a request of its own: both over-long ids (past CC-1's 40
    # characters) are remapped to the first fresh id, call_tw1; keyed by line, neither is lost.
    a, b = "A" * 41, "B" * 41
    path = tmp_path / "bodies.jsonl"
    path.write_text("".join(json.dumps(_body(i)) + "\n" for i in (a, b, a)))
    done, data = repair_path(path)
    assert dict(done.ids) == {
        f"line 1: {a}": "line 1: call_tw1",
        f"line 2: {b}": "line 2: call_tw1",
        f"line 3: {a}": "line 3: call_tw1",
    }
    assert len(set(done.ids.values())) == len(done.ids)  # injective
    lines = [json.loads(line) for line in data.splitlines()]
    assert [body["messages"][2]["tool_call_id"] for body in lines] == ["call_tw1"] * 3
    calls = [c.path for c in done.changes if c.path.endswith("tool_calls[0].id")]
    assert calls == [f"line {n}: messages[1].tool_calls[0].id" for n in (1, 2, 3)]


def test_the_ids_of_one_body_or_of_json_lines_of_messages_are_plain(tmp_path: Path) -> None:
    a = "A" * 41
    path = tmp_path / "body.json"
    path.write_text(json.dumps(_body(a)))
    assert dict(repair_path(path)[0].ids) == {a: "call_tw1"}
    messages = tmp_path / "messages.jsonl"
    messages.write_text("".join(json.dumps(m) + "\n" for m in _body(a)["messages"]))
    done, _ = repair_body(read_body(messages, "openai-chat"))
    assert dict(done.ids) == {a: "call_tw1"}
