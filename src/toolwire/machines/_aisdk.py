"""Vercel AI SDK: a tool call in a provider stream, and a tool part of a UI message.

Src: protocol-rules VS-2, VS-3 and VU-1 to VU-4; ``@ai-sdk/provider-utils``
5.0.81 ``streaming-tool-call-tracker.ts``; ``ai`` 7.0.173 ``src/ui/ui-messages.ts``.
"""

from __future__ import annotations

from statemachine import State

from toolwire.machines._base import CheckingMachine

__all__ = ["StreamToolCall", "UIToolPart"]


class StreamToolCall(CheckingMachine):
    """A provider stream's call: input parts by ``id``, then tool-call and results by ``toolCallId``.

    A call may come whole (``tool-call`` alone); the types do not require
    ``tool-input-end`` before ``tool-call``.  A preliminary result must be
    followed by a final one.
    """

    absent = State(initial=True)
    streaming = State()
    ended = State()
    called = State()
    previewing = State()
    resulted = State(final=True)
    accepting = ("called",)

    input_start = absent.to(streaming)
    input_delta = streaming.to(streaming)
    input_end = streaming.to(ended)
    call = absent.to(called) | streaming.to(called) | ended.to(called)
    approval = called.to(called)
    preliminary = called.to(previewing) | previewing.to(previewing)
    result = called.to(resulted) | previewing.to(resulted)


class UIToolPart(CheckingMachine):
    """A UI message's tool part, by ``toolCallId``, through its states (VU-4).

    Events, by chunk: ``start`` tool-input-start, ``delta`` tool-input-delta,
    ``input`` tool-input-available, ``input_failed`` tool-input-error, ``ask``
    tool-approval-request, ``reply`` tool-approval-response, ``output``
    tool-output-available, ``failed`` tool-output-error, ``denied``
    tool-output-denied.
    """

    absent = State(initial=True)
    input_streaming = State()
    input_available = State()
    approval_requested = State()
    approval_responded = State()
    output_available = State(final=True)
    output_error = State(final=True)
    output_denied = State(final=True)
    accepting = ("input_available", "approval_requested", "approval_responded")

    start = absent.to(input_streaming)
    delta = input_streaming.to(input_streaming)
    input = absent.to(input_available) | input_streaming.to(input_available)
    input_failed = absent.to(output_error) | input_streaming.to(output_error)
    ask = input_available.to(approval_requested)
    reply = approval_requested.to(approval_responded)
    output = input_available.to(output_available) | approval_responded.to(output_available)
    failed = input_available.to(output_error) | approval_responded.to(output_error)
    denied = approval_requested.to(output_denied) | approval_responded.to(output_denied)
