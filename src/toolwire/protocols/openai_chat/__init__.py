"""OpenAI Chat Completions: request messages (CC-1 to CC-5), stream chunks (CC-6), response bodies (CC-9).

The family's places: ``models/_openai_chat.py`` (the wire), ``machines/_openai_chat.py``
(the lifecycles) and this package: ``rules``, ``monitors``, ``calls`` (readers,
mutation sites, the id probe), ``generate`` (Hypothesis) and ``space`` (explore).
"""

from typing import Final

from toolwire.machines import ChatConversation, ChatToolCallStream, ResponseBody
from toolwire.properties._protocol import Family, Protocol, Quirk, load
from toolwire.protocols.openai_chat import calls
from toolwire.protocols.openai_chat.body import ResponseMonitor
from toolwire.protocols.openai_chat.monitors import ConversationMonitor, StreamMonitor
from toolwire.protocols.openai_chat.rules import CHAT, CHAT_RESPONSE, CHAT_STREAM, RULES
from toolwire.protocols.openai_chat.shapes import MESSAGE_SHAPES, RESPONSE_SHAPES, STREAM_SHAPES

__all__ = ["FAMILY", "ConversationMonitor", "ResponseMonitor", "StreamMonitor"]

_CC6: Final = "docs/protocol-rules.md CC-6, deviations seen in practice"
#: Gateways that number Chat tool calls by Claude's content-block index (no rule breaks it: CC-6c
#: asks only for distinct indexes; the openai SDK's stream helper fails on it, IndexError).
_BLOCK_INDEX: Final = (
    "agno-agi/agno#6579 (Claude via LiteLLM); aws-samples/bedrock-access-gateway#134 (index 1 after a "
    "reasoning block); NVIDIA-NeMo/Switchyard#712 (NVIDIA Inference Hub, text before the call); "
    "router-for-me/CLIProxyAPI#5229 (Claude upstream: calls at 1, 2, 3); sent by: LiteLLM "
    "(agno-agi/agno#6579; BerriAI/litellm#5025: Claude on Bedrock, the only call at index 1), "
    "Bedrock Access Gateway (aws-samples/bedrock-access-gateway#134), NVIDIA Inference Hub "
    "(NVIDIA-NeMo/Switchyard#712, "
    "azure/anthropic/claude-opus-5), CLIProxyAPI (router-for-me/CLIProxyAPI#5229)"
)

