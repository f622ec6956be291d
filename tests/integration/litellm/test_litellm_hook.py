"""toolwire's repairer as LiteLLM's pre-call hook: on its own, then inside the pinned LiteLLM proxy.

The proxy test runs LiteLLM's proxy from the venv ``.ci/run`` makes (``TOOLWIRE_LITELLM`` names its
``litellm``; toolwire is installed there too) with the hook in its ``callbacks:``, in front of a mock
provider on loopback that answers OpenAI's 400 text to a history ``check`` rejects (rule CC-3's
provider error for an orphaned tool message) and 200 otherwise.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

import toolwire.litellm_hook as hook_api
from helpers.proxy_support import free_port, serving
from toolwire import check
from toolwire.engines.repair import Repair
from toolwire.errors import UsageError
from toolwire.litellm_hook import ToolwireRepair

LITELLM = os.environ.get("TOOLWIRE_LITELLM")


def _call(ident: str) -> dict[str, Any]:
    return {"id": ident, "type": "function", "function": {"name": "transfer", "arguments": "{}"}}


#: A turn whose assistant message was cut by compaction: the tool message of call_9 answers nothing.
ORPHANED = [
    {"role": "user", "content": "Pay the invoice, then tell me the balance."},
    {"role": "assistant", "content": None, "tool_calls": [_call("call_1")]},
    {"role": "tool", "tool_call_id": "call_1", "content": "Balance: 120 EUR"},
    {"role": "tool", "tool_call_id": "call_9", "content": "Transfer completed, transaction 123"},
]


def _run(hook: ToolwireRepair, data: dict[str, Any], call_type: str = "acompletion") -> dict[str, Any]:
    return asyncio.run(hook.async_pre_call_hook(None, None, data, call_type))


def test_the_hooks_api_is_pinned() -> None:
    assert hook_api.__all__ == ["PROTOCOLS", "ToolwireRepair", "repair_hook"]


def test_the_hook_repairs_the_history_of_a_chat_request_and_keeps_the_rest_of_its_body() -> None:
    seen: list[Repair] = []
    body = {"model": "gpt-4o", "temperature": 0, "messages": ORPHANED}
    out = _run(ToolwireRepair(on_repair=seen.append), body)
    assert body["messages"] is ORPHANED  # the request as the client sent it is not changed
    assert out["model"] == "gpt-4o" and out["temperature"] == 0
    assert check(out["messages"], "openai-chat").exit_code == 0
    assert "Transfer completed, transaction 123" in out["messages"][-1]["content"]
    assert [(c.rule, c.action) for r in seen for c in r.changes] == [("CC-3", "note")]


def test_a_clean_request_and_one_toolwire_cannot_read_pass_as_they_came() -> None:
    hook = ToolwireRepair()
    clean = {"model": "gpt-4o", "messages": ORPHANED[:3]}
    assert _run(hook, clean) is clean
    embedding = {"model": "e", "input": ["text"]}
    assert _run(hook, embedding, "aembedding") is embedding
    odd = {"model": "gpt-4o", "messages": [{"type": "response.created"}]}
    assert _run(hook, odd) is odd


def test_the_profile_is_chosen_per_model_before_the_default() -> None:
    hook = ToolwireRepair(provider="openai", providers={"mistral-large": "mistral"})
    body = {"model": "mistral-large", "messages": ORPHANED[:3]}
    out = _run(hook, body)
    ids = {m.get("tool_call_id") for m in out["messages"]} - {None}
    assert len(ids) == 1 and all(len(i) == 9 and i.isalnum() for i in ids)  # Mistral's ids
    openai = {**body, "model": "gpt-4o"}
    assert _run(hook, openai) is openai  # OpenAI takes call_1


def test_the_responses_and_anthropic_routes_are_repaired_as_their_protocols() -> None:
    hook = ToolwireRepair()
    responses = {
        "model": "m",
        "input": [{"type": "function_call_output", "call_id": "call_9", "output": "42"}],
    }
    assert check(_run(hook, responses, "aresponses")["input"], "openai-responses").exit_code == 0
    anthropic = {
        "model": "m",
        "messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_9"}]}],
    }
    assert check(_run(hook, anthropic, "anthropic_messages")["messages"], "anthropic-messages").exit_code == 0


def test_a_responses_result_answering_a_stored_calls_passes_as_it_came() -> None:
    # previous_response_id brings the call in: its function_call_output answers it (as the proxy
    # repairs such a body), and LiteLLM's own keys of the request come back as they were.
    seen: list[Repair] = []
    hook = ToolwireRepair(on_repair=seen.append)
    output = {"type": "function_call_output", "call_id": "call_a", "output": "Transfer done 123"}
    data = {"model": "gpt-4o", "previous_response_id": "resp_1", "input": [output]}
    assert _run(hook, data, "aresponses") is data
    by_conversation = {"model": "gpt-4o", "conversation": "conv_1", "input": [output]}
    assert _run(hook, by_conversation, "aresponses") is by_conversation
    assert seen == []
    logging_obj = object()  # LiteLLM's data holds objects of its own, not toolwire's to read
    call = {"type": "function_call", "call_id": "call_b", "name": "f", "arguments": "{}"}
    broken = {**data, "input": [output, call], "litellm_logging_obj": logging_obj, "metadata": {"k": 1}}
    out = _run(hook, broken, "aresponses")
    assert out["litellm_logging_obj"] is logging_obj and out["metadata"] == {"k": 1}
    assert out["previous_response_id"] == "resp_1" and out["input"][0] == output
    assert [(c.rule, c.action) for r in seen for c in r.changes] == [("RS-4", "answer")]
    assert seen[0].history == out["input"]  # on_repair gets the history, as before


def test_a_profile_applies_to_its_wire_and_other_wires_get_their_own_rules() -> None:
    hook = ToolwireRepair(provider="deepseek", providers={"claude": "mistral"})
    anthropic = {
        "model": "claude",
        "messages": [
            {"role": "user", "content": "Hi"},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}],
            },
            {"role": "user", "content": "next"},
        ],
    }
    out = _run(hook, anthropic, "anthropic_messages")
    assert check(out["messages"], "anthropic-messages").exit_code == 0
    assert out["messages"][2]["content"][0]["tool_use_id"] == "toolu_1"
    responses = {
        "model": "gpt-4o",
        "input": [{"type": "function_call_output", "call_id": "call_9", "output": "42"}],
    }
    assert check(_run(hook, responses, "aresponses")["input"], "openai-responses").exit_code == 0
    chat = {
        "model": "deepseek-chat",
        "messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "tool_calls": []}],
    }
    assert "tool_calls" not in _run(hook, chat)["messages"][1]  # DS-3: deepseek's own rule


@pytest.mark.parametrize(
    ("kwargs", "said"),
    [
        ({"provider": "nobody"}, "no provider profile"),
        ({"providers": {"m": "nobody"}}, "no provider profile"),
        ({"orphan_results": "delete"}, "orphan_results"),
        ({"unanswered_calls": "ignore"}, "unanswered_calls"),
    ],
)
def test_a_bad_option_is_refused_when_the_hook_is_made(kwargs: dict[str, Any], said: str) -> None:
    with pytest.raises(UsageError, match=said):
        ToolwireRepair(**kwargs)


# --- inside LiteLLM's proxy ---------------------------------------------------------------------


def _mock_provider(seen: list[dict[str, Any]]) -> Starlette:
    """OpenAI's Chat Completions as far as a history goes: its 400 for one ``check`` rejects."""

    async def completions(request: Request) -> JSONResponse:
        body = await request.json()
        seen.append(body)
        report = check(body.get("messages"), "openai-chat")
        if report.errors:
            error = report.errors[0].provider_error or report.errors[0].message
            return JSONResponse(
                {
                    "error": {
                        "message": error,
                        "type": "invalid_request_error",
                        "param": "messages",
                        "code": None,
                    }
                },
                status_code=400,
            )
        return JSONResponse(
            {
                "id": "chatcmpl-toolwire",
                "object": "chat.completion",
                "created": 0,
                "model": body.get("model", "gpt-4o"),
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": "Done."},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            }
        )

    return Starlette(routes=[Route("/v1/chat/completions", completions, methods=["POST"])])


#: The callbacks module beside LiteLLM's config: the hook for model "repaired" only, so one proxy
#: shows the request with and without it.
_CALLBACKS = """
from toolwire.litellm_hook import ToolwireRepair


class ForOneModel(ToolwireRepair):
    async def async_pre_call_hook(self, user_api_key_dict, cache, data, call_type):
        if data.get("model") != "repaired":
            return data
        return await super().async_pre_call_hook(user_api_key_dict, cache, data, call_type)


hook = ForOneModel(provider="openai")
"""


def _config(upstream: str, key: str) -> str:
    lines = ["model_list:"]
    for name in ("repaired", "unrepaired"):
        lines += [
            f"  - model_name: {name}",
            "    litellm_params:",
            "      model: openai/gpt-4o",
            f"      api_base: {upstream}/v1",
            "      api_key: fake-key",
        ]
    lines += [
        "litellm_settings:",
        "  telemetry: false",
        "  num_retries: 0",
        "  callbacks: repair_callbacks.hook",
        "general_settings:",
        f"  master_key: {key}",
    ]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, list[dict[str, Any]]]]:
    """LiteLLM's proxy with the hook, in front of the mock; yields its URL, key and what the mock saw."""
    assert LITELLM, "CI must set TOOLWIRE_LITELLM (.ci/run installs LiteLLM's proxy)"
    python = str(Path(LITELLM).with_name("python"))
    environment = os.environ | {"LITELLM_LOCAL_MODEL_COST_MAP": "True", "LITELLM_LOG": "ERROR"}
    importing = [python, "-c", "import toolwire.litellm_hook"]
    found = subprocess.run(importing, capture_output=True, text=True, env=environment, check=False)
    assert found.returncode == 0, (
        f"toolwire is not importable beside {LITELLM} (.ci/run installs it there): {found.stderr[-2000:]}"
    )
    seen: list[dict[str, Any]] = []
    folder = tmp_path_factory.mktemp("litellm-hook")
    key = "sk-toolwire-" + secrets.token_hex(16)
    with serving(_mock_provider(seen)) as upstream:
        (folder / "repair_callbacks.py").write_text(_CALLBACKS)
        config = folder / "config.yaml"
        config.write_text(_config(upstream, key))
        port = free_port()
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
            yield url, key, seen
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(5)
            log.close()


