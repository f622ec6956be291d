"""The rows of the real-converter benchmark: real converters pinned at a buggy and a fixed release.

Each row names one project's converter, the release that has a public tool-call bug and the
release that fixed it, the upstream reference, the protocol pair toolwire fuzzes it on, and which
findings are the row's bug. ``install.py`` makes one virtual environment per (row, pin) and
``run.py`` runs a campaign in each. A row's project comes from PyPI (``runtime="python"``, a Python
adapter) or from npm (``runtime="node"``, a Node adapter run as a command target in the pin's folder).

The projects are deliberately none of those the outside measure (or another row set) uses
(LiteLLM, LangChain with langsmith and langgraph, LlamaIndex, openai-agents, the openai SDK, the
Vercel AI SDK, Google ADK, pydantic-ai, open-responses-server, Portkey, Haystack, Langfuse,
Agno/phidata, aisuite, llm, agent-framework, smolagents, Qwen-Agent, ag-ui, OpenLIT, MLflow,
Codex, Mastra, LangChain.js, OmniRoute, workers-ai-provider, Open WebUI, vLLM, SGLang, Bifrost,
llama.cpp, mlx-lm, Arize openinference), so that the measures stay independent. (Haystack, Langfuse,
Agno, aisuite and llm are the rows of this set itself.)
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Final

HERE = Path(__file__).resolve().parent
ADAPTERS = HERE / "adapters"


@dataclass(frozen=True)
class Bug:
    """A finding that counts as the row's bug: its symptom (``one-to-one:lost``, ``raises``, or a
    property alone, ``arguments``), where the symptom alone would also match other bugs a pattern
    its message must match, and the cause it must have: the quirk profiles its minimal
    counterexample needs (``()``: the strict wire; None: any).  A finding id names its cause after
    its symptom (``one-to-one:lost [index-0]``); older toolwire releases name none."""

    finding: str
    message: str | None = None
    cause: tuple[str, ...] | None = None

    def matches(self, finding: str, message: str) -> bool:
        symptom, _, needs = finding.partition(" [")
        if symptom != self.finding and symptom.split(":", 1)[0] != self.finding:
            return False
        cause = tuple(sorted(n for n in needs.rstrip("]").split(",") if n))
        if self.cause is not None and cause != tuple(sorted(self.cause)):
            return False
        return self.message is None or re.search(self.message, message) is not None


@dataclass(frozen=True)
class Known:
    """Another real bug of the project that yields findings of the row's kind, told apart by the shape
    features of the shrunk counterexample's input (``toolwire shapes``): any one of ``shapes``, each
    a set of features that must all be there."""

    name: str
    shapes: tuple[frozenset[str], ...]
    reference: str

    def matches(self, features: list[str]) -> bool:
        return any(group <= set(features) for group in self.shapes)


#: Calls of one turn that share an index merge in every accumulator keyed by index alone: providers
#: that put every call at index 0 (Mistral, Ollama) or reuse an index for a new call.
INDEX_MERGE = (
    frozenset({"several-calls", "index-0-for-every-call"}),
    frozenset({"several-calls", "index-reused"}),
)
#: Continuation fragments whose id is the string "null" (Mistral's MI-6b, quirk null-ids): an
#: accumulator that takes any non-None id as the call's id renames the call "null".
NULL_ID = (frozenset({"continuation-id-null-string"}),)
_NULL_ID_REF = "toolwire MI-6b; langchain-ai/langchainjs#11373 (the same hazard)"
#: Call indexes that skip a number (quirk block-index: gateways that number calls by Claude's content
#: blocks): an accumulator that pads its list up to the index keeps the skipped slots as empty calls.
INDEX_GAP = (frozenset({"index-gap"}),)
_INDEX_GAP_REF = "(no upstream issue found; Agno's fix of agno-shared-slots and Langfuse 4.9.1 pad the list)"


@dataclass(frozen=True)
class Row:
    name: str
    project: str
    function: str
    buggy: str
    fixed: str
    reference: tuple[str, ...]
    source: str
    protocols: tuple[str, str]
    adapter: str
    bug: tuple[Bug, ...]
    how: str
    # What pip (npm for a Node row) installs beside the project at both pins (the adapter's needs,
    # contemporary versions).
    extra: tuple[str, ...] = ()
    # Other real bugs of the project with findings of the row's kind (the table names them apart).
    others: tuple[Known, ...] = ()
    # "python": the project is a PyPI package, the adapter a Python callable (module.py:function) that
    # toolwire imports; "node": an npm package, the adapter a Node script run as a command target.
    runtime: str = "python"

    def requirements(self, pin: str) -> list[str]:
        """What the package manager installs: pip's specifiers, or npm's (``name@version``)."""
        if self.runtime == "node":
            return [f"{self.source}@{pin}", *self.extra]
        return [f"{self.source}=={pin}", *self.extra]

    def target(self, env: Path | None = None) -> str:
        """The toolwire target: the adapter's ``file.py:function``, or for a Node adapter the command
        line ``node ADAPTER ENV``, which loads the packages of the pin's folder ``env``."""
        if self.runtime == "node":
            if env is None:
                raise ValueError(f"{self.name}: a Node adapter needs the pin's folder")
            return shlex.join(["node", str(ADAPTERS / self.adapter), str(env)])
        return f"{ADAPTERS / self.adapter}"

    def is_bug(self, finding: str, message: str) -> bool:
        return any(b.matches(finding, message) for b in self.bug)

    def known(self, features: list[str]) -> str | None:
        return next((k.name for k in self.others if k.matches(features)), None)


