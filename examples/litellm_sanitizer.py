"""LiteLLM's ``modify_params`` message sanitizer (litellm 1.108.7, as CI pins it) as a converter.

With ``litellm.modify_params = True``, LiteLLM runs ``sanitize_messages_for_tool_calling``
(``litellm/litellm_core_utils/prompt_templates/factory.py``) on an OpenAI-format history before it
converts it for Anthropic: an unanswered call gets a dummy result (Case A), a tool message whose id
the latest assistant message did not call is removed (Case B), empty text becomes a placeholder
(Case C), and a repeated result of one id keeps only the last (Case D).  ``chat`` is that function
called directly, OpenAI Chat in and out; ``anthropic`` goes on to LiteLLM's own conversion to
Anthropic Messages, which the provider is sent.

litellm is not a dependency of toolwire: run these where it is installed (``.ci/run``'s
``.ci/litellm-venv`` has both)::

    .ci/litellm-venv/bin/toolwire fuzz examples/litellm_sanitizer.py:chat \
        --from openai-chat --to openai-chat --mutate
    .ci/litellm-venv/bin/toolwire fuzz examples/litellm_sanitizer.py:anthropic \
        --from openai-chat --to anthropic-messages --mutate
"""

from __future__ import annotations

import copy
from typing import Any

import litellm
from litellm.litellm_core_utils.prompt_templates.factory import (
    anthropic_messages_pt,
    sanitize_messages_for_tool_calling,
)

litellm.modify_params = True


def chat(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The sanitizer alone: an OpenAI Chat history in, the sanitized one out."""
    return list(sanitize_messages_for_tool_calling(copy.deepcopy(messages)))  # type: ignore[arg-type]


def anthropic(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The sanitizer, then LiteLLM's conversion to the Anthropic Messages it sends."""
    sanitized = [m for m in chat(messages) if m.get("role") != "system"]
    converted: list[dict[str, Any]] = anthropic_messages_pt(
        sanitized, model="claude-sonnet-4-5", llm_provider="anthropic"
    )
    return converted
