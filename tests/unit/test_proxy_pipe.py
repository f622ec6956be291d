"""The pipe between the forwarder and the checker (``engines/proxy/_pipe.py``): short reads, gzip,
bounds on what is kept and what waits."""

from __future__ import annotations

import gzip

import pytest


def test_the_pipe_hands_over_short_reads_and_ends_when_closed() -> None:
    import threading

    from toolwire.engines.proxy._pipe import Pipe

    pipe = Pipe()
    pipe.write(b"data: 1\n\n")
    assert pipe.read(1 << 20) == b"data: 1\n\n"  # what is there, without waiting for more
    threading.Timer(0.05, lambda: (pipe.write(b"data: 2\n\n"), pipe.close())).start()
    assert pipe.read(4) == b"data"
    assert pipe.read() == b": 2\n\n"
    assert pipe.read(10) == b""
    assert bytes(pipe.captured) == b"data: 1\n\ndata: 2\n\n"


def test_the_pipe_hands_over_every_chunk_waiting_in_one_read_within_what_is_asked() -> None:
    """Chunks handed over while the checker waited for the interpreter come in one read (one wake-up
    and one parse for all of them), never more than the reader asked for."""
    from toolwire.engines.proxy._pipe import Pipe

    pipe = Pipe()
    events = [f"data: {n}\n\n".encode() for n in range(5)]
    for event in events:
        pipe.write(event)
    assert pipe.read(1 << 20) == b"".join(events)
    for event in events:
        pipe.write(event)
    assert pipe.read(12) == events[0]  # more than one chunk waits, but all of them is more than 12
    assert pipe.read(1 << 20) == b"".join(events[1:])
    pipe.close()
    assert pipe.read(10) == b""
    assert bytes(pipe.captured) == b"".join(events) * 2


def test_the_pipe_decodes_gzip_and_bounds_what_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolwire.engines.proxy import _pipe

    packed = gzip.compress(b"data: {}\n\n" * 100)
    pipe = _pipe.Pipe("gzip")
    for at in range(0, len(packed), 7):
        pipe.write(packed[at : at + 7])
    pipe.close()
    assert pipe.read() == b"data: {}\n\n" * 100
    monkeypatch.setattr(_pipe, "MAX_BEHIND", 16)
    behind = _pipe.Pipe()
    behind.write(b"x" * 10)
    behind.write(b"y" * 10)
    assert behind.overflow is not None and "fell" in behind.overflow
    assert behind.size == 20


def test_the_pipe_never_returns_more_than_asked_even_when_a_chunk_decodes_to_more() -> None:
    from toolwire.engines.proxy._pipe import Pipe

    pipe = Pipe("gzip")
    pipe.write(gzip.compress(b"z" * 1000))
    pipe.close()
    pieces = iter(lambda: pipe.read(64), b"")
    assert all(len(piece) <= 64 for piece in pieces)
    assert bytes(pipe.captured) == b"z" * 1000


def test_a_body_past_what_is_kept_is_still_handed_over_whole() -> None:
    from toolwire.engines.proxy import _pipe

    pipe = _pipe.Pipe()
    pipe.write(b"a" * 10)
    assert pipe.read(10) == b"a" * 10
    original = _pipe.MAX_BODY
    _pipe.MAX_BODY = 12
    try:
        pipe.write(b"b" * 10)
        assert pipe.read(10) == b"b" * 10  # past what is kept: overflow, yet read on
        assert pipe.overflow is not None
        pipe.write(b"c" * 10)  # and written on
        pipe.close()
        assert pipe.read() == b"c" * 10
    finally:
        _pipe.MAX_BODY = original


def test_a_checker_that_falls_behind_gives_up_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolwire.engines.proxy import _pipe

    monkeypatch.setattr(_pipe, "MAX_BEHIND", 16)
    pipe = _pipe.Pipe()
    pipe.write(b"x" * 10)
    pipe.write(b"y" * 10)  # nobody read: 20 bytes would wait
    assert pipe.gave_up
    assert pipe.overflow is not None and "behind" in pipe.overflow
    assert pipe.read() == b""  # what waited is dropped: memory stays bounded
