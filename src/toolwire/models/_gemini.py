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
    "set_partial",
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


_STEP: Final = re.compile(r"\.([A-Za-z_][\w-]*)|\[(\d+)\]|\['([^']*)'\]|\[\"([^\"]*)\"\]")


def set_partial(args: dict[str, Any], partial: dict[str, Any], more: bool) -> bool:
    """Put one streamed ``PartialArg`` into ``args``; ``False`` when its ``jsonPath`` cannot be read.

    ``more`` says the previous piece at that path said ``willContinue``: a string piece is
    then appended.  Src: ``google-genai`` 3.4.0 ``PartialArg`` (``json_path``, RFC 9535;
    ``string_value``, ``number_value``, ``bool_value``, ``null_value``, ``will_continue``).

    >>> args: dict[str, Any] = {}
    >>> set_partial(args, {"jsonPath": "$.city", "stringValue": "Par"}, False)
    True
    >>> set_partial(args, {"jsonPath": "$.city", "stringValue": "is"}, True)
    True
    >>> set_partial(args, {"jsonPath": "$.days[1].hot", "boolValue": True}, False)
    True
    >>> args
    {'city': 'Paris', 'days': [None, {'hot': True}]}
    """
    path = member(partial, "jsonPath")
    if not isinstance(path, str) or not path.startswith("$"):
        return False
    steps: list[str | int] = []
    at = 1
    while at < len(path):
        match = _STEP.match(path, at)
        if match is None:
            return False
        name, number, quoted, double = match.groups()
        steps.append(
            int(number) if number is not None else next(x for x in (name, quoted, double) if x is not None)
        )
        at = match.end()
    if not steps:
        return False
    value: Any = None
    for field in ("stringValue", "numberValue", "boolValue"):
        if member(partial, field) is not None:
            value = member(partial, field)
            break
    holder: Any = args
    for step, after in zip(steps, [*steps[1:], None], strict=True):
        if after is None:
            break
        empty: Any = [] if isinstance(after, int) else {}
        holder = _slot(holder, step, empty)
        if holder is None:
            return False
    last = steps[-1]
    if isinstance(last, int):
        if not isinstance(holder, list):
            return False
        holder.extend([None] * (last + 1 - len(holder)))
    elif not isinstance(holder, dict):
        return False
    before = holder[last] if isinstance(last, int) or last in holder else None
    holder[last] = before + value if more and isinstance(before, str) and isinstance(value, str) else value
    return True


def _slot(holder: Any, step: str | int, empty: Any) -> Any:
    """The container at ``holder[step]``, made ``empty`` when absent; ``None`` on a type clash."""
    if isinstance(step, int):
        if not isinstance(holder, list):
            return None
        holder.extend([None] * (step + 1 - len(holder)))
    elif not isinstance(holder, dict):
        return None
    current = holder[step] if isinstance(step, int) else holder.get(step)
    if current is None:
        holder[step] = current = empty
    return current if isinstance(current, type(empty)) else None
