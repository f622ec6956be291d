"""``--repair``'s pieces without a server: what :class:`RequestRepair` makes of one request, how a
change is told (text, JSON), counted and recorded (HAR, cassette), and what the CLI refuses."""

from __future__ import annotations

import gzip
import json
import zlib
from pathlib import Path

import orjson
import pytest
import yaml

from helpers.proxy_support import DATA
from toolwire.cli.handlers._proxy import JsonLines, render_summary, render_told
from toolwire.cli.handlers._record import Recorder
from toolwire.engines import LiveFinding
from toolwire.engines.proxy import ProxyTotals, RequestRepair
from toolwire.engines.proxy._record import Recording, cassette_item, har_entry
from toolwire.engines.proxy._repairing import told, with_length
from toolwire.errors import UsageError

CHAT = "https://api.openai.com/v1/chat/completions"
ORPHAN = {"role": "tool", "tool_call_id": "call_9", "content": "42"}
BODY = orjson.dumps({"model": "gpt-4o", "messages": [{"role": "user", "content": "Hi"}, ORPHAN]})


def test_a_broken_history_is_repaired_and_re_serialised_in_its_own_layout() -> None:
    done = RequestRepair()(CHAT, BODY, [])
    assert done.protocol == "openai-chat" and done.problem is None
    assert [(c.rule, c.path, c.action) for c in done.changes] == [("CC-3", "messages[1]", "note")]
    assert done.body is not None and b"\n" not in done.body  # a compact body stays one line
    assert orjson.loads(done.body)["messages"][1]["role"] == "user"


@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
def test_a_gzip_or_deflate_body_is_repaired_and_encoded_so_again(encoding: str) -> None:
    packed = gzip.compress(BODY) if encoding == "gzip" else zlib.compress(BODY)
    done = RequestRepair()(CHAT, packed, [("Content-Encoding", encoding)])
    assert done.body is not None and [c.rule for c in done.changes] == ["CC-3"]
    unpacked = gzip.decompress(done.body) if encoding == "gzip" else zlib.decompress(done.body)
    assert orjson.loads(unpacked)["messages"][1]["role"] == "user"


def _raw_deflate(data: bytes) -> bytes:
    encoder = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    return encoder.compress(data) + encoder.flush()


def _raw_inflate(data: bytes) -> bytes:
    return zlib.decompress(data, wbits=-zlib.MAX_WBITS)


@pytest.mark.parametrize(
    ("encoding", "packed", "unpack"),
    [
        ("deflate", _raw_deflate(BODY), _raw_inflate),  # deflate without its zlib wrapper
        ("gzip", gzip.compress(BODY[:30]) + gzip.compress(BODY[30:]), gzip.decompress),  # two members
        ("gzip", gzip.compress(BODY[:30]) + zlib.compress(BODY[30:]), gzip.decompress),
    ],
    ids=["raw-deflate", "multi-member-gzip", "gzip-then-zlib"],
)
def test_a_raw_deflate_or_multi_member_gzip_body_is_repaired_whole_and_encoded_so_again(
    encoding: str, packed: bytes, unpack: object
) -> None:
    done = RequestRepair()(CHAT, packed, [("Content-Encoding", encoding)])
    assert done.problem is None and done.body is not None and [c.rule for c in done.changes] == ["CC-3"]
    assert callable(unpack)
    assert orjson.loads(unpack(done.body))["messages"][1]["role"] == "user"


@pytest.mark.parametrize(
    ("encoding", "packed"),
    [
        ("gzip", gzip.compress(BODY)[:-12]),  # cut short
        ("gzip", gzip.compress(BODY) + b"trailing bytes"),
        ("deflate", zlib.compress(BODY) + zlib.compress(b" ")),  # a zlib stream after the end
        ("deflate", _raw_deflate(BODY)[:-5]),
        ("deflate", b"not deflate at all"),
    ],
    ids=["gzip-cut", "gzip-trailing", "deflate-two-streams", "raw-deflate-cut", "not-deflate"],
)
def test_an_encoded_body_that_does_not_decode_whole_is_forwarded_as_sent_and_said(
    encoding: str, packed: bytes
) -> None:
    # Repaired from what did decode, the rest would be lost: it goes as sent, said so.
    done = RequestRepair()(CHAT, packed, [("Content-Encoding", encoding)])
    assert (done.body, done.changes) == (None, ())
    assert done.problem is not None and done.problem.startswith(f"its {encoding} body cannot be decoded (")


