"""Response bodies: the tool calls of one non-streaming turn and its stop reason.

Every protocol's non-streaming response (a Chat Completions choice, a Responses
``response``, an Anthropic or Bedrock message, a Gemini candidate) carries its
calls whole: a call appears complete at once, so the one lifecycle is the
turn's.  Src: docs/protocol-rules.md CC-6(d), AN-10, BR-9 (the stop reason that says the
model called tools) and AN-2, BR-4, MI-4 (one id per call in a turn).
"""

from __future__ import annotations

from statemachine import Event, State

from toolwire.machines._base import CheckingMachine

__all__ = ["ResponseBody"]


class ResponseBody(CheckingMachine):
    """One turn of a response body: its calls, then its stop reason.

    ``call`` is a call whose id no earlier call of the turn has (or that has
    none), ``repeat`` one whose id an earlier call has, which is never legal.
    ``tools_stop`` is a stop reason that says the model called tools
    (``tool_calls``, ``tool_use``), ``end_stop`` one that says it ended its turn
    without (``stop``, ``end_turn``), and ``stop`` one that says neither (a
    token limit, Gemini's ``STOP``, a Responses status).  A body without a stop
    reason ends where its calls left it.
    """

    empty = State(initial=True)
    calling = State()
    stopped = State(final=True)
    accepting = ("empty", "calling")

    call = empty.to(calling) | calling.to(calling)
    stop = empty.to(stopped) | calling.to(stopped)
    end_stop = empty.to(stopped)
    tools_stop = calling.to(stopped)
    repeat = Event()
