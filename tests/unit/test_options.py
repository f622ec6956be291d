"""The engines validate their own options: the library refuses what the CLI refuses (exit 2)."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolwire.cli import main
from toolwire.engines import ExploreOptions, FuzzOptions, explore, fuzz
from toolwire.engines.fuzzing._options import duration
from toolwire.errors import UsageError
from toolwire.properties import Bounds

PAIR = ("openai-chat", "openai-chat")


def _never_run(trace: Any) -> Any:
    raise AssertionError("a campaign with bad options must not run the target")


#: Counts below one, and values that are not whole numbers at all.
bad_counts = st.one_of(
    st.integers(max_value=0),
    st.booleans(),
    st.floats(allow_nan=True),
    st.text(max_size=3),
)
#: Timeouts that are not a finite number of seconds above 0.
bad_timeouts = st.one_of(
    st.floats(max_value=0.0),
    st.just(math.nan),
    st.just(math.inf),
    st.integers(max_value=0),
    st.booleans(),
    st.text(max_size=3),
)
#: Durations no engine accepts: not a number with an optional unit, or not above 0.
bad_durations = st.one_of(
    st.floats(max_value=0.0),
    st.sampled_from(["nan", "inf", "-1s", "0", "0m", "ten", "", "1d", "1hh", "--1"]),
    st.text(alphabet="abcdxyz ", min_size=1, max_size=4),
)


@settings(max_examples=40)
@given(bad=bad_counts)
def test_a_bad_example_budget_is_a_usage_error_from_the_library(bad: Any) -> None:
    with pytest.raises(UsageError):
        fuzz(_never_run, *PAIR, max_examples=bad, out=None)


@settings(max_examples=40)
@given(bad=bad_counts)
def test_a_bad_worker_count_is_a_usage_error_from_the_library(bad: Any) -> None:
    with pytest.raises(UsageError):
        fuzz(_never_run, *PAIR, workers=bad, out=None, max_examples=1)


@settings(max_examples=40)
@given(bad=bad_timeouts)
def test_a_bad_timeout_is_a_usage_error_from_fuzz_explore_and_replay(bad: Any) -> None:
    with pytest.raises(UsageError):
        fuzz(_never_run, *PAIR, timeout=bad, out=None)
    with pytest.raises(UsageError):
        explore(_never_run, *PAIR, Bounds(calls=1), timeout=bad, out=None)


@settings(max_examples=40)
@given(bad=bad_durations)
def test_a_bad_time_limit_is_a_usage_error_from_fuzz_and_explore(bad: Any) -> None:
    with pytest.raises(UsageError):
        fuzz(_never_run, *PAIR, time_limit=bad, out=None)
    with pytest.raises(UsageError):
        explore(_never_run, *PAIR, Bounds(calls=1), time_limit=bad, out=None)


@settings(max_examples=40)
@given(bad=st.one_of(st.integers(max_value=0), st.booleans()))
def test_a_bad_trace_limit_is_a_usage_error_from_explore(bad: Any) -> None:
    with pytest.raises(UsageError):
        explore(_never_run, *PAIR, Bounds(calls=1), max_traces=bad, out=None)


@settings(max_examples=20)
@given(bad=st.one_of(st.floats(min_value=1.0001), st.floats(max_value=-0.0001), st.just(math.nan)))
def test_a_coverage_floor_outside_zero_to_one_is_a_usage_error(bad: float) -> None:
    with pytest.raises(UsageError, match="--min-coverage"):
        FuzzOptions(source=PAIR[0], destination=PAIR[1], min_coverage=bad)


def _exit(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse refuses what its types refuse, with exit 2 too
        return int(exc.code or 0)


@settings(max_examples=25)
@given(
    option=st.sampled_from(["--max-examples", "--workers", "--timeout", "--time-limit"]),
    bad=st.one_of(st.integers(max_value=0).map(str), st.sampled_from(["-1.5", "nan", "-inf", "0.0", "x"])),
)
def test_the_cli_refuses_the_same_bad_fuzz_options_with_exit_2(option: str, bad: str) -> None:
    if option in ("--max-examples", "--workers") and bad in ("nan", "-inf", "0.0", "-1.5", "x"):
        bad = "0"  # argparse's int type refuses these before the engine sees them: exit 2 as well
    argv = ["fuzz", "no_such_module:f", "--from", PAIR[0], "--to", PAIR[1], f"{option}={bad}"]
    assert _exit(argv) == 2


@settings(max_examples=25)
@given(
    option=st.sampled_from(["--max-traces", "--timeout", "--time-limit"]),
    bad=st.one_of(st.integers(max_value=0).map(str), st.sampled_from(["-1", "nan", "0.0"])),
)
def test_the_cli_refuses_the_same_bad_explore_options_with_exit_2(option: str, bad: str) -> None:
    if option == "--max-traces" and bad in ("nan", "0.0"):
        bad = "0"
    argv = ["explore", "no_such_module:f", "--from", PAIR[0], "--to", PAIR[1], f"{option}={bad}"]
    assert _exit(argv) == 2


@pytest.mark.parametrize("text", ["90s", "10m", "1h", "2.5", "1e2", " 30s "])
def test_fuzz_and_explore_read_a_time_limit_alike(text: str) -> None:
    seconds = duration(text)
    assert seconds is not None and seconds > 0
    fuzz_options = FuzzOptions(source=PAIR[0], destination=PAIR[1], time_limit=text)
    assert fuzz_options.time_limit == ExploreOptions(time_limit=text).time_limit == seconds
    assert fuzz_options.max_examples == 10**9  # a time limit alone lifts the example limit


def test_the_explore_cli_takes_a_duration(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", "--from", "openai-chat", "--calls", "1", "--time-limit", "1m"]) == 0
    assert "toolwire explore openai-chat" in capsys.readouterr().out


def test_options_are_frozen_and_keyword_only() -> None:
    options = FuzzOptions(source=PAIR[0], destination=PAIR[1])
    with pytest.raises(AttributeError):
        options.max_examples = 0  # type: ignore[misc]
    with pytest.raises(TypeError):
        FuzzOptions(*PAIR)  # type: ignore[misc]
    assert options.max_examples == 200 and options.time_limit is None
