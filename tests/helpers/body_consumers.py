"""Real consumers of response bodies, fed a body in-process, and what each made of the calls.

Issue 38's severity policy on the body side: a body rule is an error when a real consumer of the
body loses, duplicates or changes a call, its arguments or its id, or refuses the body.  Each
runner here feeds one consumer a response body (an SDK client's HTTP layer is a mock transport:
nothing goes over the network) and returns ``Seen`` (tests/helpers/consumers.py): the calls it
hands its user as (id, name, arguments), or the error it raised.  Arguments that are not a string
are shown as ``object:`` and their JSON, so that a dict handed on where text was due is visible.
The consumers are pinned in pyproject.toml's dev extra.
"""

from __future__ import annotations

import json
from typing import Any

from helpers.consumers import Seen, catching

Call = tuple[Any, Any, Any]


def _arguments(value: Any) -> Any:
    if value is None or isinstance(value, str):
        return value
    return "object:" + json.dumps(value, separators=(",", ":"))


def _mock(body: dict[str, Any], *more: dict[str, Any], sent: list[Any] | None = None) -> Any:
    """An httpx2 client answering each request with the next of ``body, *more`` (the last repeats)."""
    import httpx2

    bodies = [body, *more]
    log: list[Any] = [] if sent is None else sent

    def handle(request: Any) -> Any:
        log.append(request)
        return httpx2.Response(200, json=bodies[min(len(log), len(bodies)) - 1])

    return httpx2.Client(transport=httpx2.MockTransport(handle))


def _openai(body: dict[str, Any]) -> Any:
    import openai

    return openai.OpenAI(
        api_key="test", base_url="http://127.0.0.1:9/v1", http_client=_mock(body), max_retries=0
    )


# OpenAI Chat Completions -----------------------------------------------------------------------


def openai_chat_validate(body: dict[str, Any]) -> Seen:
    """openai-python's ``ChatCompletion.model_validate``: the calls of the first choice."""

    def run(seen: Seen) -> None:
        from openai.types.chat import ChatCompletion

        completion = ChatCompletion.model_validate(body)
        calls = completion.choices[0].message.tool_calls or []
        seen.calls = [(c.id, c.function.name, c.function.arguments) for c in calls if c.type == "function"]

    return catching(run)


def openai_chat_client(body: dict[str, Any]) -> Seen:
    """openai-python's ``client.chat.completions.create`` (its parse path): the calls it returns."""

    def run(seen: Seen) -> None:
        completion = _openai(body).chat.completions.create(
            model="gpt-test", messages=[{"role": "user", "content": "hi"}]
        )
        seen.calls = [
            (getattr(c, "id", None), c.function.name, _arguments(c.function.arguments))
            for c in completion.choices[0].message.tool_calls or []
        ]

    return catching(run)


def langchain_openai_chat(body: dict[str, Any]) -> Seen:
    """langchain-openai's ``_convert_dict_to_message`` on the first choice's message."""

    def run(seen: Seen) -> None:
        from langchain_openai.chat_models.base import _convert_dict_to_message

        converted: Any = _convert_dict_to_message(body["choices"][0]["message"])
        seen.calls = [(c["id"], c["name"], json.dumps(c["args"])) for c in converted.tool_calls]
        seen.calls += [
            (c["id"], c["name"], "invalid:" + str(c["args"])) for c in converted.invalid_tool_calls
        ]

    return catching(run)


def openai_agents_chat(body: dict[str, Any]) -> Seen:
    """openai-agents' ``Converter.message_to_output_items`` on the message openai-python parsed."""

    def run(seen: Seen) -> None:
        from agents.models.chatcmpl_converter import Converter

        completion = _openai(body).chat.completions.create(
            model="gpt-test", messages=[{"role": "user", "content": "hi"}]
        )
        items = Converter.message_to_output_items(completion.choices[0].message)
        seen.calls = [(i.call_id, i.name, i.arguments) for i in items if i.type == "function_call"]

    return catching(run)


# OpenAI Responses ------------------------------------------------------------------------------


def openai_responses_client(body: dict[str, Any]) -> Seen:
    """openai-python's ``client.responses.create`` (its parse path): its function_call items."""

    def run(seen: Seen) -> None:
        result = _openai(body).responses.create(model="gpt-test", input="hi")
        seen.calls = [
            (getattr(i, "call_id", None), getattr(i, "name", None), _arguments(getattr(i, "arguments", None)))
            for i in result.output
            if i.type == "function_call"
        ]

    return catching(run)


def langchain_openai_responses(body: dict[str, Any]) -> Seen:
    """langchain-openai's ``_construct_lc_result_from_responses_api`` on the response openai-python parsed."""

    def run(seen: Seen) -> None:
        from langchain_openai.chat_models.base import _construct_lc_result_from_responses_api

        result = _openai(body).responses.create(model="gpt-test", input="hi")
        converted: Any = _construct_lc_result_from_responses_api(result).generations[0].message
        seen.calls = [(c["id"], c["name"], json.dumps(c["args"])) for c in converted.tool_calls]
        seen.calls += [
            (c["id"], c["name"], "invalid:" + str(c["args"])) for c in converted.invalid_tool_calls
        ]

    return catching(run)


# Anthropic -------------------------------------------------------------------------------------


def _anthropic(client: Any) -> Any:
    import anthropic

    return anthropic.Anthropic(
        api_key="test", base_url="http://127.0.0.1:9", http_client=client, max_retries=0
    )