FAMILY: Final = Family(
    "openai-chat",
    providers=load(f"{__name__}.providers", "PROVIDERS"),
    catalogue=1,
    protocols=(
        Protocol(
            CHAT,
            "OpenAI Chat Completions request: the messages list (CC-1 to CC-5)",
            "conversation",
            ConversationMonitor,
            repair=load(f"{__name__}.repair", "ADAPTER"),
            call_types=("completion", "acompletion"),
            endpoints=(r"/chat/completions/?$",),
            container="messages",
            follows=(CHAT_STREAM, CHAT_RESPONSE),
            probe=calls.probe,
            results=calls.results,
            intact=calls.intact,
            recognises=calls.recognises,
            sites=calls.MESSAGE_SITES,
            breaks={
                "drop-id": "CC-3",
                "duplicate": "CC-4",
                "reorder": "CC-2",
                "swap-ids": "CC-3",
                "truncate": "CC-4",
            },
            generator=load(f"{__name__}.generate", "CONVERSATION"),
            space=load(f"{__name__}.space", "ChatSpace"),
            shapes=MESSAGE_SHAPES,
        ),
        Protocol(
            CHAT_STREAM,
            "OpenAI Chat Completions stream: chat.completion.chunk deltas (CC-6)",
            "stream",
            StreamMonitor,
            endpoints=(r"/chat/completions/?$",),
            recognises=calls.recognises_chunk,
            sites=calls.STREAM_SITES,
            breaks={"drop-id": "CC-6a", "reorder": "CC-6d", "truncate": "CC-6d"},
            generator=load(f"{__name__}.generate", "STREAM"),
            space=load(f"{__name__}.space", "ChatStreamSpace"),
            shapes=STREAM_SHAPES,
        ),
        Protocol(
            CHAT_RESPONSE,
            "OpenAI Chat Completions response body: a chat.completion, one JSON document (CC-9)",
            "stream",
            ResponseMonitor,
            probe=calls.response_probe,
            recognises=calls.recognises_completion,
            sites=calls.RESPONSE_SITES,
            breaks={"drop-id": "CC-9a"},
            generator=load(f"{__name__}.generate", "RESPONSE"),
            space=load(f"{__name__}.space", "ChatResponseSpace"),
            shapes=RESPONSE_SHAPES,
            endpoints=(r"/chat/completions/?$",),
            document=True,
        ),
    ),
    rules=RULES,
    machines=(ChatToolCallStream, ChatConversation, ResponseBody),
    quirks=(
        Quirk(
            "repeated-ids",
            "the call id is repeated on every fragment, not only the first",
            (CHAT_STREAM,),
            "docs/protocol-rules.md CC-6(b); OpenAI sends the id on the first fragment only; sent by: "
            "OpenRouter and Novita AI (kimi-k2, its chunks naming Novita as OpenRouter's upstream): "
            "shared/traffic simonw__llm openai-chat-stream test_tools_streaming_variant_a.i1.sse",
            excludes=("null-ids",),
            features=("continuation-repeats-id",),
            providers=("openrouter", "novita"),
        ),
        Quirk(
            "null-ids",
            'continuation fragments carry the string "null" as id',
            (CHAT_STREAM,),
            f"{_CC6}; langchain-ai/langchainjs#11373; sent by: Mistral (zai-glm-5-2 relayed by Mistral: "
            "langchain-ai/langchainjs#11373, langchain-ai/langchainjs#11505; devstral-medium-latest: "
            "zed-industries/zed#53605)",
            ("CC-6b",),
            excludes=("repeated-ids",),
            features=("continuation-id-null-string",),
            providers=("mistral",),
        ),
        Quirk(
            "index-0",
            "every call arrives at index 0, one after the other (Mistral, Ollama via LiteLLM)",
            (CHAT_STREAM,),
            f"{_CC6}; comet-ml/opik#8362, huggingface/smolagents#1958, ai-dynamo/dynamo#4723; sent by: "
            "Mistral (comet-ml/opik#8362), Ollama's /v1 endpoint (ollama/ollama#15457, vercel/ai#14277), "
            "LiteLLM relaying Ollama (huggingface/smolagents#1958; google-deepmind/amplio#3: LiteLLM 1.99.0 "
            "ollama_chat), NVIDIA Dynamo (ai-dynamo/dynamo#4723, fixed there), Plexus translating a "
            "Responses upstream (mcowger/plexus#691)",
            ("CC-6c",),
            excludes=("index-reuse", "block-index"),
            sequential=True,
            features=("index-0-for-every-call",),
            providers=("mistral", "ollama", "litellm", "dynamo", "plexus"),
        ),
        Quirk(
            "index-reuse",
            "a new call reuses the index of the call before it, with a new id",
            (CHAT_STREAM,),
            f"{_CC6}; mcowger/plexus#691; sent by: Plexus (mcowger/plexus#691, fixed by mcowger/plexus#694), "
            "Ollama (vercel/ai#14277: a second call at index 0 with its own id, ollama/ollama#15457), "
            "LiteLLM (google-deepmind/amplio#3: two ids at index 0 from ollama_chat)",
            ("CC-6c",),
            excludes=("index-0", "block-index"),
            sequential=True,
            features=("index-reused",),
            providers=("plexus", "ollama", "litellm"),
        ),
        Quirk(
            "block-index",
            "call indexes count the message's content blocks, not its calls: after the text or thinking "
            "block a gateway translating Claude's stream numbers 0, the first call arrives at index 1",
            (CHAT_STREAM,),
            _BLOCK_INDEX,
            excludes=("index-0", "index-reuse"),
            sequential=True,
            features=("index-gap",),
            providers=("litellm", "bedrock-access-gateway", "nvidia", "cliproxyapi"),
        ),
        Quirk(
            "omitted-finish-reason",
            "no chunk carries finish_reason: the stream just ends (kimi-k2 via OpenRouter and Novita)",
            (CHAT_STREAM,),
            f"{_CC6}; tests/data/traffic simonw__llm test_tools_streaming_variant_a.i1.sse, which ends "
            "with [DONE] (a warning); a list of events has no [DONE], so check reports an error; sent by: "
            "OpenRouter relaying Novita AI (kimi-k2), that recording (shared/traffic simonw__llm)",
            ("CC-6d",),
            features=("no-finish-reason",),
            providers=("openrouter", "novita"),
        ),
        Quirk(
            "forced-tool-choice",
            'a choice that calls tools finishes "stop": tool_choice named the function (CC-9c, a warning)',
            (CHAT_RESPONSE,),
            "shared/traffic crewAIInc__crewAI openai-chat-response (gpt-4o-mini, gpt-4o); sent by: OpenAI, "
            "those 11 recorded responses",
            features=("finish-reason-stop-with-calls",),
            providers=("openai",),
        ),
        Quirk(
            "two-per-chunk",
            "fragments of two calls arrive in one chunk",
            (CHAT_STREAM,),
            "openapi ChatCompletionChunk: delta.tool_calls is an array",
            features=("several-calls-in-one-chunk",),
        ),
    ),
    id_shapes=calls.ID_SHAPES,
    envelope_ids=("chatcmpl-",),
)
