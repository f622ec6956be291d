"""The rows of the real-converter benchmark: real converters pinned at a buggy and a fixed release.

Each row names one project's converter, the release that has a public tool-call bug and the
release that fixed it, the upstream reference, the protocol pair toolwire fuzzes it on, and which
findings are the row's bug. ``install.py`` makes one virtual environment per (row, pin) and
``run.py`` runs a campaign in each. A row's project comes from PyPI (``runtime="python"``, a Python
adapter) or from npm (``runtime="node"``, a Node adapter run as a command target in the pin's folder).

The projects are deliberately none of those the outside measure uses (LiteLLM, LangChain and
LangChain.js, LlamaIndex, openai-agents, the openai SDK, the Vercel AI SDK, Google ADK, pydantic-ai,
open-responses-server), so that the two measures stay independent.
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
        (Bug("one-to-one:lost"), Bug("arguments"), Bug("identity")),
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
        (Bug("one-to-one"), Bug("identity"), Bug("arguments"), Bug("names"), Bug("validity:CC-9a")),
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
        (Bug("one-to-one"), Bug("identity"), Bug("arguments")),
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
)


def row(name: str) -> Row:
    for r in ROWS:
        if r.name == name:
            return r
    raise KeyError(f"no row {name!r}; rows: {', '.join(r.name for r in ROWS)}")