@dataclass(frozen=True)
class Project:
    """What the rows of one project share: its name, its PyPI (or npm) name, its adapter, the protocol
    pair it is fuzzed on, its known other bugs and its runtime."""

    project: str
    source: str
    adapter: str
    protocols: tuple[str, str] = ("openai-chat-stream", "openai-chat-response")
    others: tuple[Known, ...] = ()
    runtime: str = "python"

    def row(
        self,
        name: str,
        function: str,
        pins: tuple[str, str],
        reference: tuple[str, ...],
        bug: tuple[Bug, ...],
        how: str,
        extra: tuple[str, ...],
    ) -> Row:
        """The row of one bug: its ``(buggy, fixed)`` pins and what pip (or npm) installs beside them."""
        buggy, fixed = pins
        return Row(
            name, self.project, function, buggy, fixed, reference, self.source, self.protocols,
            self.adapter, bug, how, extra, self.others, self.runtime,
        )  # fmt: skip


def _by_index(merge: str, padded: bool = False) -> tuple[Known, ...]:
    """The known other bugs of an accumulator of calls keyed by index (``merge``: the index merge's
    upstream reference; ``padded``: it pads its list of calls up to each index)."""
    known = (Known("null-id", NULL_ID, _NULL_ID_REF), Known("index-merge", INDEX_MERGE, merge))
    return (*known, Known("index-gap", INDEX_GAP, _INDEX_GAP_REF)) if padded else known


