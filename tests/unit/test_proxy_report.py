"""The proxy's report (``cli/handlers/_proxy.py``): one JSON line or one text line per finding."""

from __future__ import annotations

import orjson

from toolwire.cli.handlers._proxy import render_told
from toolwire.engines import LiveFinding


def test_each_finding_is_one_json_line_with_where_when_rule_and_fix() -> None:
    from toolwire.properties import Finding

    finding = Finding(
        "RS-7c", "error", "bad sk-" + "b" * 30, 9, 29, "fix it", ("call_1",), "Provider said", None
    )
    told = LiveFinding(
        engine="proxy",
        exchange=3,
        time=0.0,
        method="POST",
        endpoint="api.openai.com/v1/responses",
        side="response",
        protocol="p",
        finding=finding,
    )
    line = orjson.loads(render_told(told, "json"))
    assert {
        k: line[k] for k in ("exchange", "endpoint", "rule", "severity", "ids", "fix", "provider_error")
    } == {
        "exchange": 3,
        "endpoint": "api.openai.com/v1/responses",
        "rule": "RS-7c",
        "severity": "error",
        "ids": ["call_1"],
        "fix": "fix it",
        "provider_error": "Provider said",
    }
    assert line["time"] == "1970-01-01T00:00:00.000Z"
    assert "sk-bbbb" not in line["message"]
    assert render_told(told, "text").startswith(
        "#3 POST api.openai.com/v1/responses response event 9: RS-7c error"
    )
