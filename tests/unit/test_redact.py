"""Credentials are redacted (``engines/_core/_redact.py``) from headers, URLs and text."""

from __future__ import annotations

from toolwire.engines._core._redact import redact_headers, redact_text, redact_url


def test_credentials_are_redacted_from_headers_urls_and_text() -> None:
    key = "sk-proj-" + "A1b2C3d4" * 6
    headers = redact_headers(
        [("Authorization", f"Bearer {key}"), ("x-api-key", "k"), ("Cookie", "s=1"), ("Accept", "*/*")]
    )
    assert headers == [
        ("Authorization", "[REDACTED]"),
        ("x-api-key", "[REDACTED]"),
        ("Cookie", "[REDACTED]"),
        ("Accept", "*/*"),
    ]
    assert key not in redact_url(f"https://h/v1/x?key={key}&alt=sse")
    assert "alt=sse" in redact_url(f"https://h/v1/x?key={key}&alt=sse")
    assert key not in redact_text(f"error: invalid key {key} given")
    assert "AIza" not in redact_text("use AIzaSyA1234567890abcdefghijklmnopqrstu")