def anthropic_client(body: dict[str, Any]) -> Seen:
    """anthropic-python's ``client.messages.create`` (its parse path): its tool_use blocks."""

    def run(seen: Seen) -> None:
        message = _anthropic(_mock(body)).messages.create(
            model="claude-test", max_tokens=64, messages=[{"role": "user", "content": "hi"}]
        )
        seen.calls = [
            (getattr(b, "id", None), getattr(b, "name", None), _arguments(getattr(b, "input", None)))
            for b in message.content
            if b.type == "tool_use"
        ]

    return catching(run)


def langchain_anthropic(body: dict[str, Any]) -> Seen:
    """langchain-anthropic's ``ChatAnthropic._format_output`` on the message anthropic-python parsed."""

    def run(seen: Seen) -> None:
        from langchain_anthropic import ChatAnthropic

        message = _anthropic(_mock(body)).messages.create(
            model="claude-test", max_tokens=64, messages=[{"role": "user", "content": "hi"}]
        )
        model = ChatAnthropic(model="claude-test", api_key="test")  # type: ignore[arg-type,call-arg]
        converted: Any = model._format_output(message).generations[0].message
        seen.calls = [(c["id"], c["name"], json.dumps(c["args"])) for c in converted.tool_calls]

    return catching(run)


def anthropic_tool_runner(body: dict[str, Any], answer: dict[str, Any]) -> Seen:
    """anthropic-python's ``client.beta.messages.tool_runner(...).until_done()`` with a get_weather tool.

    The server answers the first request with ``body`` and every later one with ``answer``;
    ``calls`` are the tool's executions (id "ran", name, arguments), then ("requests", n, stop)
    with the number of requests the runner sent and the stop_reason of the message it ended on.
    """

    def run(seen: Seen) -> None:
        from anthropic import beta_tool

        sent: list[Any] = []

        @beta_tool
        def get_weather(city: str) -> str:
            """The weather in a city."""
            seen.calls.append(("ran", "get_weather", json.dumps({"city": city}, separators=(",", ":"))))
            return "sunny"

        runner = _anthropic(_mock(body, answer, sent=sent)).beta.messages.tool_runner(
            model="claude-test",
            max_tokens=64,
            messages=[{"role": "user", "content": "hi"}],
            tools=[get_weather],
        )
        last = runner.until_done()
        seen.calls.append(("requests", len(sent), last.stop_reason))

    return catching(run)


# Gemini ----------------------------------------------------------------------------------------


def google_genai(body: dict[str, Any]) -> Seen:
    """google-genai's ``GenerateContentResponse._from_response`` (what its client does with a body)
    and the response's ``function_calls``."""

    def run(seen: Seen) -> None:
        from google.genai import types

        parsed = types.GenerateContentResponse._from_response(response=body, kwargs={})
        seen.calls = [(c.id, c.name, _arguments(c.args)) for c in parsed.function_calls or []]

    return catching(run)


# Mistral ---------------------------------------------------------------------------------------


def mistralai(body: dict[str, Any]) -> Seen:
    """mistralai's ``ChatCompletionResponse.model_validate`` (its client's unmarshalling model)."""

    def run(seen: Seen) -> None:
        from mistralai.client import models

        parsed = models.ChatCompletionResponse.model_validate(body)
        seen.calls = [
            (c.id, c.function.name, _arguments(c.function.arguments))
            for c in parsed.choices[0].message.tool_calls or []
        ]

    return catching(run)


# Bedrock ---------------------------------------------------------------------------------------


def _converse() -> Any:
    import botocore.session

    return botocore.session.get_session().get_service_model("bedrock-runtime").operation_model("Converse")


def botocore_converse(body: dict[str, Any]) -> Seen:
    """botocore's rest-json parser on a Converse response: its toolUse blocks."""

    def run(seen: Seen) -> None:
        from botocore.parsers import create_parser

        response = {"status_code": 200, "headers": {}, "body": json.dumps(body).encode()}
        parsed = create_parser("rest-json").parse(response, _converse().output_shape)
        uses = [block["toolUse"] for block in parsed["output"]["message"]["content"] if "toolUse" in block]
        seen.calls = [(u.get("toolUseId"), u.get("name"), _arguments(u.get("input"))) for u in uses]

    return catching(run)


def botocore_converse_next_turn(body: dict[str, Any]) -> Seen:
    """botocore's parameter validation of the next Converse request, which sends the parsed
    assistant message back (the Converse tool-use loop): an error when botocore refuses it."""

    def run(seen: Seen) -> None:
        from botocore.parsers import create_parser
        from botocore.validate import validate_parameters

        response = {"status_code": 200, "headers": {}, "body": json.dumps(body).encode()}
        parsed = create_parser("rest-json").parse(response, _converse().output_shape)
        reply = parsed["output"]["message"]
        messages = [{"role": "user", "content": [{"text": "hi"}]}, reply]
        validate_parameters({"modelId": "model-test", "messages": messages}, _converse().input_shape)
        uses = [block["toolUse"] for block in reply["content"] if "toolUse" in block]
        seen.calls = [(u.get("toolUseId"), u.get("name"), _arguments(u.get("input"))) for u in uses]

    return catching(run)


# The AI SDK's message consumers (node) ---------------------------------------------------------


def ai_messages(consumer: str, messages: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    """A consumer of AI SDK messages in the installed ``ai`` package (tests/sdk/message_consumers.mjs):
    ``{"messages": [...]}`` (what it made of them) or ``{"error": "Name: message"}``.

    Run only where ``consumers.node_missing()`` is None.
    """
    import subprocess

    from helpers.consumers import SDK

    line = json.dumps({"consumer": consumer, "messages": messages} | more) + "\n"
    out = subprocess.run(
        ["node", str(SDK / "message_consumers.mjs")],
        input=line,
        capture_output=True,
        text=True,
        check=True,
        cwd=SDK,
    )
    answer: dict[str, Any] = json.loads(out.stdout)
    return answer
