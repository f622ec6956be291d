"""A stream converter, Gemini ``streamGenerateContent`` chunks -> OpenAI Chat Completions chunks, one bug.

Gemini 3 may stream a call's arguments (``streamFunctionCallArguments``, on the Gemini API and
Vertex AI): a part names the call with ``willContinue: true``, later parts carry ``partialArgs``
pieces (a JSON path and a value; a string may come in pieces), an empty ``functionCall`` (or the
end of the stream) closes it.  The planted bug reads a call from the part that names it only, as
converters written before streamed arguments do: every later piece is dropped, and the call goes
out with ``{}`` (``arguments:changed``).

    toolwire fuzz examples/streamed_gemini_to_chat_stream.py:convert \\
        --from gemini-stream --to openai-chat-stream
    toolwire fuzz examples/streamed_gemini_to_chat_stream.py:fixed \\
        --from gemini-stream --to openai-chat-stream
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable
from typing import Any

from _chat_stream import chunk

Event = dict[str, Any]
_HEAD = {"id": "chatcmpl-C2vLdZ4pQm8Rt6Wx1Ny3Hb5Ks", "created": 1764000000, "model": "gemini-3.5-flash"}
_STEP = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def convert(chunks: Iterable[Event]) -> list[Event]:
    """The buggy converter."""
    return _convert(chunks, planted=True)


def fixed(chunks: Iterable[Event]) -> list[Event]:
    """The same converter without its bug."""
    return _convert(chunks, planted=False)


def _chunk(delta: Event, finish: str | None = None) -> Event:
    return chunk(_HEAD, delta, finish)


def _convert(chunks: Iterable[Event], planted: bool) -> list[Event]:
    out = [_chunk({"role": "assistant", "content": None})]
    calls: list[Event] = []
    streaming: Event | None = None  # the call whose arguments are streaming, and its open paths
    for event in chunks:
        for candidate in event.get("candidates") or []:
            for part in (candidate.get("content") or {}).get("parts") or []:
                call = part.get("functionCall")
                if call is None:
                    if part.get("text") and not part.get("thought"):
                        out.append(_chunk({"content": part["text"]}))
                    continue
                if call.get("name"):
                    number = len(calls)
                    streaming = None
                    calls.append(
                        {
                            "id": call.get("id") or f"call_{number}",
                            "name": call["name"],
                            "args": call.get("args") or {},
                        }
                    )
                    if call.get("willContinue"):
                        streaming = {"call": calls[-1], "open": set()}
                elif streaming is not None and not planted:
                    for piece in call.get("partialArgs") or []:
                        _put(streaming["call"]["args"], piece, streaming["open"])
                if streaming is not None and not call.get("willContinue"):
                    streaming = None
    for number, call in enumerate(calls):
        function = {"name": call["name"], "arguments": json.dumps(call["args"])}
        fragment = {"index": number, "id": call["id"], "type": "function", "function": function}
        out.append(_chunk({"tool_calls": [fragment]}))
    out.append(_chunk({}, "tool_calls" if calls else "stop"))
    return out


def _put(args: Event, piece: Event, open_paths: set[str]) -> None:
    """One ``PartialArg`` into ``args``: a string piece after one that said ``willContinue`` appends."""
    path = piece["jsonPath"]
    steps: list[Any] = [int(n) if n else key for key, n in _STEP.findall(path[1:])]
    value: Any = None
    for field in ("stringValue", "numberValue", "boolValue"):
        if field in piece:
            value = piece[field]
    holder: Any = args
    for step, after in itertools.pairwise(steps):
        empty: Any = [] if isinstance(after, int) else {}
        if isinstance(step, int):
            holder.extend([None] * (step + 1 - len(holder)))
            holder[step] = holder[step] if holder[step] is not None else empty
        else:
            holder.setdefault(step, empty)
        holder = holder[step]
    last = steps[-1]
    if isinstance(last, int):
        holder.extend([None] * (last + 1 - len(holder)))
    if path in open_paths and isinstance(value, str):
        value = holder[last] + value
    holder[last] = value
    if piece.get("willContinue"):
        open_paths.add(path)
    else:
        open_paths.discard(path)
