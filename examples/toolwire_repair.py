"""toolwire's own repairer as a converter, for ``fuzz --mutate`` and ``explore --mutate``.

Each function repairs a history of one protocol with the default policies (an unanswered call gets
an error result, an orphaned result becomes a note naming its call); ``*_drop`` use the others.

    toolwire explore examples/toolwire_repair.py:openai_chat --from openai-chat --to openai-chat \
        --turns 2 --mutate
"""

from __future__ import annotations

from typing import Any

from toolwire.engines.repair import repair


def openai_chat(messages: list[Any]) -> Any:
    """Repair an OpenAI Chat Completions history."""
    return repair(messages, "openai-chat").history


def openai_chat_drop(messages: list[Any]) -> Any:
    """Repair it, dropping unanswered calls and orphaned results instead."""
    return repair(messages, "openai-chat", orphan_results="drop", unanswered_calls="drop").history


def mistral_chat(messages: list[Any]) -> Any:
    """Repair a Mistral history (nine-character alphanumeric ids)."""
    return repair(messages, "mistral-chat").history


def gemini_contents(contents: list[Any]) -> Any:
    """Repair a Gemini contents history."""
    return repair(contents, "gemini-contents").history


def aisdk_model_messages(messages: list[Any]) -> Any:
    """Repair an AI SDK model-message history."""
    return repair(messages, "aisdk-model-messages").history


def aisdk_ui_messages(messages: list[Any]) -> Any:
    """Repair an AI SDK UI-message history (a call and its result share one tool part)."""
    return repair(messages, "aisdk-ui-messages").history


def openai_responses(items: list[Any]) -> Any:
    """Repair an OpenAI Responses ``input`` item list."""
    return repair(items, "openai-responses").history


def anthropic_messages(messages: list[Any]) -> Any:
    """Repair an Anthropic Messages history."""
    return repair(messages, "anthropic-messages").history


def bedrock_converse(messages: list[Any]) -> Any:
    """Repair a Bedrock Converse history."""
    return repair(messages, "bedrock-converse").history


def otel_genai(messages: list[Any]) -> Any:
    """Repair OpenTelemetry GenAI input messages (``gen_ai.input.messages``)."""
    return repair(messages, "otel-genai").history