_HAYSTACK: Final = Project(
    "Haystack (haystack-ai)",
    "haystack-ai",
    "haystack_openai.py:convert",
    others=_by_index("https://github.com/deepset-ai/haystack/issues/9576"),
)
_LANGFUSE: Final = Project(
    "Langfuse Python SDK (langfuse)",
    "langfuse",
    "langfuse_openai.py:convert",
    others=_by_index("(no upstream issue found)", padded=True),
)
_AGNO: Final = Project(
    "Agno (agno)",
    "agno",
    "agno_openai.py:convert",
    others=_by_index("https://github.com/agno-agi/agno/issues/8879", padded=True),
)
_AISUITE: Final = Project(
    "aisuite (andrewyng/aisuite)",
    "aisuite",
    "aisuite_anthropic.py:convert",
    ("anthropic-message-response", "openai-chat-response"),
)
_LLM: Final = Project(
    "LLM (llm, Simon Willison's CLI)",
    "llm",
    "llm_openai.py:convert",
    others=(Known("index-merge", INDEX_MERGE, "(no upstream issue found)"),),
)
_OPENROUTER: Final = Project(
    "OpenRouter AI SDK provider (@openrouter/ai-sdk-provider)",
    "@openrouter/ai-sdk-provider",
    "openrouter_aisdk.mjs",
    ("openai-chat-stream", "aisdk-stream"),
    others=(Known("index-merge", INDEX_MERGE, "(no upstream issue found)"),),
    runtime="node",
)
_POSTHOG_OPENAI: Final = Project(
    "PostHog LLM analytics (@posthog/ai), openai wrapper",
    "@posthog/ai",
    "posthog_openai.mjs",
    # 6.1.2 keys streamed calls by index and takes any truthy id of a later fragment as the call's.
    others=_by_index("(no upstream issue found)"),
    runtime="node",
)
_POSTHOG_ANTHROPIC: Final = Project(
    "PostHog LLM analytics (@posthog/ai), anthropic wrapper",
    "@posthog/ai",
    "posthog_anthropic.mjs",
    ("anthropic-stream", "openai-chat-response"),
    runtime="node",
)
#: What npm installs beside @posthog/ai at both pins: its peer posthog-node and the openai SDK of the
#: time (its own dependency range, ^5, pinned so both pins run the same one). The anthropic SDK is
#: its own dependency (^0.36.3), which npm resolves alike for both pins.
_POSTHOG_EXTRA: Final = ("posthog-node@5.7.0", "openai@5.12.2")
_LOGFIRE: Final = Project(
    "Pydantic Logfire (logfire)",
    "logfire",
    "logfire_openai.py:convert",
    others=(Known("index-merge", INDEX_MERGE, "(the openai SDK's ChatCompletionStreamState, 2.2.0 on)"),),
)
_OPIK: Final = Project(
    "Opik (opik, Comet)",
    "opik",
    "opik_openai.py:convert",
    others=(
        Known("index-merge", INDEX_MERGE, "https://github.com/comet-ml/opik/issues/8362 (its Mistral twin)"),
    ),
)
#: Continuation fragments that repeat the call's id (quirk repeated-ids): an accumulator that appends
#: every fragment's id to the call's (AutoGen's ``id += ...``) doubles it.
REPEATED_ID = (frozenset({"continuation-repeats-id"}),)
_AUTOGEN: Final = Project(
    "AutoGen (autogen-ext, Microsoft)",
    "autogen-ext",
    "autogen_openai.py:convert",
    others=(
        Known("index-merge", INDEX_MERGE, "(no upstream issue found; every release keys calls by index)"),
        Known("repeated-id", REPEATED_ID, "(no upstream issue found; every release appends ids)"),
        Known("null-id", NULL_ID, _NULL_ID_REF),
    ),
)
_TRACELOOP: Final = Project(
    "Traceloop OpenLLMetry (opentelemetry-instrumentation-openai)",
    "opentelemetry-instrumentation-openai",
    "traceloop_openai.py:convert",
    # 0.24.0 on key calls by index and take any fragment's non-empty id as the call's: calls sharing an
    # index merge, and continuation ids "null" rename the call (two calls both become "null").
    others=_by_index("(no upstream issue found)"),
)
#: autogen-ext[openai]'s own needs, one set for every AutoGen pin (the rows share 0.4.5's environment):
#: openai 1.61.1 and tiktoken 0.8.0 were current in February 2025 (0.4.5 to 0.4.8 came out Feb-Mar).
_AUTOGEN_EXTRA: Final = ("openai==1.61.1", "tiktoken==0.8.0", "aiofiles")
#: The streamed tool-call accumulation of LLM's OpenAI plugin, which both of its rows exercise.
_LLM_FUNCTION: Final = (
    "llm.default_plugins.openai_models.Chat.execute(stream=True): streamed tool-call "
    "accumulation into Response.tool_calls()"
)

