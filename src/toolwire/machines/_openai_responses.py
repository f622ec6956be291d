"""OpenAI Responses / Open Responses: stream envelope, output items, input pairing.

Src: docs/protocol-rules.md RS-7, RS-9, OR-3, OR-4; openai-openapi
``ResponseStreamEvent``; ``openai`` 3.54.0 ``lib/streaming/responses/_responses.py``.
"""

from __future__ import annotations

from statemachine import Event, State

from toolwire.machines._base import CheckingMachine

__all__ = ["FunctionCallItem", "FunctionCallPairing", "OutputItem", "ResponseStream"]


class ResponseStream(CheckingMachine):
    """One streamed response: ``response.created`` ... one terminal event, then nothing.

    Every event that addresses an output item is ``item`` here; items run on
    their own machines.
    """

    start = State(initial=True)
    created = State()
    in_progress = State()
    ended = State(final=True)

    response_created = start.to(created)
    queued = created.to(created)
    response_in_progress = created.to(in_progress)
    item = created.to(created) | in_progress.to(in_progress)
    error = start.to(start) | created.to(created) | in_progress.to(in_progress)
    completed = created.to(ended) | in_progress.to(ended)
    failed = created.to(ended) | in_progress.to(ended)
    incomplete = created.to(ended) | in_progress.to(ended)


class FunctionCallItem(CheckingMachine):
    """A ``function_call`` output item at one ``output_index``.

    added -> arguments streaming -> arguments done -> item done.
    """

    absent = State(initial=True)
    added = State()
    streaming = State()
    arguments_done = State()
    done = State(final=True)

    item_added = absent.to(added)
    delta = added.to(streaming) | streaming.to(streaming)
    arguments_complete = added.to(arguments_done) | streaming.to(arguments_done)
    item_done = arguments_done.to(done)


class OutputItem(CheckingMachine):
    """Any other output item (message, reasoning, built-in tool call) at one ``output_index``."""

    absent = State(initial=True)
    open = State()
    done = State(final=True)

    item_added = absent.to(open)
    content = open.to(open)
    item_done = open.to(done)


class FunctionCallPairing(CheckingMachine):
    """One ``call_id`` in a request's ``input``: its ``function_call`` and its output.

    The catalogue does not say that the output must come after the call
    (RS-3 asks only for a match in the same input), so both orders reach
    ``answered``.
    """

    unseen = State(initial=True)
    called = State()
    output_first = State()
    answered = State(final=True)

    call = unseen.to(called) | output_first.to(answered)
    output = unseen.to(output_first) | called.to(answered)
    # Always illegal, named so that the violation table can say which rule they break.
    repeated_call = Event(name="repeated call")
    repeated_output = Event(name="repeated output")
