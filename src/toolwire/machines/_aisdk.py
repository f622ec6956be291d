"""Vercel AI SDK: a tool call in a provider stream and in the full stream, a UI tool part, the
full stream's steps and a model-message conversation.

Src: docs/protocol-rules.md VS-2, VS-3, VS-6 and VU-1 to VU-4; ``@ai-sdk/provider-utils``
5.0.81 ``streaming-tool-call-tracker.ts``; ``ai`` 7.0.173 ``src/ui/ui-messages.ts``,
``src/generate-text/stream-text.ts``, ``src/generate-text/execute-tools-from-stream.ts``,
``src/prompt/convert-to-language-model-prompt.ts``.
"""

from __future__ import annotations

from statemachine import State

from toolwire.machines._base import CheckingMachine

__all__ = ["FullStream", "FullStreamToolCall", "ModelConversation", "StreamToolCall", "UIToolPart"]


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


class FullStreamToolCall(CheckingMachine):
    """A call in ``streamText``'s full stream: input parts by ``id``, the rest by ``toolCallId``.

    Events, by part: ``input_start`` / ``input_delta`` / ``input_end`` the
    tool-input parts, ``call`` tool-call, ``ask`` tool-approval-request,
    ``reply`` tool-approval-response, ``preliminary`` a tool-result with
    ``preliminary: true``, ``result`` tool-result, ``error`` tool-error,
    ``denied`` tool-output-denied.  A call without an outcome is legal: a
    client tool without ``execute`` is answered by the next request.
    """

    absent = State(initial=True)
    streaming = State()
    ended = State()
    called = State()
    asked = State()
    responded = State()
    previewing = State()
    done = State(final=True)
    accepting = ("called", "asked", "responded")

    input_start = absent.to(streaming)
    input_delta = streaming.to(streaming)
    input_end = streaming.to(ended)
    call = absent.to(called) | streaming.to(called) | ended.to(called)
    ask = called.to(asked)
    reply = asked.to(responded)
    preliminary = called.to(previewing) | responded.to(previewing) | previewing.to(previewing)
    result = called.to(done) | responded.to(done) | previewing.to(done)
    error = called.to(done) | responded.to(done) | previewing.to(done)
    denied = responded.to(done)


class FullStream(CheckingMachine):
    """The full stream's envelope: ``start``, steps (``start-step`` .. ``finish-step``), ``finish``.

    ``part`` is any content or tool part: it belongs inside a step.
    ``abort`` ends the stream wherever it comes.
    """

    waiting = State(initial=True)
    open = State()
    stepping = State()
    finished = State(final=True)
    aborted = State(final=True)
    accepting = ("waiting",)

    start = waiting.to(open)
    step = open.to(stepping)
    part = stepping.to(stepping)
    step_end = stepping.to(open)
    finish = open.to(finished)
    abort = waiting.to(aborted) | open.to(aborted) | stepping.to(aborted)


class ModelConversation(CheckingMachine):
    """``ModelMessage[]`` as ``convertToLanguageModelPrompt`` pairs tool calls with tool results.

    ``calls``: an assistant message with client (not provider-executed)
    ``tool-call`` parts; ``assistant``: one without; ``user``: a user or
    system message; ``results``: a tool message that answers every pending
    call; ``partial``: one that answers some.  Calls stay pending across
    assistant messages; a user or system message, or the end, with calls
    pending raises ``AI_MissingToolResultsError`` (VS-6).
    """

    idle = State(initial=True)
    awaiting = State()
    accepting = ("idle",)

    user = idle.to(idle)
    assistant = idle.to(idle) | awaiting.to(awaiting)
    calls = idle.to(awaiting) | awaiting.to(awaiting)
    partial = awaiting.to(awaiting)
    results = awaiting.to(idle)