def test_an_empty_encoded_body_holds_nothing_to_repair() -> None:
    done = RequestRepair()(CHAT, b"", [("Content-Encoding", "gzip")])
    assert (done.body, done.changes, done.problem) == (None, (), None)


@pytest.mark.parametrize(
    ("url", "body"),
    [
        (CHAT, orjson.dumps({"model": "gpt-4o", "messages": [{"role": "user", "content": "Hi"}]})),
        (CHAT, b"not json"),
        (CHAT, b"[1, 2]"),
        ("https://api.openai.com/v1/responses", b'{"model": "gpt-4o", "input": "Hi"}'),
        ("https://example.com/mcp", b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}'),
    ],
    ids=["clean", "no-json", "no-object", "no-history", "not-repairable"],
)
def test_a_request_with_nothing_to_repair_is_forwarded_as_sent_unsaid(url: str, body: bytes) -> None:
    done = RequestRepair()(url, body, [])
    assert (done.body, done.changes, done.problem) == (None, (), None)


@pytest.mark.parametrize(
    ("headers", "said"),
    [
        ([("Authorization", "AWS4-HMAC-SHA256 Credential=x")], "signed (AWS SigV4)"),
        ([("X-Amz-Content-Sha256", "UNSIGNED-PAYLOAD")], "signed (AWS SigV4)"),
        ([("Content-Encoding", "br")], "br-encoded"),
    ],
)
def test_a_body_the_repair_must_not_change_is_forwarded_as_sent_and_said(
    headers: list[tuple[str, str]], said: str
) -> None:
    done = RequestRepair()(CHAT, BODY, headers)
    assert done.body is None and done.changes == ()
    assert done.problem is not None and said in done.problem


def test_a_rule_no_repair_is_right_for_leaves_the_request_as_sent_and_names_the_rule() -> None:
    body = (DATA / "gemini-contents" / "args-as-string.json").read_bytes()
    url = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent"
    done = RequestRepair()(url, body, [])
    assert done.body is None and done.changes == ()
    assert done.problem is not None and done.problem.startswith("GM-7 at contents[1].parts[0]")


def test_a_provider_profile_applies_to_its_wire_and_other_wires_keep_their_own_rules() -> None:
    anthropic = orjson.dumps(
        {
            "model": "claude",
            "max_tokens": 5,
            "messages": [
                {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "x"}],
                }
            ],
        }
    )
    done = RequestRepair("deepseek")("https://api.anthropic.com/v1/messages", anthropic, [])
    assert done.problem is None and [c.action for c in done.changes] == ["note"]
    assert RequestRepair("deepseek")(CHAT, BODY, []).body is not None


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"provider": "nobody"}, "no such provider"),
        ({"orphan_results": "keep"}, "--orphan-results"),
        ({"unanswered_calls": "keep"}, "--unanswered-calls"),
        ({"protocols": ("no-such-protocol",)}, "no-such-protocol"),
    ],
)
def test_bad_repair_options_are_usage_errors(options: dict[str, object], said: str) -> None:
    with pytest.raises(UsageError, match=said):
        RequestRepair(**options)  # type: ignore[arg-type]


def test_the_cli_refuses_repair_options_without_repair(capsys: pytest.CaptureFixture[str]) -> None:
    from toolwire.cli import main

    assert main(["proxy", "--upstream", "http://127.0.0.1:1", "--for", "deepseek"]) == 2
    assert "--for take effect with --repair only" in capsys.readouterr().err


def test_the_forwarded_length_is_the_new_bodys_in_the_place_of_the_old() -> None:
    headers = [(b"content-type", b"application/json"), (b"content-length", b"99"), (b"x-a", b"1")]
    assert with_length(headers, b"{}") == [
        (b"content-type", b"application/json"),
        (b"content-length", b"2"),
        (b"x-a", b"1"),
    ]
    assert with_length([(b"x-a", b"1")], b"{}") == [(b"x-a", b"1"), (b"content-length", b"2")]


def _change() -> LiveFinding:
    done = RequestRepair()(CHAT, BODY, [])
    return told(4, "POST", CHAT, done.protocol, change=done.changes[0])


