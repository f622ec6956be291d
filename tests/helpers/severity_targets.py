"""Converters of the Responses stream (``openai-responses-stream`` to itself) whose output breaks a
warning rule, an error rule, or no rule: what ``fuzz --strict`` and ``explore --strict`` judge.

Each is a target as the CLI names one (``tests/helpers/severity_targets.py:trailing``, imported by
path in a worker process: so this module imports nothing of the tests) and a callable the engines
take.  Pure functions of their input: they copy, never change it.
"""

from __future__ import annotations

from typing import Any

Wire = list[dict[str, Any]]


def faithful(trace: Wire) -> Wire:
    """The input unchanged: no rule broken."""
    return [dict(event) for event in trace]


def trailing(trace: Wire) -> Wire:
    """The input, then one more ``response.in_progress`` after the terminal event: RS-7b, a warning."""
    out = faithful(trace)
    extra: dict[str, Any] = {"type": "response.in_progress"}
    if out and isinstance(out[-1].get("sequence_number"), int):
        extra["sequence_number"] = out[-1]["sequence_number"] + 1
    first = out[0] if out else {}
    if isinstance(first.get("response"), dict):
        extra["response"] = {**first["response"], "status": "in_progress"}
    return [*out, extra]


def headless(trace: Wire) -> Wire:
    """The input without its ``response.created``: the stream starts mid-way (RS-7a, an error)."""
    return [event for event in faithful(trace) if event.get("type") != "response.created"]