ROWS: tuple[Row, ...] = (
    _HAYSTACK.row(
        "haystack-stream",
        "OpenAIChatGenerator.run(streaming_callback=...) -> "
        "_convert_streaming_chunks_to_chat_message, then ChatMessage.to_openai_dict_format()",
        ("2.10.2", "2.10.3"),
        (
            "https://github.com/deepset-ai/haystack/issues/8876",
            "https://github.com/deepset-ai/haystack/pull/8879",
        ),
        # 2.10.0-2.10.2 key streamed calls by delta.id (None on every later fragment) and replace the
        # arguments with each fragment instead of appending: split arguments are lost or cut, and
        # the call is skipped when its last fragment alone is not JSON.
        (Bug("one-to-one:lost", cause=()), Bug("arguments", cause=()), Bug("identity", cause=())),
        "a call whose arguments come in two or more fragments: its id-less continuation "
        "fragments land under the key None and each replaces the arguments; the call is dropped "
        "(a warning: 'malformed JSON') or keeps only its last fragment",
        ("openai==1.63.2",),
    ),
    _HAYSTACK.row(
        "haystack-empty-choices",
        "OpenAIChatGenerator._handle_stream_response (chunk -> StreamingChunk -> ChatMessage), "
        "then ChatMessage.to_openai_dict_format()",
        ("2.11.1", "2.11.2"),
        (
            "https://github.com/deepset-ai/haystack/issues/8780",
            "https://github.com/deepset-ai/haystack/issues/8942",
        ),
        # Up to 2.11.1 every chunk must carry exactly one choice unless it carries usage: a chunk with
        # no choices (Azure's content-filter chunk, a usage chunk without usage) fails an assert and
        # the reply with its calls is lost; the finish reason is read from the last chunk (or the
        # one before it when the last has usage) only.
        (Bug("raises", r"only one choice"),),
        "a chunk with an empty choices list: AssertionError 'Streaming responses should have "
        "only one choice.' and the calls streamed so far are lost",
        ("openai==1.66.3",),
    ),
    _LANGFUSE.row(
        "langfuse-stream",
        "langfuse.openai._extract_streamed_openai_response (the traced output of a streamed chat completion)",
        ("4.9.0", "4.9.1"),
        (
            "https://github.com/langfuse/langfuse-python/pull/1715",
            "https://github.com/langfuse/langfuse/issues/12490",
        ),
        # Before 4.9.1: text content before the calls wins and the calls are dropped; a call keeps no
        # id or type; only the first tool-call delta of a chunk is read; a later fragment that repeats
        # the name starts a new call.
        (
            Bug("one-to-one", cause=()),
            Bug("identity", cause=()),
            Bug("arguments", cause=()),
            Bug("names", cause=()),
            Bug("validity:CC-9a", cause=()),
        ),
        "every streamed call comes out without its id (and without 'type'); calls after text "
        "content, second calls of a chunk and fragments repeating the name are lost or split",
        ("openai==2.8.1",),
    ),
    _AGNO.row(
        "agno-shared-slots",
        "OpenAIChat.parse_tool_calls (via _parse_provider_response_delta, "
        "Model._populate_stream_data and _populate_assistant_message_from_stream_data), then "
        "OpenAIChat._format_message",
        ("2.5.9", "2.5.10"),
        (
            "https://github.com/agno-agi/agno/issues/6542",
            "https://github.com/agno-agi/agno/pull/6579",
        ),
        # tool_calls.extend([{}] * n): when a fragment's index is past the end of the list by more
        # than one (a first fragment at index 1, a call whose index is skipped), the new slots are one
        # dict, so the calls in them are one call written twice. (Their names concatenate too, but a
        # doubled name is agno-name-resend's bug, still in 2.5.10: names findings are not this row's.)
        # results-after.md: caught only under quirk block-index (the first call at index 1).
        (
            Bug("one-to-one", cause=("block-index",)),
            Bug("identity", cause=("block-index",)),
            Bug("arguments", cause=("block-index",)),
        ),
        "a fragment whose index skips ahead (the first call seen at index 1, or two calls' first "
        "fragments out of index order): the slots it opens share one dict and the calls merge",
        ("openai==2.8.1",),
    ),
    _AGNO.row(
        "agno-name-resend",
        "OpenAIChat.parse_tool_calls (as in agno-shared-slots)",
        ("2.5.10", "2.5.11"),
        ("https://github.com/agno-agi/agno/pull/6989",),
        # The name of a later fragment is appended to the call's name: a provider that repeats the
        # name on every fragment (MiniMax via NVIDIA NIM, some vLLM parsers) yields 'get_weatherget_weather'.
        (Bug("names"),),
        "later fragments that repeat the function name: the name is doubled "
        "('get_weatherget_weather') and the call names no tool",
        ("openai==2.8.1",),
    ),
    _AISUITE.row(
        "aisuite-anthropic",
        "AnthropicMessageConverter.convert_response (the anthropic provider of "
        "client.chat.completions.create)",
        ("0.1.13", "0.1.14"),
        ("https://github.com/andrewyng/aisuite/pull/252",),
        # Up to 0.1.13 the calls are read only when stop_reason is "tool_use", and otherwise the text is
        # content[0].text: a response whose first block is a tool_use (or thinking) block and whose
        # stop_reason is another (max_tokens, pause_turn, end_turn) raises; one with text first loses
        # its calls. Both releases read only the first tool_use block (parallel calls are lost: an
        # unfixed bug, reported apart, not the row's).
        (Bug("raises", r"has no attribute 'text'|list index out of range"),),
        "a response with tool_use blocks whose stop_reason is not 'tool_use', or whose first "
        "block is not text: AttributeError on content[0].text, or the calls silently dropped",
        # aisuite's metadata says anthropic < 0.31, but its converter reads usage.cache_read_input_tokens,
        # which came later: 0.67.0 (the newest on httpx that aisuite 0.1.13 resolves) at both pins.
        ("anthropic==0.67.0",),
    ),
    _LLM.row(
        "llm-empty-args",
        _LLM_FUNCTION,
        ("0.31", "0.31.1"),
        ("https://github.com/simonw/llm/issues/1521",),
        # json.loads("") on a no-argument call streamed with "arguments": "" or without arguments.
        (Bug("raises", r"Expecting value"),),
        "a no-argument call streamed with arguments '' (or none): json.loads('') raises "
        "'Expecting value: line 1 column 1 (char 0)' and the whole response fails",
        # llm 0.31 takes any openai; 3.x moved to httpx2 and breaks its import (llm 0.32.1 pins < 3).
        ("openai>=2,<3",),
    ),
    _LLM.row(
        "llm-first-fragment",
        _LLM_FUNCTION,
        ("0.26", "0.27"),
        (
            "https://github.com/simonw/llm/pull/1218",
            "https://github.com/simonw/llm/pull/1164",
        ),
        # 0.26 stores a call's first fragment and then appends that same fragment's arguments to it:
        # a first fragment that carries arguments is doubled ('{"a"{"a"...'), json.loads then fails
        # with 'Extra data' or an unterminated string; arguments None raise a TypeError.
        (
            Bug(
                "raises",
                r"Extra data|Unterminated|Expecting (?!value: line 1 column 1 \(char 0\))"
                r"|unsupported operand|NoneType",
            ),
            Bug("arguments"),
        ),
        "a call whose first fragment carries arguments (a whole call in one chunk, as Mistral "
        "and Gemini's OpenAI endpoint send them): the first fragment's arguments are doubled and "
        "json.loads raises",
        ("openai==1.82.0",),
    ),
    _OPENROUTER.row(
        "openrouter-resend",
        "OpenRouterChatLanguageModel.doStream (the chat model of createOpenRouter, as streamText "
        "calls it): Chat Completions chunks -> provider stream parts",
        ("2.8.1", "2.9.0"),
        (
            "https://github.com/OpenRouterTeam/ai-sdk-provider/pull/489",
            "https://github.com/anomalyco/opencode/pull/30800",
        ),
        # 2.8.1's merge path emits tool-input-end and tool-call whenever the arguments gathered so
        # far parse as JSON, and never asks whether the call was sent: any fragment after the call's
        # arguments are complete (a trailing space or newline, an empty "arguments": "", a fragment
        # after a whole call in one chunk) sends the call again, with the same id. toolwire's pieces
        # are never empty and its arguments end at their closing brace (upstream's trigger, a
        # trailing whitespace fragment, is no quirk of its), so the strict wire cannot show it: a
        # second call at the same index whose first fragment opens with "arguments": "" can
        # (index-0, index-reuse), the call before it sent whole.
        tuple(
            Bug(finding, cause=cause)
            for finding in ("validity:VS-1", "one-to-one:duplicated")
            for cause in (("index-0",), ("index-reuse",))
        ),
        "a fragment that comes after the call's arguments are complete JSON (' ', '', a "
        "continuation of a call sent whole, a second call's empty opening fragment at the same "
        "index): a second tool-input-end and tool-call with the same id, which streamText runs as "
        "a second call",
        # Its peer (ai ^6.0.0) at the release its own tests ran against.
        ("ai@6.0.162",),
    ),
    _POSTHOG_OPENAI.row(
        "posthog-openai-stream",
        "@posthog/ai OpenAI wrapper, chat.completions.create(stream=true): the streamed chunks "
        "accumulated into the $ai_generation event's $ai_output_choices",
        ("6.1.1", "6.1.2"),
        (
            "https://github.com/PostHog/posthog-js/pull/2230",
            "https://github.com/PostHog/posthog-js/blob/main/packages/ai/CHANGELOG.md",
        ),
        # Before 6.1.2 the wrapper reads only delta.content: every streamed call is missing from
        # the traced output, on the strict wire.
        (Bug("one-to-one:lost", cause=()),),
        "every streamed tool call is missing from the traced output (only the text is kept)",
        _POSTHOG_EXTRA,
    ),
    _POSTHOG_ANTHROPIC.row(
        "posthog-anthropic-stream",
        "@posthog/ai Anthropic wrapper, messages.create(stream=true): the streamed events "
        "accumulated into the $ai_generation event's $ai_output_choices",
        ("6.1.1", "6.1.2"),
        (
            "https://github.com/PostHog/posthog-js/pull/2230",
            "https://github.com/PostHog/posthog-js/blob/main/packages/ai/CHANGELOG.md",
        ),
        # Before 6.1.2 the wrapper reads only text_delta events: every tool_use block is missing
        # from the traced output, on the strict wire.
        (Bug("one-to-one:lost", cause=()),),
        "every tool_use block of the stream is missing from the traced output (only the text is kept)",
        _POSTHOG_EXTRA,
    ),
    _LOGFIRE.row(
        "logfire-stream",
        "logfire.instrument_openai(): the streamed chat completion's response_data "
        "(llm_provider.record_streaming, openai.get_endpoint_config)",
        ("2.1.2", "2.2.0"),
        (
            "https://github.com/pydantic/logfire/issues/542",
            "https://github.com/pydantic/logfire/pull/545",
        ),
        # Up to 2.1.2 a stream is recorded as its text alone (combined_chunk_content): every streamed
        # call is missing from the reply Logfire shows. 2.2.0 adds the chunks up with the openai SDK's
        # ChatCompletionStreamState, keyed by index (so calls sharing an index merge: index-merge).
        (Bug("one-to-one", cause=()),),
        "every streamed tool call is missing from the recorded response: response_data is "
        "{'combined_chunk_content': text, 'chunk_count': n}, the calls' fragments are not read",
        # 2.2.0 needs openai >= 1.40 (ChatCompletionStreamState); openai 1.54.4 was current then;
        # logfire imports importlib_metadata without requiring it.
        ("openai==1.54.4", "importlib_metadata"),
    ),
    _OPIK.row(
        "opik-stream",
        "opik.integrations.openai.chat_completion_chunks_aggregator.aggregate (the output track_openai "
        "records for a streamed chat completion)",
        ("2.2.74", "2.2.75"),
        ("https://github.com/comet-ml/opik/issues/8360",),
        # Up to 2.2.74 the aggregator reads delta.role, delta.content and finish_reason only: a streamed
        # call is recorded as an empty assistant message that still says finish_reason 'tool_calls'.
        # 2.2.75 merges the fragments by index (calls sharing an index merge: index-merge).
        (Bug("one-to-one", cause=()),),
        "every streamed tool call is dropped from the recorded output (no tool_calls at all), "
        "finish_reason still 'tool_calls'",
        ("openai>=2.50,<3",),
    ),
    _AUTOGEN.row(
        "autogen-text-first",
        "OpenAIChatCompletionClient.create_stream (the CreateResult it yields last), then "
        "to_oai_type(AssistantMessage(...))",
        ("0.4.5", "0.4.8"),
        (
            "https://github.com/microsoft/autogen/issues/5192",
            "https://github.com/microsoft/autogen/pull/5500",
        ),
        # Up to 0.4.7, create_stream returns the text when two or more content deltas came, and the
        # calls only otherwise: text streamed before the calls (as Claude and many open models send
        # it) drops every call. 0.4.8 returns the calls and puts the text in `thought` (#5500, for
        # #5192). The buggy pin is 0.4.5, not 0.4.7: up to 0.4.5 a delta whose content is "" counts
        # too, so the role chunk ("content": "") and one text delta are enough; 0.4.6 and 0.4.7 need
        # two non-empty text deltas, which toolwire's chat stream never sends (results-before-2.md).
        # Every release keys calls by index alone, so calls sharing an index (quirk index-0) merge
        # with the same symptom, one-to-one:lost, there caused by the quirk: not the row's bug.
        (Bug("one-to-one", cause=()),),
        "text before the calls, in two or more content deltas (up to 0.4.5, the role chunk's "
        "'content': '' counts as one): CreateResult.content is the text and every call is lost "
        "(finish_reason still 'tool_calls')",
        _AUTOGEN_EXTRA,
    ),
    _AUTOGEN.row(
        "autogen-empty-choices",
        "OpenAIChatCompletionClient.create_stream (as in autogen-text-first)",
        ("0.4.5", "0.4.6"),
        (
            "https://github.com/microsoft/autogen/issues/4213",
            "https://github.com/microsoft/autogen/pull/4311",
            "https://github.com/microsoft/autogen/issues/5331",
        ),
        # Up to 0.4.5 a chunk with no choices (Azure's content-filter chunk, the usage chunk of
        # stream_options.include_usage) raises unless the caller raised max_consecutive_empty_chunk_
        # tolerance above its default, 0: the reply and its calls are lost. 0.4.6 skips such chunks.
        (Bug("raises", r"[Cc]onsecutive empty chunks|empty chunk"),),
        "a chunk with an empty choices list: ValueError 'Consecutive empty chunks found. Change "
        "max_empty_consecutive_chunk_tolerance ...' and the calls streamed so far are lost",
        _AUTOGEN_EXTRA,
    ),
    _TRACELOOP.row(
        "traceloop-stream",
        "OpenAIInstrumentor: ChatStream._accumulate_stream_items, then _set_completions "
        "(the span's gen_ai.completion.0.* attributes)",
        ("0.23.0", "0.24.0"),
        ("https://github.com/traceloop/openllmetry/issues/1283",),
        # Up to 0.23.0 the streamed completion is accumulated from content and role alone: a streamed
        # call never reaches gen_ai.completion.0.tool_calls.* (non-streamed calls do). 0.24.0 adds the
        # fragments up in a list indexed by the fragment's index (calls sharing an index merge).
        (Bug("one-to-one", cause=()),),
        "every streamed tool call is missing from the span's completion attributes (no "
        "gen_ai.completion.0.tool_calls.*), finish_reason still 'tool_calls'",
        # openai 1.35.3 and opentelemetry-sdk 1.25.0 were current in June 2024 (0.46b0 instrumentation).
        ("openai==1.35.3", "opentelemetry-sdk==1.25.0"),
    ),
)


def row(name: str) -> Row:
    for r in ROWS:
        if r.name == name:
            return r
    raise KeyError(f"no row {name!r}; rows: {', '.join(r.name for r in ROWS)}")
