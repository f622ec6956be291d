"""Google Gemini with Google ADK ids: request contents (GM-1 to GM-5b, GM-7, ADK-1, ADK-2) and stream chunks.

The family's places: ``models/_gemini.py`` (the wire), ``machines/_gemini.py``
(the lifecycle) and this package: ``rules``, ``monitors``, ``calls`` (readers,
mutation sites, the id probe), ``generate`` (Hypothesis), ``space`` (explore) and ``shapes``
(shape features).
"""

from typing import Final

from toolwire.machines import GeminiContents, ResponseBody
from toolwire.properties._protocol import Family, Protocol, Quirk, load
from toolwire.protocols.gemini import calls
from toolwire.protocols.gemini.body import ResponseMonitor
from toolwire.protocols.gemini.monitors import ContentsMonitor, StreamMonitor
from toolwire.protocols.gemini.rules import CONTENTS, RESPONSE, RULES, STREAM
from toolwire.protocols.gemini.shapes import CONTENTS_SHAPES, RESPONSE_SHAPES, STREAM_SHAPES

__all__ = ["FAMILY", "ContentsMonitor", "ResponseMonitor", "StreamMonitor"]

FAMILY: Final = Family(
    "gemini",
    catalogue=5,
    protocols=(
        Protocol(
            CONTENTS,
            "Google Gemini request contents, with Google ADK ids (GM-1 to GM-5b, GM-7, ADK-1, ADK-2)",
            "conversation",
            ContentsMonitor,
            repair=load(f"{__name__}.repair", "ADAPTER"),
            endpoints=(r":(stream)?[gG]enerateContent$",),
            container="contents",
            follows=(STREAM, RESPONSE),
            probe=calls.probe,
            results=calls.results,
            intact=calls.intact,
            recognises=calls.recognises_content,
            sites=calls.CONTENTS_SITES,
            breaks={"drop-id": "GM-1", "duplicate": "GM-7", "reorder": "GM-3", "swap-ids": "GM-1"},
            generator=load(f"{__name__}.generate", "CONTENTS"),
            space=load(f"{__name__}.space", "GeminiSpace"),
            shapes=CONTENTS_SHAPES,
        ),
        Protocol(
            STREAM,
            "Google Gemini streamGenerateContent chunks (GM-7)",
            "stream",
            StreamMonitor,
            endpoints=(r":streamGenerateContent$",),
            recognises=calls.recognises_chunk,
            sites=calls.STREAM_SITES,
            generator=load(f"{__name__}.generate", "STREAM"),
            shapes=STREAM_SHAPES,
        ),
        Protocol(
            RESPONSE,
            "Gemini response body: a GenerateContentResponse, one JSON document (GM-9)",
            "stream",
            ResponseMonitor,
            probe=calls.response_probe,
            recognises=calls.recognises_response,
            sites=calls.RESPONSE_SITES,
            generator=load(f"{__name__}.generate", "RESPONSE"),
            space=load(f"{__name__}.space", "GeminiResponseSpace"),
            shapes=RESPONSE_SHAPES,
            endpoints=(r":generateContent$",),
            document=True,
        ),
    ),
    rules=RULES,
    machines=(GeminiContents, ResponseBody),
    quirks=(
        Quirk(
            "missing-ids",
            "function calls and responses carry no id; they pair by order and name",
            (STREAM, CONTENTS, RESPONSE),
            "docs/protocol-rules.md GM-1; the Gemini API omits FunctionCall.id; sent by: Gemini "
            "(shared/traffic: 11 gemini-stream and 26 gemini-response recordings without an id, e.g. "
            "charmbracelet__fantasy TestGoogleCommon.gemini-2.5-flash.multi_tool_streaming.i1.sse) and "
            "Vertex AI (4 streams and 6 responses, e.g. charmbracelet__fantasy "
            "TestGoogleCommon.vertex-gemini-2-5-flash.multi_tool_streaming.i1.sse)",
            features=("call-without-id",),
            providers=("gemini", "vertex"),
        ),
        Quirk(
            "snake-case",
            "parts spelled function_call / function_response, as a Python SDK dumps them",
            (CONTENTS,),
            "tests/data/traffic simonw__llm-gemini gemini-contents test_tools*.i2.req.json "
            "(gemini-2.5-flash, gemini-3-flash-preview); the API reads both spellings; accepted by: Gemini, "
            "those 4 recorded requests (HTTP 200)",
            features=("snake-case-parts",),
            providers=("gemini",),
        ),
        Quirk(
            "split-responses",
            "each functionResponse of a call turn comes in a user content of its own (a GM-5b warning)",
            (CONTENTS,),
            "tests/data/traffic crewAIInc__crewAI gemini-contents TestGeminiNativeToolCalling."
            "test_gemini_parallel_native_tool_*.i2.req.json (gemini-2.5-flash, HTTP 200); "
            "docs/protocol-rules.md GM-5b: the Gemini API merges them, Vertex AI rejects them; accepted by: "
            "Gemini, those 2 recorded requests",
            features=("responses-split-over-contents",),
            providers=("gemini",),
        ),
        Quirk(
            "streamed-arguments",
            "Gemini 3 streams each call's arguments in partialArgs pieces (streamFunctionCallArguments)",
            (STREAM,),
            "google-genai 3.4.0 FunctionCall.partial_args, will_continue; "
            "FunctionCallingConfig.stream_function_call_arguments; vercel/ai#13929 (Vertex AI); sent by: "
            "Vertex AI (vercel/ai#13929; vercel/ai#11126: only the Vertex API streams arguments)",
            # Gemini 2.x neither ids its calls nor streams their arguments.
            excludes=("missing-ids",),
            features=("partial-arguments",),
            providers=("vertex",),
        ),
    ),
    id_shapes=calls.ID_SHAPES,
)
