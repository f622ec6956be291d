"""Hand-written violating streams (issue 38), more of them: each cut from a well-formed stream of
tests/helpers/violating.py (or, for Mistral, the two calls as Mistral streams them), breaking one
rule, named after it, for tests/integration/test_consumer_evidence_streams.py to feed to consumers.
"""

from __future__ import annotations

from typing import Any

from helpers import violating

#: Mistral's calls: a 9-character id, each call whole in one fragment.
MISTRAL = (("D681PevKs", '{"city":"Paris"}'), ("Kx9Lm2Qa1", '{"city":"Lyon"}'))


def an10d_fragments_not_json() -> list[dict[str, Any]]:
    """AN-10d: the first tool_use block's input fragments join to '{"city":Paris}', not JSON."""
    events = violating.anthropic_stream()
    last = [e for e in events if e["type"] == "content_block_delta" and e["index"] == 0][-1]
    last["delta"]["partial_json"] = "Paris}"
    return events


def br9d_fragments_not_json() -> list[dict[str, Any]]:
    """BR-9d: the first toolUse block's input fragments join to '{"city":Paris}', not JSON."""
    events = violating.bedrock_stream()
    last = [
        e for e in events if "contentBlockDelta" in e and e["contentBlockDelta"]["contentBlockIndex"] == 0
    ][-1]
    last["contentBlockDelta"]["delta"]["toolUse"]["input"] = "Paris}"
    return events


def br9a_no_message_start() -> list[dict[str, Any]]:
    """BR-9a: the stream opens with a content block: no messageStart."""
    return violating.bedrock_stream()[1:]


def br9a_metadata_before_message_stop() -> list[dict[str, Any]]:
    """BR-9a: metadata comes before messageStop."""
    events = violating.bedrock_stream()
    events[-2], events[-1] = events[-1], events[-2]
    return events


def mistral_stream() -> list[dict[str, Any]]:
    """A well-formed Mistral chat stream of two parallel calls (end it with ``data: [DONE]``): each
    call whole in one fragment with its index, the last chunk finishing ``tool_calls``."""
    events = [violating._chunk({"role": "assistant", "content": ""})]
    for index, (call_id, arguments) in enumerate(MISTRAL):
        function = {"name": "get_weather", "arguments": arguments}
        fragment = {"id": call_id, "type": "function", "index": index, "function": function}
        events.append(violating._chunk({"tool_calls": [fragment]}))
    events[-1]["choices"][0]["finish_reason"] = "tool_calls"
    return events


def _mistral_fragments(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [f for e in events for f in e["choices"][0]["delta"].get("tool_calls", [])]


def mi6a_calls_without_index() -> list[dict[str, Any]]:
    """MI-6a: neither fragment carries its index."""
    events = mistral_stream()
    for fragment in _mistral_fragments(events):
        del fragment["index"]
    return events


def mi6d_call_after_finish() -> list[dict[str, Any]]:
    """MI-6d: the choice finishes with the first call; the second comes after."""
    events = mistral_stream()
    events[1]["choices"][0]["finish_reason"] = "tool_calls"
    events[2]["choices"][0]["finish_reason"] = None
    return events


def mi6d_no_finish_reason() -> list[dict[str, Any]]:
    """MI-6d: the choice never finishes (send it without ``[DONE]`` too)."""
    events = mistral_stream()
    events[-1]["choices"][0]["finish_reason"] = None
    return events


def mi6e_arguments_not_json() -> list[dict[str, Any]]:
    """MI-6e: the first call's arguments are '{"city": Paris}', not JSON."""
    events = mistral_stream()
    _mistral_fragments(events)[0]["function"]["arguments"] = '{"city": Paris}'
    return events
