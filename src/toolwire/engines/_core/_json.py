"""JSON written with orjson, and with the standard library where orjson refuses a value.

A history is any JSON, and JSON has integers of any size: orjson writes none past 64 bits (it
raises ``TypeError``), the standard library writes them all.  What toolwire writes of a history
(``toolwire repair``'s report, a repair's changes in the proxy's reports and records) goes
through :func:`dumps`, so such an integer is written, not a traceback.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from toolwire.engines._core._redact import redact_bytes

__all__ = ["dumps", "redacted"]


def dumps(value: Any, *, indent: bool = False) -> bytes:
    """``value`` as UTF-8 JSON, compact or indented by two; an integer past 64 bits written whole.

    >>> dumps({"seed": 2**70, "a": [1]})
    b'{"seed":1180591620717411303424,"a":[1]}'
    """
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2 if indent else None)
    except TypeError:
        separators = None if indent else (",", ":")
        text = json.dumps(value, ensure_ascii=False, indent=2 if indent else None, separators=separators)
        return text.encode()


def redacted(value: Any) -> Any:
    """A JSON value with key-looking parts of its strings redacted (its integers kept whole).

    >>> redacted({"n": 2**70, "key": "sk-" + "a" * 40})
    {'n': 1180591620717411303424, 'key': '[REDACTED]'}
    """
    if value is None:
        return None
    try:
        return orjson.loads(redact_bytes(orjson.dumps(value)))
    except TypeError:  # orjson would read such an integer back as a float: the standard library's
        return json.loads(redact_bytes(dumps(value)))
