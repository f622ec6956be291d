"""A finding quotes the provider's error text only where it is the text of that case, every value it
names filled in: never "string too long" for an id that is missing, never a ``{type}`` left blank.

The only names a finding may leave unfilled are the positions of a replayed request (``{m}``,
``{k}``, ``{n}``), which a stream or a response body cannot know: where its calls will land when a
client sends them back.
"""

from __future__ import annotations

import re

import pytest

from helpers.corpus import DATA, corpus
from toolwire import check_file
from toolwire.protocols import get_protocol

#: Positions in the request a stream's or a response's calls are replayed in.
REPLAY_POSITIONS = {"m", "k", "n"}
ENTRIES = corpus()


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"] for e in ENTRIES])
def test_each_quoted_error_text_has_its_values_filled(entry: dict[str, str]) -> None:
    report = check_file(DATA / entry["file"], entry["protocol"], profile=entry.get("profile"))
    spec = get_protocol(entry["protocol"])
    may_leave = REPLAY_POSITIONS if spec.shape == "stream" else set()
    for finding in report.findings:
        left = set(re.findall(r"\{([A-Za-z_]+)\}", finding.provider_error or ""))
        assert left <= may_leave, (finding.rule, finding.message, finding.provider_error)


def test_a_missing_call_id_quotes_no_text_of_an_id_too_long() -> None:
    from toolwire import check

    history = [
        {"role": "user", "content": "Weather?"},
        {
            "role": "assistant",
            "tool_calls": [{"type": "function", "function": {"name": "w", "arguments": "{}"}}],
        },
    ]
    (missing,) = [f for f in check(history, "openai-chat").findings if f.rule == "CC-1"]
    assert missing.provider_error is None
    long_id = "call_" + "x" * 40
    history[1]["tool_calls"][0]["id"] = long_id
    history.append({"role": "tool", "tool_call_id": long_id, "content": "sunny"})
    (too_long,) = [f for f in check(history, "openai-chat").findings if f.rule == "CC-1"]
    assert too_long.provider_error is not None and "length 45" in too_long.provider_error
