"""LiteLLM as a consumer of a Chat Completions stream: a script run by the python of LiteLLM's venv.

``python litellm_stream.py MODEL API_BASE`` streams ``litellm.completion(model=MODEL, api_base=API_BASE,
stream=True)`` with get_weather as the one tool, and prints one JSON object on stdout:

- ``streamed``: each tool-call fragment of the chunks LiteLLM's stream wrapper yields, as
  ``[id, index, name, arguments]``, and each finish_reason it yields, as ``["finish", reason]``, in order;
- ``calls``: the tool_calls of ``litellm.stream_chunk_builder(chunks)``'s message, as ``[id, name,
  arguments]``; ``finish``: that choice's finish_reason;
- ``error``: the exception raised while streaming or building, as ``"Type: message"`` (else null).

It imports nothing of toolwire's tests: LiteLLM's venv has its own pins
(tests/integration/litellm/test_consumer_evidence_litellm.py runs it).
"""

from __future__ import annotations

import json
import sys
from typing import Any

TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The weather in a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
}
MESSAGES = [{"role": "user", "content": "Weather in Paris and Lyon?"}]


def consume(model: str, api_base: str) -> dict[str, Any]:
    import litellm

    litellm.suppress_debug_info = True
    out: dict[str, Any] = {"streamed": [], "calls": None, "finish": None, "error": None}
    chunks: list[Any] = []
    try:
        stream = litellm.completion(
            model=model,
            api_base=api_base,
            api_key="test",
            messages=MESSAGES,
            tools=[TOOL],
            stream=True,
            max_retries=0,
        )
        for chunk in stream:
            chunks.append(chunk)
            for choice in chunk.choices:
                for call in choice.delta.tool_calls or []:
                    function = call.function
                    out["streamed"].append([call.id, call.index, function.name, function.arguments])
                if choice.finish_reason:
                    out["streamed"].append(["finish", choice.finish_reason])
        built = litellm.stream_chunk_builder(chunks)
        if built is not None:
            choice = built.choices[0]
            out["finish"] = choice.finish_reason
            out["calls"] = [
                [call.id, call.function.name, call.function.arguments]
                for call in choice.message.tool_calls or []
            ]
    except Exception as error:
        out["error"] = f"{type(error).__name__}: {error}"
    return out


if __name__ == "__main__":
    print(json.dumps(consume(sys.argv[1], sys.argv[2])))
