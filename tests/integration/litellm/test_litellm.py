"""LiteLLM's proxy as a real gateway under fuzz: three routes, each in front of toolwire's mock provider.

LiteLLM's proxy has pins of its own, so it runs from a venv of its own (``.ci/run`` makes
``.ci/litellm-venv`` with ``litellm[proxy]`` pinned and names its ``litellm`` in ``TOOLWIRE_LITELLM``);
the test starts it as a subprocess, in a session of its own, on a free loopback port, with a config
that points its models at the mock, and ends the whole session afterwards.  What it finds in LiteLLM
is a result, not a failure: each known finding is set aside (``ignore``) with the reason, and the test
fails only on a finding not known yet.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from helpers.proxy_support import free_port
from toolwire.engines.fuzzing._campaign import fuzz
from toolwire.engines.gateway._target import GatewayTarget

LITELLM = os.environ.get("TOOLWIRE_LITELLM")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not LITELLM and not os.environ.get("CI"),
        reason="TOOLWIRE_LITELLM names no litellm executable (.ci/run installs litellm[proxy] in "
        ".ci/litellm-venv and sets it)",
    ),
]

#: route: (client path, model, --from, --to, known findings and why).
ROUTES = {
    "chat-client-anthropic-upstream": (
        "/v1/chat/completions",
        "claude-upstream",
        "anthropic-stream",
        "openai-chat-stream",
        # An Anthropic server tool (server_tool_use, run by Anthropic, its result already in the
        # stream) comes out as a Chat tool_call the client never declared and is asked to run.
        # A tool_use whose whole input comes in its content_block_start, with no input_json_delta
        # (programmatic tool calls; Anthropic-compatible servers): the Chat tool_call comes out with
        # arguments '' (the input is lost), and turn 2 sends '{}' upstream as that call's input.
        ("one-to-one:invented", "arguments:changed", "arguments:turn-2-changed"),
    ),
    "anthropic-client-chat-upstream": (
        "/v1/messages",
        "vllm-upstream",
        "openai-chat-stream",
        "anthropic-stream",
        # Chat fragments of two calls interleaved by index (call 0's last fragment after call 1
        # started): the translator appends them to the tool_use block open last, so call 0's input is
        # cut ('{') and call 1's gets '}' twice; turn 2 then sends the cut arguments upstream.
        # Chat fragments that repeat their call's id (quirk repeated-ids: vLLM, DeepSeek, Qwen): every
        # fragment with an id opens a new tool_use block, so one call becomes several, cut ('{').
        # A turn without finish_reason (omitted-finish-reason) stops with end_turn though it calls.
        (
            "validity:AN-10d",
            "arguments:changed",
            "arguments:turn-2-changed",
            "one-to-one:duplicated",
            "one-to-one:turn-2-duplicated",
            "validity:AN-2",
            "validity:AN-10e",
        ),
    ),
    "responses-client-chat-upstream": (
        "/v1/responses",
        "compat-upstream",
        "openai-chat-stream",
        "openai-responses-stream",
        # A new call at the index of the call before it (quirk index-reuse: Gemini's OpenAI-compatible
        # endpoint, Ollama): its fragments are appended to the first call's arguments ('{}{}'), the
        # first item is never done (RS-9d), and turn 2 sends the merged arguments upstream.
        # Later fragments with the id "null" (quirk null-ids, langchainjs#11373) open a new call with
        # that id and no name (invented; RS-7f). The merged call's arguments.done then differs from
        # the deltas streamed for it (RS-7e), under those providers' shapes only: ignored by cause, so
        # that RS-7e on the strict wire still fails the route.
        (
            "arguments:changed",
            "arguments:turn-2-changed",
            "validity:RS-9d",
            "one-to-one:invented",
            "validity:RS-7f",
            "validity:RS-7e [index-0]",
            "validity:RS-7e [index-reuse]",
            "validity:RS-7e [null-ids]",
        ),
    ),
}


def _config(upstream: int, key: str) -> str:
    base = f"http://127.0.0.1:{upstream}"
    models = [
        ("claude-upstream", "anthropic/claude-sonnet-4-5", base),
        # hosted_vllm: an OpenAI-compatible server LiteLLM sends Chat Completions to from /v1/messages.
        ("vllm-upstream", "hosted_vllm/gpt-4o", base + "/v1"),
        # deepseek: a Chat Completions provider LiteLLM bridges /v1/responses to (openai/ would be
        # sent upstream as Responses).
        ("compat-upstream", "deepseek/deepseek-chat", base + "/v1"),
    ]
    lines = ["model_list:"]
    for name, model, api_base in models:
        lines += [
            f"  - model_name: {name}",
            "    litellm_params:",
            f"      model: {model}",
            f"      api_base: {api_base}",
            "      api_key: fake-key",
        ]
    lines += ["litellm_settings:", "  telemetry: false", "general_settings:", f"  master_key: {key}"]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def litellm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, str]]:
    """LiteLLM's proxy on a free loopback port; yields its URL, the mock's port and its key."""
    assert LITELLM, "CI must set TOOLWIRE_LITELLM (.ci/run installs LiteLLM's proxy)"
    folder = tmp_path_factory.mktemp("litellm")
    upstream, port = free_port(), free_port()
    key = "sk-toolwire-" + secrets.token_hex(16)
    config = folder / "config.yaml"
    config.write_text(_config(upstream, key))
    environment = os.environ | {"LITELLM_LOCAL_MODEL_COST_MAP": "True", "LITELLM_LOG": "ERROR"}
    log = (folder / "litellm.log").open("wb")
    process = subprocess.Popen(
        [LITELLM, "--config", str(config), "--host", "127.0.0.1", "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=environment,
        cwd=folder,
        start_new_session=True,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 180
        while True:
            assert process.poll() is None, Path(log.name).read_text()[-2000:]
            try:
                if httpx.get(url + "/health/liveliness", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "LiteLLM's proxy did not start within 180 s"
            time.sleep(0.5)
        yield url, upstream, key
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)
        log.close()


@pytest.mark.parametrize("route", ROUTES)
def test_litellm_keeps_tool_calls_on_each_route_but_its_known_deviations(
    litellm: tuple[str, int, str], route: str, tmp_path: Path
) -> None:
    url, upstream, key = litellm
    path, model, source, destination, known = ROUTES[route]
    target = GatewayTarget(
        url + path,
        source,
        destination,
        upstream=f"127.0.0.1:{upstream}",
        model=model,
        headers=[("Authorization", f"Bearer {key}")],
    )
    try:
        run = fuzz(target, source, destination, max_examples=40, timeout=30.0, ignore=known, out=tmp_path)
    finally:
        target.close()
    assert run.examples == 40
    assert [c.finding for c in run.counterexamples] == [], [c.message for c in run.counterexamples]
    for saved in tmp_path.iterdir():
        assert key not in saved.read_text()
