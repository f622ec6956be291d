"""Short renderings of wire values for finding messages."""

from __future__ import annotations

import json

import orjson

__all__ = ["clip", "json_problem", "json_text", "parsed"]


def clip(value: object, limit: int = 60) -> str:
    """``repr`` of ``value``, cut at ``limit`` characters with the full length noted.

    >>> clip("x" * 70, 4)
    "'xxxx'... (70 chars)"
    >>> clip(False)
    'False'
    """
    if not isinstance(value, str):
        text = repr(value)
        return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"
    return repr(value) if len(value) <= limit else repr(value[:limit]) + f"... ({len(value)} chars)"


def json_problem(text: str, *, want_object: bool = False) -> str | None:
    """Why ``text`` is not JSON (or, with ``want_object``, not a JSON object); ``None`` when it is.

    >>> json_problem('{"a": 1}', want_object=True) is None
    True
    >>> json_problem('"x"', want_object=True)
    'parses to a str, not an object'
    """
    try:
        parsed = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        return f"does not parse ({exc})"
    if want_object and not isinstance(parsed, dict):
        return f"parses to a {type(parsed).__name__}, not an object"
    return None


def parsed(value: object) -> object:
    """``value`` parsed when it is JSON text, else ``value`` itself: for comparing arguments.

    >>> parsed('{"a": 1}'), parsed("not json"), parsed(3)
    ({'a': 1}, 'not json', 3)
    """
    if isinstance(value, str):
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return value
    return value


def json_text(value: object) -> str:
    """``value`` as JSON text with sorted keys; text stays as it is (arguments streamed as text).

    >>> json_text({"b": 1, "a": 2}), json_text('{"b": 1}')
    ('{"a":2,"b":1}', '{"b": 1}')
    """
    if isinstance(value, str):
        return value
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    except TypeError:  # an integer past 64 bits, which orjson does not write: JSON allows it
        return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
