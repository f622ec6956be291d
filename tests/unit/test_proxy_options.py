"""What ``toolwire proxy`` refuses before it listens (``engines/proxy/_server.py``, the CLI)."""

from __future__ import annotations

import pytest

from toolwire.engines.proxy._server import Proxy, parse_listen
from toolwire.errors import UsageError


def test_listen_reads_host_and_port_and_refuses_anything_else() -> None:
    assert parse_listen("127.0.0.1:8787") == ("127.0.0.1", 8787)
    assert parse_listen("[::1]:9000") == ("::1", 9000)
    with pytest.raises(UsageError, match="HOST:PORT"):
        parse_listen("localhost")


def test_an_upstream_that_is_no_http_url_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="http:// or https://"):
        Proxy("api.openai.com")


def test_an_unknown_protocol_is_a_usage_error() -> None:
    with pytest.raises(UsageError):
        Proxy("http://127.0.0.1:1", protocols=("no-such-protocol",))


def test_the_cli_refuses_a_proxy_without_an_upstream(capsys: pytest.CaptureFixture[str]) -> None:
    from toolwire.cli import main

    assert main(["proxy"]) == 2
    assert "--upstream" in capsys.readouterr().err
