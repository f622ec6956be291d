"""NousResearch hermes-agent's pre-call history sanitizer (hermes-agent 0.19.0 from PyPI) as a converter.

``sanitize_api_messages`` (``agent/agent_runtime_helpers.py``; ``AIAgent._sanitize_api_messages``
forwards to it) runs on every request hermes-agent sends: it drops messages of roles the API will
not take and empty ``tool_calls`` arrays, names nameless calls, removes tool messages whose call no
assistant message made, and adds a stub result for each call left without one.  It changes the
messages it is given in place, so the converter hands it a copy.

hermes-agent is not a dependency of toolwire and its pins are its own: install both in a venv of
their own (``python3 -m venv hermes-venv && hermes-venv/bin/pip install hermes-agent==0.19.0 .``)::

    hermes-venv/bin/toolwire fuzz examples/hermes_sanitizer.py:chat \
        --from openai-chat --to openai-chat --mutate
"""

from __future__ import annotations

import copy
from typing import Any

from agent.agent_runtime_helpers import sanitize_api_messages


def chat(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """hermes-agent's sanitizer: an OpenAI Chat history in, the one it sends out."""
    return sanitize_api_messages(copy.deepcopy(messages))
