"""Seed 004: a message-stack sanitizer for OpenAI, the report's Solutions A, B and C, and a fix.

OpenAI answers ``messages with role 'tool' must be a response to a preceeding
message with 'tool_calls'`` for orphaned tool messages.  The report proposes
three sanitizers; none is enough.  A and B keep a tool message whose id any
assistant message called, so a user message between call and result (the
report's Test Case 4) survives; C forgets nothing until the next assistant
message, so the same case survives it too; and all three keep calls nobody
answered (Test Case 3), which OpenAI rejects.  ``fixed`` keeps exactly the
intact call/result pairs.

    toolwire fuzz examples/seed004_sanitizer.py:solution_a --from openai-chat --to openai-chat --mutate
"""

from __future__ import annotations

from typing import Any

Message = dict[str, Any]


def solution_a(messages: list[Message]) -> list[Message]:
    """Solution A, ``validateOpenAIMessageStack``: drop tool messages no assistant message called."""
    ids = {tc.get("id") for m in messages if m.get("role") == "assistant" for tc in m.get("tool_calls") or []}
    return [
        m for m in messages if m.get("role") != "tool" or (m.get("tool_call_id") and m["tool_call_id"] in ids)
    ]


def solution_b(messages: list[Message]) -> list[Message]:
    """Solution B, ``fixOpenAIFamilyToolCallChain`` in the normalizer: the same filter as A."""
    ids = {tc.get("id") for m in messages if m.get("role") == "assistant" for tc in m.get("tool_calls") or []}
    result = []
    for m in messages:
        if m.get("role") == "tool" and (not m.get("tool_call_id") or m["tool_call_id"] not in ids):
            continue
        result.append(m)
    return result


def solution_c(messages: list[Message]) -> list[Message]:
    """Solution C, sequence validation: a tool message must answer the latest assistant's calls."""
    result: list[Message] = []
    pending: dict[str, bool] = {}
    for m in messages:
        if m.get("role") == "assistant":
            pending.clear()
            for tc in m.get("tool_calls") or []:
                pending[tc.get("id")] = False
            result.append(m)
        elif m.get("role") == "tool":
            if m.get("tool_call_id") and m["tool_call_id"] in pending:
                pending[m["tool_call_id"]] = True
                result.append(m)
        else:
            result.append(m)
    return result


def fixed(messages: list[Message]) -> list[Message]:
    """Keep a call only with its one answer in the tool messages right after it; drop the rest."""
    called: dict[Any, int] = {}
    answered: dict[Any, int] = {}
    for m in messages:
        for tc in (m.get("tool_calls") or []) if m.get("role") == "assistant" else []:
            called[tc.get("id")] = called.get(tc.get("id"), 0) + 1
        if m.get("role") == "tool":
            answered[m.get("tool_call_id")] = answered.get(m.get("tool_call_id"), 0) + 1
    unique = {i for i, n in called.items() if i and n == 1 and answered.get(i) == 1}
    result: list[Message] = []
    for number, m in enumerate(messages):
        role = m.get("role")
        if role == "tool":
            continue
        if role != "assistant" or not m.get("tool_calls"):
            result.append(m)
            continue
        following = []
        for later in messages[number + 1 :]:
            if later.get("role") != "tool":
                break
            following.append(later)
        answers = {t.get("tool_call_id"): t for t in following if t.get("tool_call_id") in unique}
        calls = [tc for tc in m["tool_calls"] if tc.get("id") in answers]
        kept = {k: v for k, v in m.items() if k != "tool_calls"}
        if calls:
            result.append(kept | {"tool_calls": calls})
            result.extend(answers[tc["id"]] for tc in calls)
        elif m.get("content"):
            result.append(kept)
    return result