def test_a_change_is_one_line_of_text_and_of_json_with_rule_path_action_before_and_after() -> None:
    line = orjson.loads(render_told(_change(), "json"))
    assert {k: line[k] for k in ("exchange", "kind", "side", "rule", "path", "action", "before")} == {
        "exchange": 4,
        "kind": "repair",
        "side": "request",
        "rule": "CC-3",
        "path": "messages[1]",
        "action": "note",
        "before": "42",
    }
    assert line["after"].startswith("[toolwire repair] Result of tool call 'call_9'")
    text = render_told(_change(), "text")
    assert text.startswith(
        "#4 POST api.openai.com/v1/chat/completions request messages[1]: CC-3 repaired, note:"
    )
    assert "(42 -> [toolwire repair] Result of tool call" in text
    problem = told(5, "POST", CHAT, "openai-chat", why="its body is gzip-encoded")
    assert orjson.loads(render_told(problem, "json"))["kind"] == "not-repaired"


def test_changes_are_counted_apart_from_findings_and_said_in_the_summary() -> None:
    totals = ProxyTotals(repair=True)
    totals.exchanges, totals.repaired = 1, 1
    totals.add(_change())
    assert totals.to_json()["changes"] == 1 and totals.findings == {} and totals.exit_code == 0
    assert render_summary(totals, "text").endswith("0 unreadable parts, 1 repaired (1 changes): clean")
    assert "repaired" not in ProxyTotals().to_json()


def test_a_record_keeps_the_request_as_sent_and_as_forwarded(tmp_path: Path) -> None:
    done = RequestRepair()(CHAT, BODY, [])
    assert done.body is not None
    recording = Recording("POST", CHAT, [("content-type", "application/json")], BODY, 200, [], b"{}")
    recording.repaired(done.body, done.changes)
    entry = har_entry(recording)
    assert entry["request"]["postData"]["text"].encode() == BODY
    assert entry["request"]["_forwarded"]["postData"]["text"].encode() == done.body
    assert [c["rule"] for c in entry["request"]["_forwarded"]["changes"]] == ["CC-3"]
    (interaction,) = yaml.safe_load(cassette_item(recording))
    assert interaction["request"]["body"].encode() == BODY
    assert interaction["forwarded"]["body"].encode() == done.body
    assert "_forwarded" not in har_entry(Recording("POST", CHAT, [], BODY, 200, [], b""))["request"]


def test_a_change_holding_an_integer_past_64_bits_is_told_and_recorded_whole(tmp_path: Path) -> None:
    big = 123456789012345678901234567890
    orphan = {"role": "tool", "tool_call_id": "call_9", "content": [{"type": "text", "text": "x", "n": big}]}
    body = json.dumps({"model": "gpt-4o", "messages": [{"role": "user", "content": "Hi"}, orphan]}).encode()
    done = RequestRepair()(CHAT, body, [])
    assert done.body is not None and str(big) in done.body.decode()
    change = told(4, "POST", CHAT, done.protocol, change=done.changes[0])
    assert json.loads(render_told(change, "json"))["before"] == orphan["content"]
    assert '"n":1234567890' in render_told(change, "text")  # cut at 60 characters
    report = tmp_path / "findings.jsonl"
    lines = JsonLines(report.open("wb"))
    lines.write(change)
    lines.close()
    assert json.loads(report.read_bytes())["before"] == orphan["content"]
    recording = Recording("POST", CHAT, [("content-type", "application/json")], body, 200, [], b"{}")
    recording.repaired(done.body, done.changes)
    har = tmp_path / "run.har"
    recorder = Recorder(har)
    recorder.add(recording)
    recorder.close()
    (entry,) = json.loads(har.read_bytes())["log"]["entries"]
    assert entry["request"]["_forwarded"]["changes"][0]["before"] == orphan["content"]


@pytest.mark.parametrize(
    ("raised", "said"),
    [
        (UsageError("the input cannot be repaired as openai-chat: a message is not an object"), "cannot be"),
        (RuntimeError("a bug"), "toolwire could not repair it: RuntimeError('a bug')"),
    ],
    ids=["usage-error", "bug"],
)
def test_a_repair_that_raises_forwards_the_request_as_sent_and_says_why(
    monkeypatch: pytest.MonkeyPatch, raised: Exception, said: str
) -> None:
    import toolwire.engines.repair

    def failing(*_: object, **__: object) -> None:
        raise raised

    monkeypatch.setattr(toolwire.engines.repair, "repair", failing)
    done = RequestRepair()(CHAT, BODY, [])
    assert (done.protocol, done.body, done.changes) == ("openai-chat", None, ())
    assert done.problem is not None and said in done.problem
