"""Google Gemini ``contents`` and stream chunks, with Google ADK's fallback ids.

The REST API spells fields in camelCase (``functionCall``), the Python SDK
and ADK dump snake_case (``function_call``); both are read.  Src:
``google-genai`` 3.4.0 ``types.py`` (``Part``, ``FunctionCall``,
``FunctionResponse``); ``google-adk`` 2.13.0
``flows/llm_flows/tools/_functions.py`` and ``utils/_function_call_names.py``.
"""

from __future__ import annotations

import re
from typing import Any, Final

__all__ = [
    "ADK_ID",
    "ADK_ID_PREFIX",
    "ROLE_MODEL",
    "ROLE_USER",
    "function_call",
    "function_response",
    "member",
]

ROLE_USER: Final = "user"
ROLE_MODEL: Final = "model"
#: ADK-1: ``AF_FUNCTION_CALL_ID_PREFIX``.
ADK_ID_PREFIX: Final = "adk-"
#: ADK-1: ``"adk-" + str(uuid4())``, 40 characters.
ADK_ID: Final = re.compile(r"adk-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")


def member(value: dict[str, Any], camel: str) -> Any:
    """``value[camel]``, or its snake_case spelling.

    >>> member({"function_call": {"name": "f"}}, "functionCall")
    {'name': 'f'}
    """
    if camel in value:
        return value[camel]
    return value.get(re.sub(r"(?<!^)([A-Z])", r"_\1", camel).lower())


def function_call(part: Any) -> dict[str, Any] | None:
    """The ``functionCall`` of a part, or ``None``."""
    call = member(part, "functionCall") if isinstance(part, dict) else None
    return call if isinstance(call, dict) else None


def function_response(part: Any) -> dict[str, Any] | None:
    """The ``functionResponse`` of a part, or ``None``."""
    response = member(part, "functionResponse") if isinstance(part, dict) else None
    return response if isinstance(response, dict) else None