@pytest.mark.slow
@pytest.mark.skipif(
    not LITELLM and not os.environ.get("CI"),
    reason="TOOLWIRE_LITELLM names no litellm executable (.ci/run installs litellm[proxy] in "
    ".ci/litellm-venv and sets it)",
)
def test_the_hook_turns_litellms_400_for_an_orphaned_result_into_a_200(
    proxied: tuple[str, str, list[dict[str, Any]]],
) -> None:
    url, key, seen = proxied
    headers = {"Authorization": f"Bearer {key}"}

    def send(model: str) -> httpx.Response:
        body = {"model": model, "messages": ORPHANED}
        return httpx.post(url + "/v1/chat/completions", json=body, headers=headers, timeout=60)

    rejected = send("unrepaired")
    assert rejected.status_code == 400, rejected.text
    assert "Invalid parameter: 'tool_call_id' of 'call_9' not found in 'tool_calls'" in rejected.text
    seen.clear()
    accepted = send("repaired")
    assert accepted.status_code == 200, accepted.text
    assert accepted.json()["choices"][0]["message"]["content"] == "Done."
    assert len(seen) == 1
    forwarded = seen[0]["messages"]
    assert check(forwarded, "openai-chat").exit_code == 0, json.dumps(forwarded)
    assert any("Transfer completed, transaction 123" in str(m.get("content")) for m in forwarded)
