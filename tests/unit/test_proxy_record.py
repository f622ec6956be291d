"""The proxy's record (``engines/proxy/_record.py``): a HAR file or a cassette, readable after every
exchange, redacted."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from helpers.proxy_support import DATA, RESPONSES_REQUEST, RS7C
from toolwire.cli.handlers._record import Recorder
from toolwire.errors import UsageError


@pytest.mark.parametrize("suffix", [".har", ".yaml"])
def test_a_record_is_a_readable_recording_after_every_exchange(tmp_path: Path, suffix: str) -> None:
    from toolwire.engines.proxy._record import Recording
    from toolwire.models import read_recording, recording_kind

    path = tmp_path / f"run{suffix}"
    recorder = Recorder(path)
    for number in range(1, 4):
        recorder.add(
            Recording(
                "POST",
                "http://127.0.0.1:1/v1/responses?key=secret-value",
                [("Authorization", "Bearer sk-" + "a" * 40), ("Content-Type", "application/json")],
                orjson.dumps(RESPONSES_REQUEST),
                200,
                [("Content-Type", "text/event-stream"), ("Content-Encoding", "gzip")],
                (DATA / RS7C).read_bytes(),
            )
        )
        raw = path.read_bytes()
        kind = recording_kind(raw[:65536])
        assert kind is not None
        exchanges = read_recording(raw, kind)
        assert len(exchanges) == number
        assert exchanges[-1].response == (DATA / RS7C).read_bytes()
        assert b"secret-value" not in raw and b"sk-aaaa" not in raw
    recorder.close()


def test_a_record_must_be_named_har_or_yaml(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"\.har"):
        Recorder(tmp_path / "run.json")
