"""The rules of Google Gemini and Google ADK ids (GM-1 to GM-5b, GM-7, ADK-1, ADK-2)."""

from __future__ import annotations

from typing import Final

from toolwire.properties._rule import Rule

__all__ = ["CONTENTS", "MODELLED_SDK", "RESPONSE", "RULES", "STREAM"]

#: The SDK release whose types this family's model follows (pinned in pyproject.toml's dev
#: extra): a type outside it is passed over with one notice naming this, never a finding.
MODELLED_SDK: Final = "google-genai 3.6.1"

CONTENTS: Final = "gemini-contents"
STREAM: Final = "gemini-stream"
RESPONSE: Final = "gemini-response"

_TYPES = "google-genai 3.4.0 types.py"
_ADK = "google-adk 2.13.0 google/adk/flows/llm_flows/tools/_functions.py"

RULES: Final = (
    Rule(
        "GM-1",
        "always",
        (CONTENTS,),
        "A function response answers its call: the same id when the call has one, and always the same name.",
        source=f"{_TYPES} (FunctionCall.id, FunctionResponse.id: 'Populated by "
        "the client to match the corresponding function call id')"
        ". Severity error -> warning (issue 29): Gemini's rejection of a response whose id or name "
        "differs from its call's is neither documented nor recorded.",
        fix="Copy the call's id (when there is one) and name into its functionResponse; never "
        "pair by name alone when one function is called twice.",
        severity="warning",
    ),
    Rule(
        "GM-2",
        "always",
        (CONTENTS,),
        "A turn holding function calls comes right after a user turn or a function-response turn.",
        source="google-gemini/gemini-cli#11814",
        error="Please ensure that function call turn comes immediately after a user turn or after a "
        "function response turn.",
        fix="Keep the user turn (or the response turn) before every call turn; history must not "
        "start with a function call.",
    ),
    Rule(
        "GM-3",
        "always",
        (CONTENTS,),
        "A function-response turn comes right after a function-call turn.",
        source="googleapis/go-genai#692, langchain-ai/langchain#27799",
        error="Please ensure that function response turn comes immediately after a function call turn.",
        fix="Put the responses in the content right after the model turn that called; drop "
        "responses whose call was trimmed.",
    ),
    Rule(
        "GM-4",
        "always",
        (CONTENTS,),
        "The number of functionResponse parts equals the number of functionCall parts of the "
        "call turn before.",
        source="google-gemini/gemini-cli#4217",
        error="Please ensure that the number of function response parts is equal to the number of "
        "function call parts of the function call turn.",
        fix="Answer every call of a turn, in one content; an error goes in response.error.",
    ),
    Rule(
        "GM-5a",
        "always",
        (CONTENTS,),
        "Responses without ids follow the order of their calls (unconfirmed: whether Gemini "
        "requires it; pairing by position and name is then the only pairing).",
        source="https://ai.google.dev/gemini-api/docs/thought-signatures (its parallel-call example answers "
        "every call in one content); unconfirmed",
        fix="Keep responses in call order, or carry the call ids.",
        severity="warning",
        unconfirmed=True,
    ),
    Rule(
        "GM-5b",
        "always",
        (CONTENTS,),
        "All responses to one call turn go in the next single content; split over consecutive user "
        "contents, they are merged by the Gemini API and rejected by others (a warning: real traffic "
        "shows both).",
        source="https://ai.google.dev/gemini-api/docs/thought-signatures; accepted: tests/data/traffic "
        "crewAIInc__crewAI "
        "TestGeminiNativeToolCalling test_gemini_parallel_native_tool_*.i2.req.json (gemini-2.5-flash, "
        "generativelanguage API, google-genai 1.49.0, HTTP 200, 2026-02-18); rejected with GM-4's error: "
        "pydantic/pydantic-ai#580 (Vertex AI), docker/docker-agent#2958 (Vertex AI), "
        "cloudwego/eino-ext#571 (gemini-3-pro-preview), microsoft/semantic-kernel#10597, "
        "crewAIInc/crewAI#4693 (groups the responses to fix 400 INVALID_ARGUMENT)",
        fix="Put every functionResponse of a call turn in one user content.",
        severity="warning",
    ),
    Rule(
        "GM-7",
        "always",
        (CONTENTS, STREAM),
        "A functionCall has a name and args as an object, or streams its args (Gemini 3: a part "
        "with the name and willContinue true, then parts with partialArgs and no name, closed by a "
        "part without willContinue or by the end of the stream); the parallel calls of one turn, "
        "even when streamed in several chunks, are replayed in one model content. In a stream, a "
        "part with neither name nor args outside a streamed call is a deviation (warning).",
        source="googleapis/go-genai#692; google-genai 3.4.0 types.py "
        "(FunctionCall.partial_args, will_continue; PartialArg.json_path, *_value, will_continue; "
        "FunctionCallingConfig.stream_function_call_arguments). Scope changed (issue 29): streamed "
        "arguments are modelled, on the Gemini API as on Vertex AI (the SDK's 'not supported in "
        "Gemini API' is out of date for Gemini 3), and in a stream a functionCall without a name or "
        "args outside a streamed call is a warning (FunctionCall.name is Optional in the SDK; Gemini 3 "
        "sends such parts: tests/data gemini-stream/gm7-partial-args-without-call.sse). An error from "
        "consumers (issue 38, tests/integration/test_consumer_evidence_gemini.py): args that are not "
        "an object fail google-genai 3.6.1's FunctionCall (args: dict), a ValidationError that ends "
        "generate_content_stream and pydantic-ai-slim 2.78.0's GoogleModel before any call; whole "
        "args without a name are a call pydantic-ai drops and google-genai hands over nameless",
        error="Please ensure that function call turn comes immediately after a user turn or after a "
        "function response turn.",
        fix="Merge every functionCall part of a streamed turn into one model content before replay, "
        "with the arguments of a streamed call assembled from its partialArgs.",
    ),
    Rule(
        "ADK-1",
        "always",
        (CONTENTS,),
        "An id with ADK's prefix adk- is ADK's fallback id: 'adk-' + str(uuid4()), 40 characters.",
        source=f"{_ADK} (generate_client_function_call_id); "
        "utils/_function_call_names.py (AF_FUNCTION_CALL_ID_PREFIX)",
        fix="Do not mint ids with ADK's prefix; ADK treats adk- ids as its own and strips them "
        "before calling Gemini.",
        severity="warning",
    ),
    Rule(
        "ADK-2",
        "always",
        (CONTENTS,),
        "ADK's adk- fallback ids do not reach Gemini: ADK strips them (Interactions API off); "
        "one in a Gemini request means the converter skipped that step.",
        source=f"{_ADK} (remove_client_function_call_id); "
        "context/_contents.py (strip_client_function_call_ids)",
        fix="Strip adk- ids from function_call and function_response before sending to Gemini, "
        "as ADK does; keep them for OpenAI, Anthropic and LiteLLM.",
        severity="warning",
    ),
    Rule(
        "GM-9a",
        "always",
        (RESPONSE,),
        "Every functionCall part of a GenerateContentResponse candidate carries a name, and its args, "
        "when given, are a JSON object (the API sends each call whole).",
        source=f"{_TYPES} (GenerateContentResponse, Candidate, FunctionCall: name, args dict); "
        "googleapis/go-genai#692 (each call streamed whole). "
        "An error from consumers (issue 38, tests/integration/test_consumer_evidence_bodies.py): "
        "google-genai 3.6.1 "
        "GenerateContentResponse._from_response refuses args given as text; a call without name it hands "
        "on with name None.",
        fix="Copy each functionCall part whole: its name, its args object and its id when it has one.",
    ),
    Rule(
        "GM-9b",
        "always",
        (RESPONSE,),
        "The functionCall ids of one candidate, where given, are distinct (unconfirmed: google-genai "
        "leaves their uniqueness unspecified; responses pair with calls by id, GM-1).",
        source=f"{_TYPES} (FunctionCall.id: uniqueness unspecified); apache/flink-agents#947",
        fix="Give each call its own id, or none: a repeated id answers two calls with one response.",
        severity="warning",
        unconfirmed=True,
    ),
)
